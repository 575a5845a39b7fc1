#!/usr/bin/env bash
# Runs a program on an emulated Cortex-M and verifies its bundled test cases:
#
#   scripts/run_cortex_m.sh FILE.pte|FILE.bpte [--cpu cortex-m55|cortex-m4|cortex-m33] [RUNNER FLAGS]
#
# Installs the toolchain and QEMU (scripts/install_cortex_m.sh), builds the
# runtime-only tree build-<cpu>/ (once; later runs rebuild only what
# changed), then boots the bare-metal runner on QEMU's board for the core
# (mps3-an547 for the Cortex-M55, the default) with FILE read from this
# machine over semihosting, so no rebuild per file. Exit status 0 when every
# bundled test case verifies (a .pte: when every method runs on inputs of
# ones), 1 with the failing case named otherwise, 2 for bad usage.
# Runner flags (examples/baremetal/main.cpp): --method=NAME, --rtol=X,
# --atol=X, --cycles, --kernel_prepare=0, --header (print the memory header instead).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cpu=cortex-m55
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --cpu) cpu="$2"; shift 2 ;;
    --cpu=*) cpu="${1#--cpu=}"; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
file=""
for a in "${args[@]}"; do
  case "$a" in --*) ;; *) file="$a" ;; esac
done
[ -n "$file" ] || { echo "usage: scripts/run_cortex_m.sh FILE.pte|FILE.bpte [--cpu CPU] [flags]" >&2; exit 2; }
[ -r "$file" ] || { echo "run_cortex_m.sh: cannot read '$file'" >&2; exit 2; }
"$repo/scripts/install_cortex_m.sh"
build="$repo/build-$cpu"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$repo" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$repo/cmake/toolchains/arm-none-eabi.cmake" \
    -DEMBER_CORTEX_M_CPU="$cpu" -DCMAKE_BUILD_TYPE=MinSizeRel "${launcher[@]}" >/dev/null
fi
cmake --build "$build" -j"$(nproc)" --target ember_baremetal_runner >/dev/null
# Absolute paths: QEMU opens the program's files relative to its own
# working directory.
abs=()
for a in "${args[@]}"; do
  case "$a" in --*) abs+=("$a") ;; *) abs+=("$(cd "$(dirname "$a")" && pwd)/$(basename "$a")") ;; esac
done
exec "$repo/scripts/qemu_cortex_m.sh" --cpu "$cpu" \
  "$build/examples/baremetal/ember_baremetal_runner.elf" "${abs[@]}"
