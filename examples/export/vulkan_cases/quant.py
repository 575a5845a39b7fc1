#!/usr/bin/env python3
# Product tool: writes the Vulkan delegate's quant fixtures in test/models/vulkan/ops.
"""Vulkan delegate fixtures of the quant family: linear layers quantized the
way export_llama -qmode 8da4w quantizes them (torchao's
Int8DynamicActivationIntxWeightConfig: int4 weights per group, symmetric,
scales by HQQ; int8 activations per token, asymmetric, chosen at run time),
which upstream's VulkanPartitioner fuses into
torchao.choose_qparams_affine + et_vk.linear_dq8ca_q4gsw; and a weight-only
int4 linear (IntxWeightOnlyConfig, export_llama -qmode 4w) that becomes
et_vk.linear_q4gsw.

  python examples/export/vulkan_cases/quant.py [--out test/models/vulkan/ops]
        [--only PATTERN[,PATTERN...]] [--dump DIR]

Each case lowers into exactly one VulkanBackend delegate (checked on the
decoded VkGraph) and is bundled with two test cases whose expected outputs
come from the quantized module in eager PyTorch (torchao simulates the int8
activation quantization: choose_qparams, quantize, dequantize, then a float
linear with the dequantized weights). Files: <out>/quant_<case>.bpte.
"""

import argparse
import fnmatch
import os
import sys

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.dirname(HERE))  # examples/export: export_vulkan's helpers


def q8da4w(module, group_size):
    """export_llama's 8da4w source transform (HQQ scales, its default)."""
    from torchao.quantization import Int8DynamicActivationIntxWeightConfig, quantize_
    from torchao.quantization.granularity import PerGroup

    quantize_(module, Int8DynamicActivationIntxWeightConfig(
        weight_dtype=torch.int4, weight_granularity=PerGroup(group_size),
        intx_choose_qparams_algorithm="hqq_scale_only"))
    return module.eval()


def q4w(module, group_size):
    """export_llama's 4w source transform (weight-only int4, HQQ scales)."""
    from torchao.quantization.granularity import PerGroup
    from torchao.quantization.quant_api import IntxWeightOnlyConfig, quantize_

    quantize_(module, IntxWeightOnlyConfig(weight_dtype=torch.int4,
                                           granularity=PerGroup(group_size),
                                           intx_choose_qparams_algorithm="hqq_scale_only"))
    return module.eval()


def linear(cin, cout, bias, seed):
    torch.manual_seed(seed)
    return nn.Linear(cin, cout, bias=bias).eval()


class TwoLayer(nn.Module):
    """linear -> relu -> linear (each quantized: two qparams/linear pairs)."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(7)
        self.a = nn.Linear(64, 96)
        self.b = nn.Linear(96, 32, bias=False)

    def forward(self, x):
        return self.b(torch.relu(self.a(x)))


class QParams(nn.Module):
    """torchao.choose_qparams_affine alone, per token (the scale and the int8
    zero point are the outputs)."""

    def __init__(self, mapping):
        super().__init__()
        self.mapping = mapping

    def forward(self, x):
        import torchao  # noqa: F401  (registers torch.ops.torchao)

        return torch.ops.torchao.choose_qparams_affine(
            x, self.mapping, [1] * (x.dim() - 1) + [x.shape[-1]], torch.int8, -128, 127,
            None, None, torch.int8)


def two(*shapes, seed=10, scale=1.0):
    """Two test cases of seeded normal inputs of `shapes` (the second shifted
    so that its rows are not centred on 0: the zero point moves)."""
    out = []
    for k in range(2):
        g = torch.Generator().manual_seed(seed + 100 * k)
        out.append(tuple(torch.randn(*s, generator=g) * scale + 0.7 * k for s in shapes))
    return out


# (name, module, list of input tuples: the first is the export example)
def cases():
    return [
        # the brief's shapes: K=64, N=48, group 32; one row and four rows
        ("linear_m1", q8da4w(linear(64, 48, False, 1), 32), two((1, 64))),
        ("linear_m4_bias", q8da4w(linear(64, 48, True, 2), 32), two((4, 64), seed=20)),
        # a 3-d input [1, S, K] as in the Llama (one token, then prefill rows)
        ("linear_3d_tok", q8da4w(linear(64, 48, False, 3), 32), two((1, 1, 64), seed=30)),
        ("linear_3d_rows", q8da4w(linear(64, 48, True, 4), 32), two((1, 5, 64), seed=40)),
        # K 36: upstream pads the packed weight's K to 40 (and N to a multiple of 8
        # in the sums; N not a multiple of 4 breaks upstream's own export)
        ("linear_pad", q8da4w(linear(36, 28, True, 5), 12), two((3, 36), seed=50, scale=3.0)),
        ("two_layer", q8da4w(TwoLayer(), 32), two((2, 64), seed=60)),
        # the qparams alone (per token), asymmetric as 8da4w uses them, and symmetric
        ("qparams_asym", QParams("ASYMMETRIC"), two((2, 3, 40), seed=80, scale=2.0)),
        ("qparams_sym", QParams("SYMMETRIC"), two((5, 24), seed=90)),
        # weight-only int4 (-qmode 4w)
        ("linear_4w", q4w(linear(64, 48, True, 6), 32), two((3, 64), seed=70)),
    ]


CASES = [(name, module, inputs[0]) for name, module, inputs in cases()]


def export(name, module, inputs, out, dump=None):
    import copy

    from export_vulkan import bundle, chain_counts, decode, dump_text, lower, portable_ops
    from torch.utils._pytree import tree_flatten

    module = module.eval()
    with torch.no_grad():
        expected = [tree_flatten(module(*copy.deepcopy(a)))[0] for a in inputs]
    prog = lower(module, tuple(inputs[0]))
    program, named, blobs = decode(prog.buffer)
    counts = {}
    for b in blobs:
        for k, v in chain_counts(b["graph"]).items():
            counts[k] = counts.get(k, 0) + v
    if dump:
        os.makedirs(dump, exist_ok=True)
        with open(os.path.join(dump, f"quant_{name}.txt"), "w") as fh:
            fh.write(dump_text(name, program, named, blobs))
    rest = portable_ops(program)
    quantized = [k for k in counts if "q4gsw" in k or "choose_qparams" in k]
    if len(blobs) != 1 or rest or not quantized:
        raise RuntimeError(f"quant_{name}: {len(blobs)} Vulkan delegates, portable ops {rest}, "
                           f"delegate ops {counts}")
    data = bundle(prog, inputs, expected)
    path = os.path.join(out, f"quant_{name}.bpte")
    with open(path, "wb") as fh:
        fh.write(data)
    return path, len(data), counts


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=os.path.join(ROOT, "test", "models", "vulkan", "ops"))
    p.add_argument("--only", default="*", help="fnmatch patterns over case names")
    p.add_argument("--dump", default=None, help="write decoded VkGraph listings here")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, module, inputs in cases():
        if not any(fnmatch.fnmatch(name, pat) for pat in args.only.split(",")):
            continue
        path, size, counts = export(name, module, inputs, args.out, args.dump)
        ops = ", ".join(f"{k} x{v}" for k, v in sorted(counts.items()))
        print(f"{os.path.relpath(path, ROOT)} ({size} bytes): {ops}", flush=True)


if __name__ == "__main__":
    main()
