//! Interruption: on SIGINT, SIGTERM or SIGHUP the named temporary files that exist at that
//! moment are removed, a terminal left without echo by the passphrase prompt is restored, and
//! the process exits with status 128 + the signal number.
//!
//! Temporary outputs are unnamed where the file system allows it (`O_TMPFILE`): they vanish
//! with the process, even on SIGKILL. Named ones (other file systems, and the moment of a
//! replacing rename) are registered here while they exist. A rename into place runs under the
//! same lock, so a signal lands either before it (nothing is left) or after it (the output is
//! complete).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// What the handler cleans up.
struct State {
    temps: Vec<PathBuf>,
    #[cfg(unix)]
    tty: Option<(std::fs::File, rustix::termios::Termios)>,
}

static STATE: Mutex<State> = Mutex::new(State {
    temps: Vec::new(),
    #[cfg(unix)]
    tty: None,
});

fn state() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|p| p.into_inner())
}

/// Starts the thread that handles SIGINT, SIGTERM and SIGHUP. Call once, first thing.
pub fn install() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        let spawned = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                if let Some(sig) = signals.forever().next() {
                    let mut s = state();
                    for p in s.temps.drain(..) {
                        let _ = std::fs::remove_file(p);
                    }
                    if let Some((tty, termios)) = s.tty.take() {
                        let _ = rustix::termios::tcsetattr(
                            &tty,
                            rustix::termios::OptionalActions::Now,
                            &termios,
                        );
                        eprintln!();
                    }
                    // Held until exit: no rename or new temporary can start meanwhile.
                    std::process::exit(128 + sig);
                }
            });
        drop(spawned);
    }
}

/// Forgets a temporary file (renamed into place or removed).
pub fn unregister(path: &Path) {
    state().temps.retain(|p| p != path);
}

/// Held while a temporary file is moved into place, so a signal cannot land in the middle.
pub struct Quiet(#[allow(dead_code)] MutexGuard<'static, State>);

/// Blocks the signal handler's cleanup until the returned guard is dropped.
pub fn quiet() -> Quiet {
    Quiet(state())
}

impl Quiet {
    /// Forgets a temporary file while the guard is held.
    pub fn unregister(&mut self, path: &Path) {
        self.0.temps.retain(|p| p != path);
    }

    /// Registers a temporary file while the guard is held.
    pub fn register(&mut self, path: &Path) {
        self.0.temps.push(path.to_path_buf());
    }
}

/// Remembers the terminal's settings before a passphrase prompt turns echo off, so that an
/// interrupted prompt does not leave the terminal without echo. Dropping it forgets them.
pub struct PromptGuard;

impl PromptGuard {
    /// Saves the settings of the controlling terminal (if there is one).
    pub fn save() -> PromptGuard {
        #[cfg(unix)]
        if let Ok(tty) = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/tty")
            && let Ok(t) = rustix::termios::tcgetattr(&tty)
        {
            state().tty = Some((tty, t));
        }
        PromptGuard
    }
}

impl Drop for PromptGuard {
    fn drop(&mut self) {
        #[cfg(unix)]
        {
            state().tty = None;
        }
    }
}
