#!/usr/bin/env python3
# Product tool: writes the LLM custom-operator fixtures in test/models/llm_ops.
"""Exports fixtures for the operators upstream's LLM exports leave on CPU.

Usage:
  python examples/export/export_llm_ops.py [--out test/models/llm_ops] [--check]

Each fixture is a small module that calls upstream's custom operators
(llama::custom_sdpa / sdpa_with_kv_cache / update_cache /
update_cache_with_indices from executorch.extension.llm.custom_ops, and
the quantized_decomposed embedding (8, 4 and 2 bits) and per-token ops)
exported with torch.export -> to_edge -> to_executorch into
<out>/<name>.bpte with upstream's BundledProgram serializer. The expected outputs come from running the eager module, which
runs upstream's own implementation of each op (its AOT library for the
llama ops, the Python references for quantized_decomposed).

Fixtures whose module keeps a KV cache as a mutable buffer hold several
test cases that must run in order on one loaded method: each case is the
next decoding step, and its expected output depends on the cache the
earlier cases wrote (the eager module is run through the same sequence).

<out>/MANIFEST lists every file with its tolerance and the operators its
program contains. --check also verifies every file in upstream's Python
runtime (its pybindings link upstream's kernels for these ops).
"""

import argparse
import copy
import os
import sys

import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))

# Registers llama::* (loads upstream's libcustom_ops_aot_lib).
from executorch.extension.llm.custom_ops import custom_ops  # noqa: F401,E402

# quantized_decomposed: the Q/DQ references, the embedding ops and the
# out-variants to_executorch needs (libquantized_ops_aot_lib).
import torch.ao.quantization.fx._decomposed  # noqa: F401,E402
import executorch.exir.passes._quant_patterns_and_replacements  # noqa: F401,E402
import executorch.kernels.quantized  # noqa: F401,E402

# The op suite's exporter: the operator table of a program and the check in
# upstream's bundled runtime, shared rather than copied.
sys.path.insert(0, HERE)
from export_op_suite import check_case, program_ops  # noqa: E402

Q = torch.ops.quantized_decomposed
L = torch.ops.llama

FIXTURES = []


def fixture(name, rtol, atol, doc):
    def wrap(build):
        FIXTURES.append((name, rtol, atol, doc, build))
        return build

    return wrap


def g(seed):
    gen = torch.Generator().manual_seed(seed)
    return lambda *shape: torch.randn(*shape, generator=gen)


# --- attention over a KV cache --------------------------------------------

B, H, HKV, D, MAX_SEQ = 1, 4, 2, 8, 8


class CacheStep(nn.Module):
    """One decoding step: write k/v at input_pos into the cache buffers
    with update_cache, then custom_sdpa (causal) over the filled part."""

    def __init__(self):
        super().__init__()
        self.register_buffer("k_cache", torch.zeros(B, MAX_SEQ, HKV, D))
        self.register_buffer("v_cache", torch.zeros(B, MAX_SEQ, HKV, D))

    def forward(self, q, k, v, input_pos):
        pos = input_pos[0].item()
        torch._check_is_size(pos)
        torch._check(pos + q.size(1) <= MAX_SEQ)
        L.update_cache(k, self.k_cache, pos)
        L.update_cache(v, self.v_cache, pos)
        return L.custom_sdpa(q, self.k_cache, self.v_cache, pos, None, 0.0, True, None)


class FusedCacheStep(nn.Module):
    """sdpa_with_kv_cache: the cache write and the attention in one op."""

    def __init__(self):
        super().__init__()
        self.register_buffer("k_cache", torch.zeros(B, MAX_SEQ, HKV, D))
        self.register_buffer("v_cache", torch.zeros(B, MAX_SEQ, HKV, D))

    def forward(self, q, k, v, input_pos):
        pos = input_pos[0].item()
        torch._check_is_size(pos)
        torch._check(pos + q.size(1) <= MAX_SEQ)
        return L.sdpa_with_kv_cache(q, k, v, self.k_cache, self.v_cache, pos, q.size(1),
                                    None, 0.0, True, None)


def steps(seq, positions, seed):
    r = g(seed)
    return [(r(B, seq, H, D), r(B, seq, HKV, D), r(B, seq, HKV, D),
             torch.tensor([p], dtype=torch.long)) for p in positions]


