#!/usr/bin/env python3
# Product tool: writes the multimodal / speech runner fixtures in test/models/multimodal.
"""Tiny multimodal and speech programs exported by upstream's own toolchain
(optimum-executorch's XNNPACK recipe), with upstream's runtime outputs as the
reference.

Run from the repository root, in a virtual environment of its own that has
optimum-executorch (it pins other versions than the rest of the tools):

    python -m venv optenv
    optenv/bin/pip install optimum-executorch==1.1.0 torch==2.13.0 \
        executorch==1.5.1 torchao==0.18.0
    optenv/bin/pip uninstall -y torchvision
    optenv/bin/python examples/export/export_multimodal.py \
        --out test/models/multimodal --models whisper,gemma3,voxtral,llava

Offline: every model is built from a tiny configuration with seeded random
weights (nothing is downloaded). The same --seed gives the same files.

gemma3_custom, voxtral_custom and llava_custom (not written by default) are
the same models exported with optimum-cli's --use_custom_sdpa and
--use_custom_kv_cache, so that their programs call upstream's llama::
custom operators (custom_sdpa, update_cache, update_cache_with_indices):

    optenv/bin/python examples/export/export_multimodal.py \
        --out test/models/multimodal --models gemma3_custom,voxtral_custom,llava_custom

For each model <m>, <out>/<m>/ gets:
  model.pte        what optimum-executorch's main_export wrote (XNNPACK)
  model.bpte       a BundledProgram around the same program bytes, one test
                   case per tensor method, expected outputs from upstream's
                   runtime (executorch.runtime). Metadata (constant) methods
                   return Int/Bool/Double/String values, which a
                   BundledProgram cannot hold (tensor outputs only): their
                   values are in reference.json.
  tokenizer.*      the tokenizer the runner takes (its size == vocab_size)
  *.npy / *.wav    inputs the greedy references used
  reference.json   methods, shapes, metadata values, prompts, token ids

whisper and voxtral: also preprocessor.pte (python -m
executorch.extension.audio.mel_spectrogram), preprocessor.bpte and the WAV
file whose samples it was run on. Every .bpte is verified with upstream's
bundled runtime, and the MultimodalRunner references are checked against
upstream's MultimodalRunner (prompt length and every callback string).

What this script changes in upstream's flow, and why:
  * VisionExportableModule / AudioExportableModule.prepare_export_inputs
    fetch a sample image or audio file from the network to get example
    inputs for torch.export. They are replaced by seeded random tensors of
    the same shape (the export does not depend on their values).
  * Weights: HF's init leaves norms at 1 (or 0 for Gemma's 1 + w), biases
    at 0 and weights at N(0, 0.02); every parameter is drawn again so that
    every method's output depends on every weight and greedy steps lead by
    a clear margin (see randomize_).
"""

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import wave

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np  # noqa: E402
import torch  # noqa: E402

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SP_TOKENIZER = os.path.join("test", "models", "llm", "tiny_llm_tokenizer.model")

DTYPE_NAMES = {1: "uint8", 3: "int32", 4: "int64", 6: "float32", 11: "bool", 15: "bfloat16"}


# --------------------------------------------------------------------------
# Weights


def randomize_(model: torch.nn.Module, seed: int, keep=()) -> None:
    """Draws every parameter again from a seeded generator.

    Matrices and convolutions: N(0, 1/fan_in); embeddings (names with
    "embed" or "position"): N(0, 0.5^2); output projections (lm_head,
    proj_out): N(0, 1), so logits spread by several units; 1-D weights that HF left at 1:
    1 + N(0, 0.1^2), at 0: N(0, 0.1^2); biases N(0, 0.02^2). Names
    containing an entry of keep are left alone (fixed sinusoids).
    """
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if any(k in name for k in keep):
                continue
            noise = torch.randn(p.shape, generator=gen, dtype=torch.float32)
            if p.dim() >= 2 and ("lm_head" in name or "proj_out" in name):
                p.copy_(noise)
            elif p.dim() >= 2 and ("embed" in name or "position" in name):
                p.copy_(noise * 0.5)
            elif p.dim() >= 2:
                fan_in = p.numel() // p.shape[0]
                p.copy_(noise / fan_in ** 0.5)
            elif name.endswith("bias"):
                p.copy_(noise * 0.02)
            elif torch.all(p == 1):
                p.copy_(1 + noise * 0.1)
            else:
                p.copy_(noise * 0.1)


# --------------------------------------------------------------------------
# Upstream runtime helpers


def load_program(path):
    from executorch.runtime import Runtime

    return Runtime.get().load_program(path)


def run_method(path, method, inputs):
    """One method on a freshly loaded program (fresh KV cache)."""
    return [np.asarray(o) for o in load_program(path).load_method(method).execute(inputs)]


def tensor_meta(tm):
    return {"shape": list(tm.sizes()), "dtype": DTYPE_NAMES.get(tm.dtype(), str(tm.dtype()))}


