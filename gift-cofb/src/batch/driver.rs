//! The generic multi-lane driver: up to `W::LANES` messages at once, one
//! per 32-bit lane of the state words.

use super::{BatchItem, Direction};
use crate::cofb::{
    Words4, add_mask, double, feedback_xor, last_mask, mask_from, padded, triple, xor4,
};
use crate::gift128::{self, RoundKeys, block_to_words, words_to_block};
use crate::words::Words;

/// Per-lane bookkeeping of the batch driver (lengths are public).
#[derive(Clone, Copy, Default)]
struct Lane {
    /// Number of AD blocks (at least one).
    ad_blocks: usize,
    /// Number of message blocks (zero for an empty message).
    msg_blocks: usize,
    /// The COFB mask `L`.
    l: u64,
}

impl Lane {
    fn steps(&self) -> usize {
        self.ad_blocks + self.msg_blocks
    }
}

/// The scalar part of step `s` for one lane: given the current `Y`, writes
/// this step's output bytes (if any) and returns `block ⊕ L` for the next
/// block-cipher call.
#[inline(always)]
fn lane_input(
    lane: &mut Lane,
    item: &mut BatchItem<'_>,
    s: usize,
    y: &Words4,
    dir: Direction,
) -> Words4 {
    if s < lane.ad_blocks {
        let ad = item.ad;
        let off = 16 * s;
        let block = if s + 1 < lane.ad_blocks {
            lane.l = double(lane.l);
            block_to_words(ad[off..off + 16].try_into().unwrap_or(&[0; 16]))
        } else {
            let rest = &ad[off..];
            let block = match <&[u8; 16]>::try_from(rest) {
                Ok(full) => *full,
                Err(_) => padded(rest),
            };
            lane.l = last_mask(lane.l, rest.len() == 16);
            if lane.msg_blocks == 0 {
                lane.l = triple(triple(lane.l));
            }
            block_to_words(&block)
        };
        return add_mask(&block, lane.l);
    }
    let off = 16 * (s - lane.ad_blocks);
    let chunk = &mut item.buffer[off..];
    if chunk.len() > 16 {
        let chunk: &mut [u8; 16] = (&mut chunk[..16])
            .try_into()
            .unwrap_or_else(|_| unreachable!());
        let input = block_to_words(chunk);
        let output = xor4(&input, y);
        *chunk = words_to_block(&output);
        let m = if dir == Direction::Encrypt {
            input
        } else {
            output
        };
        lane.l = double(lane.l);
        add_mask(&m, lane.l)
    } else {
        let n = chunk.len();
        let keystream = words_to_block(y);
        let mut input = [0u8; 16];
        input[..n].copy_from_slice(chunk);
        let mut output = [0u8; 16];
        for (o, (i, k)) in output.iter_mut().zip(input.iter().zip(&keystream)) {
            *o = i ^ k;
        }
        chunk.copy_from_slice(&output[..n]);
        let m = if dir == Direction::Encrypt {
            &input[..n]
        } else {
            &output[..n]
        };
        let block = match <&[u8; 16]>::try_from(m) {
            Ok(full) => *full,
            Err(_) => padded(m),
        };
        lane.l = last_mask(lane.l, n == 16);
        add_mask(&block_to_words(&block), lane.l)
    }
}

/// Finishes one lane: `y` is its tag.
#[inline(always)]
fn lane_finish(item: &mut BatchItem<'_>, y: &Words4, dir: Direction) {
    let tag = words_to_block(y);
    match dir {
        Direction::Encrypt => {
            item.tag = tag.into();
            item.verified = None;
        }
        Direction::Decrypt => {
            let ok = crate::cofb::tags_equal(&tag, &item.tag.into());
            if !ok {
                item.buffer.fill(0);
            }
            item.verified = Some(ok);
        }
    }
}

/// Word-sliced staging area: `stage[w][lane]` is word `w` of a lane's block.
type Stage = [[u32; 16]; 4];

#[inline(always)]
fn stage_get(stage: &Stage, lane: usize) -> Words4 {
    [
        stage[0][lane],
        stage[1][lane],
        stage[2][lane],
        stage[3][lane],
    ]
}

#[inline(always)]
fn stage_put(stage: &mut Stage, lane: usize, w: &Words4) {
    for (row, x) in stage.iter_mut().zip(w) {
        row[lane] = *x;
    }
}

#[inline(always)]
fn load_state<W: Words>(stage: &Stage) -> [W; 4] {
    [
        W::load(&stage[0]),
        W::load(&stage[1]),
        W::load(&stage[2]),
        W::load(&stage[3]),
    ]
}

#[inline(always)]
fn store_state<W: Words>(s: &[W; 4], stage: &mut Stage) {
    for (x, row) in s.iter().zip(stage.iter_mut()) {
        x.store(row);
    }
}

/// How many steps from `s` on can take the vector fast path: every lane
/// still running is inside its message and not at its last block.
fn fast_run_len(lanes: &[Lane], s: usize) -> usize {
    let mut run = usize::MAX;
    for lane in lanes {
        let total = lane.steps();
        if s > total {
            continue; // finished earlier: its lane computes garbage
        }
        if s < lane.ad_blocks || s + 1 >= total {
            return 0;
        }
        run = run.min(total - 1 - s);
    }
    if run == usize::MAX { 0 } else { run }
}

