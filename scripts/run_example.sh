#!/usr/bin/env bash
# Installs dependencies, builds executor_runner and runs it on a committed
# example (default: the bundled MLP, whose test cases are verified). Extra
# arguments go to the runner, e.g.
#   scripts/run_example.sh --model_path=test/models/convnet/model.pte
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install_deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target executor_runner
if [ $# -eq 0 ]; then
  set -- --model_path=test/models/bundled/mlp.bpte
fi
exec build/examples/executor_runner "$@"