@fixture("kv_cache_decode_steps", 1e-5, 1e-6,
         "update_cache x2 + custom_sdpa(causal), GQA 4/2 heads, 6 one-token steps "
         "at positions 0..5 on mutable cache buffers")
def kv_cache_decode_steps():
    return CacheStep(), steps(1, range(6), 1)


@fixture("kv_cache_prefill_then_decode", 1e-5, 1e-6,
         "sdpa_with_kv_cache(causal): 3-token chunks at positions 0, 3 then 5 "
         "(the last fills the cache) on mutable cache buffers")
def kv_cache_prefill_then_decode():
    return FusedCacheStep(), steps(3, [0, 3, 5], 2)


class IndexedCacheStep(nn.Module):
    """update_cache_with_indices: each step rewrites the whole 4-slot cache
    in a permuted order, then causal custom_sdpa reads it (causal, so the
    order of the slots matters)."""

    def __init__(self):
        super().__init__()
        self.register_buffer("k_cache", torch.zeros(B, 4, HKV, D))
        self.register_buffer("v_cache", torch.zeros(B, 4, HKV, D))

    def forward(self, q, k, v, indices):
        L.update_cache_with_indices(k, self.k_cache, 0, indices)
        L.update_cache_with_indices(v, self.v_cache, 0, indices)
        return L.custom_sdpa(q, self.k_cache, self.v_cache, 0, None, 0.0, True, None)


@fixture("kv_cache_with_indices", 1e-5, 1e-6,
         "update_cache_with_indices x2 (permuted slots of a 4-slot cache buffer) + "
         "causal custom_sdpa, 3 steps")
def kv_cache_with_indices():
    r = g(10)
    return IndexedCacheStep(), [
        (r(B, 4, H, D), r(B, 4, HKV, D), r(B, 4, HKV, D), torch.tensor([perm]))
        for perm in ([2, 0, 3, 1], [0, 1, 2, 3], [3, 2, 1, 0])]


class SdpaMasked(nn.Module):
    """custom_sdpa on caches given as inputs, a float additive mask over
    the whole cache ([S, max_seq_len], -inf past the filled part), an
    explicit scale; not causal."""

    def forward(self, q, k_cache, v_cache, mask):
        return L.custom_sdpa(q, k_cache, v_cache, 3, mask, 0.0, False, 0.25)


@fixture("custom_sdpa_mask_scale", 1e-5, 1e-6,
         "custom_sdpa with a Float attn_mask over max_seq_len and scale=0.25, "
         "start_pos 3, two query rows, caches as inputs")
def custom_sdpa_mask_scale():
    cases = []
    for seed in (3, 4):
        r = g(seed)
        mask = r(2, MAX_SEQ)
        mask[:, 5:] = float("-inf")
        mask[0, 4] = float("-inf")
        cases.append((r(B, 2, H, D), r(B, MAX_SEQ, HKV, D), r(B, MAX_SEQ, HKV, D), mask))
    return SdpaMasked(), cases


class SdpaStartPos(nn.Module):
    def __init__(self, start_pos, causal):
        super().__init__()
        self.start_pos, self.causal = start_pos, causal

    def forward(self, q, k_cache, v_cache):
        return L.custom_sdpa(q, k_cache, v_cache, self.start_pos, None, 0.0, self.causal, None)


@fixture("custom_sdpa_noncausal_mha", 1e-5, 1e-6,
         "custom_sdpa, not causal, no mask: 3 rows at start_pos 2 read keys 0..4 "
         "(2 batches, 2 heads = kv heads)")
def custom_sdpa_noncausal_mha():
    r = g(5)
    return SdpaStartPos(2, False), [(r(2, 3, 2, 16), r(2, 6, 2, 16), r(2, 6, 2, 16))
                                    for _ in range(2)]


@fixture("custom_sdpa_f16_causal", 5e-3, 5e-3,
         "custom_sdpa in Half (upstream accumulates in Half; Ember in float), "
         "causal, start_pos 1")
def custom_sdpa_f16_causal():
    r = g(6)
    return SdpaStartPos(1, True), [(r(B, 3, H, D).half(), r(B, MAX_SEQ, HKV, D).half(),
                                    r(B, MAX_SEQ, HKV, D).half()) for _ in range(2)]


