#!/usr/bin/env python3
"""Text generation speed and memory: Ember's ember_llm against upstream's
TextLLMRunner (executorch 1.5.1's Python binding) on the same program,
tokenizer and prompt, in one run, fresh processes, alternating.

  python bench/compare_llm.py --ember build/examples/ember_llm \\
      [--shape bench|smollm2_135m|qwen3_0_6b|llama3_2_1b] [--work .bench/llm]
      [--threads 1,2] [--rounds 3] [--new-tokens 128] [--busy N]

Models are made on demand into --work (not committed), with seeded random
weights (RMSNorm weights 1) and exported with upstream's export_llama CLI:
-X -qmode 8da4w -G 32 -E 4,32 --use_kv_cache --use_sdpa_with_kv_cache,
metadata get_eos_ids = [vocab + 1] (no such token) so both runners generate
exactly --new-tokens tokens. Greedy, one BOS, the same prompt for both.

Shapes (--shape):
  bench         a Llama of dim 512, 8 layers, 8 heads, 32,000 vocabulary,
                max_seq_length 128, max_context 512, a 60-token prompt:
                small enough that per-token overhead rules.
  smollm2_135m  upstream's SmolLM2-135M config (dim 576, 30 layers, 9 / 3
                heads, 49,152 vocabulary), export_llama --model smollm2.
  qwen3_0_6b    upstream's Qwen3-0.6B config (dim 1024, 28 layers, 16 / 8
                heads, head_dim 128, QK-norm, 151,936 vocabulary).
  llama3_2_1b   Llama-3.2-1B (dim 2048, 16 layers, 32 / 8 heads, FFN 8192,
                scaled RoPE, 128,256 vocabulary), --model llama3_2.
The real-size shapes use max_seq_length 512, max_context 1024 and a
512-token prompt (BOS + 511 tokens of the byte-level BPE tokenizer trained
here with the `tokenizers` library to the model's vocabulary size).

Reported per thread count: decode tokens/s (new tokens after the first over
the time after prefill), time to first token (from the start of inference:
encoding and prefill), peak RSS growth of the runner process alone (Ember:
ember_llm's peak (VmHWM) minus its RSS before loading, both printed by
ember_llm; upstream: the child's VmHWM minus its RSS after importing torch
and executorch, before the runner is created), medians over rounds, and the
median of the per-round ratios Ember / upstream (each round runs upstream
then Ember, so a slow spell of the machine hits both).

The memory roofline: the bytes a decoding step must read (every weight of
the delegates and of the portable operators, one embedding row, and the KV
cache up to the mean decode position), read from the program with
upstream's own deserializer, over the machine's read bandwidth measured in
the same run (a C loop summing a 2 GiB buffer, at each thread count; it is
compiled here with the system's `cc`). "roofline %" is decode tokens/s over
bandwidth / bytes per token.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

PROMPT = ("Once upon a time in a small village by the sea there lived an old "
          "fisherman and his wife. Every morning he went out in his boat and every "
          "evening he came back with the fish he had caught, and they were happy.")

# name: (export_llama --model, params.json, max_seq_length, max_context,
#        prompt tokens after BOS or None for PROMPT)
SHAPES = {
    "bench": ("llama3", dict(dim=512, n_layers=8, n_heads=8, n_kv_heads=8,
                             vocab_size=32000, multiple_of=256, norm_eps=1e-5),
              128, 512, None),
    "smollm2_135m": ("smollm2", dict(dim=576, ffn_dim_multiplier=1, hidden_dim=1536,
                                     n_heads=9, n_kv_heads=3, n_layers=30, norm_eps=1e-5,
                                     rope_theta=100000.0, use_scaled_rope=False,
                                     vocab_size=49152, use_hf_rope=False,
                                     attention_qkv_bias=False),
                     512, 1024, 511),
    "qwen3_0_6b": ("qwen3_0_6b", dict(dim=1024, ffn_dim_multiplier=1, hidden_dim=3072,
                                      n_heads=16, head_dim=128, n_kv_heads=8, n_layers=28,
                                      norm_eps=1e-6, rope_theta=1000000.0,
                                      use_scaled_rope=False, vocab_size=151936,
                                      use_hf_rope=True, attention_qkv_bias=False,
                                      use_qk_norm=True, qk_norm_before_rope=True),
                   512, 1024, 511),
    "llama3_2_1b": ("llama3_2", dict(dim=2048, ffn_dim_multiplier=1.5, multiple_of=256,
                                     n_heads=32, n_kv_heads=8, n_layers=16, norm_eps=1e-5,
                                     rope_theta=500000.0, use_scaled_rope=True,
                                     vocab_size=128256),
                    512, 1024, 511),
}

OBSERVER = re.compile(r"PyTorchObserver (\{.*\})")
PEAK_RSS = re.compile(r"Peak RSS:\s+([0-9.]+) MiB \(([0-9.]+) MiB before loading\)")

BANDWIDTH_C = r"""
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static const size_t kBytes = (size_t)1 << 31;
static uint64_t* buf;
static int threads;
static uint64_t sums[64];
static void* reader(void* arg) {
  const long t = (long)arg;
  const size_t n = kBytes / 8 / threads;
  const uint64_t* p = buf + t * n;
  uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (size_t i = 0; i < n; i += 4) { s0 += p[i]; s1 += p[i + 1]; s2 += p[i + 2]; s3 += p[i + 3]; }
  sums[t] = s0 + s1 + s2 + s3;
  return 0;
}
static double now(void) {
  struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}
