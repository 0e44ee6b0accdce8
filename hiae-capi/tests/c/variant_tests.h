/* The tests of one variant, included by test_capi.c once per variant with
 * P (function prefix), PFX (enum prefix), LANES, STATE_T, STREAM_T and VEC_FILE defined. */

#define WIDE  (16 * LANES)
#define PHASE(x) CAT(PFX, CAT(_STREAM_, x))
#define MODE(x)  CAT(PFX, CAT(_STREAM_MODE_, x))

/* Encrypts with the block API: associated data in two calls (the first `ad_split` bytes, a
 * multiple of WIDE, then the rest), the message in whole blocks after `msg_split`, with the
 * no-update partial functions checked on the final partial block. */
static void FN(_block_enc)(const bytes *key, const bytes *nonce, const bytes *ad, const bytes *msg,
                           const bytes *ct, const bytes *tag, size_t ad_split, size_t msg_split)
{
    STATE_T  st;
    uint8_t *out = xmalloc(msg->len);
    uint8_t  t[16], tmp[WIDE];
    size_t   full = msg->len - (msg->len - msg_split) % WIDE, rest = msg->len - full;
    FN(_init)(&st, key->p, nonce->p);
    FN(_absorb)(&st, ad->p, ad_split);
    FN(_absorb)(&st, ad->p + ad_split, ad->len - ad_split);
    FN(_enc)(&st, out, msg->p, msg_split);
    FN(_enc)(&st, out + msg_split, msg->p + msg_split, full - msg_split);
    if (rest > 0) {
        FN(_enc_partial_noupdate)(&st, tmp, msg->p + full, rest);
        CHECK(memcmp(tmp, ct->p + full, rest) == 0, "enc_partial_noupdate output");
        FN(_dec_partial_noupdate)(&st, tmp, ct->p + full, rest);
        CHECK(memcmp(tmp, msg->p + full, rest) == 0, "dec_partial_noupdate output");
    }
    FN(_enc)(&st, out + full, msg->p + full, rest);
    FN(_finalize)(&st, ad->len, msg->len, t);
    CHECK(memcmp(out, ct->p, msg->len) == 0, "block enc ciphertext (splits %zu/%zu)", ad_split,
          msg_split);
    CHECK(memcmp(t, tag->p, 16) == 0, "block enc tag");

    /* Decryption, in place, same splits. */
    memcpy(out, ct->p, msg->len);
    FN(_init)(&st, key->p, nonce->p);
    FN(_absorb)(&st, ad->p, ad_split);
    FN(_absorb)(&st, ad->p + ad_split, ad->len - ad_split);
    FN(_dec)(&st, out, out, msg_split);
    FN(_dec)(&st, out + msg_split, out + msg_split, msg->len - msg_split);
    FN(_finalize)(&st, ad->len, msg->len, t);
    CHECK(memcmp(out, msg->p, msg->len) == 0, "block dec plaintext");
    CHECK(FN(_verify_tag)(tag->p, t) == 0, "block dec tag");
    free(out);
}

/* Encrypts and decrypts with the streaming API, associated data in pieces of `ad_step`
 * bytes and the message in pieces of `msg_step` (0: random sizes), and compares with the
 * vector. */
