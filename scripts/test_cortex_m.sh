#!/usr/bin/env bash
# Builds the runtime-only tree for a Cortex-M core and runs the on-target
# suite on QEMU (test/cortex_m/CMakeLists.txt says what it holds):
#
#   scripts/test_cortex_m.sh [--cpu cortex-m55|cortex-m4|cortex-m33]
#
# Installs the toolchain and QEMU first (scripts/install_cortex_m.sh).
# Tree: build-<cpu>/ (the CMake preset of that name).
set -euo pipefail
cd "$(dirname "$0")/.."
cpu=cortex-m55
if [ "${1:-}" = "--cpu" ]; then cpu="$2"; fi
scripts/install_cortex_m.sh
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B "build-$cpu" -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/arm-none-eabi.cmake \
  -DEMBER_CORTEX_M_CPU="$cpu" -DCMAKE_BUILD_TYPE=MinSizeRel "${launcher[@]}" >/dev/null
cmake --build "build-$cpu" -j"$(nproc)"
ctest --test-dir "build-$cpu" --output-on-failure -j"$(nproc)"
