#!/usr/bin/env python3
# Product tool: writes the Vulkan delegate's matmul fixtures in test/models/vulkan/ops.
"""Vulkan delegate fixtures of the matmul family: matrix products (linear,
mm, bmm, addmm, matmul), normalization (layer, group and RMS norm), softmax
and reductions (mean, sum, amax, amin, argmax, argmin).

  python examples/export/vulkan_cases/matmul.py [--out test/models/vulkan/ops]
        [--only PATTERN[,PATTERN...]] [--dump DIR]

Each case lowers into exactly one VulkanBackend delegate (checked on the
decoded VkGraph) and is bundled with two test cases whose expected outputs
come from eager PyTorch. Files: <out>/matmul_<case>.bpte.
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
sys.path.insert(0, os.path.dirname(HERE))  # examples/export: export_vulkan's helpers


class Fn(nn.Module):
    """A function of the inputs and of this module's (frozen) parameters."""

    def __init__(self, f, **params):
        super().__init__()
        self.f = f
        for k, v in params.items():
            self.register_parameter(k, nn.Parameter(v, requires_grad=False))

    def forward(self, *args):
        return self.f(self, *args)


def seeded(seed, *shape, lo=-2.0, hi=2.0):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(*shape, generator=g) * (hi - lo) + lo


def linear(cin, cout, bias=True, seed=1):
    torch.manual_seed(seed)
    return nn.Linear(cin, cout, bias=bias).eval()


def layer_norm(shape, affine=True, eps=1e-5, seed=2):
    m = nn.LayerNorm(shape, eps=eps, elementwise_affine=affine)
    if affine:
        with torch.no_grad():
            m.weight.copy_(seeded(seed, *m.weight.shape, lo=0.5, hi=1.5))
            m.bias.copy_(seeded(seed + 1, *m.bias.shape, lo=-0.3, hi=0.3))
    return m.eval()


def group_norm(groups, channels, affine=True, eps=1e-5, seed=8):
    m = nn.GroupNorm(groups, channels, eps=eps, affine=affine)
    if affine:
        with torch.no_grad():
            m.weight.copy_(seeded(seed, channels, lo=0.5, hi=1.5))
            m.bias.copy_(seeded(seed + 1, channels, lo=-0.3, hi=0.3))
    return m.eval()


class RmsNorm(nn.Module):
    """The decomposed RMSNorm upstream's pattern fuses into et_vk.rms_norm."""

    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(seeded(7, dim, lo=0.5, hi=1.5), requires_grad=False)

    def forward(self, x):
        x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return x * self.weight


class Head(nn.Module):
    """A ResNet/MobileNet classifier head: global average pool + linear."""

    def __init__(self, c, classes):
        super().__init__()
        torch.manual_seed(3)
        self.fc = nn.Linear(c, classes)

    def forward(self, x):
        return self.fc(torch.flatten(x.mean((2, 3), keepdim=True), 1))


class FfnResidual(nn.Module):
    """The feed-forward half of a post-norm transformer layer, without the
    activation: layer_norm(x + linear2(linear1(x)))."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(5)
        self.l1 = nn.Linear(32, 64)
        self.l2 = nn.Linear(64, 32)
        self.n = nn.LayerNorm(32)

    def forward(self, x):
        return self.n(x + self.l2(self.l1(x)))


class Mlp(nn.Module):
    """linear -> layer norm -> linear -> softmax."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(4)
        self.a = nn.Linear(16, 32)
        self.n = nn.LayerNorm(32)
        self.b = nn.Linear(32, 8, bias=False)

    def forward(self, x):
        return torch.softmax(self.b(self.n(self.a(x))), -1)


def two(*shapes, seed=10, **kw):
    """Two test cases of random inputs of `shapes` (seeded)."""
    return [tuple(seeded(seed + 100 * k + i, *s, **kw) for i, s in enumerate(shapes))
            for k in range(2)]


def f(fun, **params):
    return Fn(lambda self, *a: fun(*a)) if not params else Fn(fun, **params)