static void FN(_stream)(const bytes *key, const bytes *nonce, const bytes *ad, const bytes *msg,
                        const bytes *ct, const bytes *tag, size_t ad_step, size_t msg_step)
{
    STREAM_T s;
    uint8_t *out = xmalloc(msg->len);
    uint8_t  t[16];
    FN(_stream_init)(&s, key->p, nonce->p);
    CHECK(s.phase == PHASE(INIT) && s.mode == MODE(NONE), "phase after init");
    if (ad->len == 0 && ad_step == 0) {
        FN(_stream_absorb)(&s, NULL, 0);
    }
    for (size_t at = 0, n; at < ad->len; at += n) {
        n = next_piece(ad_step, ad->len - at, WIDE);
        FN(_stream_absorb)(&s, n ? ad->p + at : NULL, n);
    }
    for (size_t at = 0, n; at < msg->len; at += n) {
        n = next_piece(msg_step, msg->len - at, WIDE);
        FN(_stream_encrypt)(&s, n ? out + at : NULL, n ? msg->p + at : NULL, n);
    }
    CHECK(msg->len == 0 || (s.phase == PHASE(MSG) && s.mode == MODE(ENCRYPT)),
          "phase while encrypting");
    FN(_stream_finalize)(&s, t);
    CHECK(s.phase == PHASE(FINAL), "phase after finalize");
    CHECK(memcmp(out, ct->p, msg->len) == 0, "stream ciphertext (steps %zu/%zu)", ad_step,
          msg_step);
    CHECK(memcmp(t, tag->p, 16) == 0, "stream tag (steps %zu/%zu)", ad_step, msg_step);

    memcpy(out, ct->p, msg->len);
    FN(_stream_init)(&s, key->p, nonce->p);
    for (size_t at = 0, n; at < ad->len; at += n) {
        n = next_piece(ad_step, ad->len - at, WIDE);
        FN(_stream_absorb)(&s, ad->p + at, n);
    }
    for (size_t at = 0, n; at < msg->len; at += n) {
        n = next_piece(msg_step, msg->len - at, WIDE);
        FN(_stream_decrypt)(&s, out + at, out + at, n);
    }
    CHECK(msg->len == 0 || s.mode == MODE(DECRYPT), "mode while decrypting");
    CHECK(FN(_stream_verify)(&s, tag->p) == 0, "stream verify (steps %zu/%zu)", ad_step, msg_step);
    CHECK(memcmp(out, msg->p, msg->len) == 0, "stream plaintext");
    CHECK(s.phase == PHASE(FINAL), "phase after verify");
    free(out);
}

/* Decryption of (ct, tag) must fail everywhere and leave no plaintext behind. */
static void FN(_must_fail)(const bytes *key, const bytes *nonce, const bytes *ad, const bytes *ct,
                           const bytes *tag, const char *what)
{
    size_t   len = ct->len;
    uint8_t *out = xmalloc(len + 1);
    memset(out, 0xaa, len + 1);
    CHECK(FN(_decrypt)(key->p, nonce->p, out, ptr_or_null(ct), len, ptr_or_null(ad), ad->len,
                       tag->p) != 0,
          "decrypt accepted %s", what);
    CHECK(all_zero(out, len) && out[len] == 0xaa, "output not zeroed (exactly) after %s", what);

    memcpy(out, ct->p, len);
    CHECK(FN(_decrypt)(key->p, nonce->p, out, out, len, ptr_or_null(ad), ad->len, tag->p) != 0,
          "in-place decrypt accepted %s", what);
    CHECK(all_zero(out, len), "in-place output not zeroed after %s", what);

    STREAM_T s;
    FN(_stream_init)(&s, key->p, nonce->p);
    FN(_stream_absorb)(&s, ptr_or_null(ad), ad->len);
    FN(_stream_decrypt)(&s, out, ptr_or_null(ct), len);
    CHECK(FN(_stream_verify)(&s, tag->p) != 0, "stream verify accepted %s", what);

    STATE_T st;
    uint8_t t[16];
    FN(_init)(&st, key->p, nonce->p);
    FN(_absorb)(&st, ptr_or_null(ad), ad->len);
    FN(_dec)(&st, out, ptr_or_null(ct), len);
    FN(_finalize)(&st, ad->len, len, t);
    CHECK(FN(_verify_tag)(tag->p, t) != 0, "block API tag matched for %s", what);
    free(out);
}

