#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan) in build-fuzz/ and runs
# them.
#   scripts/fuzz.sh TARGET SECONDS   a campaign: one target (program,
#                                    bundled_program, npy, runner_inputs,
#                                    ptd, xnnpack_payload, tokenizer,
#                                    session_file, image, wav) for SECONDS,
#                                    random seed,
#                                    corpus kept in build-fuzz/corpus/TARGET
#   scripts/fuzz.sh all SECONDS      every target, SECONDS each
#   scripts/fuzz.sh --ci             what CI runs: every committed seed and
#                                    regression input, then a fixed number of
#                                    mutations per target from random seed 1,
#                                    in a fresh corpus (build-fuzz/ci-corpus):
#                                    a fixed budget, independent of machine
#                                    speed. Not bit-for-bit repeatable
#                                    (libFuzzer's path still varies a little
#                                    between runs), so run it before a commit;
#                                    a finding in CI is a real bug all the same.
# Seeds come from the committed fixtures and from test/regression. Crash
# reproducers land in build-fuzz/crashes/TARGET/; once fixed, copy them into
# test/regression/ (see its README). Prints libFuzzer's final stats
# (executions, coverage) per target. Exits non-zero if any target found a
# crash.
set -euo pipefail
cd "$(dirname "$0")/.."

targets_all=(program bundled_program npy runner_inputs ptd)
# The XNNPACK blob parser, once the delegate is in the tree.
if [ -f backends/xnnpack/xnn_payload.h ]; then targets_all+=(xnnpack_payload); fi
# The Vulkan blob, where the delegate builds (glslc and the Vulkan headers).
if [ -f backends/vulkan/vk_compile.h ] && command -v glslc >/dev/null &&
   [ -f /usr/include/vulkan/vulkan.h ]; then targets_all+=(vulkan_payload); fi
# The LLM tokenizer files, when the LLM extension can be built (its
# libraries are installed by scripts/install_deps.sh).
# The prompt-cache session files too, restored into a delegated tiny Llama.
if [ -f /usr/include/sentencepiece_processor.h ] && [ -f /usr/include/pcre2.h ]; then
  targets_all+=(tokenizer)
  if [ -f backends/xnnpack/xnn_payload.h ]; then targets_all+=(session_file); fi
  # The multimodal runners' media readers: WAV, and pictures where stb_image
  # (libstb-dev, installed by scripts/install_deps.sh) is there to build them.
  targets_all+=(wav)
  if [ -f /usr/include/stb/stb_image.h ]; then targets_all+=(image); fi
fi
ci=0
if [ "${1:-}" = --ci ]; then
  ci=1
  targets=("${targets_all[@]}")
