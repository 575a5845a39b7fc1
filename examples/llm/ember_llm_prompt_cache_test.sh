#!/usr/bin/env bash
# ember_llm --prompt_cache from the command line (ctest
# llm.ember_llm.prompt_cache, test/llm/CMakeLists.txt): on a tiny Llama,
# every run with the cache prints the ids a run without it prints, and
# stderr says what the cache did: written, restored (how many tokens),
# refused (a prompt that does not start with its tokens, a damaged file,
# another program's session), and the file is usable again after each.
#
#   examples/llm/ember_llm_prompt_cache_test.sh EMBER_LLM MODELS_DIR WORK_DIR
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 EMBER_LLM MODELS_DIR WORK_DIR" >&2
  exit 2
fi
ember_llm=$1 models=$2 work=$3
mkdir -p "$work"
cache=$work/prompt.session
rm -f "$cache"
status=0

# run MODEL PROMPT [FLAGS...]: the generated ids line; stderr into $work/err.
run() {
  local model=$1 prompt=$2
  shift 2
  "$ember_llm" --model_path="$models/$model" --tokenizer_path="$models/tiny_llm_tokenizer.model" \
    --prompt="$prompt" --temperature=0 --num_bos=1 --max_new_tokens=8 --print_token_ids "$@" \
    2>"$work/err" | grep '^generated_ids:'
}

# check WHAT EXPECTED_IDS ACTUAL_IDS STDERR_WORDS: the same ids, and stderr
# saying STDERR_WORDS.
check() {
  if [ "$2" != "$3" ]; then
    echo "FAIL $1: ids differ from the run without the cache:" >&2
    echo "  without: $2" >&2
    echo "  with:    $3" >&2
    status=1
  elif ! grep -qF -- "$4" "$work/err"; then
    echo "FAIL $1: stderr does not say \"$4\":" >&2
    sed 's/^/  /' "$work/err" >&2
    status=1
  else
    echo "ok $1"
  fi
}

base="The quick brown fox jumps over the lazy dog"
longer="$base and the little fox met a bear"
other="Once upon a time"
model=tiny_llama_legacy.pte

plain_base=$(run $model "$base")
plain_longer=$(run $model "$longer")
plain_other=$(run $model "$other")

check "first run writes the cache" "$plain_base" "$(run $model "$base" --prompt_cache="$cache")" \
  "does not exist yet; it will be written"
check "a longer prompt restores it" "$plain_longer" \
  "$(run $model "$longer" --prompt_cache="$cache")" "restored 12 tokens from"
check "the same prompt again runs no prefill" "$plain_longer" \
  "$(run $model "$longer" --prompt_cache="$cache")" "Prompt tokens from the cache:	20 of 20"
check "another prompt is refused" "$plain_other" "$(run $model "$other" --prompt_cache="$cache")" \
  "the session's 20 tokens do not start the prompt's 5: token 1 is id 304 there, 429 in the prompt"
check "the refused file was overwritten" "$plain_other" \
  "$(run $model "$other" --prompt_cache="$cache")" "restored 5 tokens from"
head -c 1000 "$cache" >"$cache.cut" && mv "$cache.cut" "$cache"
check "a cut file is refused" "$plain_other" "$(run $model "$other" --prompt_cache="$cache")" \
  "(cut short or extended); it will be overwritten"
check "another program's session is refused" "$(run tiny_llama_config.pte "$other")" \
  "$(run tiny_llama_config.pte "$other" --prompt_cache="$cache")" \
  "the session was saved for another program or method"
exit $status