/* One passing AEAD vector through every API. */
static void FN(_aead_ok)(const bytes *key, const bytes *nonce, const bytes *ad, const bytes *msg,
                         const bytes *ct, const bytes *tag)
{
    size_t   len = msg->len;
    uint8_t *out = xmalloc(len + 1);
    uint8_t  t[16];

    memset(out, 0x5a, len + 1);
    CHECK(FN(_encrypt)(key->p, nonce->p, ptr_or_null(msg), len ? out : NULL, len, ptr_or_null(ad),
                       ad->len, t) == 0,
          "encrypt failed");
    CHECK(memcmp(out, ct->p, len) == 0 && out[len] == 0x5a, "encrypt ciphertext");
    CHECK(memcmp(t, tag->p, 16) == 0, "encrypt tag");

    memcpy(out, msg->p, len);
    CHECK(FN(_encrypt)(key->p, nonce->p, out, out, len, ad->p, ad->len, t) == 0, "in place");
    CHECK(memcmp(out, ct->p, len) == 0 && memcmp(t, tag->p, 16) == 0, "in-place encrypt");

    memset(out, 0x5a, len + 1);
    CHECK(FN(_decrypt)(key->p, nonce->p, len ? out : NULL, ptr_or_null(ct), len, ptr_or_null(ad),
                       ad->len, tag->p) == 0,
          "decrypt failed");
    CHECK(memcmp(out, msg->p, len) == 0 && out[len] == 0x5a, "decrypt plaintext");

    memcpy(out, ct->p, len);
    CHECK(FN(_decrypt)(key->p, nonce->p, out, out, len, ad->p, ad->len, tag->p) == 0 &&
              memcmp(out, msg->p, len) == 0,
          "in-place decrypt");

    /* Tampering: tag, ciphertext, associated data, nonce, truncation. */
    bytes bad = { xmalloc(16), 16 };
    memcpy(bad.p, tag->p, 16);
    bad.p[rng() % 16] ^= (uint8_t) (1u << (rng() % 8));
    FN(_must_fail)(key, nonce, ad, ct, &bad, "a flipped tag bit");
    free(bad.p);
    if (len > 0) {
        bytes c2 = { xmalloc(len), len };
        memcpy(c2.p, ct->p, len);
        c2.p[rng() % len] ^= (uint8_t) (1u << (rng() % 8));
        FN(_must_fail)(key, nonce, ad, &c2, tag, "a flipped ciphertext bit");
        c2.len = len - 1;
        memcpy(c2.p, ct->p, len);
        FN(_must_fail)(key, nonce, ad, &c2, tag, "a truncated ciphertext");
        free(c2.p);
    }
    if (ad->len > 0) {
        bytes a2 = { xmalloc(ad->len), ad->len };
        memcpy(a2.p, ad->p, ad->len);
        a2.p[rng() % ad->len] ^= 1;
        FN(_must_fail)(key, nonce, &a2, ct, tag, "a flipped AD bit");
        free(a2.p);
    }
    bytes n2 = { xmalloc(16), 16 };
    memcpy(n2.p, nonce->p, 16);
    n2.p[15] ^= 0x80;
    FN(_must_fail)(key, &n2, ad, ct, tag, "a flipped nonce bit");
    free(n2.p);

    /* Block API with a few splits. */
    size_t ad_half = ad->len / 2 / WIDE * WIDE, msg_half = len / 2 / WIDE * WIDE;
    FN(_block_enc)(key, nonce, ad, msg, ct, tag, ad_half, msg_half);
    if (!g_quick) {
        FN(_block_enc)(key, nonce, ad, msg, ct, tag, 0, 0);
        FN(_block_enc)(key, nonce, ad, msg, ct, tag, ad->len / WIDE * WIDE, len / WIDE * WIDE);
    }

    /* Streaming: fixed piece sizes around the block and lane sizes, and random ones. */
    static const size_t steps[] = { 1, 5, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 1000, 4096 };
    static const size_t quick_steps[] = { 5, 17, 65 };
    const size_t       *list = g_quick ? quick_steps : steps;
    size_t              count =
        g_quick ? sizeof quick_steps / sizeof quick_steps[0] : sizeof steps / sizeof steps[0];
    for (size_t i = 0; i < count; i++) {
        if (list[i] < 16 && len + ad->len > (g_quick ? 100 : 600)) {
            continue; /* tiny pieces of long inputs: covered by the random chunkings */
        }
        FN(_stream)(key, nonce, ad, msg, ct, tag, list[i], list[i]);
    }
    FN(_stream)(key, nonce, ad, msg, ct, tag, 0, 0);
    if (!g_quick) {
        FN(_stream)(key, nonce, ad, msg, ct, tag, 7, 0);
        FN(_stream)(key, nonce, ad, msg, ct, tag, 0, 3 * WIDE + 5);
    }
    free(out);
}

