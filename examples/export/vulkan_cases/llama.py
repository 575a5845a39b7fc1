#!/usr/bin/env python3
# Product tool: writes the Vulkan Llama fixture in test/models/vulkan/llm.
"""A tiny Llama lowered to upstream's Vulkan delegate, with the greedy tokens
of the same checkpoint lowered to XNNPACK and run by upstream's
TextLLMRunner as the reference (upstream's wheel cannot run Vulkan
programs).

  python examples/export/vulkan_cases/llama.py [--out test/models/vulkan/llm]

Writes:
  tiny_llama_vulkan.pte        export_llama -V --use_kv_cache
                               --use_sdpa_with_kv_cache --disable_dynamic_shape,
                               fp32 (prefill token by token)
  tiny_llama_vulkan.json       the XNNPACK twin's greedy ids for one prompt
                               (upstream TextLLMRunner, one BOS, 12 new tokens)
The model: dim 32, 2 layers, 4 heads / 2 KV heads, vocabulary 512 (the
committed tokenizer test/models/llm/tiny_llm_tokenizer.model), context 64,
seeded random weights (export_tiny_llm.write_checkpoint). Offline; about two
minutes on 2 cores.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.dirname(HERE))

import export_tiny_llm as tiny  # noqa: E402

PARAMS = dict(dim=32, n_layers=2, n_heads=4, n_kv_heads=2, vocab_size=512, multiple_of=32,
              norm_eps=1e-5)
MAX_SEQ = 32
MAX_CONTEXT = 64
PROMPT = "naïve, fox river."
NEW_TOKENS = 12


def export(params, ckpt, out, backend_flag):
    subprocess.run([sys.executable, "-m", "executorch.examples.models.llama.export_llama",
                    "-c", ckpt, "-p", params, backend_flag, "--use_kv_cache",
                    "--use_sdpa_with_kv_cache", "--disable_dynamic_shape", "-d", "fp32",
                    "--max_seq_length", str(MAX_SEQ), "--max_context_length", str(MAX_CONTEXT),
                    "--metadata", tiny.METADATA, "--output_name", out],
                   check=True, cwd=os.path.dirname(out),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def greedy_ids(program, tokenizer):
    import executorch.extension.llm.custom_ops.custom_ops  # noqa: F401
    from executorch.extension.llm.runner import GenerationConfig, TextLLMRunner
    _, table = tiny.piece_table(tokenizer)
    pieces = []
    runner = TextLLMRunner(program, tokenizer)
    runner.generate(PROMPT, GenerationConfig(echo=False, temperature=0.0, num_bos=1,
                                             max_new_tokens=NEW_TOKENS),
                    token_callback=pieces.append)
    return tiny.ids_from_pieces(pieces, table)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "test", "models", "vulkan", "llm"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    tokenizer = os.path.join(ROOT, "test", "models", "llm", "tiny_llm_tokenizer.model")
    with tempfile.TemporaryDirectory() as work:
        params, ckpt = tiny.write_checkpoint(work, params=PARAMS, max_seq_len=MAX_CONTEXT)
        vulkan = os.path.join(args.out, "tiny_llama_vulkan.pte")
        twin = os.path.join(work, "tiny_llama_xnnpack.pte")
        export(params, ckpt, vulkan, "-V")
        export(params, ckpt, twin, "-X")
        ids = greedy_ids(twin, tokenizer)
    import sentencepiece as spm
    sp = spm.SentencePieceProcessor(model_file=tokenizer)
    ref = {"program": "tiny_llama_vulkan.pte", "tokenizer": "../../llm/tiny_llm_tokenizer.model",
           "reference": "upstream TextLLMRunner on the same checkpoint lowered to XNNPACK",
           "prompt": PROMPT, "num_bos": 1, "max_new_tokens": NEW_TOKENS,
           "prompt_ids": [sp.bos_id()] + sp.encode(PROMPT), "generated_ids": ids}
    with open(os.path.join(args.out, "tiny_llama_vulkan.json"), "w", encoding="utf-8") as f:
        json.dump(ref, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(json.dumps(ref, ensure_ascii=False))


if __name__ == "__main__":
    main()