def operator_tables(path):
    """Each method's operator table (portable kernels the runtime needs)
    and its number of XNNPACK delegate calls."""
    from executorch.exir._serialize._program import deserialize_pte_binary

    with open(path, "rb") as f:
        program = deserialize_pte_binary(f.read())
    program = getattr(program, "program", program)
    tables = {}
    for plan in program.execution_plan:
        ops = [o.name + ("." + o.overload if o.overload else "") for o in plan.operators]
        tables[plan.name] = {"operators": ops, "delegates": len(plan.delegates)}
    return tables


def describe_program(path):
    """Tensor methods' I/O metadata and operators, constant methods'
    values."""
    prog = load_program(path)
    tables = operator_tables(path)
    tensor_methods, metadata = {}, {}
    for name in sorted(prog.method_names):
        meta = prog.metadata(name)
        try:
            outs = [tensor_meta(meta.output_tensor_meta(i)) for i in range(meta.num_outputs())]
        except (IndexError, RuntimeError):
            outs = None
        if outs is None and meta.num_inputs() == 0:
            value = prog.load_method(name).execute([])[0]
            kind = {bool: "bool", int: "int", float: "double", str: "string"}[type(value)]
            metadata[name] = {"type": kind, "value": value}
            continue
        tensor_methods[name] = {
            "inputs": [tensor_meta(meta.input_tensor_meta(i)) for i in range(meta.num_inputs())],
            "outputs": outs,
            **tables[name],
        }
    return tensor_methods, metadata


def write_bundle(pte_path, cases, out_path, manager=None):
    """BundledProgram with one test case per method in cases
    (method -> list of torch inputs); expected outputs from upstream's
    runtime, each method on a freshly loaded program. Returns the expected
    outputs as numpy arrays."""
    from executorch.devtools import BundledProgram
    from executorch.devtools.bundled_program.config import MethodTestCase, MethodTestSuite
    from executorch.devtools.bundled_program.serialize import (
        serialize_from_bundled_program_to_flatbuffer,
    )

    expected, suites = {}, []
    for method in sorted(cases):
        inputs = cases[method]
        outs = run_method(pte_path, method, inputs)
        expected[method] = outs
        suites.append(
            MethodTestSuite(
                method_name=method,
                test_cases=[
                    MethodTestCase(
                        inputs=inputs, expected_outputs=[torch.from_numpy(o.copy()) for o in outs]
                    )
                ],
            )
        )
    if manager is not None:
        with open(pte_path, "rb") as f:
            assert manager.buffer == f.read(), "model.pte differs from the manager's buffer"
        bundle = BundledProgram(manager, suites)
    else:
        bundle = BundledProgram(None, suites, pte_file_path=pte_path)
    with open(out_path, "wb") as f:
        f.write(serialize_from_bundled_program_to_flatbuffer(bundle))
    return expected


def check_bundle(path, rtol=1e-5, atol=1e-6):
    """Every test case through upstream's bundled runtime."""
    from executorch.devtools.bundled_program.serialize import (
        deserialize_from_flatbuffer_to_bundled_program,
    )
    from executorch.extension.pybindings.portable_lib import _load_bundled_program_from_buffer

    with open(path, "rb") as f:
        data = f.read()
    schema = deserialize_from_flatbuffer_to_bundled_program(data)
    module = _load_bundled_program_from_buffer(data)
    names = []
    for suite in schema.method_test_suites:
        for k in range(len(suite.test_cases)):
            module.verify_result_with_bundled_expected_output(suite.method_name, k, rtol, atol)
        names.append(suite.method_name)
    return names


def optimum_export(model_dir, task, out_dir, **kwargs):
    from optimum.exporters.executorch import main_export

    progs = main_export(model_dir, task=task, recipe="xnnpack", output_dir=out_dir, **kwargs)
    return progs["model"], os.path.join(out_dir, "model.pte")


# optimum-cli's --use_custom_sdpa --use_custom_kv_cache, as main_export
# kwargs: attention through llama::custom_sdpa (text decoder and encoder),
# KV caches written by llama::update_cache, and for Gemma 3's sliding layers
# a ring buffer written by llama::update_cache_with_indices.
CUSTOM_OPTIONS = {"use_custom_sdpa": True, "use_custom_kv_cache": True}


def load_llm_custom_ops():
    """Registers upstream's llama:: kernels with its runtime (importing
    the module loads libcustom_ops_aot_lib.so). Without them a method that
    uses them fails to load with "Missing operator"."""
    from executorch.extension.llm.custom_ops import custom_ops  # noqa: F401


def custom_op_tables(methods):
    """For each tensor method, the llama:: operators in its table."""
    return {
        name: [op for op in info["operators"] if op.startswith("llama::")]
        for name, info in methods.items()
    }


