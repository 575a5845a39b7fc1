#!/usr/bin/env python3
# Product tool: writes the Vulkan delegate's binary fixtures in test/models/vulkan/ops.
"""Vulkan delegate fixtures of the binary family (elementwise with
broadcasting) and the view/copy family.

  python examples/export/vulkan_cases/binary.py [--out test/models/vulkan/ops]

Each case lowers into one VulkanBackend delegate holding the listed
operators (checked by export_vulkan.export_case) and is bundled with two
test cases whose expected outputs come from eager PyTorch.
Files: <out>/binary_<case>.bpte.
"""

import argparse
import os
import sys

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.dirname(HERE))

from export_vulkan import Case, Fn, export_case, r  # noqa: E402


def two(*shapes):
    return lambda: [tuple(r(*s) for s in shapes), tuple(r(*s) for s in shapes)]


CASES = [
    Case("binary_add_broadcast", lambda: Fn(lambda a, b: a + b), two((2, 3, 4), (3, 1)),
         ["aten.add.Tensor"]),
    Case("binary_sub_alpha", lambda: Fn(lambda a, b: torch.sub(a, b, alpha=2.5)),
         two((4, 5), (4, 5)), ["aten.sub.Tensor"]),
    Case("binary_mul_div_rank4", lambda: Fn(lambda a, b: a * b / (b.abs() + 1.0)),
         two((2, 3, 4, 5), (1, 3, 1, 5)), ["aten.mul.Tensor", "aten.div.Tensor"]),
    Case("binary_scalar_constant", lambda: Fn(lambda a: (a * 3.0 + 0.5) - 2.0),
         lambda: [(r(3, 7),), (r(3, 7),)], ["aten.mul.Tensor", "aten.add.Tensor"]),
    Case("binary_view_clone", lambda: Fn(lambda a, b: (a.reshape(6, 4) + b).clone().view(2, 12)),
         two((2, 3, 4), (4,)), ["aten.view_copy.default", "aten.add.Tensor"]),
]


class DynamicSeq(nn.Module):
    """Linear, ReLU, a residual add and softmax over a sequence whose length
    is dynamic (1 to 12): the delegate propagates shapes per call."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(5)
        self.fc = nn.Linear(16, 16)

    def forward(self, x):
        y = torch.relu(self.fc(x)) + x
        return torch.softmax(y.view(1, -1, 4, 4).permute(0, 2, 1, 3), dim=-1)


def export_dynamic(out):
    """binary_dynamic_seq.bpte: test cases of sequence length 5, 12 and 1."""
    from executorch.backends.vulkan.partitioner.vulkan_partitioner import VulkanPartitioner
    from executorch.exir import to_edge_transform_and_lower
    from export_vulkan import bundle, decode, portable_ops

    module = DynamicSeq().eval()
    seq = torch.export.Dim("seq", min=1, max=12)
    ep = torch.export.export(module, (r(1, 5, 16),), dynamic_shapes=({1: seq},), strict=False)
    prog = to_edge_transform_and_lower(ep, partitioner=[VulkanPartitioner()]).to_executorch()
    program, _, blobs = decode(prog.buffer)
    if len(blobs) != 1 or portable_ops(program):
        raise RuntimeError(f"dynamic_seq: {len(blobs)} delegates, portable {portable_ops(program)}")
    inputs = [(r(1, n, 16),) for n in (5, 12, 1)]
    with torch.no_grad():
        expected = [[module(*a)] for a in inputs]
    path = os.path.join(out, "binary_dynamic_seq.bpte")
    with open(path, "wb") as f:
        f.write(bundle(prog, inputs, expected))
    print(f"binary_dynamic_seq -> {path}")


def export_fp16(out):
    """binary_force_fp16.bpte: VulkanPartitioner({"force_fp16": True}) stores
    float tensors and weights as fp16 (inputs and outputs stay fp32); Ember
    widens them and computes in fp32."""
    from executorch.backends.vulkan.partitioner.vulkan_partitioner import VulkanPartitioner
    from executorch.exir import to_edge_transform_and_lower
    from export_vulkan import bundle, decode, portable_ops

    torch.manual_seed(6)
    module = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                           nn.Flatten(), nn.Linear(8, 4)).eval()
    inputs = [(r(1, 3, 16, 16),), (r(1, 3, 16, 16),)]
    ep = torch.export.export(module, inputs[0], strict=False)
    prog = to_edge_transform_and_lower(
        ep, partitioner=[VulkanPartitioner({"force_fp16": True})]).to_executorch()
    program, _, blobs = decode(prog.buffer)
    if len(blobs) != 1 or portable_ops(program):
        raise RuntimeError(f"force_fp16: {len(blobs)} delegates, portable {portable_ops(program)}")
    with torch.no_grad():
        expected = [[module(*a)] for a in inputs]
    path = os.path.join(out, "binary_force_fp16.bpte")
    with open(path, "wb") as f:
        f.write(bundle(prog, inputs, expected))
    print(f"binary_force_fp16 -> {path}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "test", "models", "vulkan", "ops"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for case in CASES:
        n, portable, counts, written = export_case(case, args.out)
        print(f"{case.name}: {dict(counts)} -> {written}")
    export_dynamic(args.out)
    export_fp16(args.out)


if __name__ == "__main__":
    main()