elif [ $# -lt 2 ]; then
  echo "usage: $0 TARGET|all SECONDS | $0 --ci  (targets: ${targets_all[*]})" >&2
  exit 2
elif [ "$1" = all ]; then targets=("${targets_all[@]}"); else targets=("$1"); fi
seconds=${2:-0}
build_dir=build-fuzz

scripts/install_deps.sh
# clang and its runtime libraries (libFuzzer, sanitizers) from the distribution.
if ! command -v clang++ >/dev/null ||
   [ ! -e "$(clang++ -print-resource-dir)/lib/linux/libclang_rt.fuzzer-$(uname -m).a" ]; then
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq clang libclang-rt-dev >/dev/null
fi
# -O1 with line tables: symbolized reports at a fraction of -O2 -g's
# compile time (the targets run a fixed number of inputs in CI).
fuzz_flags="-O1 -gline-tables-only -DNDEBUG"
CC=clang CXX=clang++ cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DEMBER_BUILD_FUZZERS=ON -DEMBER_BUILD_TESTS=OFF -DEMBER_BUILD_BENCHMARKS=OFF \
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=$fuzz_flags" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$fuzz_flags" >/dev/null
build_targets=("${targets[@]/%/_fuzzer}")
if [[ " ${targets[*]} " == *"_payload "* ]]; then build_targets+=(extract_delegate_blobs); fi
cmake --build "$build_dir" -j"$(nproc)" --target "${build_targets[@]}"

seed() {  # seed TARGET DIR: copy the fixtures a target reads into DIR
  local dir=$2
  mkdir -p "$dir"
  case $1 in
    program)
      for f in test/models/*/model.pte; do cp "$f" "$dir/$(basename "$(dirname "$f")").pte"; done
      # Delegated programs: the program target links the XNNPACK delegate.
      for f in test/models/xnnpack/programs/*.pte; do cp "$f" "$dir/xnnpack_$(basename "$f")"; done
      cp test/regression/*.pte "$dir/" 2>/dev/null || true ;;
    bundled_program)
      for f in test/models/bundled/*.bpte test/models/ops/*.bpte; do
        cp "$f" "$dir/$(basename "$(dirname "$f")")_$(basename "$f")"
      done
      cp test/regression/*.bpte "$dir/" 2>/dev/null || true ;;
    npy | runner_inputs)
      find test/models -name '*.npy' | while read -r f; do
        name=$(echo "$f" | tr / _)
        if [ "$1" = npy ]; then cp "$f" "$dir/$name"; else
          # Selector byte 0: an .npy item for the "add" fixture (see the target).
          { printf '\0'; cat "$f"; } > "$dir/$name"; fi
      done
      cp test/regression/*.npy "$dir/" 2>/dev/null || true ;;
    ptd)
      cp test/models/external/*.ptd "$dir/"
      cp test/regression/*.ptd "$dir/" 2>/dev/null || true ;;
    tokenizer)
      # Selector byte (see the target): 0 SentencePiece, 1 llama2.c,
      # 2 tokenizer.json, 3 tiktoken; 4 lets the detector choose.
      local f sel
      for f in test/models/tokenizers/*.model test/models/tokenizers/*.bin \
               test/models/tokenizers/bytelevel_gpt2.json test/models/tokenizers/bytelevel_llama3.json \
               test/models/llm/*.model test/regression/crash_tokenizer_*; do
        case $f in
          *tiktoken*) sel='\003' ;; *.model) sel='\000' ;; *.bin) sel='\001' ;; *.json) sel='\002' ;;
        esac
        { printf "$sel"; cat "$f"; } > "$dir/$(basename "$f")"
        { printf '\004'; cat "$f"; } > "$dir/detect_$(basename "$f")"
      done ;;
    xnnpack_payload)
      "$build_dir/fuzz/extract_delegate_blobs" "$dir" test/models/xnnpack/*.bpte >/dev/null
      cp test/regression/*.xnn "$dir/" 2>/dev/null || true ;;
    vulkan_payload)
      find test/models/vulkan -name '*.bpte' -print0 |
        xargs -0 "$build_dir/fuzz/extract_delegate_blobs" "$dir" >/dev/null
      cp test/regression/*.vk "$dir/" 2>/dev/null || true ;;
    session_file)
      # Sessions of the two tiny Llamas (ember_llm --prompt_cache wrote them):
      # the target restores into the legacy one.
      cp test/models/llm/sessions/*.session "$dir/"
      cp test/regression/*.session "$dir/" 2>/dev/null || true ;;
    image)
      # The pictures and image arrays of test/models/media (make_media.py).
      for f in test/models/media/*.png test/models/media/*.jpg test/models/media/*.bmp \
               test/models/media/image_*.npy; do cp "$f" "$dir/"; done
      cp test/regression/crash_image_* "$dir/" 2>/dev/null || true ;;
    wav)
      cp test/models/media/*.wav "$dir/"
      cp test/regression/crash_wav_* "$dir/" 2>/dev/null || true ;;
  esac
}

max_len() {
  case $1 in
    program | bundled_program | xnnpack_payload | vulkan_payload) echo 16384 ;;
    tokenizer | session_file) echo 65536 ;;
    image) echo 8192 ;;
    *) echo 4096 ;;
  esac
}

dict() {
  case $1 in
    program) echo fuzz/dict/pte.dict ;;
    *) echo "fuzz/dict/$1.dict" ;;
  esac
}

# CI: mutations per target (about 30 s each on a 2-core x86-64 VM).
ci_runs() {
  case $1 in
    program) echo 600000 ;;
    bundled_program) echo 300000 ;;
    npy) echo 4000000 ;;
    runner_inputs) echo 600000 ;;
    ptd) echo 300000 ;;
    xnnpack_payload) echo 2000000 ;;
    vulkan_payload) echo 500000 ;;
    tokenizer) echo 100000 ;;
    session_file) echo 100000 ;;
    image) echo 450000 ;;
    wav) echo 5000000 ;;
  esac
}

status=0
for t in "${targets[@]}"; do
  crashes=$build_dir/crashes/$t
  log=$build_dir/logs/$t.log
  if [ $ci = 1 ]; then
    corpus=$build_dir/ci-corpus/$t
    rm -rf "$corpus"
    budget=(-seed=1 -runs="$(ci_runs "$t")")
    what="$(ci_runs "$t") runs from seed 1"
  else
    corpus=$build_dir/corpus/$t
    budget=(-max_total_time="$seconds")
    what="${seconds}s"
  fi
  mkdir -p "$corpus" "$crashes" "$(dirname "$log")"
  seed "$t" "$corpus"
  echo "== $t: $what, corpus $corpus, crashes in $crashes/"
  set +e
  # detect_leaks: a leak is a finding too. -fork=1 is not used: one process
  # keeps the stats simple; -ignore_crashes=0 stops on the first finding.
  # An allocation over 256 MiB returns null (max_allocation_size_mb, below
  # libFuzzer's 2 GiB malloc limit): a blob may ask XNNPACK for gigabytes
  # (a pooling window's indirection buffer), and what must be checked is
  # that the failure comes back as an Error.
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:max_allocation_size_mb=256 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$build_dir/fuzz/${t}_fuzzer" "$corpus" -dict="$(dict "$t")" \
      -max_len="$(max_len "$t")" "${budget[@]}" -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$crashes/" -print_final_stats=1 >"$log" 2>&1
  rc=$?
  set -e
  grep -E '^#[0-9]+ +DONE|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb' "$log" || true
  if [ $rc -ne 0 ]; then
    echo "!! $t: libFuzzer exited $rc; reproducer(s):" >&2
    ls "$crashes" >&2
    grep -m5 -E 'ERROR|runtime error|SUMMARY' "$log" >&2 || true
    status=1
  fi
done
exit $status
