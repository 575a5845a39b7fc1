#!/usr/bin/env bash
# Stripped binary sizes of the smallest embedding (examples/selective_build/
# minimal_runner.cpp), no Python needed:
#
#   scripts/binary_sizes.sh [BUILD_DIR] [OPS_FILE]
#
#   core      the runtime (program loading, method execution, allocators,
#             registries) and the prim ops, no kernels
#   +ops      plus a selective build of the portable kernels for OPS_FILE
#             (default: examples/selective_build/mobilenet_v2_ops.txt)
#   +xnnpack  plus the XNNPACK delegate and XNNPACK itself
#   all ops   for comparison, every portable kernel (ALL_OPS=1 only: one
#             more tree per profile, compiling all 185 kernel files)
#
# Two profiles, each in its own tree (PROFILES="release size" by default):
#   release  CMake's Release (-O3 -DNDEBUG), the project's default flags
#   size     CMake's MinSizeRel (-Os -DNDEBUG) and no unwind tables
#            (-fno-asynchronous-unwind-tables -fno-unwind-tables: the
#            runtime has no exceptions to unwind)
# both with -ffunction-sections -fdata-sections and -Wl,--gc-sections, so
# the linker drops what nothing calls. kernels/math keeps its own -O3
# in both. Sizes are of `strip`ped copies; libc, libm and libstdc++ are
# shared libraries (not counted). The compiler is the one CMake finds
# (CXX=... to choose). Trees: BUILD_DIR-<profile> (default
# build-sizes-<profile>), tests, benchmarks and the conformance suite off.
# JOBS (default 2) sets the build parallelism. EMBER_DEPS_DIR /
# EMBER_XNNPACK_PREFIX are honoured as in any build.
#
# A MobileNetV2 program to run with the selective build can be given in
# MODEL=...pte: the script then runs it once with each runner that has its
# kernels, to show the selection is enough.
#
# Cortex-M (bare metal, Debian's arm-none-eabi GCC and newlib-nano):
#
#   scripts/binary_sizes.sh --target cortex-m55|cortex-m4|cortex-m33 [OPS_FILE]
#
# builds the size probe (examples/baremetal/size_probe.cpp: load a program,
# load "forward", execute) at -Os with gc-sections, twice: the runtime core
# alone, and the core plus the prim ops and a selective build of OPS_FILE
# (default: the MobileNetV2 set above; EMBER_MAX_KERNELS=64 there). It
# prints .text, .rodata, .data and .bss of the whole image and of Ember's
# own objects (read from the linker map), newlib and libgcc being the rest.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = "--target" ]; then
  exec "$repo/scripts/binary_sizes_cortex_m.sh" "${@:2}"
fi
build=${1:-$repo/build-sizes}  # trees: $build-<profile>
ops_file=${2:-$repo/examples/selective_build/mobilenet_v2_ops.txt}
jobs=${JOBS:-2}
profiles=${PROFILES:-release size}
link_flags="-Wl,--gc-sections"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
xnn=()
if [[ -n "${EMBER_XNNPACK_PREFIX:-}" ]]; then
  xnn=(-DEMBER_XNNPACK_PREFIX="$EMBER_XNNPACK_PREFIX")
fi

configure() {  # dir, build type, flags, extra cmake arguments...
  local dir=$1 type=$2 flags=$3
  shift 3
  mkdir -p "$dir"
  cmake -S "$repo" -B "$dir" -DCMAKE_BUILD_TYPE="$type" \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_C_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="$link_flags" \
    -DEMBER_BUILD_TESTS=OFF -DEMBER_BUILD_BENCHMARKS=OFF -DEMBER_BUILD_CONFORMANCE=OFF \
    "${launcher[@]}" "${xnn[@]}" "$@" >"$dir/configure.log" 2>&1 ||
    { cat "$dir/configure.log"; exit 1; }
}

stripped_size() {  # binary -> bytes of a stripped copy
  strip -o "$1.stripped" "$1"
  stat -c %s "$1.stripped"
}

report() {  # label, binary
  local bytes
  bytes=$(stripped_size "$2")
  printf '%-12s %10d bytes  %8.1f KiB  %s\n' "$1" "$bytes" "$(awk -v b="$bytes" 'BEGIN { print b / 1024 }')" \
    "$(basename "$2")"
}

sections="-ffunction-sections -fdata-sections"
compiler=""
for profile in $profiles; do
  case $profile in
    release) type=Release flags="$sections" ;;
    size) type=MinSizeRel flags="$sections -fno-asynchronous-unwind-tables -fno-unwind-tables" ;;
    *) echo "unknown profile $profile (release, size)" >&2; exit 2 ;;
  esac
  dir=$build-$profile
  configure "$dir" "$type" "$flags" -DEMBER_SELECT_OPS_FILE="$ops_file"
  cmake --build "$dir" -j "$jobs" --target ember_minimal_runner ember_minimal_runner_portable \
    ember_minimal_runner_xnnpack >"$dir/build.log" 2>&1 || { tail -50 "$dir/build.log"; exit 1; }
  ex=$dir/examples
  if [[ -z "$compiler" ]]; then
    compiler=$(grep -m1 '^CMAKE_CXX_COMPILER:' "$dir/CMakeCache.txt" | cut -d= -f2)
    echo "compiler: $("$compiler" --version | head -1), $(uname -m)"
    echo "selected operators: $(grep -cv '^\s*\(#\|$\)' "$ops_file") from ${ops_file#"$repo"/}"
  fi
  echo "profile $profile: $type, $flags, link $link_flags, stripped"
  echo "  registered kernels: core $("$ex/ember_minimal_runner" /dev/null --kernels 2>/dev/null | wc -l)," \
       "+ops $("$ex/ember_minimal_runner_portable" /dev/null --kernels 2>/dev/null | wc -l)"
  report "  core" "$ex/ember_minimal_runner"
  report "  +ops" "$ex/ember_minimal_runner_portable"
  report "  +xnnpack" "$ex/ember_minimal_runner_xnnpack"

  if [[ "${ALL_OPS:-0}" == 1 ]]; then
    configure "$dir-all" "$type" "$flags"
    cmake --build "$dir-all" -j "$jobs" --target ember_minimal_runner_portable \
      >"$dir-all/build.log" 2>&1 || { tail -50 "$dir-all/build.log"; exit 1; }
    report "  all ops" "$dir-all/examples/ember_minimal_runner_portable"
  fi

  if [[ -n "${MODEL:-}" ]]; then
    for runner in ember_minimal_runner_portable ember_minimal_runner_xnnpack; do
      echo "  $runner $(basename "$MODEL"): $("$ex/$runner" "$MODEL" 2>&1)"
    done
  fi
done