/* A MAC vector: the one-shot function and the block API. */
static void FN(_mac_ok)(const bytes *key, const bytes *nonce, const bytes *data, const bytes *tag)
{
    uint8_t t[16];
    STATE_T st;
    CHECK(FN(_mac)(key->p, nonce->p, ptr_or_null(data), data->len, t) == 0, "mac failed");
    CHECK(memcmp(t, tag->p, 16) == 0, "mac tag (%zu bytes)", data->len);
    size_t half = data->len / 2 / WIDE * WIDE;
    FN(_init)(&st, key->p, nonce->p);
    FN(_absorb)(&st, data->p, half);
    FN(_absorb)(&st, data->p + half, data->len - half);
#if LANES == 1
    FN(_finalize)(&st, data->len, 0, t); /* HiAE's MAC is Finalize(|data|, 0) */
#else
    FN(_finalize_mac)(&st, data->len, t);
#endif
    CHECK(memcmp(t, tag->p, 16) == 0, "block API mac tag (%zu bytes)", data->len);
}

static void FN(_aead_section)(const jval *root, const char *section, const char *ct_col,
                              const char *tag_col)
{
    const jval *arr = json_get(root, section);
    CHECK(arr != NULL && arr->type == J_ARR && arr->n > 0, "missing section %s", section);
    if (arr == NULL) {
        return;
    }
    for (size_t i = 0; i < arr->n; i++) {
        const jval *v = &arr->items[i];
        bytes key = hex(json_str(v, "key")), nonce = hex(json_str(v, "nonce")),
              ad = hex(json_str(v, "ad")), msg = hex(json_str(v, "msg")),
              ct = hex(json_str(v, ct_col)), tag = hex(json_str(v, tag_col));
        FN(_aead_ok)(&key, &nonce, &ad, &msg, &ct, &tag);
        bytes_free(&key), bytes_free(&nonce), bytes_free(&ad), bytes_free(&msg);
        bytes_free(&ct), bytes_free(&tag);
    }
}

static void FN(_fail_section)(const jval *root, const char *section, const char *ct_col,
                              const char *tag_col)
{
    const jval *arr = json_get(root, section);
    CHECK(arr != NULL && arr->type == J_ARR && arr->n > 0, "missing section %s", section);
    if (arr == NULL) {
        return;
    }
    for (size_t i = 0; i < arr->n; i++) {
        const jval *v = &arr->items[i];
        bytes key = hex(json_str(v, "key")), nonce = hex(json_str(v, "nonce")),
              ad = hex(json_str(v, "ad")), ct = hex(json_str(v, ct_col)),
              tag = hex(json_str(v, tag_col));
        FN(_must_fail)(&key, &nonce, &ad, &ct, &tag, section);
        bytes_free(&key), bytes_free(&nonce), bytes_free(&ad), bytes_free(&ct), bytes_free(&tag);
    }
}

static void FN(_mac_section)(const jval *root, const char *tag_col, const char *libhiae_col)
{
    const jval *arr = json_get(root, "mac_vectors");
    CHECK(arr != NULL && arr->n > 0, "missing mac_vectors");
    if (arr == NULL) {
        return;
    }
    for (size_t i = 0; i < arr->n; i++) {
        const jval *v = &arr->items[i];
        bytes key = hex(json_str(v, "key")), nonce = hex(json_str(v, "nonce")),
              data = hex(json_str(v, "data")), tag = hex(json_str(v, tag_col));
        FN(_mac_ok)(&key, &nonce, &data, &tag);
        if (libhiae_col != NULL) {
            bytes other = hex(json_str(v, libhiae_col));
            uint8_t t[16];
            FN(_mac)(key.p, nonce.p, ptr_or_null(&data), data.len, t);
            CHECK(memcmp(t, other.p, 16) != 0, "MAC equals libhiae's all-lane variant");
            bytes_free(&other);
        }
        bytes_free(&key), bytes_free(&nonce), bytes_free(&data), bytes_free(&tag);
    }
}

#if LANES == 1
/* The draft's function-by-function example: the state after each step, in the documented
 * layout of HiAE_state_t (S0 ... S15). */