int main(int argc, char** argv) {
  threads = atoi(argv[1]);
  buf = aligned_alloc(4096, kBytes);
  memset(buf, 1, kBytes);
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    pthread_t id[64];
    const double start = now();
    for (long t = 0; t < threads; ++t) pthread_create(&id[t], 0, reader, (void*)t);
    for (int t = 0; t < threads; ++t) pthread_join(id[t], 0);
    const double gbs = kBytes / (now() - start) / 1e9;
    if (gbs > best) best = gbs;
  }
  uint64_t total = 0;
  for (int t = 0; t < threads; ++t) total += sums[t];
  printf("%.2f %llu\n", best, (unsigned long long)total);
  return 0;
}
"""


def make_tokenizer(path, vocab_size):
    """A byte-level BPE trained on seeded random words to exactly
    `vocab_size` ids (the model's vocabulary; padded with plain added
    tokens if the corpus runs out of merges first)."""
    import random
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    rng = random.Random(0)
    letters = "etaoinshrdlcumwfgypbvkjxqz"
    n_words = max(60000, 2 * vocab_size)
    words = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 9)))
             for _ in range(n_words)]
    lines = [" ".join(rng.choice(words) for _ in range(40)) for _ in range(n_words * 2 // 3)]
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        special_tokens=["<|begin_of_text|>", "<|end_of_text|>"])
    tok.train_from_iterator(lines, trainer)
    missing = vocab_size - tok.get_vocab_size()
    if missing > 0:
        tok.add_tokens([f"<pad{i}>" for i in range(missing)])
    tok.save(path)


def make_prompt(tokenizer_path, count):
    """Text whose encoding is exactly `count` tokens (no BOS)."""
    import random
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(tokenizer_path)
    rng = random.Random(1)
    letters = "etaoinshrdlcumwfgypbvkjxqz"
    words = []
    while len(tok.encode(" ".join(words)).ids) < count:
        words.append("".join(rng.choice(letters) for _ in range(rng.randint(2, 9))))
    words.pop()
    text = " ".join(words)
    while len(tok.encode(text).ids) < count:   # " e" is one token of its own
        text += " e"
    if len(tok.encode(text).ids) != count:
        raise RuntimeError(f"could not make a {count}-token prompt")
    return text


def make_model(shape, work, vocab):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                    "examples", "export"))
    from export_tiny_llm import export_legacy, write_checkpoint
    family, params, max_seq, max_context, _ = SHAPES[shape]
    params_path, ckpt = write_checkpoint(work, params, max_seq_len=max_context, scale=0.02)
    out = os.path.join(work, model_name(shape))
    metadata = json.dumps({"get_bos_id": 0 if shape != "bench" else 32000,
                           "get_eos_ids": [vocab + 1]})
    export_legacy(params_path, ckpt, out, max_seq=max_seq, max_context=max_context,
                  metadata=metadata, model=family)
    os.remove(ckpt)   # gigabytes at the real sizes; remade from the seed on demand
    return out


def model_name(shape):
    return "llama_512x8_8da4w.pte" if shape == "bench" else f"{shape}_8da4w.pte"


def rss_kb(field="VmRSS"):
    """/proc/self/status's `field` in KiB. The peak is VmHWM, which exec
    resets: getrusage's ru_maxrss keeps the largest size of the process
    that forked this one (this script, after reading a program)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def child_upstream(model, tokenizer, threads, new_tokens, prompt):
    import executorch.extension.llm.custom_ops.custom_ops  # noqa: F401
    import executorch.kernels.quantized  # noqa: F401
    from executorch.extension.pybindings import portable_lib
    from executorch.extension.llm.runner import GenerationConfig, TextLLMRunner
    portable_lib._unsafe_reset_threadpool(threads)
    base = rss_kb()
    runner = TextLLMRunner(model, tokenizer)
    stats = []
    config = GenerationConfig(echo=False, temperature=0.0, num_bos=1,
                              max_new_tokens=new_tokens)
    runner.generate(prompt, config, stats_callback=stats.append)
    s = stats[-1]
    peak = rss_kb("VmHWM")
    return {"prompt_tokens": s.num_prompt_tokens, "generated_tokens": s.num_generated_tokens,
            "inference_start_ms": s.inference_start_ms, "prompt_eval_end_ms": s.prompt_eval_end_ms,
            "first_token_ms": s.first_token_ms, "inference_end_ms": s.inference_end_ms,
            "rss_growth_kb": peak - base}


