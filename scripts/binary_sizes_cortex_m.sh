#!/usr/bin/env bash
# The Cortex-M half of scripts/binary_sizes.sh (see there):
#   scripts/binary_sizes_cortex_m.sh CPU [OPS_FILE]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cpu=${1:?usage: binary_sizes.sh --target cortex-m55|cortex-m4|cortex-m33 [OPS_FILE]}
ops_file=${2:-$repo/examples/selective_build/mobilenet_v2_ops.txt}
jobs=${JOBS:-2}
command -v arm-none-eabi-g++ >/dev/null || "$repo/scripts/install_cortex_m.sh"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi

build_probe() {  # dir, target, extra cmake arguments...
  local dir=$1 target=$2
  shift 2
  mkdir -p "$dir"
  cmake -S "$repo" -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$repo/cmake/toolchains/arm-none-eabi.cmake" \
    -DEMBER_CORTEX_M_CPU="$cpu" -DCMAKE_BUILD_TYPE=MinSizeRel -DEMBER_BAREMETAL_MODEL= \
    "${launcher[@]}" "$@" >"$dir/size-configure.log" 2>&1 || { cat "$dir/size-configure.log"; exit 1; }
  cmake --build "$dir" -j"$jobs" --target "$target" >"$dir/size-build.log" 2>&1 ||
    { tail -30 "$dir/size-build.log"; exit 1; }
}

# Sizes per output section from the linker map: all input sections, and
# those from Ember's own objects (libember_*.a members, ember_* object
# libraries; not the probe's own buffers and start-up, not newlib/libgcc).
sizes() {  # map file
  awk '
    function hex(s,    i, c, v) {  # "0x1f" -> 31 (mawk has no strtonum)
      v = 0
      for (i = 3; i <= length(s); ++i) {
        c = index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
        v = v * 16 + c
      }
      return v
    }
    function flush() {
      if (name != "" && size != "") {
        sec = out
        total[sec] += hex(size)
        if ((file ~ /libember_/ || file ~ /\/ember_[a-z_]*\.dir\//) && file !~ /ember_size_/) {
          ember[sec] += hex(size)
          if (sec == "text") {
            obj = file; sub(/.*[\/(]/, "", obj); sub(/\)$/, "", obj); per_object[obj] += hex(size)
          }
        }
      }
      name = ""; size = ""; file = ""
    }
    /^\.text/ { out = "text" } /^\.rodata/ { out = "rodata" }
    /^\.ARM\.ex/ { out = "rodata" } /^\.(init|fini|preinit)_array/ { out = "rodata" }
    /^\.data/ { out = "data" } /^\.bss/ { out = "bss" } /^\.bulk/ { out = "" }
    /^\.vectors/ { out = "rodata" } /^\.(debug|comment|ARM\.attributes)/ { out = "" }
    /^ \.[^ ]+ +0x[0-9a-f]+ +0x[0-9a-f]+ / {
      flush(); if (out != "") { name = $1; size = $3; file = $4; flush() } next }
    /^ \.[^ ]+$/ { pending = $1; next }
    /^ +0x[0-9a-f]+ +0x[0-9a-f]+ / {
      if (pending != "" && out != "") { name = pending; size = $2; file = $3; flush() }
      pending = ""; next }
    END {
      printf "%-8s %10s %10s\n", "section", "image", "ember"
      n = split("text rodata data bss", order, " ")
      for (i = 1; i <= n; ++i) printf "%-8s %10d %10d\n", order[i], total[order[i]], ember[order[i]]
      printf "largest Ember objects (.text bytes):\n"
      for (o in per_object) printf "%10d  %s\n", per_object[o], o | "sort -rn | head -8"
      close("sort -rn | head -8")
    }' "$1"
}

root="$repo/build-sizes-$cpu"
echo "Cortex-M sizes: $cpu, $(arm-none-eabi-g++ --version | head -1), -Os, gc-sections, newlib-nano"
build_probe "$root-core" ember_size_core
echo
echo "runtime core alone (examples/baremetal/size_probe.cpp, no kernels, no prim ops), bytes:"
sizes "$root-core/examples/baremetal/ember_size_core.elf.map"
build_probe "$root-ops" ember_size_kernels -DEMBER_SELECT_OPS_FILE="$ops_file" -DEMBER_MAX_KERNELS=64
echo
echo "core + prim ops + selective build of $(basename "$ops_file") (EMBER_MAX_KERNELS=64), bytes:"
sizes "$root-ops/examples/baremetal/ember_size_kernels.elf.map"