static void FN(_intermediate)(const jval *root)
{
    const jval *iv = json_get(root, "intermediate_values");
    CHECK(iv != NULL, "missing intermediate_values");
    if (iv == NULL) {
        return;
    }
    bytes key = hex(json_str(iv, "key")), nonce = hex(json_str(iv, "nonce"));
    const char *steps[] = { "state_after_init", "state_after_update", "state_after_enc" };
    uint8_t expect[3][256];
    for (int k = 0; k < 3; k++) {
        const jval *s = json_get(iv, steps[k]);
        for (int i = 0; i < 16; i++) {
            char name[8];
            snprintf(name, sizeof name, "S%d", i);
            bytes b = hex(json_str(s, name));
            CHECK(b.len == 16, "%s.%s", steps[k], name);
            memcpy(expect[k] + 16 * i, b.p, 16);
            bytes_free(&b);
        }
    }
    STATE_T st;
    FN(_init)(&st, key.p, nonce.p);
    CHECK(memcmp(st.opaque, expect[0], 256) == 0, "state after init");
    FN(_absorb)(&st, (const uint8_t *) "Hello", 5);
    CHECK(memcmp(st.opaque, expect[1], 256) == 0, "state after absorbing \"Hello\"");
    uint8_t c[5], t[16];
    FN(_enc)(&st, c, (const uint8_t *) "World", 5);
    bytes enc_out = hex(json_str(iv, "enc_output_block")), tag = hex(json_str(iv, "tag"));
    CHECK(memcmp(c, enc_out.p, 5) == 0, "ciphertext of \"World\"");
    CHECK(memcmp(st.opaque, expect[2], 256) == 0, "state after encrypting \"World\"");
    FN(_finalize)(&st, 5, 5, t);
    CHECK(memcmp(t, tag.p, 16) == 0, "tag of the example");
    bytes_free(&key), bytes_free(&nonce), bytes_free(&enc_out), bytes_free(&tag);
}
#endif

#if LANES == 4
/* Our own tampering of the zig-hiae column (libhiae's must-fail vectors fail trivially). */
static void FN(_zig_tamper)(const jval *root)
{
    const jval *arr = json_get(root, "generated_vectors");
    for (size_t i = 0; arr != NULL && i < arr->n; i += 4) {
        const jval *v = &arr->items[i];
        bytes key = hex(json_str(v, "key")), nonce = hex(json_str(v, "nonce")),
              ad = hex(json_str(v, "ad")), ct = hex(json_str(v, "ct_zig_hiae_variant")),
              tag = hex(json_str(v, "tag_zig_hiae_variant"));
        tag.p[0] ^= 1;
        FN(_must_fail)(&key, &nonce, &ad, &ct, &tag, "zig column, tag bit 0 flipped");
        tag.p[0] ^= 1;
        if (ct.len > 0) {
            ct.p[ct.len - 1] ^= 0x40;
            FN(_must_fail)(&key, &nonce, &ad, &ct, &tag, "zig column, last ct byte changed");
            ct.p[ct.len - 1] ^= 0x40;
        }
        nonce.p[0] ^= 1;
        FN(_must_fail)(&key, &nonce, &ad, &ct, &tag, "zig column, nonce changed");
        bytes_free(&key), bytes_free(&nonce), bytes_free(&ad), bytes_free(&ct), bytes_free(&tag);
    }
}
#endif

/* Random inputs: streaming in random pieces and the block API equal one-shot, and every
 * implementation gives the same ciphertexts and tags as the first one tested. */
#define RANDOM_CASES 10
static uint8_t *FN(_ref_ct)[RANDOM_CASES];
static uint8_t  FN(_ref_tag)[RANDOM_CASES][16];
static int      FN(_have_ref);

