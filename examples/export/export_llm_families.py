#!/usr/bin/env python3
# Product tool: writes the tiny LLM family fixtures in test/models/llm_families.
"""Tiny fixtures for every model family upstream's export_llama / export_llm
accepts (issue 40), with upstream's greedy tokens as the reference.

Each family's upstream config (examples/models/<family>/config/*.json in
upstream's tree) is shrunk to dim 40-48 and 2 layers, keeping what makes
the family different:

  llama3_2      scaled RoPE (factor 32 for this model name), theta 5e5,
                ffn_dim_multiplier 1.5, 4:1 GQA
  qwen2_5_0_5b  QKV bias, HF RoPE, theta 1e6, eps 1e-6
  qwen3_0_6b    head_dim 16 != dim / heads (12), QK-norm before RoPE
  phi_4_mini    partial rotary 0.75, LongRoPE short/long factors (the
                short ones apply: context 64 < original 4096; attention
                factor from max 131072), 3:1 GQA
  smollm2       3:1 GQA, Llama RoPE (not HF), theta 1e5
  lfm2_350m     LFM2's short-convolution layer, then attention,
                QK-norm before RoPE
  qwen3_5_0_8b  gated-DeltaNet linear attention (2 key heads, 4 value
                heads: grouped) then gated full attention (use_q_gate),
                partial rotary 0.25, (1 + w) RMSNorm, head_dim 16, 4:1 GQA

Vocab 512 (test/models/llm/tiny_llm_tokenizer.model, BOS 1, EOS 2),
max_seq_len 32, context 64, fp32, untied embeddings; seeded random
weights, norm weights 1 + N(0, 0.1^2), the output projection drawn wider
than the rest so that most greedy steps lead by a clear logit margin.

Writes into test/models/llm_families/ (or --out):
  <family>.pte           export_llama CLI: --model <family> -X -kv
                         --use_sdpa_with_kv_cache -d fp32 (dynamic shape:
                         prefill in one call)
  <family>_8da4w.pte     the same family widened to dim 64 (96 for the
                         3-head ones; WIDER_8DA4W), with -qmode 8da4w -G 32
                         -E 8,0 (4-bit weights in groups of 32, int8
                         activations, int8 embeddings)
  <family>_extended.pte  export_llm --config, for the families one of
                         whose upstream XNNPACK configs sets extended_ops
                         (llama_xnnpack, qwen2_5_coder_xnnpack_q8da4w,
                         qwen3_xnnpack_q8da4w, lfm2_xnnpack_fp32,
                         qwen3_5_xnnpack_fp32; not phi_4_mini's, and
                         smollm2 has none): xnnpack extended_ops, fp32,
                         enable_dynamic_shape False (prefill token by token)
  llm_families_reference.json
                         the format of test/models/llm/tiny_llama_reference.json
                         (export_tiny_llm.py): upstream's TextLLMRunner's
                         greedy ids for each prompt, a two-turn exchange,
                         and each step's logit margin from its runtime;
                         plus "reset_exchange": its ids for "The fox"
                         twice, then reset(), then "The fox" again

Each prompt's reference starts from a fresh load: upstream's runner's
reset() rewinds the position only, and a state that is not a KV cache and
that the graph does not clear at position 0 (LFM2's convolution state;
Qwen3.5's DeltaNet state is cleared) carries over into the next prompt.
The reset exchange records that behaviour. The two turns are
export_tiny_llm.py's where every step of them is decided on the program
(margin above MARGIN_BOUND), else the first seeded word salad that is.

Needs torch 2.13.0 and executorch 1.5.1 (and sentencepiece); offline;
about 15 minutes on 2 cores. --only FAMILY[,FAMILY] redoes those;
--reuse keeps the programs and redoes the reference; --variants
fp32,8da4w,extended picks which programs of each family to redo.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from export_tiny_llm import (  # noqa: E402
    CORPUS,
    MAX_CONTEXT,
    MAX_SEQ,
    METADATA,
    PROMPTS,
    TURNS,
    RuntimeChat,
    piece_table,
    record_margins,
)

VOCAB = 512
COMMON = dict(vocab_size=VOCAB, n_layers=2)

# LongRoPE factors for phi_4_mini's 6 rotary frequency pairs
# (head_dim 16 * 0.75 = 12 rotary dims); upstream's Phi-4-mini has 48,
# rising from 1 to about 3 for short and to about 50 for long.
PHI_SHORT = [1.0, 1.1, 1.35, 1.7, 2.2, 2.9]
PHI_LONG = [1.0, 1.6, 3.5, 9.0, 22.0, 48.0]

# upstream's --model name: (params.json, whether export_llm with
# extended_ops writes a second program)
FAMILIES = {
    "llama3_2": (dict(COMMON, dim=40, n_heads=4, n_kv_heads=1, ffn_dim_multiplier=1.5,
                      multiple_of=32, norm_eps=1e-5, rope_theta=500000.0,
                      use_scaled_rope=True), True),
    "qwen2_5_0_5b": (dict(COMMON, dim=48, hidden_dim=96, n_heads=4, n_kv_heads=2,
                          ffn_dim_multiplier=1, norm_eps=1e-6, rope_theta=1000000.0,
                          use_scaled_rope=False, use_hf_rope=True,
                          attention_qkv_bias=True), True),
    "qwen3_0_6b": (dict(COMMON, dim=48, hidden_dim=96, n_heads=4, head_dim=16,
                        n_kv_heads=2, ffn_dim_multiplier=1, norm_eps=1e-6,
                        rope_theta=1000000.0, use_scaled_rope=False, use_hf_rope=True,
                        attention_qkv_bias=False, use_qk_norm=True,
                        qk_norm_before_rope=True), True),
    "phi_4_mini": (dict(COMMON, dim=48, hidden_dim=96, n_heads=3, n_kv_heads=1,
                        ffn_dim_multiplier=1, norm_eps=1e-5, rope_theta=10000.0,
                        use_scaled_rope=False, use_hf_rope=True, partial_rotary_factor=0.75,
                        rope_scaling_short_factor=PHI_SHORT,
                        rope_scaling_long_factor=PHI_LONG,
                        original_max_position_embeddings=4096,
                        max_position_embeddings=131072,
                        attention_qkv_bias=False), False),
    "smollm2": (dict(COMMON, dim=48, hidden_dim=96, n_heads=3, n_kv_heads=1,
                     ffn_dim_multiplier=1, norm_eps=1e-5, rope_theta=100000.0,
                     use_scaled_rope=False, use_hf_rope=False,
                     attention_qkv_bias=False), False),
    "lfm2_350m": (dict(COMMON, dim=48, hidden_dim=96, n_heads=4, n_kv_heads=2,
                       ffn_dim_multiplier=1, norm_eps=1e-5, rope_theta=1000000.0,
                       use_scaled_rope=False, use_hf_rope=True, use_qk_norm=True,
                       qk_norm_before_rope=True,
                       layer_types=["conv", "full_attention"]), True),
    "qwen3_5_0_8b": (dict(COMMON, dim=48, hidden_dim=96, n_heads=4, head_dim=16,
                          n_kv_heads=1, norm_eps=1e-6, rope_theta=10000000.0,
                          use_scaled_rope=False, use_hf_rope=True,
                          partial_rotary_factor=0.25, attention_qkv_bias=False,
                          use_qk_norm=True, qk_norm_before_rope=True, attention_type="mha",
                          use_q_gate=True, rms_norm_add_unit_offset=True,
                          linear_conv_kernel_dim=4, linear_key_head_dim=16,
                          linear_value_head_dim=16, linear_num_key_heads=2,
                          linear_num_value_heads=4,
                          layer_types=["linear_attention", "full_attention"]), True),
}

# text_llm_runner_test.cpp's kMarginBound: upstream's tokens are compared
# while each leads the runner-up by more than this.
MARGIN_BOUND = 0.1

WEIGHT_SCALE = 0.1   # every weight and bias but the norms and the output
OUTPUT_SCALE = 1.0   # the output projection: logits of std ~6 to 7


# Upstream's lfm2 package imports its checkpoint converter, which imports
# safetensors, whenever an LFM2 model is built; nothing here converts a
# checkpoint, so STUB puts an empty stand-in where safetensors is not
# installed. BOOT runs an upstream module as `python -m` would, after STUB.
STUB = """import sys, types
try:
    import safetensors.torch