# --- quantized embeddings -------------------------------------------------

ROWS, DIM = 10, 8


class EmbeddingByte(nn.Module):
    def __init__(self, groups, zero_points, dtype=None):
        super().__init__()
        gen = torch.Generator().manual_seed(7)
        self.register_buffer("weight", torch.randint(-128, 128, (ROWS, DIM),
                                                     dtype=torch.int8, generator=gen))
        shape = (ROWS,) if groups == 1 else (ROWS, groups)
        self.register_buffer("scales", torch.rand(shape, generator=gen) * 0.1 + 0.01)
        self.zp = (torch.randint(-5, 6, shape, generator=gen).float()
                   if zero_points else None)
        self.dtype = dtype

    def forward(self, indices):
        if self.dtype is None:
            return Q.embedding_byte(self.weight, self.scales, self.zp, -128, 127, indices)
        return Q.embedding_byte.dtype(self.weight, self.scales, self.zp, -128, 127, indices,
                                      dtype=self.dtype)


class Embedding4bit(nn.Module):
    def __init__(self, groups, zero_points, dtype=None):
        super().__init__()
        gen = torch.Generator().manual_seed(8)
        self.register_buffer("weight", torch.randint(0, 256, (ROWS, DIM // 2),
                                                     dtype=torch.uint8, generator=gen))
        shape = (ROWS,) if groups == 1 else (ROWS, groups)
        self.register_buffer("scales", torch.rand(shape, generator=gen) * 0.1 + 0.01)
        self.zp = (torch.randint(-3, 4, shape, generator=gen).float()
                   if zero_points else None)
        self.dtype = dtype

    def forward(self, indices):
        if self.dtype is None:
            return Q.embedding_4bit(self.weight, self.scales, self.zp, -8, 7, indices)
        return Q.embedding_4bit.dtype(self.weight, self.scales, self.zp, -8, 7, indices,
                                      dtype=self.dtype)


class Embedding2bit(nn.Module):
    def __init__(self, groups, zero_points):
        super().__init__()
        gen = torch.Generator().manual_seed(11)
        self.register_buffer("weight", torch.randint(0, 256, (ROWS, DIM // 4),
                                                     dtype=torch.uint8, generator=gen))
        shape = (ROWS,) if groups == 1 else (ROWS, groups)
        self.register_buffer("scales", torch.rand(shape, generator=gen) * 0.1 + 0.01)
        self.zp = (torch.randint(-1, 2, shape, generator=gen).float()
                   if zero_points else None)

    def forward(self, indices):
        return Q.embedding_2bit(self.weight, self.scales, self.zp, -2, 1, indices)


def index_cases():
    return [(torch.tensor([[0, 3, 9], [9, 1, 1]]),), (torch.tensor([[5, 2, 7], [4, 8, 6]]),)]


@fixture("embedding_byte_per_row_zp", 1e-6, 1e-6,
         "embedding_byte, int8 weight, per-row Float scales and zero points")
def embedding_byte_per_row_zp():
    return EmbeddingByte(1, True), index_cases()


@fixture("embedding_byte_groups", 1e-6, 1e-6,
         "embedding_byte, two groups of 4 columns per row, no zero points")
def embedding_byte_groups():
    return EmbeddingByte(2, False), index_cases()


# The .dtype fixtures have no zero points: upstream's runtime kernels
# require zero points of the out dtype, so Float zero points with a Half
# out would abort there (Ember accepts them).
@fixture("embedding_byte_dtype_half", 1e-3, 1e-3,
         "embedding_byte.dtype -> Half out from Float scales")
def embedding_byte_dtype_half():
    return EmbeddingByte(2, False, torch.float16), index_cases()


@fixture("embedding_4bit_groups_zp", 1e-6, 1e-6,
         "embedding_4bit, packed uint8 weight, two groups, zero points")
def embedding_4bit_groups_zp():
    return Embedding4bit(2, True), index_cases()


@fixture("embedding_4bit_per_row", 1e-6, 1e-6,
         "embedding_4bit, per-row scales, no zero points")
def embedding_4bit_per_row():
    return Embedding4bit(1, False), index_cases()


@fixture("embedding_4bit_dtype_half", 1e-3, 1e-3,
         "embedding_4bit.dtype -> Half out")
def embedding_4bit_dtype_half():
    return Embedding4bit(1, False, torch.float16), index_cases()


@fixture("embedding_2bit_groups_zp", 1e-6, 1e-6,
         "embedding_2bit, packed uint8 weight (lowest bits first), two groups, "
         "zero points")
def embedding_2bit_groups_zp():
    return Embedding2bit(2, True), index_cases()


# --- per-token dynamic quantization ----------------------------------------

class PerTokenQDQ(nn.Module):
    """The dynamic activation quantization of an 8da4w linear: qparams
    per token, quantize, dequantize."""

    def forward(self, x):
        s, zp = Q.choose_qparams_per_token_asymmetric(x, torch.int8)
        q = Q.quantize_per_token(x, s, zp, -128, 127, torch.int8)
        return s, zp, q, Q.dequantize_per_token(q, s, zp, -128, 127, torch.int8,
                                                torch.float32)


@fixture("per_token_qdq", 1e-6, 1e-7,
         "choose_qparams_per_token_asymmetric -> quantize_per_token -> "
         "dequantize_per_token on [2, 3, 16] (one all-positive token, one constant)")
def per_token_qdq():
    r = g(9)
    x = r(2, 3, 16) * 4
    x[0, 1] = x[0, 1].abs() + 0.5
    x[1, 2] = 0.75
    return PerTokenQDQ(), [(x,), (r(2, 3, 16) * 0.01,)]


# --- export -----------------------------------------------------------------

def export_fixture(name, build, out):
    from executorch.devtools import BundledProgram
    from executorch.devtools.bundled_program.config import MethodTestCase, MethodTestSuite
    from executorch.devtools.bundled_program.serialize import (
        serialize_from_bundled_program_to_flatbuffer,
    )
    from executorch.exir import to_edge
    from torch.utils._pytree import tree_flatten

    module, inputs = build()
    module = module.eval()
    export_copy = copy.deepcopy(module)
    cases = []
    with torch.no_grad():
        # One module for the whole sequence: cache buffers carry over.
        for args in inputs:
            flat, _ = tree_flatten(module(*copy.deepcopy(args)))
            cases.append(MethodTestCase(
                inputs=[a.clone().contiguous() for a in args],
                expected_outputs=[o.clone().contiguous() for o in flat]))
    ep = torch.export.export(export_copy, tuple(inputs[0]), strict=False)
    et_prog = to_edge(ep).to_executorch()
    data = serialize_from_bundled_program_to_flatbuffer(
        BundledProgram(et_prog, [MethodTestSuite(method_name="forward", test_cases=cases)]))
    with open(os.path.join(out, f"{name}.bpte"), "wb") as f:
        f.write(data)
    return program_ops(et_prog), len(data)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(HERE, "..", "..", "test", "models",
                                                      "llm_ops"))
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    lines, failures = [], []
    for name, rtol, atol, doc, build in FIXTURES:
        try:
            ops, size = export_fixture(name, build, args.out)
        except Exception as e:  # report and go on
            failures.append(f"{name}: export failed: {e}")
            continue
        print(f"{name}: {size} bytes, ops {', '.join(ops)}")
        lines.append(f"{name} rtol={rtol} atol={atol} ops={','.join(ops)}")
        if args.check:
            try:
                check_case(os.path.join(args.out, f"{name}.bpte"), rtol, atol)
            except Exception as e:
                failures.append(f"{name}: upstream runtime check failed: {e}")
    # Lines of fixtures this script does not make (export_gated_delta_rule.py
    # adds its own) are kept.
    path = os.path.join(args.out, "MANIFEST")
    ours = {name for name, *_ in FIXTURES}
    others = [k for k in (open(path).read().splitlines() if os.path.exists(path) else [])
              if k.strip() and not k.startswith("#") and k.split()[0] not in ours]
    with open(path, "w") as f:
        f.write("# Generated by examples/export/export_llm_ops.py and\n")
        f.write("# examples/export/export_gated_delta_rule.py -- do not edit.\n")
        f.write("# <fixture> rtol=<r> atol=<a> ops=<operators in the program>\n")
        for line in lines + others:
            f.write(line + "\n")
    for msg in failures:
        print("FAILED", msg, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