# (name, module, list of input tuples: the first is the export example)
def cases():
    w = seeded(20, 24, 16)
    bias = seeded(21, 24)
    return [
        ("linear_bias", linear(32, 24), two((4, 32))),
        ("linear_nobias_3d", linear(32, 24, bias=False), two((2, 5, 32))),
        ("linear_4d", linear(16, 8), two((2, 3, 4, 16))),
        ("linear_vec", linear(16, 8), two((16,))),
        ("linear_rows2", linear(20, 13), two((2, 20))),
        ("mm", f(torch.mm), two((6, 16), (16, 10))),
        ("mm_const", f(lambda self, a: torch.mm(a, self.w), w=seeded(22, 16, 12)), two((5, 16))),
        ("bmm", f(torch.bmm), two((3, 8, 16), (3, 16, 12))),
        ("addmm", f(lambda self, a: torch.addmm(self.c, a, self.w, beta=0.5, alpha=2.0),
                    c=bias, w=seeded(23, 16, 24)), two((5, 16))),
        ("addmm_tensors", f(torch.addmm), two((1, 12), (7, 9), (9, 12))),
        ("addmm_colbias", f(lambda c, a, b: torch.addmm(c, a, b, alpha=0.5)),
         two((7, 1), (7, 9), (9, 5))),
        ("matmul_4d", f(torch.matmul), two((2, 3, 8, 16), (2, 3, 16, 4))),
        ("matmul_bcast", f(torch.matmul), two((2, 3, 8, 16), (16, 4))),
        ("linear_fn", f(lambda self, x: F.linear(x, self.w, self.b), w=w, b=bias),
         two((3, 16))),
        ("softmax_lastdim", f(lambda x: torch.softmax(x * 3.0, -1)), two((2, 4, 8, 10))),
        ("softmax_dim1", f(lambda x: torch.softmax(x, 1)), two((2, 5, 3, 7))),
        ("log_softmax_dim1", f(lambda x: torch.log_softmax(x * 3.0, 1)), two((2, 6, 5))),
        ("log_softmax_lastdim", f(lambda x: torch.log_softmax(x, -1)), two((3, 33))),
        ("layer_norm", layer_norm(32), two((2, 8, 32))),
        ("layer_norm_2d", layer_norm((6, 10)), two((3, 6, 10))),
        ("layer_norm_noaffine", layer_norm(20, affine=False, eps=1e-3), two((4, 20))),
        ("rms_norm", RmsNorm(24), two((2, 5, 24))),
        ("group_norm", group_norm(3, 12), two((2, 12, 5, 6))),
        ("group_norm_noaffine", group_norm(2, 6, affine=False, eps=1e-3), two((1, 6, 9))),
        ("mean_hw_keepdim", f(lambda x: x.mean((-1, -2), keepdim=True)), two((2, 8, 6, 10))),
        ("mean_lastdim", f(lambda x: x.mean(-1)), two((3, 4, 17))),
        ("mean_dim1_keepdim", f(lambda x: x.mean(1, keepdim=True)), two((2, 7, 3, 5))),
        ("sum_dim", f(lambda x: x.sum(2, keepdim=True)), two((2, 3, 9, 4))),
        ("sum_lastdim", f(lambda x: x.sum(-1)), two((4, 6, 11))),
        ("amax", f(lambda x: x.amax(-1)), two((4, 6, 11))),
        ("amax_dim1_keepdim", f(lambda x: x.amax(1, keepdim=True)), two((2, 9, 5))),
        ("amin", f(lambda x: x.amin(-1, keepdim=True)), two((3, 5, 13))),
        ("argmax", f(lambda x: torch.argmax(x, -1)), two((3, 5, 7))),
        ("argmin_dim1_keepdim", f(lambda x: torch.argmin(x, 1, keepdim=True)), two((3, 5, 7))),
        ("head", Head(16, 10), two((1, 16, 7, 7))),
        ("mlp", Mlp(), two((2, 4, 16))),
        ("ffn_residual", FfnResidual(), two((1, 8, 32))),
        ("attention_core",
         f(lambda q, kt, v: torch.bmm(torch.softmax(torch.bmm(q, kt) * 0.35, -1), v)),
         two((4, 8, 8), (4, 8, 8), (4, 8, 8))),
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
        with open(os.path.join(dump, f"matmul_{name}.txt"), "w") as fh:
            fh.write(dump_text(name, program, named, blobs))
    rest = portable_ops(program)
    if len(blobs) != 1 or rest:
        raise RuntimeError(f"matmul_{name}: {len(blobs)} Vulkan delegates, portable ops {rest}, "
                           f"delegate ops {counts}")
    data = bundle(prog, inputs, expected)
    path = os.path.join(out, f"matmul_{name}.bpte")
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