except ImportError:
    stub = types.ModuleType("safetensors.torch")
    stub.load_file = None
    sys.modules["safetensors"] = types.ModuleType("safetensors")
    sys.modules["safetensors.torch"] = stub
"""
BOOT = STUB + """import runpy
sys.argv = sys.argv[1:]
runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
"""


def write_checkpoint(work, family, params):
    """params.json and a meta-format checkpoint of seeded random weights in
    `work`. Persistent buffers (the convolution and recurrent states) are
    written as the model makes them (zeros): upstream builds the model on
    the meta device, so a buffer missing from the checkpoint has no data."""
    exec(STUB, {})
    from executorch.examples.models.llama.llama_transformer import construct_transformer
    from executorch.examples.models.llama.model_args import ModelArgs
    params_path = os.path.join(work, f"{family}.json")
    with open(params_path, "w") as f:
        json.dump(params, f, indent=1)
    torch.manual_seed(0)
    model = construct_transformer(ModelArgs(max_seq_len=MAX_CONTEXT, **params))
    names = {name for name, _ in model.named_parameters()}
    state = {}
    for name, value in model.state_dict().items():
        if name not in names:
            state[name] = value.clone()
        elif "norm" in name and name.endswith(".weight"):
            state[name] = 1 + 0.1 * torch.randn_like(value)
        elif name == "output.weight":
            state[name] = OUTPUT_SCALE * torch.randn_like(value)
        else:
            state[name] = WEIGHT_SCALE * torch.randn_like(value)
    ckpt = os.path.join(work, f"{family}.pth")
    torch.save(state, ckpt)
    return params_path, ckpt


def run_quietly(cmd, cwd, log):
    with open(log, "w") as f:
        done = subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        with open(log) as f:
            sys.stderr.write(f.read()[-6000:])
        raise RuntimeError(f"{' '.join(cmd[:4])} failed (log {log})")


# The 8da4w variant's quantization: 4-bit weights in groups of 32 (the
# XNNPACK partitioner takes multiples of 32 only), int8 per-row embeddings
# (upstream's qwen3 recipe).
QUANTIZE_8DA4W = ["-qmode", "8da4w", "-G", "32", "-E", "8,0"]

# Its models: the same families widened so that every linear layer's input
# (dim, heads x head_dim, the FFN's hidden size) is a multiple of 32.
# Phi-4-mini's heads grow to 32 wide, so its 0.75 partial rotary covers 12
# frequency pairs: 12 LongRoPE factors rising as the 6 above do.
PHI_SHORT_12 = [1.0, 1.05, 1.1, 1.2, 1.35, 1.5, 1.7, 1.95, 2.2, 2.5, 2.9, 3.0]
PHI_LONG_12 = [1.0, 1.3, 1.6, 2.4, 3.5, 5.5, 9.0, 14.0, 22.0, 32.0, 48.0, 50.0]
WIDER_8DA4W = {
    "llama3_2": dict(dim=64),
    "qwen2_5_0_5b": dict(dim=64, hidden_dim=128),
    "qwen3_0_6b": dict(dim=64, hidden_dim=128),
    "phi_4_mini": dict(dim=96, hidden_dim=192, rope_scaling_short_factor=PHI_SHORT_12,
                       rope_scaling_long_factor=PHI_LONG_12),
    "smollm2": dict(dim=96, hidden_dim=192),
    "lfm2_350m": dict(dim=64, hidden_dim=128),
    "qwen3_5_0_8b": dict(dim=64, hidden_dim=128),
}


def export_legacy(family, params, ckpt, out, work, quantize=()):
    """upstream's export_llama CLI, fp32, XNNPACK, KV cache, custom SDPA
    (plus `quantize`, e.g. QUANTIZE_8DA4W)."""
    run_quietly([sys.executable, "-c", BOOT, "executorch.examples.models.llama.export_llama",
                 "--model", family, "-c", ckpt, "-p", params, "-X", "-kv",
                 "--use_sdpa_with_kv_cache", "-d", "fp32", *quantize,
                 "--max_seq_length", str(MAX_SEQ), "--max_context_length", str(MAX_CONTEXT),
                 "--metadata", METADATA, "--output_name", out],
                cwd=work, log=os.path.join(work, f"{family}_legacy.log"))


def export_extended(family, params, ckpt, out, work):
    """export_llm --config, as upstream's <family>_xnnpack yaml (extended_ops)
    but fp32 and static shapes."""
    config = os.path.join(work, f"{family}.yaml")
    with open(config, "w") as f:
        f.write(f"""base:
  model_class: {family}
  params: {params}
  checkpoint: {ckpt}
  metadata: '{METADATA}'
