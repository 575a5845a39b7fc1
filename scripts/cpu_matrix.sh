#!/usr/bin/env bash
# The CPU-feature matrix: the kernel paths of other CPUs, run on this one.
#
#   scripts/cpu_matrix.sh [BUILD_DIR]     (scripts/test.sh --cpu-matrix)
#
# Ember's kernel library and XNNPACK pick their code paths by the CPU's
# features at run time, so a suite only tests what its host picks. This
# runs the suites whose results depend on that choice at every CPU level
# (EMBER_CPU_FEATURES, docs/cpu_features.md) this host covers:
#   - the XNNPACK delegate's fixtures and tests (ctest 'xnnpack.*'),
#   - the LLM tests (text generation against upstream's tokens, the LLM
#     operators),
#   - the kernel library's tests ('math.*'),
#   - one shard of the conformance suite over the XNNPACK fixtures, one
#     thread;
# and prints one line per level: its result, or that it was skipped and
# which features this host lacks for it. Levels whose effective features
# equal an earlier level's are run once.
#
# On an ARM64 build (BUILD_DIR with a cross toolchain, run under
# qemu-aarch64), the levels are QEMU CPU models instead (QEMU_CPU), each a
# different set of XNNPACK paths: cortex-a53 (NEON only), cortex-a76 (dot
# product, fp16 arithmetic), max (i8mm, bf16, SVE).
#
# Exits non-zero when any level failed.
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir="${1:-build}"
runner="$build_dir/examples/executor_runner"
[ -x "$runner" ] || { echo "cpu_matrix: no $runner (build first: scripts/test.sh)" >&2; exit 2; }
jobs=$(nproc)
# The suites that depend on the kernel paths, by ctest name.
suites='^(xnnpack|llm|llm_ops|math)\.'
log_dir="$build_dir/cpu-matrix"
mkdir -p "$log_dir"

# An ARM64 cross build (its toolchain file is in the cache; its programs
# run under qemu-aarch64 through ctest).
cross=0
if grep -q '^CMAKE_TOOLCHAIN_FILE:.*aarch64' "$build_dir/CMakeCache.txt" 2>/dev/null; then
  cross=1
  command -v qemu-aarch64 >/dev/null || { echo "cpu_matrix: qemu-aarch64 not found" >&2; exit 2; }
fi

results=()
failed=0
ran=0

run_level() {  # run_level NAME ENV... : the suites (and the conformance shard) under ENV
  local name="$1"; shift
  local start=$SECONDS rc=0 log="$log_dir/$name.log"
  ran=$((ran + 1))
  env "$@" ctest --test-dir "$build_dir" -j"$jobs" -R "$suites" --no-tests=error --output-on-failure \
    >"$log" 2>&1 || rc=$?
  local summary
  summary="$(grep -E 'tests passed|tests failed' "$log" | tail -1)"
  if [ $cross -eq 0 ] && [ $rc -eq 0 ] && [ -x "$build_dir/conformance/ember_conformance" ]; then
    env "$@" "$build_dir/conformance/ember_conformance" --cases test/models/xnnpack \
      --out "$log_dir/conformance-$name" --threads 1 --shard 1/8 --timeout 60 --quiet \
      >>"$log" 2>&1 || rc=$?
    summary+="; conformance shard $([ $rc -eq 0 ] && echo passed || echo FAILED)"
  fi
  local verdict=passed
  if [ $rc -ne 0 ]; then verdict=FAILED; failed=1; fi
  results+=("$(printf '%-16s %-7s %4ss  %s' "$name" "$verdict" $((SECONDS - start)) "$summary")")
  if [ $rc -ne 0 ]; then grep -E '^ *[0-9]+ - |\(Failed\)' "$log" | head -20 >&2 || true; fi
}

if [ $cross -eq 1 ]; then
  # QEMU's CPU models stand for the levels; every feature a model has is used.
  for model in cortex-a53 cortex-a76 max; do
    run_level "qemu-$model" QEMU_CPU="$model"
  done
else
  levels="$("$runner" --cpu_levels)" || { echo "cpu_matrix: $runner --cpu_levels failed" >&2; exit 2; }
  [ -n "$levels" ] || { echo "cpu_matrix: $runner listed no CPU levels" >&2; exit 2; }
  seen=()
  while IFS=$'\t' read -r level covered in_use stands_for; do
    if [ "$covered" != host ]; then
      results+=("$(printf '%-16s %-7s        this CPU %s (%s)' "$level" skipped "$covered" "$stands_for")")
      continue
    fi
    # A level whose features in use equal an earlier one's adds nothing.
    dup=
    for s in "${seen[@]}"; do [ "${s%%=*}" = "$in_use" ] && dup="${s#*=}"; done
    if [ -n "$dup" ]; then
      results+=("$(printf '%-16s %-7s        same features as %s' "$level" skipped "$dup")")
      continue
    fi
    seen+=("$in_use=$level")
    run_level "$level" EMBER_CPU_FEATURES="$level"
  done <<<"$levels"
fi

[ $ran -gt 0 ] || { echo "cpu_matrix: no level ran" >&2; failed=1; }
echo "CPU-feature matrix ($build_dir; logs in $log_dir):"
printf '  %s\n' "${results[@]}"
exit $failed
