#!/usr/bin/env python3
# Product tool: writes the Vulkan delegate's unary fixtures in test/models/vulkan/ops.
"""Vulkan delegate fixtures of the unary family (activations, maths,
dtype conversions), the layout family (permute, slice, select, cat,
expand, split, repeat, flip, pad, unfold, pixel shuffle) and the gather
family (embedding, index_select, index.Tensor, gather, full, arange,
where).

  python examples/export/vulkan_cases/unary.py [--out test/models/vulkan/ops]
                                               [--only PATTERN[,PATTERN...]]

Each case lowers into one VulkanBackend delegate holding the listed
operators (checked by export_vulkan.export_case, which also requires that
nothing stays outside the delegate) and is bundled with two test cases
whose expected outputs come from eager PyTorch.
Files: <out>/unary_<case>.bpte.

Operators upstream's VulkanPartitioner keeps out: elu, log, log2, floor,
ceil, trunc, sign, reciprocal, bitwise_not of int tensors, scalar_tensor;
silu and hardsigmoid reach the delegate decomposed (sigmoid * x; add,
clamp, div). The unary_ext_* cases cover Ember's builders for them anyway:
they first register those operators with the partitioner (and keep silu
and hardsigmoid from being decomposed), which upstream's own runtime would
not accept; they test Ember's runtime only.
"""

import argparse
import fnmatch
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.dirname(HERE))

from export_vulkan import Case, export_case, r  # noqa: E402


class Fn(nn.Module):
    def __init__(self, f):
        super().__init__()
        self.f = f

    def forward(self, *args):
        return self.f(*args)


def two(*shapes, lo=-2.0, hi=2.0):
    return lambda: [tuple(r(*s, lo=lo, hi=hi) for s in shapes),
                    tuple(r(*s, lo=lo, hi=hi) for s in shapes)]


def fn(f):
    return lambda: Fn(f)