model:
  use_kv_cache: True
  use_sdpa_with_kv_cache: True
  enable_dynamic_shape: False
  dtype_override: fp32
export:
  max_seq_length: {MAX_SEQ}
  max_context_length: {MAX_CONTEXT}
  output_name: {out}
backend:
  xnnpack:
    enabled: True
    extended_ops: True
""")
    run_quietly([sys.executable, "-c", BOOT, "executorch.extension.llm.export.export_llm",
                 "--config", config], cwd=work, log=os.path.join(work, f"{family}_config.log"))


def check_pieces(pieces, ids, sp, where):
    """Checks that the runner's per-token texts are those of the runtime's
    ids under upstream's decoding rule: a piece with U+2581 as a space, a
    byte piece as "<0xNN>" or as that byte, a piece right after BOS without its leading
    space, BOS and EOS themselves as one space."""
    if len(pieces) != len(ids):
        raise RuntimeError(f"{where}: {len(pieces)} pieces for {len(ids)} ids")
    for k, (text, i) in enumerate(zip(pieces, ids)):
        expected = (" " if i in (sp.bos_id(), sp.eos_id())
                    else sp.id_to_piece(i).replace("\u2581", " "))
        after_bos = k == 0 or ids[k - 1] == sp.bos_id()
        raw = (chr(int(expected[3:5], 16)) if len(expected) == 6 and expected.startswith("<0x")
               and expected.endswith(">") else None)
        if text != expected and text != raw and not (after_bos and text == expected.lstrip(" ")):
            raise RuntimeError(f"{where}: runner text {text!r} is not id {i} {expected!r}")


def runner_pieces(runner, turn):
    """Upstream's TextLLMRunner's per-token texts for a case or a turn."""
    from executorch.extension.llm.runner import GenerationConfig
    pieces = []
    config = GenerationConfig(echo=False, temperature=0.0, num_bos=turn["num_bos"],
                              max_new_tokens=turn["max_new_tokens"])
    runner.generate(turn["prompt"], config, token_callback=pieces.append)
    return pieces


def reference(program, tokenizer_path, sp):
    """Upstream's greedy ids and margins for every prompt, each from a fresh
    load, for a two-turn exchange and for the reset exchange: its
    TextLLMRunner's tokens where it runs the case, checked against (and with
    the margins of) its runtime driven the same way."""
    import executorch.extension.llm.custom_ops.custom_ops  # noqa: F401
    from executorch.extension.llm.runner import TextLLMRunner

    name = os.path.basename(program)
    cases = []
    for prompt in PROMPTS:
        prompt_ids = [sp.bos_id()] + sp.encode(prompt)
        chat = RuntimeChat(program)
        steps = chat.generate(prompt_ids, 12)
        case = {"prompt": prompt, "num_bos": 1, "max_new_tokens": 12, "prompt_ids": prompt_ids,
                "generated_ids": [s[0] for s in steps]}
        if chat.chunk > 1 and len(prompt_ids) > chat.chunk:
            # Upstream's runner prefills in chunks of max_seq_len (32) where
            # the token input takes 31 at most, and fails: the reference is
            # its runtime, chunked by 31.
            case["reference"] = f"upstream runtime, prefill in chunks of {chat.chunk}"
        else:
            pieces = runner_pieces(TextLLMRunner(program, tokenizer_path), case)
            check_pieces(pieces, case["generated_ids"], sp, f"{name} {prompt!r}")
            case["reference"] = "upstream TextLLMRunner"
        record_margins(case, steps, f"{name} {prompt!r}")
        cases.append(case)
    turns = [turn_of(p, 6) for p in decided_turns(program, sp)]
    exchange(program, tokenizer_path, sp, turns, f"{name} turn")
    # "The fox" twice, reset(), "The fox": the reset comes before the last
    reset = [turn_of("The fox", 8) for _ in range(3)]
    exchange(program, tokenizer_path, sp, reset, f"{name} reset", reset_before=2)
    return {"cases": cases, "conversation": turns, "reset_exchange": reset}


def turn_of(prompt, max_new):
    return {"prompt": prompt, "num_bos": 1, "max_new_tokens": max_new}


def exchange(program, tokenizer_path, sp, turns, where, reset_before=None):
    """Fills in each turn's generated ids and margins: one TextLLMRunner for
    all turns, reset() before turn `reset_before`, checked against the
    runtime driven the same way (its position back to 0 there, as the
    runner's reset does, nothing else)."""
    from executorch.extension.llm.runner import TextLLMRunner
    runner = TextLLMRunner(program, tokenizer_path)
    chat = RuntimeChat(program)
    for k, turn in enumerate(turns):
        if k == reset_before:
            runner.reset()
            chat.pos = 0
        steps = chat.generate([sp.bos_id()] * turn["num_bos"] + sp.encode(turn["prompt"]),
                              turn["max_new_tokens"])
        turn["generated_ids"] = [s[0] for s in steps]
        check_pieces(runner_pieces(runner, turn), turn["generated_ids"], sp,
                     f"{where} {turn['prompt']!r}")
        record_margins(turn, steps, f"{where} {turn['prompt']!r}")


def decided_turns(program, sp, tries=400):
    """The two-turn exchange: export_tiny_llm's TURNS where every generated
    step of both leads by more than MARGIN_BOUND on this program, else the
    first seeded word salad of the corpus's words that does (so that the
    test compares all of its tokens)."""
    words = CORPUS.split()
    rng = random.Random(0)
    candidates = [TURNS] + [
        [" ".join(rng.sample(words, rng.randint(2, 4))),
         " " + " ".join(rng.sample(words, rng.randint(2, 4)))] for _ in range(tries)]
    for turns in candidates:
        chat = RuntimeChat(program)
        if all(m > MARGIN_BOUND for prompt in turns
               for _, m, _ in chat.generate([sp.bos_id()] + sp.encode(prompt), 6)):
            return turns
    raise RuntimeError(f"{program}: no two turns of {tries} are decided at every step")


def summary(refs):
    for name, ref in refs["programs"].items():
        entries = ref["cases"] + ref["conversation"]
        decided = total = 0
        for e in entries:
            n = 0
            while n < len(e["margins"]) and e["margins"][n] > MARGIN_BOUND:
                n += 1
            decided += n
            total += len(e["margins"])
        print(f"{name}: {decided} of {total} generated tokens decided "
              f"(margin > {MARGIN_BOUND})")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=os.path.join(HERE, "..", "..", "test", "models",
                                                  "llm_families"))
    p.add_argument("--only", default="", help="comma-separated families to redo")
    p.add_argument("--reuse", action="store_true",
                   help="keep the programs in --out, redo the references")
    p.add_argument("--variants", default="fp32,8da4w,extended",
                   help="comma-separated program variants to redo (fp32, 8da4w, extended); "
                        "the others' programs and references stay")
    args = p.parse_args()
    variants = set(v for v in args.variants.split(",") if v)
    if not variants <= {"fp32", "8da4w", "extended"}:
        raise SystemExit(f"unknown variant in {args.variants}: fp32, 8da4w, extended")
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    tokenizer = os.path.abspath(os.path.join(out, "..", "llm", "tiny_llm_tokenizer.model"))
    only = [f for f in args.only.split(",") if f] or list(FAMILIES)
    for family in only:
        if family not in FAMILIES:
            raise SystemExit(f"unknown family {family}: one of {', '.join(FAMILIES)}")
    path = os.path.join(out, "llm_families_reference.json")
    refs = {"tokenizer": "../llm/tiny_llm_tokenizer.model", "max_seq_len": MAX_SEQ,
            "max_context_len": MAX_CONTEXT, "programs": {}}
    if os.path.exists(path) and (args.only or len(variants) < 3):
        with open(path, encoding="utf-8") as f:
            refs = json.load(f)
    sp, _ = piece_table(tokenizer)
    with tempfile.TemporaryDirectory() as work:
        for family in only:
            params, extended = FAMILIES[family]
            name = {"fp32": f"{family}.pte", "8da4w": f"{family}_8da4w.pte",
                    "extended": f"{family}_extended.pte"}
            todo = [v for v in ("fp32", "8da4w", "extended")
                    if v in variants and (v != "extended" or extended)]
            programs = [os.path.join(out, name[v]) for v in todo]
            for variant, program in zip(todo, programs):
                if args.reuse:
                    break
                print(f"{family}: {variant}", flush=True)
                if variant == "8da4w":
                    wide = dict(params, **WIDER_8DA4W[family])
                    params_path, ckpt = write_checkpoint(work, family, wide)
                    export_legacy(family, params_path, ckpt, program, work, QUANTIZE_8DA4W)
                    continue
                params_path, ckpt = write_checkpoint(work, family, params)
                if variant == "extended":
                    export_extended(family, params_path, ckpt, program, work)
                else:
                    export_legacy(family, params_path, ckpt, program, work)
            for program in programs:
                print(f"{os.path.basename(program)}: reference", flush=True)
                refs["programs"][os.path.basename(program)] = reference(
                    program, tokenizer, sp)
    order = [f"{f}{s}.pte" for f in FAMILIES for s in ("", "_8da4w", "_extended")]
    refs["programs"] = {k: refs["programs"][k] for k in order if k in refs["programs"]}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(refs, f, indent=1, ensure_ascii=False)
        f.write("\n")
    summary(refs)


if __name__ == "__main__":
    main()