def patch_example_inputs(seed):
    """Replaces the network-fetching example inputs of optimum's encoders."""
    import optimum.exporters.executorch.integrations as integ

    def vision_inputs(self):
        cfg = self.model.config.vision_config
        gen = torch.Generator().manual_seed(seed)
        shape = (1, cfg.num_channels, cfg.image_size, cfg.image_size)
        return torch.rand(shape, generator=gen) * 2 - 1, None

    def audio_inputs(self):
        cfg = self.model.config.audio_config
        frames = 2 * cfg.max_source_positions
        gen = torch.Generator().manual_seed(seed)
        x = torch.rand((2, cfg.num_mel_bins, frames), generator=gen) * 2 - 1
        dims = {"input_features": {0: torch.export.Dim("enc_batch_size_dim", min=1, max=10)}}
        return x, dims

    integ.VisionExportableModule.prepare_export_inputs = vision_inputs
    integ.AudioExportableModule.prepare_export_inputs = audio_inputs


def margins(logits):
    top = np.sort(logits.astype(np.float64))[-2:]
    return float(top[1] - top[0])


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def save_npy(path, array):
    np.save(path, np.ascontiguousarray(array))
    return os.path.basename(path)


def write_png(path, rgb):
    """An 8-bit RGB PNG of an HWC uint8 array (zlib from the standard
    library, no filter): deterministic bytes."""
    import struct
    import zlib

    height, width, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[y].tobytes() for y in range(height))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) +
                chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=False)
        f.write("\n")


# --------------------------------------------------------------------------
# Whisper


WHISPER_SPECIALS = [
    "<|endoftext|>",
    "<|startoftranscript|>",
    "<|en|>",
    "<|transcribe|>",
    "<|notimestamps|>",
]
WORDS = (
    "the quick brown fox jumps over a lazy dog while small birds sing in "
    "green trees near the river and people talk about speech models that "
    "listen to short sounds then write what they hear one word at a time"
).split()


def train_bytelevel_bpe(seed, vocab_size, specials):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    rng = np.random.default_rng(seed)
    lines = [" ".join(rng.choice(WORDS, size=8)) for _ in range(400)]
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=specials,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(lines, trainer)
    return tok


def write_wav(path, samples_i16, rate=16000):
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(samples_i16.astype("<i2").tobytes())


def seeded_wav(seed, n, path):
    """n samples at 16 kHz: 440 Hz and 1 kHz tones plus seeded noise,
    written as PCM16; returns the float32 samples int16 / 32768."""
    rng = np.random.default_rng(seed + 1)
    t = np.arange(n) / 16000.0
    wav = 0.3 * np.sin(2 * np.pi * 440 * t) + 0.1 * np.sin(2 * np.pi * 1000 * t)
    wav = wav + 0.05 * rng.standard_normal(t.shape)
    wav_i16 = np.clip(np.round(wav * 32767), -32768, 32767).astype(np.int16)
    write_wav(path, wav_i16)
    return (wav_i16.astype(np.float32) / 32768.0).astype(np.float32)


