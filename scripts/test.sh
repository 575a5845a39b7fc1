#!/usr/bin/env bash
# Installs dependencies, builds everything and runs the whole test suite.
#   scripts/test.sh              Release build in build/
#   scripts/test.sh --sanitize   AddressSanitizer + UBSan build in build-asan/
#   scripts/test.sh --tsan       ThreadSanitizer build in build-tsan/ of the
#                                thread-safety test only, and its run
#   scripts/test.sh --target aarch64
#                                cross build for ARM64 in build-aarch64/, the
#                                suite run under qemu-aarch64 (docs/arm64.md)
#   scripts/test.sh --cpu-matrix the Release build, then the kernel-path tests
#                                at every CPU level this host covers
#                                (scripts/cpu_matrix.sh, docs/cpu_features.md)
#   scripts/test.sh --target aarch64 --cpu-matrix
#                                the ARM64 build, then those tests under
#                                several QEMU CPU models
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--target" ]; then
  target="${2:-}"
  toolchain="$(scripts/install_target_deps.sh "$target")"
  build_dir="build-$target"
  # No benchmarks: emulation is not timing. Each gtest binary runs as four
  # shards (cmake/EmberGtest.cmake): a process start under qemu costs 0.2 s.
  cmake -S . -B "$build_dir" -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_BUILD_TYPE=Release \
    -DEMBER_TEST_SHARDS=4 \
    -DEMBER_BUILD_BENCHMARKS=OFF >/dev/null
  cmake --build "$build_dir" -j"$(nproc)"
  # Left out under emulation (docs/arm64.md says why): programs that start
  # the target's programs with neither the emulator nor binfmt_misc (a
  # second host-configured tree; ember_list_ops from a CMake script;
  # ember_conformance's per-case children from /proc/self/exe).
  exclude='^(selective_build\.(real_build|list_ops)|conformance\.conformance_suite_test\..*)$'
  if [ "${3:-}" = "--cpu-matrix" ]; then exec scripts/cpu_matrix.sh "$build_dir"; fi
  ctest --test-dir "$build_dir" --output-on-failure -j"$(nproc)" -E "$exclude"
  exit 0
fi

if [ "${1:-}" = "--cpu-matrix" ]; then
  scripts/install_deps.sh
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j"$(nproc)"
  exec scripts/cpu_matrix.sh build
fi

if [ "${1:-}" = "--tsan" ]; then
  # Only what the thread-safety test needs: the whole suite under TSan
  # would add nothing (it is single-threaded) and take long on 2 cores.
  scripts/install_deps.sh
  jobs=$(nproc)
  cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEMBER_TSAN=ON \
    -DEMBER_BUILD_BENCHMARKS=OFF -DEMBER_BUILD_CONFORMANCE=OFF >/dev/null
  cmake --build build-tsan -j"$jobs" --target thread_safety_test platform_test
  # halt_on_error: the first report fails the test (exit code 66).
  export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/scripts/tsan.supp"
  ctest --test-dir build-tsan --output-on-failure -j1 -R '^(thread_safety\.|platform\.(SharedPool|BusyPool)\.)'
  exit 0
fi

build_dir=build
cmake_args=(-DCMAKE_BUILD_TYPE=Release)
if [ "${1:-}" = "--sanitize" ]; then
  build_dir=build-asan
  # -O1 with line tables (-g1): what the sanitizers need for exact reports
  # and symbolized stacks, at about two thirds of -O2 -g's compile time.
  # No benchmarks: they are not run under the sanitizers. Each gtest binary
  # runs as four shards (cmake/EmberGtest.cmake): ASan's start is 0.08 s.
  san_flags="-O1 -g1 -DNDEBUG"
  cmake_args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DEMBER_SANITIZE=ON -DEMBER_BUILD_BENCHMARKS=OFF
              -DEMBER_TEST_SHARDS=4
              "-DCMAKE_C_FLAGS_RELWITHDEBINFO=$san_flags" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$san_flags")
  # Sizes read from hostile files may ask for absurd allocations: those
  # must fail (and be reported), not abort the sanitizer's allocator.
  export ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1
  # Leaks inside third-party drivers loaded at run time (Mesa's lavapipe).
  export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0"
fi

scripts/install_deps.sh
jobs=$(nproc)
cmake -S . -B "$build_dir" "${cmake_args[@]}" >/dev/null
cmake --build "$build_dir" -j"$jobs"
ctest --test-dir "$build_dir" --output-on-failure -j"$jobs"
