#!/usr/bin/env bash
# Installs dependencies, builds everything and runs the whole test suite.
#   scripts/test.sh              Release build in build/
#   scripts/test.sh --sanitize   AddressSanitizer + UBSan build in build-asan/
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=build
cmake_args=(-DCMAKE_BUILD_TYPE=Release)
if [ "${1:-}" = "--sanitize" ]; then
  build_dir=build-asan
  cmake_args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DEMBER_SANITIZE=ON)
  # Sizes read from hostile files may ask for absurd allocations: those
  # must fail (and be reported), not abort the sanitizer's allocator.
  export ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1
fi

scripts/install_deps.sh
jobs=$(nproc)
cmake -S . -B "$build_dir" "${cmake_args[@]}" >/dev/null
cmake --build "$build_dir" -j"$jobs"
ctest --test-dir "$build_dir" --output-on-failure -j"$jobs"