static void FN(_random)(void)
{
    uint64_t saved = g_rng;
    g_rng          = 0x1234567u + LANES;
    for (int c = 0; c < RANDOM_CASES; c++) {
        size_t len = (size_t) (rng() % (3 * 256 * LANES + 100)), adl = (size_t) (rng() % 300);
        bytes key = { xmalloc(32), 32 }, nonce = { xmalloc(16), 16 }, ad = { xmalloc(adl), adl },
              msg = { xmalloc(len), len }, ct = { xmalloc(len), len }, tag = { xmalloc(16), 16 };
        fill_random(key.p, 32), fill_random(nonce.p, 16), fill_random(ad.p, adl);
        fill_random(msg.p, len);
        CHECK(FN(_encrypt)(key.p, nonce.p, msg.p, ct.p, len, ad.p, adl, tag.p) == 0, "encrypt");
        if (!FN(_have_ref)) {
            FN(_ref_ct)[c] = xmalloc(len);
            memcpy(FN(_ref_ct)[c], ct.p, len);
            memcpy(FN(_ref_tag)[c], tag.p, 16);
        } else {
            CHECK(memcmp(FN(_ref_ct)[c], ct.p, len) == 0 && memcmp(FN(_ref_tag)[c], tag.p, 16) == 0,
                  "random case %d differs between implementations", c);
        }
        FN(_stream)(&key, &nonce, &ad, &msg, &ct, &tag, 0, 0);
        FN(_stream)(&key, &nonce, &ad, &msg, &ct, &tag, 0, 1 + (size_t) (rng() % 40));
        FN(_block_enc)(&key, &nonce, &ad, &msg, &ct, &tag, adl / WIDE * WIDE,
                       len / 2 / WIDE * WIDE);

        /* Partly overlapping input and output: as if the input were first moved there. */
        uint8_t *buf = xmalloc(len + 8), t[16];
        memcpy(buf, msg.p, len);
        CHECK(FN(_encrypt)(key.p, nonce.p, buf, buf + 3, len, ad.p, adl, t) == 0 &&
                  memcmp(buf + 3, ct.p, len) == 0 && memcmp(t, tag.p, 16) == 0,
              "encrypt with overlapping buffers");
        free(buf);
        bytes_free(&key), bytes_free(&nonce), bytes_free(&ad), bytes_free(&msg);
        bytes_free(&ct), bytes_free(&tag);
    }
    FN(_have_ref) = 1;
    g_rng         = saved;
}