def run_upstream(model, tokenizer, threads, new_tokens, prompt_file):
    out = subprocess.run([sys.executable, __file__, "--child", model, tokenizer, str(threads),
                          str(new_tokens), prompt_file], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_ember(ember, model, tokenizer, threads, new_tokens, prompt):
    out = subprocess.run([ember, f"--model_path={model}", f"--tokenizer_path={tokenizer}",
                          f"--prompt={prompt}", "--temperature=0", "--num_bos=1",
                          f"--max_new_tokens={new_tokens}", f"--cpu_threads={threads}"],
                         capture_output=True, text=True, check=True)
    stats = json.loads(OBSERVER.search(out.stdout).group(1))
    rss = PEAK_RSS.search(out.stderr)
    stats["rss_growth_kb"] = (float(rss.group(1)) - float(rss.group(2))) * 1024
    return stats


def rates(s):
    decode_ms = s["inference_end_ms"] - s["prompt_eval_end_ms"]
    return {"decode_tok_s": (s["generated_tokens"] / decode_ms * 1000) if decode_ms > 0 else 0,
            "ttft_ms": s["first_token_ms"] - s["inference_start_ms"]}


def bytes_per_token(model, params, max_seq_mean):
    """Bytes a decoding step reads: delegate weights, portable constants
    (one row of any [vocab, ...] table: the embedding), and the K and V
    caches up to the mean decode position."""
    from executorch.exir._serialize._program import deserialize_pte_binary
    with open(model, "rb") as f:
        pte = deserialize_pte_binary(f.read())
    program = pte.program
    total = sum(len(b) for b in pte.named_data.buffers) if pte.named_data else 0
    total += sum(len(d.data) for d in program.backend_delegate_data)
    vocab = params["vocab_size"]
    seen = set()
    for plan in program.execution_plan:
        for value in plan.values:
            t = value.val
            index = getattr(t, "data_buffer_idx", 0)
            if not hasattr(t, "sizes") or index <= 0 or index in seen:
                continue
            seen.add(index)
            size = len(program.constant_buffer[index].storage) if index < len(
                program.constant_buffer) else 0
            total += size // vocab if t.sizes and t.sizes[0] == vocab else size
    head_dim = params.get("head_dim", params["dim"] // params["n_heads"])
    kv = params["n_layers"] * 2 * params.get("n_kv_heads", params["n_heads"]) * head_dim * 4
    return total + kv * max_seq_mean


def read_bandwidth(work, threads):
    exe = os.path.join(work, "read_bandwidth")
    if not os.path.exists(exe):
        src = os.path.join(work, "read_bandwidth.c")
        with open(src, "w") as f:
            f.write(BANDWIDTH_C)
        subprocess.run(["cc", "-O3", "-march=native", "-pthread", src, "-o", exe], check=True)
    out = subprocess.run([exe, str(threads)], capture_output=True, text=True, check=True)
    return float(out.stdout.split()[0])


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        model, tokenizer, threads, new_tokens, prompt_file = sys.argv[2:7]
        with open(prompt_file) as f:
            prompt = f.read()
        print(json.dumps(child_upstream(model, tokenizer, int(threads), int(new_tokens),
                                        prompt)))
        return
    p = argparse.ArgumentParser()
    p.add_argument("--ember", required=True)
    p.add_argument("--shape", default="bench", choices=sorted(SHAPES))
    p.add_argument("--work", default=".bench/llm")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--new-tokens", type=int, default=128)
    p.add_argument("--busy", type=int, default=0,
                   help="keep this many other processes spinning while measuring (a core "
                        "taken by another app)")
    p.add_argument("--verbose", action="store_true", help="print every round")
    p.add_argument("--make-only", action="store_true",
                   help="make the model, tokenizer and prompt, then stop")
    args = p.parse_args()
    work = os.path.abspath(args.work if args.shape == "bench"
                           else os.path.join(args.work, args.shape))
    os.makedirs(work, exist_ok=True)
    _, params, max_seq, max_context, prompt_tokens = SHAPES[args.shape]
    vocab = params["vocab_size"]
    tokenizer = os.path.join(work, "tokenizer.json")
    if not os.path.exists(tokenizer):
        make_tokenizer(tokenizer, vocab)
    model = os.path.join(work, model_name(args.shape))
    if not os.path.exists(model):
        model = make_model(args.shape, work, vocab)
    prompt = PROMPT if prompt_tokens is None else make_prompt(tokenizer, prompt_tokens)
    prompt_file = os.path.join(work, "prompt.txt")
    with open(prompt_file, "w") as f:
        f.write(prompt)
    print(f"model {model} ({os.path.getsize(model) / 1e6:.1f} MB)")
    if args.make_only:
        return
    busy = start_busy(args.busy)
    try:
        measure(args, model, tokenizer, prompt, prompt_file, params, work)
    finally:
        for b in busy:
            b.kill()


def start_busy(count):
    """`count` processes that spin until killed: other apps holding cores."""
    if count:
        print(f"{count} other process(es) spinning during the measurements")
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def measure(args, model, tokenizer, prompt, prompt_file, params, work):
    print(f"{'threads':>7} {'runtime':>8} {'decode tok/s':>12} {'TTFT ms':>8} "
          f"{'RSS growth MB':>13} {'roofline %':>10}")
    for threads in [int(t) for t in args.threads.split(",")]:
        results = {"ember": [], "upstream": []}
        for _ in range(args.rounds):
            results["upstream"].append(run_upstream(model, tokenizer, threads,
                                                    args.new_tokens, prompt_file))
            results["ember"].append(run_ember(args.ember, model, tokenizer, threads,
                                              args.new_tokens, prompt))
            if args.verbose:
                for name in ("upstream", "ember"):
                    r = results[name][-1]
                    print(f"        round {len(results[name])} {name}: "
                          f"{rates(r)['decode_tok_s']:.1f} tok/s, TTFT "
                          f"{rates(r)['ttft_ms']:.0f} ms, RSS growth "
                          f"{r['rss_growth_kb'] / 1024:.1f} MB", flush=True)
        prompt_len = results["ember"][0]["prompt_tokens"]
        per_token = bytes_per_token(model, params, prompt_len + args.new_tokens / 2)
        gbs = read_bandwidth(work, threads)
        roof = gbs * 1e9 / per_token
        summary = {}
        for name, runs in results.items():
            decode = statistics.median(rates(r)["decode_tok_s"] for r in runs)
            ttft = statistics.median(rates(r)["ttft_ms"] for r in runs)
            rss = [r["rss_growth_kb"] for r in runs if r.get("rss_growth_kb")]
            summary[name] = (decode, ttft, max(rss) / 1024 if rss else float("nan"))
            print(f"{threads:>7} {name:>8} {decode:>12.1f} {ttft:>8.0f} "
                  f"{summary[name][2]:>13.1f} {100 * decode / roof:>9.0f}%")
        pairs = list(zip(results["ember"], results["upstream"]))
        decode_ratio = statistics.median(rates(e)["decode_tok_s"] / rates(u)["decode_tok_s"]
                                         for e, u in pairs)
        ttft_ratio = statistics.median(rates(e)["ttft_ms"] / rates(u)["ttft_ms"]
                                       for e, u in pairs)
        e, u = summary["ember"], summary["upstream"]
        print(f"{threads:>7} {'ratio':>8} {decode_ratio:>11.2f}x {ttft_ratio:>7.2f}x "
              f"{e[2] / u[2]:>12.2f}x   (median per-round Ember/upstream; RSS of the maxima)")
        prompts = {r["prompt_tokens"] for rs in results.values() for r in rs}
        print(f"{threads:>7} prompt tokens {sorted(prompts)}, read bandwidth {gbs:.1f} GB/s, "
              f"{per_token / 1e6:.1f} MB read per token: roofline {roof:.1f} tokens/s")


if __name__ == "__main__":
    main()
