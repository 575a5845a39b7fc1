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
  tiny_llama_vulkan_dynamic.pte the same with dynamic shapes (export_llama's
                               default: the prompt prefilled in one call)
  tiny_llama_vulkan.json       the XNNPACK twin's greedy ids for one prompt
                               (upstream TextLLMRunner, one BOS, 12 new tokens)
The model: dim 32, 2 layers, 4 heads / 2 KV heads, vocabulary 512 (the
committed tokenizer test/models/llm/tiny_llm_tokenizer.model), context 64,
seeded random weights (export_tiny_llm.write_checkpoint). Offline; about two
minutes on 2 cores.

  python examples/export/vulkan_cases/llama.py --q8da4w [--out ...]

writes instead (main_q8da4w, the same checkpoint, -qmode 8da4w -G 32):
  tiny_llama_vulkan_8da4w.pte  the Vulkan program (torchao.choose_qparams_affine
                               + et_vk.linear_dq8ca_q4gsw per linear)
  tiny_llama_vulkan_8da4w.json the XNNPACK 8da4w twin's greedy ids (XNNPACK's
                               own dynamic int8 kernels: see the json's note),
                               from upstream's runtime token by token, checked
                               against TextLLMRunner's text (which shows the
                               EOS as " ")
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


def export(params, ckpt, out, backend_flag, dynamic=False):
    static = [] if dynamic else ["--disable_dynamic_shape"]
    subprocess.run([sys.executable, "-m", "executorch.examples.models.llama.export_llama",
                    "-c", ckpt, "-p", params, backend_flag, "--use_kv_cache",
                    "--use_sdpa_with_kv_cache", *static, "-d", "fp32",
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


# ---- 8da4w (the quant family's program; separate from the fp32 pair above)

Q8DA4W = ["-qmode", "8da4w", "-G", "32"]


def export_q8da4w(params, ckpt, out, backend_flag):
    """export() with export_llama's 8da4w quantization (int8 dynamic
    activations per token, int4 weights in groups of 32, HQQ scales)."""
    subprocess.run([sys.executable, "-m", "executorch.examples.models.llama.export_llama",
                    "-c", ckpt, "-p", params, backend_flag, *Q8DA4W, "--use_kv_cache",
                    "--use_sdpa_with_kv_cache", "--disable_dynamic_shape", "-d", "fp32",
                    "--max_seq_length", str(MAX_SEQ), "--max_context_length", str(MAX_CONTEXT),
                    "--metadata", tiny.METADATA, "--output_name", out],
                   check=True, cwd=os.path.dirname(out),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def direct_greedy_ids(program, prompt_ids, eos_id):
    """Greedy ids of `program` run token by token (as TextLLMRunner runs a
    static-shape program) by upstream's runtime, up to EOS (included)."""
    import torch
    from executorch.runtime import Runtime
    method = Runtime.get().load_program(program).load_method("forward")
    tokens = list(prompt_ids)
    out = []
    for pos in range(len(prompt_ids) + NEW_TOKENS - 1):
        logits = method.execute([torch.tensor([[tokens[pos]]]), torch.tensor([pos])])[0]
        if pos < len(prompt_ids) - 1:
            continue
        out.append(int(logits.reshape(-1).argmax()))
        tokens.append(out[-1])
        if out[-1] == eos_id:
            break
    return out


def main_q8da4w(out_dir):
    tokenizer = os.path.join(ROOT, "test", "models", "llm", "tiny_llm_tokenizer.model")
    with tempfile.TemporaryDirectory() as work:
        params, ckpt = tiny.write_checkpoint(work, params=PARAMS, max_seq_len=MAX_CONTEXT)
        vulkan = os.path.join(out_dir, "tiny_llama_vulkan_8da4w.pte")
        twin = os.path.join(work, "tiny_llama_xnnpack_8da4w.pte")
        export_q8da4w(params, ckpt, vulkan, "-V")
        export_q8da4w(params, ckpt, twin, "-X")
        runner_ids = greedy_ids(twin, tokenizer)
        import sentencepiece as spm
        sp = spm.SentencePieceProcessor(model_file=tokenizer)
        prompt_ids = [sp.bos_id()] + sp.encode(PROMPT)
        ids = direct_greedy_ids(twin, prompt_ids, sp.eos_id())
    # TextLLMRunner hands the EOS to the callback as the text " ", which the
    # piece table reads as id 447 ("\u2581"): the direct loop's ids are kept,
    # the runner's must agree with them everywhere else.
    if runner_ids != ids and not (len(runner_ids) == len(ids) and runner_ids[:-1] == ids[:-1]
                                  and ids[-1] == sp.eos_id()):
        raise RuntimeError(f"TextLLMRunner {runner_ids} and the direct loop {ids} disagree")
    ref = {"program": "tiny_llama_vulkan_8da4w.pte",
           "tokenizer": "../../llm/tiny_llm_tokenizer.model",
           "reference": "upstream runtime, greedy token by token (TextLLMRunner agrees), on "
                        "the same checkpoint lowered with export_llama -X "
                        + " ".join(Q8DA4W),
           "note": "XNNPACK's dynamic int8 kernels choose and round the activation qparams "
                   "their own way, torchao's (which the Vulkan program follows) another: "
                   "near-tied logits may pick other tokens",
           "prompt": PROMPT, "num_bos": 1, "max_new_tokens": NEW_TOKENS,
           "prompt_ids": prompt_ids, "generated_ids": ids}
    with open(os.path.join(out_dir, "tiny_llama_vulkan_8da4w.json"), "w",
              encoding="utf-8") as f:
        json.dump(ref, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(json.dumps(ref, ensure_ascii=False))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "test", "models", "vulkan", "llm"))
    ap.add_argument("--q8da4w", action="store_true",
                    help="write the 8da4w program and its reference instead")
    args = ap.parse_args()
    if args.q8da4w:
        os.makedirs(args.out, exist_ok=True)
        main_q8da4w(args.out)
        return
    os.makedirs(args.out, exist_ok=True)
    tokenizer = os.path.join(ROOT, "test", "models", "llm", "tiny_llm_tokenizer.model")
    with tempfile.TemporaryDirectory() as work:
        params, ckpt = tiny.write_checkpoint(work, params=PARAMS, max_seq_len=MAX_CONTEXT)
        vulkan = os.path.join(args.out, "tiny_llama_vulkan.pte")
        twin = os.path.join(work, "tiny_llama_xnnpack.pte")
        export(params, ckpt, vulkan, "-V")
        # The default export_llama flow: dynamic shapes, whole-prompt prefill.
        export(params, ckpt, os.path.join(args.out, "tiny_llama_vulkan_dynamic.pte"), "-V",
               dynamic=True)
        export(params, ckpt, twin, "-X")
        ids = greedy_ids(twin, tokenizer)
    import sentencepiece as spm
    sp = spm.SentencePieceProcessor(model_file=tokenizer)
    ref = {"program": "tiny_llama_vulkan.pte (and tiny_llama_vulkan_dynamic.pte, the same "
                      "checkpoint with dynamic shapes)",
           "tokenizer": "../../llm/tiny_llm_tokenizer.model",
           "reference": "upstream TextLLMRunner on the same checkpoint lowered to XNNPACK",
           "prompt": PROMPT, "num_bos": 1, "max_new_tokens": NEW_TOKENS,
           "prompt_ids": [sp.bos_id()] + sp.encode(PROMPT), "generated_ids": ids}
    with open(os.path.join(args.out, "tiny_llama_vulkan.json"), "w", encoding="utf-8") as f:
        json.dump(ref, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(json.dumps(ref, ensure_ascii=False))


if __name__ == "__main__":
    main()