/* Invalid arguments and calls out of order: refused, outputs zeroed, nothing half-done. */
static void FN(_misuse)(void)
{
    uint8_t key[32] = { 1 }, nonce[16] = { 2 }, msg[100], out[100], t[16], t2[16];
    memset(msg, 0x33, sizeof msg);

    memset(out, 0xaa, sizeof out), memset(t, 0xaa, 16);
    CHECK(FN(_encrypt)(NULL, nonce, msg, out, 100, NULL, 0, t) != 0, "encrypt with NULL key");
    CHECK(all_zero(out, 100) && all_zero(t, 16), "outputs zeroed after a refused encrypt");
    CHECK(FN(_encrypt)(key, nonce, NULL, out, 100, NULL, 0, t) != 0, "NULL msg, length 100");
    CHECK(FN(_encrypt)(key, nonce, msg, out, 100, NULL, 5, t) != 0, "NULL ad, length 5");
    CHECK(FN(_encrypt)(key, nonce, msg, out, 100, NULL, 0, NULL) != 0, "NULL tag");
    CHECK(FN(_encrypt)(key, nonce, NULL, NULL, 0, NULL, 0, t) == 0, "empty message, NULLs");
    memset(out, 0xaa, sizeof out);
    CHECK(FN(_decrypt)(key, nonce, out, msg, 100, NULL, 0, NULL) != 0 && all_zero(out, 100),
          "decrypt with NULL tag refused, output zeroed");
    CHECK(FN(_decrypt)(key, NULL, out, msg, 100, NULL, 0, t) != 0, "decrypt with NULL nonce");
    memset(t, 0xaa, 16);
    CHECK(FN(_mac)(NULL, nonce, msg, 100, t) != 0 && all_zero(t, 16), "mac with NULL key");
    CHECK(FN(_mac)(key, nonce, NULL, 1, t) != 0, "mac with NULL data, length 1");

    /* verify_tag */
    memset(t, 7, 16), memset(t2, 7, 16);
    CHECK(FN(_verify_tag)(t, t2) == 0, "equal tags");
    for (int i = 0; i < 16; i++) {
        t2[i] ^= 0x80;
        CHECK(FN(_verify_tag)(t, t2) != 0, "tags differing in byte %d", i);
        t2[i] ^= 0x80;
    }
    CHECK(FN(_verify_tag)(NULL, t2) != 0 && FN(_verify_tag)(t, NULL) != 0, "NULL tag");

    /* Streams refuse calls out of order, and stay refused. */
    STREAM_T s;
    FN(_stream_init)(&s, key, nonce);
    FN(_stream_encrypt)(&s, out, msg, 10);
    FN(_stream_absorb)(&s, msg, 5);
    CHECK(s.phase == PHASE(FINAL), "absorb after encrypt ends the stream");
    memset(out, 0xaa, sizeof out);
    FN(_stream_encrypt)(&s, out, msg, 50);
    CHECK(all_zero(out, 50), "a refused stream writes zeros");
    memset(t, 0xaa, 16);
    FN(_stream_finalize)(&s, t);
    CHECK(all_zero(t, 16), "a refused stream's tag is zeros");
    CHECK(FN(_stream_verify)(&s, t) != 0, "a refused stream never verifies");

    FN(_stream_init)(&s, key, nonce);
    FN(_stream_encrypt)(&s, out, msg, 10);
    memset(out, 0xaa, sizeof out);
    FN(_stream_decrypt)(&s, out, msg, 10);
    CHECK(s.phase == PHASE(FINAL) && all_zero(out, 10), "decrypt on an encrypting stream");

    FN(_stream_init)(&s, key, nonce);
    FN(_stream_encrypt)(&s, out, msg, 10);
    CHECK(FN(_stream_verify)(&s, t) != 0 && s.phase == PHASE(FINAL),
          "verify on an encrypting stream");

    FN(_stream_init)(&s, key, nonce);
    memset(out, 0xaa, sizeof out);
    FN(_stream_encrypt)(&s, out, NULL, 10);
    CHECK(s.phase == PHASE(FINAL) && all_zero(out, 10), "NULL input with a length");

    FN(_stream_init)(&s, NULL, nonce);
    CHECK(s.phase == PHASE(FINAL), "stream_init with a NULL key");
    memcpy(out, msg, 20);
    FN(_stream_encrypt)(&s, out, out, 20);
    CHECK(all_zero(out, 20), "no plaintext left in place by a refused stream");

    FN(_stream_init)(&s, key, nonce);
    FN(_stream_absorb)(&s, msg, 3);
    s.offset = 100000; /* C code scribbled on a private member */
    FN(_stream_absorb)(&s, msg, 3);
    CHECK(s.phase == PHASE(FINAL), "inconsistent stream members are refused");

    FN(_stream_init)(&s, key, nonce);
    FN(_stream_finalize)(&s, t);
    FN(_stream_finalize)(&s, t2);
    CHECK(all_zero(t2, 16) && !all_zero(t, 16), "finalize twice: the second tag is zeros");
    FN(_stream_finalize)(NULL, t);
    CHECK(all_zero(t, 16), "finalize of a NULL stream writes zeros");

    /* Block API. */
    STATE_T a, b;
    memset(&a, 0, sizeof a), memset(&b, 0, sizeof b);
    FN(_init)(&a, NULL, nonce);
    FN(_init)(&b, key, NULL);
    CHECK(memcmp(&a, &b, sizeof a) != 0 && !all_zero(a.opaque, sizeof a.opaque),
          "init with a NULL key or nonce: an unpredictable (random) state");
    FN(_init)(&a, key, nonce);
    memset(out, 0xaa, sizeof out);
    FN(_enc_partial_noupdate)(&a, out, msg, WIDE);
    CHECK(all_zero(out, WIDE), "partial_noupdate with a full block is refused");
    memset(out, 0xaa, sizeof out);
    FN(_enc)(NULL, out, msg, 32);
    CHECK(all_zero(out, 32), "enc with a NULL state writes zeros");
    b = a;
    FN(_absorb)(&a, NULL, 16);
    CHECK(memcmp(&a, &b, sizeof a) == 0, "absorb of NULL data leaves the state unchanged");
    FN(_enc)(&a, out, NULL, 16);
    CHECK(memcmp(&a, &b, sizeof a) == 0 && all_zero(out, 16), "enc of NULL input refused");
}

