#!/usr/bin/env python3
"""Text generation speed and memory: Ember's ember_llm against upstream's
TextLLMRunner (executorch 1.5.1's Python binding) on the same program,
tokenizer and prompt, in one run, fresh processes, alternating.

  python bench/compare_llm.py --ember build/examples/ember_llm \\
      [--work .bench/llm] [--threads 1,2] [--rounds 3] [--new-tokens 128]

The model is made on demand into --work (not committed): a Llama of dim
512, 8 layers, 8 heads, a 32,000-token byte-level BPE vocabulary (trained
here on synthetic text with the `tokenizers` library), seeded random
weights with RMSNorm weights of 1, exported with upstream's export_llama
CLI: -X -qmode 8da4w -G 32 -E 4,32 --use_kv_cache --use_sdpa_with_kv_cache,
max_seq_length 128, max_context_length 512, with get_eos_ids [32001] (no
such token), so both runners generate exactly --new-tokens tokens. Greedy
(temperature 0), one BOS, the same prompt (about 60 tokens) for both.

Reported per thread count (medians over rounds): decode tokens/s (new
tokens after the first over the time after prefill), time to first token
(from the start of inference: encoding and prefill), and peak RSS growth
(Ember: ember_llm's peak RSS minus its RSS before loading, both printed by
ember_llm; upstream: the child's peak RSS minus its RSS after importing
torch and executorch, before the runner is created). Ratios are Ember / upstream (decode: higher is better, so
upstream / Ember is printed as "time ratio").
"""
import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys

PROMPT = ("Once upon a time in a small village by the sea there lived an old "
          "fisherman and his wife. Every morning he went out in his boat and every "
          "evening he came back with the fish he had caught, and they were happy.")
PARAMS = dict(dim=512, n_layers=8, n_heads=8, n_kv_heads=8, vocab_size=32000,
              multiple_of=256, norm_eps=1e-5)
OBSERVER = re.compile(r"PyTorchObserver (\{.*\})")
PEAK_RSS = re.compile(r"Peak RSS:\s+([0-9.]+) MiB \(([0-9.]+) MiB before loading\)")


def make_tokenizer(path):
    import random
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    rng = random.Random(0)
    letters = "etaoinshrdlcumwfgypbvkjxqz"
    words = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 9)))
             for _ in range(60000)]
    lines = [" ".join(rng.choice(words) for _ in range(40)) for _ in range(40000)]
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=PARAMS["vocab_size"], show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        special_tokens=["<|begin_of_text|>", "<|end_of_text|>"])
    tok.train_from_iterator(lines, trainer)
    tok.save(path)


def make_model(work):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                    "examples", "export"))
    from export_tiny_llm import export_legacy, write_checkpoint
    params, ckpt = write_checkpoint(work, PARAMS, max_seq_len=512, scale=0.02)
    out = os.path.join(work, "llama_512x8_8da4w.pte")
    export_legacy(params, ckpt, out, max_seq=128, max_context=512,
                  metadata='{"get_bos_id": 32000, "get_eos_ids": [32001]}')
    return out


def rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def child_upstream(model, tokenizer, threads, new_tokens):
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
    runner.generate(PROMPT, config, stats_callback=stats.append)
    s = stats[-1]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"prompt_tokens": s.num_prompt_tokens, "generated_tokens": s.num_generated_tokens,
            "inference_start_ms": s.inference_start_ms, "prompt_eval_end_ms": s.prompt_eval_end_ms,
            "first_token_ms": s.first_token_ms, "inference_end_ms": s.inference_end_ms,
            "rss_growth_kb": peak - base}


def run_upstream(model, tokenizer, threads, new_tokens):
    out = subprocess.run([sys.executable, __file__, "--child", model, tokenizer, str(threads),
                          str(new_tokens)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_ember(ember, model, tokenizer, threads, new_tokens):
    out = subprocess.run([ember, f"--model_path={model}", f"--tokenizer_path={tokenizer}",
                          f"--prompt={PROMPT}", "--temperature=0", "--num_bos=1",
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


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        model, tokenizer, threads, new_tokens = sys.argv[2:6]
        print(json.dumps(child_upstream(model, tokenizer, int(threads), int(new_tokens))))
        return
    p = argparse.ArgumentParser()
    p.add_argument("--ember", required=True)
    p.add_argument("--work", default=".bench/llm")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--new-tokens", type=int, default=128)
    p.add_argument("--busy", type=int, default=0,
                   help="keep this many other processes spinning while measuring (a core "
                        "taken by another app)")
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    work = os.path.abspath(args.work)
    tokenizer = os.path.join(work, "tokenizer.json")
    if not os.path.exists(tokenizer):
        make_tokenizer(tokenizer)
    model = os.path.join(work, "llama_512x8_8da4w.pte")
    if not os.path.exists(model):
        model = make_model(work)
    print(f"model {model} ({os.path.getsize(model) / 1e6:.1f} MB)")
    busy = start_busy(args.busy)
    try:
        measure(args, model, tokenizer)
    finally:
        for b in busy:
            b.kill()


def start_busy(count):
    """`count` processes that spin until killed: other apps holding cores."""
    if count:
        print(f"{count} other process(es) spinning during the measurements")
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def measure(args, model, tokenizer):
    print(f"{'threads':>7} {'runtime':>8} {'decode tok/s':>12} {'TTFT ms':>8} {'RSS growth MB':>13}")
    for threads in [int(t) for t in args.threads.split(",")]:
        results = {"ember": [], "upstream": []}
        for _ in range(args.rounds):
            results["upstream"].append(run_upstream(model, tokenizer, threads, args.new_tokens))
            results["ember"].append(run_ember(args.ember, model, tokenizer, threads,
                                              args.new_tokens))
        summary = {}
        for name, runs in results.items():
            decode = statistics.median(rates(r)["decode_tok_s"] for r in runs)
            ttft = statistics.median(rates(r)["ttft_ms"] for r in runs)
            rss = [r["rss_growth_kb"] for r in runs if r.get("rss_growth_kb")]
            summary[name] = (decode, ttft, max(rss) / 1024 if rss else float("nan"))
            print(f"{threads:>7} {name:>8} {decode:>12.1f} {ttft:>8.0f} {summary[name][2]:>13.1f}")
        e, u = summary["ember"], summary["upstream"]
        print(f"{threads:>7} {'ratio':>8} {e[0] / u[0]:>11.2f}x {e[1] / u[1]:>7.2f}x "
              f"{e[2] / u[2]:>12.2f}x   (decode Ember/upstream, TTFT and RSS Ember/upstream)")


if __name__ == "__main__":
    main()
