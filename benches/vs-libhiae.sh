#!/usr/bin/env bash
# HiAE and HiAEx2 against libhiae (C) in one process: builds libhiae from its public sources
# (a checkout you give, or a clone into target/peers/libhiae-src), then runs `vs-libhiae`.
#
#   benches/vs-libhiae.sh [--source DIR] [vs-libhiae options...]
#
# Example (a CPU without AVX-512, libhiae forced to the code it runs there):
#   benches/vs-libhiae.sh --lib-hiae AES-NI --lib-hiaex2 VAES-AVX2 --backend VAES-AVX2
# libhiae is compiled with `-march=$MARCH` (default `native`). Pin it to one core (`taskset -c 1 benches/vs-libhiae.sh ...`) on a shared machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=""
if [[ "${1:-}" == "--source" ]]; then
    src=$(cd "$2" && pwd)
    shift 2
fi
peers="$root/target/peers"
if [[ -z "$src" ]]; then
    src="$peers/libhiae-src"
    if [[ ! -d "$src" ]]; then
        git clone --quiet https://github.com/hiae-aead/libhiae "$src"
    fi
fi
cc=${CC:-$(command -v clang-19 || command -v clang || command -v gcc)}
build="$peers/libhiae-build"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_C_FLAGS="-march=${MARCH:-native}" >/dev/null
cmake --build "$build" --target hiae -j >/dev/null
echo "libhiae -march=${MARCH:-native} $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '(not a git checkout)'), $("$cc" --version | head -1)"
LIBHIAE_DIR="$build" cargo run --release -q -p aeadfast-benches --features libhiae --bin vs-libhiae -- "$@"
