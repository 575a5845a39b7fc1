#!/usr/bin/env bash
# Builds the Python module `ember` the way a user does (`pip install .` in a
# fresh virtual environment, build-pyvenv/) and runs python/tests with it.
# The C++ build and tests never need this; CI runs it after scripts/test.sh,
# so the tests also compare with build/examples/executor_runner.
# pip's isolated build takes scikit-build-core and pybind11 from PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install_deps.sh
venv=build-pyvenv
rm -rf "$venv"
python3 -m venv "$venv"
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"
"$venv/bin/pip" install --quiet ".[test]"
"$venv/bin/python" -m pytest -q python/tests
