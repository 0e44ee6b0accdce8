#!/usr/bin/env bash
# Constant-time check of the portable HiAE backend (tests/ct/ct_taint.c) under valgrind's
# memcheck: secret inputs are marked undefined, and any branch or memory address computed from
# them is an error. A control run that branches on a secret byte must be reported, which shows
# the check can fail. Needs valgrind and its headers (Debian: valgrind).
#
#   hiae-capi/tests/ct-taint.sh
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
crate=$(dirname "$here")
workspace=$(dirname "$crate")

(cd "$workspace" && cargo build --release -p aeadfast-hiae-capi)
libdir=${CARGO_TARGET_DIR:-$workspace/target}/release
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cc -std=c11 -O1 -g -Wall -Wextra -Werror -I"$crate/include" "$here/ct/ct_taint.c" \
    "$libdir/libhiae_capi.a" -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc -o "$out/ct_taint"

echo "== control: a branch on a secret byte must be reported"
if valgrind -q --error-exitcode=1 "$out/ct_taint" --control 2>"$out/control.log"; then
    cat "$out/control.log"
    echo "memcheck did not report a secret-dependent branch: the check is not working" >&2
    exit 1
fi
grep -m1 "depends on uninitialised" "$out/control.log"

echo "== portable HiAE, HiAEx2, HiAEx4 encryption and MAC on secret inputs"
valgrind -q --error-exitcode=1 "$out/ct_taint"