def export_preprocessor(path, args):
    subprocess.run(
        [sys.executable, "-m", "executorch.extension.audio.mel_spectrogram", *args,
         "--output_file", path],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return "python -m executorch.extension.audio.mel_spectrogram " + " ".join(args)


def whisper_greedy(pte, features, start_id, eos_id, max_new_tokens):
    """Upstream Seq2SeqRunner's loop on upstream's runtime: encoder once,
    then text_decoder(token [1,1], encoder_out, cache_position [1]) and
    argmax, from the decoder start token until EOS or max_new_tokens; the
    sampler method runs on every step's logits as a cross-check."""
    prog = load_program(pte)
    enc = prog.load_method("encoder").execute([torch.from_numpy(features)])[0]
    dec = prog.load_method("text_decoder")
    sampler = prog.load_method("sampler")
    token, ids, step_margins = start_id, [], []
    for pos in range(max_new_tokens):
        logits = dec.execute(
            [torch.tensor([[token]], dtype=torch.long), enc, torch.tensor([pos], dtype=torch.long)]
        )[0]
        row = np.asarray(logits)[0, -1]
        token = int(np.argmax(row))
        sampled = int(np.asarray(sampler.execute([logits])[0]).reshape(-1)[0])
        assert sampled == token, f"sampler {sampled} != argmax {token}"
        ids.append(token)
        step_margins.append(round(margins(row), 4))
        if token == eos_id:
            break
    return ids, step_margins


def build_whisper(out, work, seed):
    from transformers import (
        WhisperConfig,
        WhisperFeatureExtractor,
        WhisperForConditionalGeneration,
        WhisperProcessor,
        WhisperTokenizerFast,
    )

    hf_dir = os.path.join(work, "whisper_hf")
    os.makedirs(hf_dir, exist_ok=True)
    tok = train_bytelevel_bpe(seed, 320, WHISPER_SPECIALS)
    vocab = tok.get_vocab_size()
    eos_id = tok.token_to_id("<|endoftext|>")
    start_id = tok.token_to_id("<|startoftranscript|>")
    tok_path = os.path.join(hf_dir, "tokenizer.json")
    tok.save(tok_path)
    hf_tok = WhisperTokenizerFast(
        tokenizer_file=tok_path,
        unk_token="<|endoftext|>",
        bos_token="<|endoftext|>",
        eos_token="<|endoftext|>",
        pad_token="<|endoftext|>",
    )
    # 1-second chunks: 100 mel frames, so the encoder takes [1, 80, 100]
    # (max_source_positions 50 after the stride-2 convolution).
    feat = WhisperFeatureExtractor(feature_size=80, chunk_length=1)
    WhisperProcessor(feature_extractor=feat, tokenizer=hf_tok).save_pretrained(hf_dir)
    cfg = WhisperConfig(
        vocab_size=vocab,
        num_mel_bins=80,
        d_model=64,
        encoder_layers=2,
        decoder_layers=2,
        encoder_attention_heads=4,
        decoder_attention_heads=4,
        encoder_ffn_dim=128,
        decoder_ffn_dim=128,
        max_source_positions=50,
        max_target_positions=64,
        bos_token_id=eos_id,
        eos_token_id=eos_id,
        pad_token_id=eos_id,
        decoder_start_token_id=start_id,
        suppress_tokens=None,
        begin_suppress_tokens=None,
        # An output projection of its own: tied to the embeddings, greedy
        # decoding of a random model tends to repeat the fed-back token.
        tie_word_embeddings=False,
    )
    torch.manual_seed(seed)
    model = WhisperForConditionalGeneration(cfg).eval()
    randomize_(model, seed, keep=("encoder.embed_positions",))
    model.save_pretrained(hf_dir)

    dest = os.path.join(out, "whisper")
    os.makedirs(dest, exist_ok=True)
    manager, pte_tmp = optimum_export(
        hf_dir, "automatic-speech-recognition", os.path.join(work, "whisper_pte"), max_seq_len=64
    )
    pte = os.path.join(dest, "model.pte")
    shutil.copyfile(pte_tmp, pte)
    shutil.copyfile(tok_path, os.path.join(dest, "tokenizer.json"))

    # Log-mel preprocessor: 1-second chunks, at most 1 second of audio.
    pre = os.path.join(dest, "preprocessor.pte")
    pre_cmd = export_preprocessor(
        pre, ["--feature_size", "80", "--chunk_length", "1", "--max_audio_len", "1"]
    )

    # Inputs: seeded features in Whisper's log-mel range, and a 0.75 s WAV
    # (440 Hz + 1 kHz tones and seeded noise).
    rng = np.random.default_rng(seed)
    features = (rng.random((1, 80, 100), dtype=np.float32) * 2 - 1).astype(np.float32)
    samples = seeded_wav(seed, 12000, os.path.join(dest, "audio.wav"))
    save_npy(os.path.join(dest, "features.npy"), features)

    # Method checks: one case per tensor method.
    enc_out = run_method(pte, "encoder", [torch.from_numpy(features)])[0]
    dec_inputs = [
        torch.tensor([[start_id]], dtype=torch.long),
        torch.from_numpy(enc_out.copy()),
        torch.tensor([0], dtype=torch.long),
    ]
    logits = run_method(pte, "text_decoder", dec_inputs)[0]
    cases = {
        "encoder": [torch.from_numpy(features)],
        "text_decoder": dec_inputs,
        "sampler": [torch.from_numpy(logits.copy())],
    }
    write_bundle(pte, cases, os.path.join(dest, "model.bpte"), manager)
    pre_expected = write_bundle(
        pre, {"forward": [torch.from_numpy(samples)]}, os.path.join(dest, "preprocessor.bpte")
    )
    wav_features = pre_expected["forward"][0]
    save_npy(os.path.join(dest, "audio_features.npy"), wav_features)

    ids, step_margins = whisper_greedy(pte, features, start_id, eos_id, 16)
    wav_ids, wav_margins = whisper_greedy(pte, wav_features, start_id, eos_id, 16)
    methods, metadata = describe_program(pte)
    pre_methods, _ = describe_program(pre)
    return {
        "model": "whisper",
        "task": "automatic-speech-recognition",
        "program": "model.pte",
        "bundle": "model.bpte",
        "bundle_methods": sorted(cases),
        "bundle_inputs": {
            "encoder": {"file": "features.npy"},
            "text_decoder": {
                "input_ids": [[start_id]],
                "encoder_hidden_states": "encoder's output for features.npy",
                "cache_position": [0],
            },
            "sampler": {"logits": "text_decoder's output above"},
        },
        "tokenizer": "tokenizer.json",
        "vocab_size": vocab,
        "decoder_start_token_id": start_id,
        "eos_id": eos_id,
        "special_tokens": {s: tok.token_to_id(s) for s in WHISPER_SPECIALS},
        "methods": methods,
        "metadata": metadata,
        "config": {
            "d_model": 64, "encoder_layers": 2, "decoder_layers": 2, "heads": 4,
            "ffn_dim": 128, "num_mel_bins": 80, "max_source_positions": 50,
            "max_target_positions": 64, "max_seq_len": 64,
        },
        "preprocessor": {
            "program": "preprocessor.pte",
            "bundle": "preprocessor.bpte",
            "bundle_inputs": {"forward": "audio.wav's samples (wav_to_input)"},
            "command": pre_cmd + " --output_file preprocessor.pte",
            "methods": pre_methods,
            "wav": "audio.wav",
            "wav_format": "16 kHz mono PCM16, 12000 samples",
            "wav_to_input": "float32 samples = int16 / 32768, shape [n]",
            "features": "audio_features.npy",
        },
        "greedy": [
            {
                "name": "features",
                "features": "features.npy",
                "max_new_tokens": 16,
                "start_id": start_id,
                "generated_ids": ids,
                "stopped_at_eos": bool(ids and ids[-1] == eos_id),
                "logit_margins": step_margins,
            },
            {
                "name": "wav",
                "wav": "audio.wav",
                "features": "audio_features.npy",
                "max_new_tokens": 16,
                "start_id": start_id,
                "generated_ids": wav_ids,
                "stopped_at_eos": bool(wav_ids and wav_ids[-1] == eos_id),
                "logit_margins": wav_margins,
            },
        ],
    }


# --------------------------------------------------------------------------
# Decoder-only multimodal models (MultimodalRunner)


def sp_tokenizer():
    """The C++ SentencePiece tokenizer that upstream's runner uses."""
    from pytorch_tokenizers.pytorch_tokenizers_cpp import SPTokenizer

    tok = SPTokenizer()
    tok.load(os.path.join(REPO, SP_TOKENIZER))
    return tok


def sp_encode(text, bos):
    return list(sp_tokenizer().encode(text, bos, 0))


def runner_pieces(ids):
    """The strings MultimodalRunner hands its callback for ids: the first
    token decoded against itself, then each against the one before."""
    tok = sp_tokenizer()
    # The Python binding takes (token, previous token).
    out = [tok.decode(ids[0], ids[0])]
    out += [tok.decode(cur, prev) for prev, cur in zip(ids, ids[1:])]
    return out


def step_multimodal(pte, pieces, num_bos, bos_id, eos_id, max_new_tokens):
    """MultimodalRunner's prefill and greedy decode, method by method on
    upstream's runtime. pieces: ("text", str) or (encoder_method, tensor,
    file name)."""
    prog = load_program(pte)
    emb = prog.load_method("token_embedding")
    dec = prog.load_method("text_decoder")
    pos, prompt, logits = 0, [], None
    for i, (kind, value, *file) in enumerate(pieces):
        if kind == "text":
            ids = sp_encode(value, num_bos if i == 0 else 0)
            prompt.append({"text": value, "ids": ids})
            x = emb.execute([torch.tensor([ids], dtype=torch.long)])[0]
        else:
            x = prog.load_method(kind).execute([value])[0]
            prompt.append({"method": kind, "input": file[0], "input_shape": list(value.shape),
                           "embeddings": int(x.shape[1])})
        n = x.shape[1]
        logits = dec.execute([x, torch.arange(pos, pos + n, dtype=torch.long)])[0]
        pos += n
    prompt_len = pos
    out, step_margins = [], []
    row = np.asarray(logits)[0, -1]
    while True:
        token = int(np.argmax(row))
        out.append(token)
        step_margins.append(round(margins(row), 4))
        if token == eos_id or len(out) == max_new_tokens:
            break
        x = emb.execute([torch.tensor([[token]], dtype=torch.long)])[0]
        logits = dec.execute([x, torch.tensor([pos], dtype=torch.long)])[0]
        row = np.asarray(logits)[0, -1]
        pos += 1
    return prompt, prompt_len, out, step_margins


def run_multimodal_runner(pte, tokenizer, pieces, num_bos, max_new_tokens):
    """Upstream's MultimodalRunner (temperature 0): its text pieces and stats."""
    from executorch.extension.llm.runner import (
        GenerationConfig,
        MultimodalRunner,
        make_audio_input,
        make_image_input,
        make_text_input,
    )

    inputs = []
    for kind, value, *_ in pieces:
        if kind == "text":
            inputs.append(make_text_input(value))
        elif kind == "vision_encoder":
            inputs.append(make_image_input(value))
        else:
            inputs.append(make_audio_input(value))
    cfg = GenerationConfig(
        echo=False, max_new_tokens=max_new_tokens, temperature=0.0, num_bos=num_bos
    )
    got, stats = [], []
    runner = MultimodalRunner(pte, tokenizer)
    runner.generate(inputs, cfg, got.append, stats.append)
    return got, stats[-1]


def multimodal_reference(pte, tokenizer, prompts, num_bos, bos_id, eos_id, max_new_tokens):
    results = []
    for name, pieces in prompts:
        prompt, prompt_len, ids, step_margins = step_multimodal(
            pte, pieces, num_bos, bos_id, eos_id, max_new_tokens
        )
        texts, stats = run_multimodal_runner(pte, tokenizer, pieces, num_bos, max_new_tokens)
        assert stats.num_prompt_tokens == prompt_len, (stats.num_prompt_tokens, prompt_len)
        assert texts == runner_pieces(ids), (texts, ids)
        results.append(
            {
                "name": name,
                "pieces": prompt,
                "num_bos": num_bos,
                "prompt_len": prompt_len,
                "max_new_tokens": max_new_tokens,
                "temperature": 0.0,
                "generated_ids": ids,
                "stopped_at_eos": bool(ids and ids[-1] == eos_id),
                "runner_pieces": texts,
                "runner_num_generated_tokens": stats.num_generated_tokens,
                "logit_margins": step_margins,
            }
        )
    return results


def seeded_image(seed, size):
    """A seeded RGB image, uint8 HWC, and its SigLIP-style pixel values
    (x / 255 - 0.5) / 0.5 as float32 [1, 3, H, W]."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:size, 0:size]
    base = np.stack([xx * 255 // (size - 1), yy * 255 // (size - 1), (xx + yy) * 127 // (size - 1)], -1)
    img = np.clip(base + rng.integers(-40, 41, base.shape), 0, 255).astype(np.uint8)
    pixels = ((img.astype(np.float32) / 255.0 - 0.5) / 0.5).transpose(2, 0, 1)[None]
    return img, np.ascontiguousarray(pixels, dtype=np.float32)


def finish_decoder_only(name, task, dest, pte, manager, enc_method, enc_input, enc_file, extra):
    """Bundle, metadata and greedy references shared by Gemma 3 / Llava /
    Voxtral."""
    tokenizer = os.path.join(dest, "tokenizer.model")
    shutil.copyfile(os.path.join(REPO, SP_TOKENIZER), tokenizer)
    text_ids = sp_encode("Describe the picture", 1)
    emb_in = torch.tensor([text_ids], dtype=torch.long)
    emb_out = run_method(pte, "token_embedding", [emb_in])[0]
    cases = {
        "token_embedding": [emb_in],
        enc_method: [enc_input],
        "text_decoder": [
            torch.from_numpy(emb_out.copy()),
            torch.arange(0, emb_out.shape[1], dtype=torch.long),
        ],
    }
    write_bundle(pte, cases, os.path.join(dest, "model.bpte"), manager)
    methods, metadata = describe_program(pte)
    bos_id, eos_id = metadata["get_bos_id"]["value"], metadata["get_eos_id"]["value"]
    first, last = extra.pop("prompt_text")
    options = extra.pop("export_options", None)
    prompts = [
        ("text_media_text",
         [("text", first), (enc_method, enc_input, enc_file), ("text", last)]),
        ("text_only", [("text", "The fox")]),
    ]
    greedy = multimodal_reference(pte, tokenizer, prompts, 1, bos_id, eos_id, 12)
    ref = {
        "model": name,
        "task": task,
        "program": "model.pte",
        "bundle": "model.bpte",
        "bundle_methods": sorted(cases),
        "bundle_inputs": {
            "token_embedding": {"ids": text_ids},
            enc_method: {"file": enc_file},
            "text_decoder": {
                "inputs_embeds": "token_embedding's output for those ids",
                "cache_position": list(range(len(text_ids))),
            },
        },
        "tokenizer": "tokenizer.model",
        "bos_id": bos_id,
        "eos_id": eos_id,
        "methods": methods,
        "metadata": metadata,
    }
    if options:
        ref["export_options"] = options
        ref["custom_ops"] = custom_op_tables(methods)
    ref.update(extra)
    ref["greedy"] = greedy
    return ref


def build_gemma3(out, work, seed, custom=False):
    from transformers import Gemma3Config, Gemma3ForConditionalGeneration

    name = "gemma3_custom" if custom else "gemma3"
    options = CUSTOM_OPTIONS if custom else {}
    # Default cache: sliding_window == max_length, because upstream's
    # exported text_decoder fails (index_put out of bounds) at positions
    # >= sliding_window. Custom cache: the sliding layer keeps a ring
    # buffer of 2 * sliding_window slots; window 19 (38 slots) wraps in
    # text_media_text's last two steps (positions 38 and 39), and every one
    # of its steps leads by more than 0.1 (windows 17, 18 and 20 give a near
    # tie or no wrap). text_decoder then takes at most 18 rows; the longest
    # prompt piece has 16.
    sliding_window = 19 if custom else 64
    hf_dir = os.path.join(work, name + "_hf")
    os.makedirs(hf_dir, exist_ok=True)
    text = dict(
        vocab_size=512, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, head_dim=16,
        max_position_embeddings=128, sliding_window=sliding_window,
        layer_types=["sliding_attention", "full_attention"], query_pre_attn_scalar=16,
        bos_token_id=1, eos_token_id=2, pad_token_id=0, tie_word_embeddings=False,
    )
    vision = dict(
        hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
        image_size=32, patch_size=8, num_channels=3,
    )
    # 511/509/510 are the tokenizer's last pieces; the runner never inserts
    # them (the image's embeddings go straight to text_decoder).
    cfg = Gemma3Config(
        text_config=text, vision_config=vision, mm_tokens_per_image=4,
        image_token_index=511, boi_token_index=509, eoi_token_index=510,
        bos_token_id=1, eos_token_id=2, pad_token_id=0, tie_word_embeddings=False,
    )
    torch.manual_seed(seed)
    model = Gemma3ForConditionalGeneration(cfg).eval()
    assert model.lm_head.weight is not model.get_input_embeddings().weight
    randomize_(model, seed)
    model.save_pretrained(hf_dir)
    patch_example_inputs(seed)
    dest = os.path.join(out, name)
    os.makedirs(dest, exist_ok=True)
    manager, pte_tmp = optimum_export(
        hf_dir, "image-text-to-text", os.path.join(work, name + "_pte"), max_length=64, **options
    )
    pte = os.path.join(dest, "model.pte")
    shutil.copyfile(pte_tmp, pte)
    img, pixels = seeded_image(seed, 32)
    save_npy(os.path.join(dest, "image_uint8_hwc.npy"), img)
    save_npy(os.path.join(dest, "image.npy"), pixels)
    extra = {
        "prompt_text": ("Describe the picture", " in one word"),
        "image": "image.npy",
        "image_note": "float32 [1,3,32,32] = (image_uint8_hwc / 255 - 0.5) / 0.5, CHW",
        "config": {
            "text": {k: v for k, v in text.items()},
            "vision": vision,
            "mm_tokens_per_image": 4,
            "image_token_index": 511,
            "boi_token_index": 509,
            "eoi_token_index": 510,
            "max_length": 64,
        },
    }
    if custom:
        extra["export_options"] = options
    return finish_decoder_only(
        name, "image-text-to-text", dest, pte, manager, "vision_encoder",
        torch.from_numpy(pixels), "image.npy", extra,
    )


CLIP_MEAN = np.array([0.48145466, 0.4578275, 0.40821073], dtype=np.float32)
CLIP_STD = np.array([0.26862954, 0.26130258, 0.27577711], dtype=np.float32)


def build_llava(out, work, seed, custom=False):
    from transformers import LlavaConfig, LlavaForConditionalGeneration

    name = "llava_custom" if custom else "llava"
    options = CUSTOM_OPTIONS if custom else {}
    hf_dir = os.path.join(work, name + "_hf")
    os.makedirs(hf_dir, exist_ok=True)
    text = dict(
        model_type="llama", vocab_size=512, hidden_size=64, intermediate_size=128,
        num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
        max_position_embeddings=128, bos_token_id=1, eos_token_id=2, pad_token_id=0,
        tie_word_embeddings=False,
    )
    vision = dict(
        model_type="clip_vision_model", hidden_size=32, intermediate_size=64,
        num_hidden_layers=2, num_attention_heads=2, image_size=32, patch_size=8,
        num_channels=3, projection_dim=32,
    )
    # vision_feature_layer -2 and the "default" strategy (drop CLS): 16
    # patch tokens for a 32x32 image with 8x8 patches.
    cfg = LlavaConfig(
        text_config=text, vision_config=vision, image_token_index=511,
        vision_feature_layer=-2, vision_feature_select_strategy="default",
        projector_hidden_act="gelu", image_seq_length=16, tie_word_embeddings=False,
    )
    torch.manual_seed(seed)
    model = LlavaForConditionalGeneration(cfg).eval()
    randomize_(model, seed)
    model.save_pretrained(hf_dir)
    patch_example_inputs(seed)
    dest = os.path.join(out, name)
    os.makedirs(dest, exist_ok=True)
    manager, pte_tmp = optimum_export(
        hf_dir, "image-text-to-text", os.path.join(work, name + "_pte"), max_length=64, **options
    )
    pte = os.path.join(dest, "model.pte")
    shutil.copyfile(pte_tmp, pte)
    img, _ = seeded_image(seed, 32)
    pixels = ((img.astype(np.float32) / 255.0 - CLIP_MEAN) / CLIP_STD).transpose(2, 0, 1)[None]
    pixels = np.ascontiguousarray(pixels, dtype=np.float32)
    save_npy(os.path.join(dest, "image_uint8_hwc.npy"), img)
    save_npy(os.path.join(dest, "image.npy"), pixels)
    extra = {
        "prompt_text": ("Describe the picture", " in one word"),
        "image": "image.npy",
        "image_note": "float32 [1,3,32,32] = (image_uint8_hwc / 255 - CLIP mean) / CLIP std, CHW",
        "config": {"text": text, "vision": vision, "image_token_index": 511,
                   "vision_feature_layer": -2, "vision_feature_select_strategy": "default",
                   "max_length": 64},
    }
    if custom:
        extra["export_options"] = options
    return finish_decoder_only(
        name, "image-text-to-text", dest, pte, manager, "vision_encoder",
        torch.from_numpy(pixels), "image.npy", extra,
    )


def build_voxtral(out, work, seed, custom=False):
    from transformers import VoxtralConfig, VoxtralForConditionalGeneration

    name = "voxtral_custom" if custom else "voxtral"
    options = CUSTOM_OPTIONS if custom else {}
    hf_dir = os.path.join(work, name + "_hf")
    os.makedirs(hf_dir, exist_ok=True)
    text = dict(
        model_type="llama", vocab_size=512, hidden_size=64, intermediate_size=128,
        num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, head_dim=16,
        max_position_embeddings=128, bos_token_id=1, eos_token_id=2, pad_token_id=0,
        tie_word_embeddings=False,
    )
    # 2-second chunks: 200 mel frames, 100 encoder positions, grouped by 4
    # (intermediate_size = 4 * hidden_size) into 25 audio tokens per chunk.
    audio = dict(
        hidden_size=32, intermediate_size=128, num_hidden_layers=2, num_attention_heads=2,
        num_mel_bins=128, max_source_positions=100, vocab_size=512,
    )
    cfg = VoxtralConfig(audio_config=audio, text_config=text, audio_token_id=511)
    torch.manual_seed(seed)
    model = VoxtralForConditionalGeneration(cfg).eval()
    randomize_(model, seed)
    model.save_pretrained(hf_dir)
    patch_example_inputs(seed)
    dest = os.path.join(out, name)
    os.makedirs(dest, exist_ok=True)
    manager, pte_tmp = optimum_export(
        hf_dir, "multimodal-text-to-text", os.path.join(work, name + "_pte"), max_length=64,
        **options,
    )
    pte = os.path.join(dest, "model.pte")
    shutil.copyfile(pte_tmp, pte)
    pre = os.path.join(dest, "preprocessor.pte")
    pre_cmd = export_preprocessor(
        pre,
        ["--feature_size", "128", "--stack_output", "--chunk_length", "2", "--max_audio_len", "2"],
    )
    samples = seeded_wav(seed, 24000, os.path.join(dest, "audio.wav"))
    pre_expected = write_bundle(
        pre, {"forward": [torch.from_numpy(samples)]}, os.path.join(dest, "preprocessor.bpte")
    )
    features = pre_expected["forward"][0]
    save_npy(os.path.join(dest, "audio_features.npy"), features)
    pre_methods, _ = describe_program(pre)
    extra = {
        "prompt_text": ("Listen to this", " and answer"),
        "audio_features": "audio_features.npy",
        "preprocessor": {
            "program": "preprocessor.pte",
            "bundle": "preprocessor.bpte",
            "bundle_inputs": {"forward": "audio.wav's samples (wav_to_input)"},
            "command": pre_cmd + " --output_file preprocessor.pte",
            "methods": pre_methods,
            "wav": "audio.wav",
            "wav_format": "16 kHz mono PCM16, 24000 samples",
            "wav_to_input": "float32 samples = int16 / 32768, shape [n]",
            "features": "audio_features.npy",
        },
        "config": {"text": text, "audio": audio, "audio_token_id": 511, "max_length": 64},
    }
    if custom:
        extra["export_options"] = options
    return finish_decoder_only(
        name, "multimodal-text-to-text", dest, pte, manager, "audio_encoder",
        torch.from_numpy(features.copy()), "audio_features.npy", extra,
    )


BUILDERS = {
    "whisper": build_whisper,
    "gemma3": build_gemma3,
    "voxtral": build_voxtral,
    "llava": build_llava,
}
# The same models exported with CUSTOM_OPTIONS (not in the default --models).
CUSTOM_BUILDERS = {
    "gemma3_custom": build_gemma3,
    "voxtral_custom": build_voxtral,
    "llava_custom": build_llava,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join("test", "models", "multimodal"))
    parser.add_argument("--models", default=",".join(BUILDERS))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--work", default=None, help="scratch folder (default: a temp dir)")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="export_multimodal_")
    os.makedirs(args.out, exist_ok=True)
    for name in args.models.split(","):
        print(f"== {name}", flush=True)
        if name in CUSTOM_BUILDERS:
            load_llm_custom_ops()
            ref = CUSTOM_BUILDERS[name](args.out, work, args.seed, custom=True)
        else:
            ref = BUILDERS[name](args.out, work, args.seed)
        dest = os.path.join(args.out, name)
        ref["seed"] = args.seed
        ref["versions"] = versions()
        ref["sha256"] = {
            f: sha256(os.path.join(dest, f))
            for f in sorted(os.listdir(dest))
            if f not in ("reference.json", "image.png")
        }
        write_json(os.path.join(dest, "reference.json"), ref)
        if os.path.exists(os.path.join(dest, "image_uint8_hwc.npy")):
            # The picture as a file, for the image reader and the
            # hf_gemma3 / hf_llava presets (written after the reference so
            # that the fixtures' sha256 sums stay as they were).
            write_png(os.path.join(dest, "image.png"),
                      np.load(os.path.join(dest, "image_uint8_hwc.npy")))
        for bpte in sorted(f for f in os.listdir(dest) if f.endswith(".bpte")):
            checked = check_bundle(os.path.join(dest, bpte))
            print(f"  {bpte}: upstream bundled runtime verified {checked}")
        for g in ref["greedy"]:
            print(f"  greedy {g['name']}: {g['generated_ids']}")
        for f in sorted(os.listdir(dest)):
            print(f"  {f}: {os.path.getsize(os.path.join(dest, f))} bytes")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def versions():
    from importlib.metadata import version

    return {
        p: version(p)
        for p in ("torch", "executorch", "optimum-executorch", "transformers", "torchao", "tokenizers")
    }


if __name__ == "__main__":
    sys.exit(main())