/// `run` steps of full, non-final message blocks for every running lane,
/// entirely in vector form: load and transpose the blocks, output `Y ⊕ in`,
/// double `L`, and chain. `L` and `Y` stay in registers throughout.
#[inline(always)]
fn fast_steps<W: Words>(
    rk: &RoundKeys,
    items: &mut [BatchItem<'_>],
    lanes: &mut [Lane; 16],
    y: &mut [W; 4],
    s: usize,
    run: usize,
    dir: Direction,
) {
    // The running lanes and the byte offset of their block at step `s`.
    let mut active = [(0usize, 0usize); 16];
    let mut n_active = 0;
    let mut l_hi = [0u32; 16];
    let mut l_lo = [0u32; 16];
    for (i, lane) in lanes.iter().enumerate().take(items.len()) {
        if s < lane.steps() {
            active[n_active] = (i, 16 * (s - lane.ad_blocks));
            n_active += 1;
        }
        l_hi[i] = (lane.l >> 32) as u32;
        l_lo[i] = lane.l as u32;
    }
    let active = &active[..n_active];
    let (mut lh, mut ll) = (W::load(&l_hi), W::load(&l_lo));
    let mut blocks = [[0u8; 16]; 16];
    for step in 0..run {
        for &(i, off) in active {
            let off = off + 16 * step;
            if let Some(src) = items[i].buffer.get(off..off + 16) {
                blocks[i].copy_from_slice(src);
            }
        }
        let input = W::load_blocks(&blocks);
        let output = [
            input[0].xor(y[0]),
            input[1].xor(y[1]),
            input[2].xor(y[2]),
            input[3].xor(y[3]),
        ];
        W::store_blocks(&output, &mut blocks);
        for &(i, off) in active {
            let off = off + 16 * step;
            if let Some(dst) = items[i].buffer.get_mut(off..off + 16) {
                dst.copy_from_slice(&blocks[i]);
            }
        }
        let m = if dir == Direction::Encrypt {
            input
        } else {
            output
        };
        // L = 2·L on the (hi, lo) word pair.
        let carry = lh.sign_mask();
        lh = lh.shl::<1>().or(ll.shr::<31>());
        ll = ll.shl::<1>().xor(carry.and(W::splat(0x1b)));
        let x = [m[0].xor(lh), m[1].xor(ll), m[2], m[3]];
        *y = gift128::encrypt::<W>(rk, feedback_xor(y, &x));
    }
    lh.store(&mut l_hi);
    ll.store(&mut l_lo);
    for (i, lane) in lanes.iter_mut().enumerate().take(items.len()) {
        lane.l = (u64::from(l_hi[i]) << 32) | u64::from(l_lo[i]);
    }
}

/// Runs up to `W::LANES` messages through GIFT-COFB at once.
///
/// Generic and `#[inline(always)]`: each backend's `#[target_feature]` entry
/// point instantiates it with its vector type.
#[inline(always)]
pub(crate) fn run<W: Words>(rk: &RoundKeys, items: &mut [BatchItem<'_>], dir: Direction) {
    debug_assert!(items.len() <= W::LANES && W::LANES <= 16);
    let n = items.len().min(W::LANES);
    let items = &mut items[..n];
    let mut stage: Stage = [[0; 16]; 4];
    let mut lanes = [Lane::default(); 16];
    for (i, item) in items.iter().enumerate() {
        stage_put(&mut stage, i, &block_to_words(item.nonce.as_ref()));
    }
    let mut y = gift128::encrypt::<W>(rk, load_state::<W>(&stage));
    store_state(&y, &mut stage);

    let mut steps = 0;
    for (i, (lane, item)) in lanes.iter_mut().zip(items.iter()).enumerate() {
        lane.ad_blocks = item.ad.len().div_ceil(16).max(1);
        lane.msg_blocks = item.buffer.len().div_ceil(16);
        lane.l = mask_from(&stage_get(&stage, i));
        steps = steps.max(lane.steps());
    }

    let mut s = 0;
    loop {
        // Scalar preparation of step `s` for every lane (AD blocks, last
        // blocks, finished lanes), then one vector step.
        for (i, (lane, item)) in lanes.iter_mut().zip(items.iter_mut()).enumerate() {
            let total = lane.steps();
            if s < total {
                let yl = stage_get(&stage, i);
                let x = lane_input(lane, item, s, &yl, dir);
                stage_put(&mut stage, i, &x);
            } else if s == total {
                lane_finish(item, &stage_get(&stage, i), dir);
            }
        }
        if s == steps {
            break;
        }
        y = gift128::encrypt::<W>(rk, feedback_xor(&y, &load_state::<W>(&stage)));
        s += 1;
        let run = fast_run_len(&lanes[..n], s);
        if run > 0 {
            fast_steps::<W>(rk, items, &mut lanes, &mut y, s, run, dir);
            s += run;
        }
        store_state(&y, &mut stage);
    }
}
