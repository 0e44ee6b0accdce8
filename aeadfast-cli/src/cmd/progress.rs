//! Progress bars: on standard error only when it is a terminal, only for jobs that last (the
//! bar appears after a second), never when the output itself goes to that terminal, and
//! cleared before anything else is printed (on drop at the latest).

use std::io::{self, IsTerminal};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a job runs before its bar appears.
const DELAY: Duration = Duration::from_secs(1);

/// A progress display that shows itself only once the job has lasted a while.
pub struct Progress(Mutex<State>);

struct State {
    bar: Option<ProgressBar>,
    enabled: bool,
    start: Instant,
    len: Option<u64>,
    what: String,
    pos: u64,
}

/// A progress display for a job of `len` bytes (if known) described by `what`; shown on
/// standard error if that is a terminal.
pub fn progress(len: Option<u64>, what: &str) -> Progress {
    Progress::new(len, what, false)
}

impl State {
    fn show(&mut self) {
        if self.bar.is_some() || !self.enabled || self.start.elapsed() < DELAY {
            return;
        }
        let pb = ProgressBar::with_draw_target(self.len, ProgressDrawTarget::stderr());
        let template = if self.len.is_some() {
            "{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}"
        } else {
            "{msg} {bytes} {bytes_per_sec}"
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            pb.set_style(style.progress_chars("=> "));
        }
        pb.set_message(self.what.clone());
        pb.set_position(self.pos);
        self.bar = Some(pb);
    }
}

impl Progress {
    /// Like [`progress`]; `output_is_stdout` turns it off when standard output (where the
    /// data goes) is a terminal, so bar and data never mix.
    pub fn new(len: Option<u64>, what: &str, output_is_stdout: bool) -> Progress {
        let enabled =
            io::stderr().is_terminal() && !(output_is_stdout && io::stdout().is_terminal());
        Progress(Mutex::new(State {
            bar: None,
            enabled,
            start: Instant::now(),
            len,
            what: what.to_string(),
            pos: 0,
        }))
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Sets the bytes done.
    pub fn set_position(&self, pos: u64) {
        let mut s = self.state();
        s.pos = pos;
        s.show();
        if let Some(b) = &s.bar {
            b.set_position(pos);
        }
    }

    /// Adds to the bytes done.
    pub fn inc(&self, n: u64) {
        let pos = self.state().pos + n;
        self.set_position(pos);
    }

    /// Removes the bar from the terminal; it does not come back.
    pub fn finish_and_clear(&self) {
        let mut s = self.state();
        if let Some(b) = s.bar.take() {
            b.finish_and_clear();
        }
        s.enabled = false;
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish_and_clear();
    }
}

/// A reader or writer that reports the bytes passing through it to a [`Progress`].
pub struct Counting<'p, T> {
    inner: T,
    progress: Option<&'p Progress>,
    done: u64,
    /// The inner writer failed (as opposed to the data source feeding it).
    pub failed: bool,
}

impl<'p, T> Counting<'p, T> {
    /// Wraps `inner`, reporting to `progress`.
    pub fn new(inner: T, progress: &'p Progress) -> Self {
        Counting {
            inner,
            progress: Some(progress),
            done: 0,
            failed: false,
        }
    }

    /// Wraps `inner` only to notice its failures.
    pub fn watch(inner: T) -> Self {
        Counting {
            inner,
            progress: None,
            done: 0,
            failed: false,
        }
    }

    fn report(&mut self, n: usize) {
        self.done += n as u64;
        if let Some(p) = self.progress {
            p.set_position(self.done);
        }
    }
}

impl<T: io::Read> io::Read for Counting<'_, T> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.report(n);
        Ok(n)
    }
}

impl<T: io::Write> io::Write for Counting<'_, T> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let r = self.inner.write(buf);
        match &r {
            Ok(n) => self.report(*n),
            Err(_) => self.failed = true,
        }
        r
    }

    fn flush(&mut self) -> io::Result<()> {
        let r = self.inner.flush();
        self.failed |= r.is_err();
        r
    }
}
