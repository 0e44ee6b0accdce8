#!/usr/bin/env bash
# Compiles the C tests (tests/c/*.c) against the headers in include/ with
#   cc -std=c11 -Wall -Wextra -Wpedantic -Werror
# links them once against the static and once against the shared library, and runs both.
#
#   run-c-tests.sh [--target TRIPLE] [--cc CC] [--runner 'CMD ...'] [--release | --profile P]
#                  [--libdir DIR]   (use libraries already built there; skips cargo build)
#                  [--parallel]     (run the static and the shared test program at once)
#
# Natively:           hiae-capi/tests/run-c-tests.sh
# aarch64 under qemu: hiae-capi/tests/run-c-tests.sh --target aarch64-unknown-linux-gnu \
#                       --cc aarch64-linux-gnu-gcc \
#                       --runner 'qemu-aarch64 -L /usr/aarch64-linux-gnu -cpu max'
# (cargo needs CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc then.)
# EXPECT_BACKEND=NAME in the environment makes the tests check automatic selection.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
crate=$(dirname "$here")
workspace=$(dirname "$crate")

target=""
cc=${CC:-cc}
runner=""
profile=debug
libdir=""
parallel=0
while [ $# -gt 0 ]; do
    case "$1" in
    --target) target=$2; shift 2 ;;
    --cc) cc=$2; shift 2 ;;
    --runner) runner=$2; shift 2 ;;
    --release) profile=release; shift ;;
    --profile) profile=$2; shift 2 ;;
    --parallel) parallel=1; shift ;;
    --libdir) libdir=$2; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

if [ -z "$libdir" ]; then
    args=(build -p aeadfast-hiae-capi)
    if [ -n "$target" ]; then args+=(--target "$target"); fi
    case "$profile" in
    debug) ;;
    release) args+=(--release) ;;
    *) args+=(--profile "$profile") ;;
    esac
    (cd "$workspace" && cargo "${args[@]}")
    target_dir=${CARGO_TARGET_DIR:-$workspace/target}
    libdir=$target_dir/${target:+$target/}$profile
fi
for f in libhiae_capi.a libhiae_capi.so; do
    if [ ! -f "$libdir/$f" ]; then
        echo "missing $libdir/$f" >&2
        exit 1
    fi
done

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cflags=(-std=c11 -O1 -Wall -Wextra -Wpedantic -Werror -I"$crate/include")
sources=("$here/c/test_capi.c" "$here/c/json.c" "$here/c/abi_check.c")
# What a Rust static library needs from the system (rustc --print native-static-libs).
syslibs=(-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc)

"$cc" "${cflags[@]}" "${sources[@]}" "$libdir/libhiae_capi.a" "${syslibs[@]}" -o "$out/test_static"
"$cc" "${cflags[@]}" "${sources[@]}" -L"$libdir" -lhiae_capi -Wl,-rpath,"$libdir" \
    -o "$out/test_shared"

run() {
    echo "== C tests, $1 library${target:+ ($target)}${runner:+ under $runner}"
    # shellcheck disable=SC2086 # the runner is a command line
    $runner "$out/test_$1" "$here/data"
}
if [ "$parallel" = 1 ]; then
    # Both programs at once, each into its own log, shown in order afterwards.
    run static >"$out/static.log" 2>&1 &
    static_pid=$!
    run shared >"$out/shared.log" 2>&1 &
    shared_pid=$!
    status=0
    wait "$static_pid" || status=1
    wait "$shared_pid" || status=1
    cat "$out/static.log" "$out/shared.log"
    exit "$status"
fi
for kind in static shared; do
    run "$kind"
done
