#!/usr/bin/env bash
# Installs dependencies, builds executor_runner and runs it on a committed
# example (default: the bundled MLP, whose test cases are verified). Extra
# arguments go to the runner, e.g.
#   scripts/run_example.sh --model_path=test/models/convnet/model.pte
# For ARM64: the runner cross-built in build-aarch64/ and run under
# qemu-aarch64 with the same arguments (docs/arm64.md):
#   scripts/run_example.sh --target aarch64 --model_path=test/models/xnnpack/tiny_cnn.bpte
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--target" ]; then
  target="${2:-}"
  shift 2
  toolchain="$(scripts/install_target_deps.sh "$target")"
  build_dir="build-$target"
  cmake -S . -B "$build_dir" -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_BUILD_TYPE=Release \
    -DEMBER_BUILD_BENCHMARKS=OFF >/dev/null
  cmake --build "$build_dir" -j"$(nproc)" --target executor_runner
  if [ $# -eq 0 ]; then
    set -- --model_path=test/models/bundled/mlp.bpte
  fi
  # The emulator command line the toolchain file gives ctest.
  emulator="$(sed -n 's/^CMAKE_CROSSCOMPILING_EMULATOR:[A-Z]*=//p' "$build_dir/CMakeCache.txt")"
  IFS=';' read -r -a emulator <<<"$emulator"
  exec "${emulator[@]}" "$build_dir/examples/executor_runner" "$@"
fi

scripts/install_deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target executor_runner
if [ $# -eq 0 ]; then
  set -- --model_path=test/models/bundled/mlp.bpte
fi
exec build/examples/executor_runner "$@"
