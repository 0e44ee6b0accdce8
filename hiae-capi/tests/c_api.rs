//! Runs the C tests (`tests/c/`, through `tests/run-c-tests.sh`) against the static and the
//! shared library built with this test: the system C compiler (`cc`, or `$CC`) compiles them
//! with `-Wall -Wextra -Wpedantic -Werror` against `include/`.

use std::path::Path;
use std::process::Command;

#[test]
#[cfg(unix)]
fn c_tests_pass_against_the_static_and_the_shared_library() {
    let exe = std::env::current_exe().expect("test executable path");
    // Cargo writes the current cdylib and staticlib next to the test executable (`deps/`);
    // the copies one level up are from the last `cargo build`, which may be older.
    let libdir = exe.parent().expect("deps directory");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/run-c-tests.sh");
    let out = Command::new("bash")
        .arg(&script)
        .arg("--libdir")
        .arg(libdir)
        .output()
        .expect("running bash");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    print!("{stdout}");
    eprint!("{stderr}");
    assert!(out.status.success(), "the C tests failed");
    // Both programs ran to the end: each prints its total, "<n> checks, 0 failures".
    let totals = stdout
        .lines()
        .filter(|l| {
            l.strip_suffix(" checks, 0 failures")
                .is_some_and(|n| n.parse::<u64>().is_ok_and(|n| n > 0))
        })
        .count();
    assert_eq!(totals, 2, "both test programs report their totals");
}
