#!/usr/bin/env python3
# Product tool: writes the tiny LLM fixtures in test/models/llm.
"""Tiny Llama fixtures for Ember's LLM runner (issue 27), from upstream's own
export flows, with upstream's runner's greedy tokens as the reference.

Writes into test/models/llm/ (or --out):
  tiny_llm_tokenizer.model   SentencePiece BPE, 512 pieces, byte fallback,
                             identity normalization (as Llama 2's), trained
                             here on the corpus below
  tiny_llama_legacy.pte      export_llama CLI: -X -qmode 8da4w -G 32 -E 4,32
                             --use_kv_cache --use_sdpa_with_kv_cache
                             (dynamic shape: prefill in one call)
  tiny_llama_config.pte      export_llm --config: xnnpack extended_ops, 8da4w,
                             enable_dynamic_shape False (prefill token by token)
  tiny_llama_reference.json  for each program and prompt, upstream's
                             TextLLMRunner's generated token ids (temperature 0,
                             num_bos 1), single turns and a two-turn exchange;
                             with each generated token, upstream's margin (its
                             logit minus the runner-up's) and its logit, from
                             upstream's runtime driven as the runner drives it

The model is dim 64, 2 layers, vocab 512, max_seq_len 32, context 64, with
seeded random weights and RMSNorm weights of 1 (without a checkpoint
upstream's random init leaves them non-finite). Needs torch 2.13.0 and
executorch 1.5.1 (and sentencepiece); offline; about 5 minutes on 2 cores.
--reuse keeps the programs and the tokenizer and redoes the reference;
--margins-only adds the margins to the reference there (seconds).

Token ids come from the runner's per-token callback: each callback is one
token's text (SentencePiece pieces with U+2581 as a space, byte pieces as
"<0xNN>", upstream's rule), mapped back to its id.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import torch

PARAMS = dict(dim=64, n_layers=2, n_heads=4, n_kv_heads=2, vocab_size=512,
              multiple_of=32, norm_eps=1e-5)
MAX_SEQ, MAX_CONTEXT = 32, 64
METADATA = '{"get_bos_id": 1, "get_eos_ids": [2]}'

CORPUS = """Once upon a time there was a little fox who lived in the forest.
The fox liked to run, to jump and to play with the birds in the morning.
One day the fox met a bear near the river. "Hello," said the bear.
Numbers: 0 1 2 3 4 5 6 7 8 9 10 42 100 2026. Café, naïve, über, façade.
Le renard brun saute par-dessus le chien paresseux. 東京 北京 雪 花 月.
The quick brown fox jumps over the lazy dog! Why? Because it can...
Tabs\tand  double  spaces, new
lines, and emoji 🙂 🦊 are text too.
"""

PROMPTS = [
    "Once upon a time",
    "The fox",
    "Café 東京 🦊",
    # longer than max_seq_len (32) tokens: chunked prefill
    "The quick brown fox jumps over the lazy dog and the little fox met a bear "
    "near the river in the morning, and they liked to run and to play.",
    # Word salads of the corpus's words whose every greedy step leads by
    # more than 0.1 logit (a search over 3,700 candidates): the test
    # compares tokens only while upstream's margin is above that bound
    # (text_llm_runner_test.cpp), and most steps of the prompts above are
    # near ties.
    "chien play 雪 the new",
    "naïve, fox river.",
    "who 東京 to a",
]
# A two-turn exchange, chosen the same way.
TURNS = ["day the fox", " there was a little"]


def train_tokenizer(out_dir):
    import sentencepiece as spm
    with tempfile.TemporaryDirectory() as tmp:
        corpus = os.path.join(tmp, "corpus.txt")
        with open(corpus, "w", encoding="utf-8") as f:
            f.write(CORPUS * 4)
        prefix = os.path.join(out_dir, "tiny_llm_tokenizer")
        spm.SentencePieceTrainer.train(
            input=corpus, model_prefix=prefix, vocab_size=PARAMS["vocab_size"],
            model_type="bpe", byte_fallback=True, character_coverage=1.0,
            bos_id=1, eos_id=2, unk_id=0, pad_id=-1, num_threads=1,
            split_digits=True, normalization_rule_name="identity",
            remove_extra_whitespaces=False, minloglevel=2)
        os.remove(prefix + ".vocab")
    return prefix + ".model"


def write_checkpoint(work, params=PARAMS, max_seq_len=MAX_CONTEXT, scale=0.1):
    """params.json and a checkpoint of seeded random weights (RMSNorm weights
    1) in `work`; returns their paths. bench/compare_llm.py uses it too."""
    from executorch.examples.models.llama.llama_transformer import construct_transformer
    from executorch.examples.models.llama.model_args import ModelArgs
    params_path = os.path.join(work, "params.json")
    with open(params_path, "w") as f:
        json.dump(params, f)
    torch.manual_seed(0)
    model = construct_transformer(ModelArgs(max_seq_len=max_seq_len, **params))
    state = {}
    for name, value in model.state_dict().items():
        if "norm" in name and name.endswith(".weight"):
            state[name] = torch.ones_like(value)
        elif value.dtype.is_floating_point:
            state[name] = torch.randn_like(value) * scale
        else:
            state[name] = value
    ckpt = os.path.join(work, "ckpt.pth")
    torch.save(state, ckpt)
    return params_path, ckpt


def export_legacy(params, ckpt, out, max_seq=MAX_SEQ, max_context=MAX_CONTEXT,
                  metadata=METADATA, model="llama3"):
    """upstream's export_llama CLI: 8da4w, 4-bit embeddings, KV cache, SDPA.
    `model` is export_llama's --model (the family)."""
    subprocess.run([sys.executable, "-m", "executorch.examples.models.llama.export_llama",
                    "--model", model, "-c", ckpt, "-p", params, "-X", "-qmode", "8da4w", "-G", "32",
                    "-E", "4,32", "--use_kv_cache", "--use_sdpa_with_kv_cache", "-d", "fp32",
                    "--max_seq_length", str(max_seq), "--max_context_length", str(max_context),
                    "--metadata", metadata, "--output_name", out],
                   check=True, cwd=os.path.dirname(out),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def export_config(params, ckpt, out, work):
    config = os.path.join(work, "tiny.yaml")
    with open(config, "w") as f:
        f.write(f"""base:
  model_class: llama3
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
quantization:
  qmode: 8da4w
  group_size: 32
  embedding_quantize: "4,32"
backend:
  xnnpack:
    enabled: True
    extended_ops: True
""")
    # export_llm writes output_name relative to the working directory (an
    # absolute name is kept) and its hydra logs into it: run it in `work`
    subprocess.run([sys.executable, "-m", "executorch.extension.llm.export.export_llm",
                    "--config", config], check=True, cwd=work,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def piece_table(tokenizer_path):
    import sentencepiece as spm
    sp = spm.SentencePieceProcessor(model_file=tokenizer_path)
    table = {}
    for i in range(sp.get_piece_size()):
        text = sp.id_to_piece(i).replace("\u2581", " ")
        table.setdefault(text, []).append(i)
    return sp, table


def ids_from_pieces(pieces, table):
    ids = []
    for k, piece in enumerate(pieces):
        found = table.get(piece) or (table.get(" " + piece) if k == 0 else None)
        if not found or len(found) != 1:
            raise RuntimeError(f"token text {piece!r} maps to {found}")
        ids.append(found[0])
    return ids


def top2(logits):
    """The last position's argmax, its margin (top-1 minus top-2 logit) and
    its top-1 logit."""
    row = logits.reshape(-1, logits.shape[-1])[-1].float()
    values = torch.topk(row, 2).values
    return int(torch.argmax(row)), float(values[0] - values[1]), float(values[0])


class RuntimeChat:
    """Upstream's runtime (its Python module), driven step by step as its
    runner drives it: prefill in chunks of what the program's token input
    takes, then one token per call, greedy, stopping after an EOS. The KV
    cache and the position carry over from one generate() to the next (a
    chat; the last generated token is not fed, as the runner's)."""

    def __init__(self, program):
        import executorch.extension.llm.custom_ops.custom_ops  # noqa: F401
        import executorch.kernels.quantized  # noqa: F401
        from executorch.runtime import Runtime
        self.method = Runtime.get().load_program(program).load_method("forward")
        self.chunk = self.method.metadata.input_tensor_meta(0).sizes()[1]
        self.pos = 0

    def step(self, ids):
        logits = self.method.execute([torch.tensor([ids], dtype=torch.long),
                                      torch.tensor([self.pos], dtype=torch.long)])[0]
        self.pos += len(ids)
        return top2(logits)

    def generate(self, prompt_ids, max_new, eos_ids=(2,)):
        """(id, margin, top-1 logit) of each generated token."""
        for i in range(0, len(prompt_ids), self.chunk):
            steps = [self.step(prompt_ids[i:i + self.chunk])]
        while len(steps) < max_new and steps[-1][0] not in eos_ids:
            steps.append(self.step([steps[-1][0]]))
        return steps


def record_margins(entries, steps, where):
    """Stores each step's margin and top-1 logit in `entries` (a case or a
    turn) after checking that the argmaxes are its generated ids."""
    ids = [s[0] for s in steps]
    if ids != entries["generated_ids"]:
        raise RuntimeError(f"{where}: runtime argmax {ids} != generated {entries['generated_ids']}")
    entries["margins"] = [round(s[1], 6) for s in steps]
    entries["top1_logits"] = [round(s[2], 6) for s in steps]


def add_margins(program, ref, sp):
    """Upstream's logit margin at each generated step of every case and turn
    of `ref` (one program's entry of the reference), from its runtime."""
    for case in ref["cases"]:
        steps = RuntimeChat(program).generate(case["prompt_ids"], case["max_new_tokens"])
        record_margins(case, steps, f"{os.path.basename(program)} {case['prompt']!r}")
    chat = RuntimeChat(program)
    for turn in ref["conversation"]:
        prompt_ids = [sp.bos_id()] * turn["num_bos"] + sp.encode(turn["prompt"])
        steps = chat.generate(prompt_ids, turn["max_new_tokens"])
        record_margins(turn, steps, f"{os.path.basename(program)} turn {turn['prompt']!r}")


def reference(program, tokenizer_path, sp, table):
    import executorch.extension.llm.custom_ops.custom_ops  # noqa: F401
    import executorch.kernels.quantized  # noqa: F401
    from executorch.extension.llm.runner import GenerationConfig, TextLLMRunner

    def run(runner, prompt, max_new):
        pieces = []
        config = GenerationConfig(echo=False, temperature=0.0, num_bos=1,
                                  max_new_tokens=max_new)
        runner.generate(prompt, config, token_callback=pieces.append)
        return ids_from_pieces(pieces, table)

    cases = []
    runner = TextLLMRunner(program, tokenizer_path)
    for prompt in PROMPTS:
        prompt_ids = [sp.bos_id()] + sp.encode(prompt)
        chat = RuntimeChat(program)
        by_runtime, chunk = [s[0] for s in chat.generate(prompt_ids, 12)], chat.chunk
        case = {"prompt": prompt, "num_bos": 1, "max_new_tokens": 12, "prompt_ids": prompt_ids}
        if chunk > 1 and len(prompt_ids) > chunk:
            # Upstream's runner prefills in chunks of max_seq_len (32) where
            # the exported token input takes 31 at most, and fails ("Attempted
            # to resize a bounded tensor with a maximum capacity of 31
            # elements to 32"): the reference is its runtime, chunked by 31.
            case["generated_ids"] = by_runtime
            case["reference"] = f"upstream runtime, prefill in chunks of {chunk}"
        else:
            runner.reset()
            case["generated_ids"] = run(runner, prompt, 12)
            case["reference"] = "upstream TextLLMRunner"
            if case["generated_ids"] != by_runtime:
                raise RuntimeError(f"runner {case['generated_ids']} != runtime {by_runtime}")
        cases.append(case)
    runner.reset()
    turns = [{"prompt": p, "num_bos": 1, "max_new_tokens": 6,
              "generated_ids": run(runner, p, 6)} for p in TURNS]
    ref = {"cases": cases, "conversation": turns}
    add_margins(program, ref, sp)
    return ref


def update_margins(out):
    """--margins-only: adds the margins to the reference in `out`, from the
    programs and tokenizer there (neither is rewritten)."""
    import sentencepiece as spm
    path = os.path.join(out, "tiny_llama_reference.json")
    with open(path, encoding="utf-8") as f:
        refs = json.load(f)
    sp = spm.SentencePieceProcessor(model_file=os.path.join(out, refs["tokenizer"]))
    for name, ref in refs["programs"].items():
        add_margins(os.path.join(out, name), ref, sp)
    return refs


def write_reference(out, refs):
    with open(os.path.join(out, "tiny_llama_reference.json"), "w", encoding="utf-8") as f:
        json.dump(refs, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(json.dumps(refs, ensure_ascii=False)[:2000])


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=os.path.join(here, "..", "..", "test", "models", "llm"))
    p.add_argument("--reuse", action="store_true",
                   help="keep the programs and the tokenizer in --out, redo the references")
    p.add_argument("--margins-only", action="store_true",
                   help="only add upstream's logit margins to the reference in --out")
    args = p.parse_args()
    out = os.path.abspath(args.out)
    if args.margins_only:
        write_reference(out, update_margins(out))
        return
    os.makedirs(out, exist_ok=True)
    tokenizer = os.path.join(out, "tiny_llm_tokenizer.model")
    legacy = os.path.join(out, "tiny_llama_legacy.pte")
    config = os.path.join(out, "tiny_llama_config.pte")
    reuse = args.reuse and all(map(os.path.exists, (tokenizer, legacy, config)))
    if not reuse:
        # (a retrained tokenizer has the same pieces, but the training
        # paths it records make other bytes: --reuse keeps the file)
        tokenizer = train_tokenizer(out)
    sp, table = piece_table(tokenizer)
    refs = {"tokenizer": os.path.basename(tokenizer), "max_seq_len": MAX_SEQ,
            "max_context_len": MAX_CONTEXT, "programs": {}}
    if not reuse:
        with tempfile.TemporaryDirectory() as work:
            params, ckpt = write_checkpoint(work)
            export_legacy(params, ckpt, legacy)
            export_config(params, ckpt, config, work)
    for program in (legacy, config):
        refs["programs"][os.path.basename(program)] = reference(program, tokenizer, sp, table)
    write_reference(out, refs)


if __name__ == "__main__":
    main()