static void FN(_implementations)(void)
{
    CHECK(FN(_init_library)() == 0, "init_library");
    CHECK(FN(_force_implementation)(NULL) == 0, "force(NULL)");
    const char *automatic = FN(_get_implementation_name)();
    CHECK(automatic != NULL && FN(_force_implementation)(automatic) == 0,
          "the automatic choice can be forced");
    CHECK(FN(_force_implementation)("no-such-implementation") != 0, "unknown name refused");
    CHECK(strcmp(FN(_get_implementation_name)(), automatic) == 0, "setting kept after refusal");
    for (size_t i = 0; i < sizeof LIBHIAE_ALIASES / sizeof LIBHIAE_ALIASES[0]; i++) {
        int ours = FN(_force_implementation)(LIBHIAE_ALIASES[i][1]);
        int theirs = FN(_force_implementation)(LIBHIAE_ALIASES[i][0]);
        CHECK(ours == theirs, "%s and %s accepted alike", LIBHIAE_ALIASES[i][0],
              LIBHIAE_ALIASES[i][1]);
        if (theirs == 0) {
            CHECK(strcmp(FN(_get_implementation_name)(), LIBHIAE_ALIASES[i][1]) == 0,
                  "%s selects %s", LIBHIAE_ALIASES[i][0], LIBHIAE_ALIASES[i][1]);
        }
    }
    CHECK(FN(_force_implementation)("Software") == 0, "libhiae's \"Software\" always runs");
    CHECK(FN(_force_implementation)(NULL) == 0 &&
              strcmp(FN(_get_implementation_name)(), automatic) == 0,
          "NULL restores automatic selection");
}

static void FN(_suite)(const jval *root)
{
#if LANES == 1
    FN(_aead_section)(root, "official_vectors", "ct", "tag");
    FN(_aead_section)(root, "generated_vectors", "ct", "tag");
    FN(_mac_section)(root, "tag", NULL);
    FN(_fail_section)(root, "must_fail_vectors", "ct", "tag");
    FN(_fail_section)(root, "legacy_pre_2025_11_vectors", "ct", "tag");
    FN(_intermediate)(root);
#elif LANES == 2
    FN(_aead_section)(root, "published_vectors", "ct", "tag");
    FN(_aead_section)(root, "generated_vectors", "ct", "tag");
    FN(_mac_section)(root, "tag_zig_hiae_variant", "tag");
    FN(_fail_section)(root, "must_fail_vectors", "ct", "tag");
    FN(_fail_section)(root, "legacy_pre_2025_11_vectors", "ct", "tag");
#else
    FN(_aead_section)(root, "generated_vectors", "ct_zig_hiae_variant", "tag_zig_hiae_variant");
    FN(_fail_section)(root, "generated_vectors", "ct", "tag"); /* libhiae's constants */
    FN(_mac_section)(root, "tag_zig_hiae_variant", "tag");
    FN(_fail_section)(root, "must_fail_vectors", "ct", "tag");
    FN(_zig_tamper)(root);
#endif
    FN(_random)();
}

static void FN(_run)(const char *dir)
{
    jval *root = load(dir, VEC_FILE);
    int   ran  = 0;
    for (size_t i = 0; i < sizeof IMPL_NAMES / sizeof IMPL_NAMES[0]; i++) {
        if (FN(_force_implementation)(IMPL_NAMES[i]) != 0) {
            continue;
        }
        snprintf(g_ctx, sizeof g_ctx, "%s on %s", STR(P), FN(_get_implementation_name)());
        CHECK(strcmp(FN(_get_implementation_name)(), IMPL_NAMES[i]) == 0, "forced name");
        unsigned long before = g_checks, failed = g_failures;
        clock_t       start  = clock();
        FN(_suite)(root);
        printf("%-7s %-13s %6lu checks, %lu failures (%.1f s)\n", STR(P), IMPL_NAMES[i],
               g_checks - before, g_failures - failed,
               (double) (clock() - start) / CLOCKS_PER_SEC);
        ran++;
    }
    FN(_force_implementation)(NULL);
    snprintf(g_ctx, sizeof g_ctx, "%s, automatic selection", STR(P));
    CHECK(ran >= 1, "no implementation ran");
    FN(_misuse)();
    FN(_implementations)();
    for (int c = 0; c < RANDOM_CASES && FN(_have_ref); c++) {
        free(FN(_ref_ct)[c]);
    }
    json_free(root);
}

#undef WIDE
#undef PHASE
#undef MODE
#undef RANDOM_CASES