def halves(*shape):
    """Values with exact .5 fractions mixed with random ones (rounding)."""
    n = 1
    for s in shape:
        n *= s
    x = r(n, lo=-6.0, hi=6.0)
    x[: n // 2] = (torch.randint(-12, 13, (n // 2,)).float()) * 0.5
    return x.reshape(*shape)


def randint(lo, hi, *shape, dtype=torch.int64):
    return torch.randint(lo, hi, shape, dtype=dtype)


class Embedding(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(12, 6)

    def forward(self, idx):
        return self.emb(idx)


S4 = (2, 3, 4, 5)

CASES = [
    # ---------------------------------------------------------- unary
    Case("unary_relu", fn(F.relu), two(S4), ["aten.relu.default"]),
    Case("unary_hardtanh", fn(lambda x: F.hardtanh(x, -0.5, 1.25)), two(S4),
         ["aten.hardtanh.default"]),
    Case("unary_clamp_min_only", fn(lambda x: torch.clamp(x, min=-0.3)), two(S4),
         ["aten.clamp.default"]),
    Case("unary_clamp_max_only", fn(lambda x: torch.clamp(x, max=0.7)), two(S4),
         ["aten.clamp.default"]),
    Case("unary_clamp_int", fn(lambda x: torch.clamp(x, -3, 4)),
         lambda: [(randint(-8, 8, 3, 7, dtype=torch.int32),),
                  (randint(-8, 8, 3, 7, dtype=torch.int32),)], ["aten.clamp.default"]),
    Case("unary_sigmoid_tanh", fn(lambda x: torch.sigmoid(x) * 2.0 + torch.tanh(x)),
         two(S4, lo=-8.0, hi=8.0), ["aten.sigmoid.default", "aten.tanh.default"]),
    Case("unary_gelu_erf", fn(F.gelu), two(S4, lo=-5.0, hi=5.0), ["aten.gelu.default"]),
    Case("unary_gelu_tanh", fn(lambda x: F.gelu(x, approximate="tanh")),
         two(S4, lo=-5.0, hi=5.0), ["aten.gelu.default"]),
    Case("unary_silu_hardswish", fn(lambda x: F.silu(x) + F.hardswish(x)),
         two(S4, lo=-5.0, hi=5.0), ["aten.sigmoid.default", "aten.hardswish.default"]),
    Case("unary_hardsigmoid", fn(F.hardsigmoid), two(S4, lo=-5.0, hi=5.0),
         ["aten.clamp.default"]),
    Case("unary_leaky_relu", fn(lambda x: F.leaky_relu(x, 0.15)), two(S4),
         ["aten.leaky_relu.default"]),
    Case("unary_exp_log10_sqrt",
         fn(lambda x: torch.exp(x) + torch.log10(x.abs() + 0.5) + torch.sqrt(x.abs())),
         two(S4), ["aten.exp.default", "aten.log10.default", "aten.sqrt.default"]),
    Case("unary_rsqrt_neg_abs", fn(lambda x: torch.rsqrt(x.abs() + 0.1) + (-x)), two(S4),
         ["aten.rsqrt.default", "aten.neg.default", "aten.abs.default"]),
    Case("unary_sin_cos", fn(lambda x: torch.sin(x) * torch.cos(x * 3.0)),
         two(S4, lo=-6.0, hi=6.0), ["aten.sin.default", "aten.cos.default"]),
    Case("unary_round_half_even", fn(torch.round),
         lambda: [(halves(4, 10),), (halves(4, 10),)], ["aten.round.default"]),
    Case("unary_logical_not", fn(lambda x: torch.logical_not(x > 0.25)), two((3, 8)),
         ["aten.logical_not.default"]),
    # ---------------------------------------------------------- conversions
    Case("unary_to_int", fn(lambda x: x.to(torch.int32) * 3),
         two((3, 8), lo=-9.0, hi=9.0), ["dim_order_ops._to_dim_order_copy.default"]),
    Case("unary_to_float", fn(lambda x: x.to(torch.float32) * 0.5),
         lambda: [(randint(-100, 100, 3, 8, dtype=torch.int32),),
                  (randint(-100, 100, 3, 8, dtype=torch.int32),)],
         ["dim_order_ops._to_dim_order_copy.default"]),
    Case("unary_to_bool", fn(lambda x: (x.round()).to(torch.bool)),
         two((4, 6), lo=-1.5, hi=1.5), ["dim_order_ops._to_dim_order_copy.default"]),
    Case("unary_to_half", fn(lambda x: x.half().float() - x),
         two((4, 6), lo=-20.0, hi=20.0), ["dim_order_ops._to_dim_order_copy.default"]),
    # ---------------------------------------------------------- layout
    Case("unary_permute", fn(lambda x: x.permute(0, 2, 3, 1)), two(S4),
         ["aten.permute_copy.default"]),
    Case("unary_transpose", fn(lambda x: x.transpose(-1, 1) + 1.0), two(S4),
         ["aten.permute_copy.default"]),
    Case("unary_slice_step", fn(lambda x: x[:, 1:, ::2, -4:-1]), two((2, 4, 7, 6)),
         ["aten.slice_copy.Tensor"]),
    Case("unary_slice_clamped", fn(lambda x: x[:, :, 1:100] + x[:, :, -100:5]), two((2, 3, 6)),
         ["aten.slice_copy.Tensor"]),
    Case("unary_select_neg", fn(lambda x: x[:, -1] + x[-1, -2]), two((2, 3, 5)),
         ["aten.select_copy.int"]),
    Case("unary_cat_dim1", fn(lambda a, b, c: torch.cat([a, b, c], 1)),
         two((2, 3, 4), (2, 1, 4), (2, 5, 4)), ["aten.cat.default"]),
    Case("unary_cat_int", fn(lambda a, b: torch.cat([a, b], -1)),
         lambda: [(randint(-9, 9, 2, 3, dtype=torch.int32), randint(-9, 9, 2, 2, dtype=torch.int32)),
                  (randint(-9, 9, 2, 3, dtype=torch.int32), randint(-9, 9, 2, 2, dtype=torch.int32))],
         ["aten.cat.default"]),
    Case("unary_expand", fn(lambda x: x.expand(3, -1, 4, -1)), two((1, 2, 1, 5)),
         ["aten.expand_copy.default"]),
    Case("unary_split", fn(lambda x: torch.split(x, [1, 3, 2], 1)), two((2, 6, 3)),
         ["aten.split_with_sizes_copy.default"]),
    Case("unary_chunk_last", fn(lambda x: torch.split(x, 2, -1)), two((3, 5)),
         ["aten.split_with_sizes_copy.default"]),
    Case("unary_repeat", fn(lambda x: x.repeat(2, 1, 3, 2)), two((3, 1, 4)),
         ["aten.repeat.default"]),
    Case("unary_flip", fn(lambda x: torch.flip(x, [1, -1])), two((2, 3, 4)),
         ["aten.flip.default"]),
    Case("unary_pad", fn(lambda x: F.pad(x, (1, 2, 0, 1), value=0.5)), two((2, 3, 4, 5)),
         ["aten.constant_pad_nd.default"]),
    Case("unary_unfold", fn(lambda x: x.unfold(1, 3, 2)), two((2, 9, 3)),
         ["aten.unfold_copy.default"]),
    Case("unary_pixel_shuffle", fn(lambda x: F.pixel_shuffle(x, 2)), two((1, 8, 3, 2)),
         ["aten.pixel_shuffle.default"]),
    # ---------------------------------------------------------- gather, fill
    Case("unary_embedding", Embedding,
         lambda: [(randint(0, 12, 2, 3, 2),), (randint(0, 12, 2, 3, 2),)],
         ["aten.embedding.default"]),
    Case("unary_index_select", fn(lambda x, i: torch.index_select(x, 1, i)),
         lambda: [(r(2, 5, 3), randint(0, 5, 4)), (r(2, 5, 3), randint(0, 5, 4))],
         ["aten.index_select.default"]),
    Case("unary_index_tensor", fn(lambda x, i: x[:, i]),
         lambda: [(r(2, 5, 3), randint(-5, 5, 6)), (r(2, 5, 3), randint(-5, 5, 6))],
         ["aten.index.Tensor"]),
    Case("unary_gather", fn(lambda x, i: torch.gather(x, 2, i)),
         lambda: [(r(2, 3, 5), randint(0, 5, 2, 3, 4)), (r(2, 3, 5), randint(0, 5, 2, 3, 4))],
         ["aten.gather.default"]),
    Case("unary_where", fn(lambda c, a, b: torch.where(c > 0, a, b)),
         lambda: [(r(2, 1, 5), r(2, 3, 5), r(5)), (r(2, 1, 5), r(2, 3, 5), r(5))],
         ["aten.where.self"]),
    Case("unary_full_arange",
         fn(lambda x: x + torch.full((2, 3), 1.5) + torch.arange(0.5, 2.0, 0.5)
            + torch.zeros_like(x) + torch.ones(2, 3)),
         two((2, 3)), ["aten.full.default", "aten.arange.start_step",
                       "aten.full_like.default"]),
    Case("unary_arange_int", fn(lambda x: x + torch.arange(-3, 9, 3)),
         lambda: [(randint(0, 5, 4, dtype=torch.int32),), (randint(0, 5, 4, dtype=torch.int32),)],
         ["aten.arange.start_step"]),
]


_EXTRA_DONE = []


def register_extra_ops():
    """Lets the partitioner take the operators it has no implementation of
    (see the module docstring); once per process."""
    if _EXTRA_DONE:
        return
    from executorch.backends.vulkan import utils
    from executorch.backends.vulkan.op_registry import OpFeatures, vulkan_supported_ops
    from executorch.backends.vulkan.partitioner import vulkan_partitioner
    from executorch.exir.dialects._ops import ops as exir_ops

    edge = exir_ops.edge.aten
    for op in (edge.elu.default, edge.log.default, edge.log2.default, edge.floor.default,
               edge.ceil.default, edge.trunc.default, edge.sign.default,
               edge.reciprocal.default, edge.silu.default, edge.hardsigmoid.default):
        if op not in vulkan_supported_ops:
            vulkan_supported_ops[op] = OpFeatures(inputs_storage=utils.ANY_STORAGE,
                                                  inputs_dtypes=utils.FP_T)
    for op in (torch.ops.aten.silu.default, torch.ops.aten.hardsigmoid.default):
        if op not in vulkan_partitioner.ops_not_to_decompose:
            vulkan_partitioner.ops_not_to_decompose.append(op)
    _EXTRA_DONE.append(True)


def ext(f):
    def make():
        register_extra_ops()
        return Fn(f)
    return make


# Runtime-only cases (see the module docstring); they come last so that the
# widened registry cannot change the cases above.
CASES += [
    Case("unary_ext_elu_silu_hardsigmoid",
         ext(lambda x: F.elu(x, 0.7) + F.silu(x) * F.hardsigmoid(x)),
         two(S4, lo=-5.0, hi=5.0),
         ["aten.elu.default", "aten.silu.default", "aten.hardsigmoid.default"]),
    Case("unary_ext_log_log2", ext(lambda x: torch.log(x) + torch.log2(x)),
         two(S4, lo=0.05, hi=8.0), ["aten.log.default", "aten.log2.default"]),
    Case("unary_ext_floor_ceil_trunc",
         ext(lambda x: torch.floor(x) * 100.0 + torch.ceil(x) * 10.0 + torch.trunc(x)),
         lambda: [(halves(4, 10),), (halves(4, 10),)],
         ["aten.floor.default", "aten.ceil.default", "aten.trunc.default"]),
    Case("unary_ext_sign_reciprocal",
         ext(lambda x: torch.sign(x) + torch.reciprocal(x)),
         lambda: [(halves(4, 10) + 0.25,), (halves(4, 10) + 0.25,)],
         ["aten.sign.default", "aten.reciprocal.default"]),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "test", "models", "vulkan", "ops"))
    ap.add_argument("--only", default="*", help="fnmatch patterns, comma-separated")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    failed = []
    for case in CASES:
        if not any(fnmatch.fnmatch(case.name, p) for p in args.only.split(",")):
            continue
        try:
            n, portable, counts, written = export_case(case, args.out)
        except Exception as e:  # noqa: BLE001 (report every case)
            failed.append(case.name)
            print(f"FAILED {e}", flush=True)
            continue
        print(f"{case.name}: {dict(counts)} -> {written}", flush=True)
    if failed:
        sys.exit(f"cases that did not lower as expected: {failed}")


if __name__ == "__main__":
    main()
