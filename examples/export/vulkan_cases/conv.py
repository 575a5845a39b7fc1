#!/usr/bin/env python3
# Product tool: writes the Vulkan delegate's conv fixtures in test/models/vulkan/ops.
"""Vulkan delegate fixtures of the conv family (convolution and pooling):
test/models/vulkan/ops/conv_<case>.bpte, each one VulkanBackend delegate
holding the case's operators, bundled with two test cases whose expected
outputs are eager PyTorch's (fp32).

Usage: python examples/export/vulkan_cases/conv.py [--out DIR] [--only PATTERN]

CASES lists (case_name, module, example_inputs); EXPECT names the operators
each case's delegate must hold.
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

CONV = "aten.convolution.default"
CLAMP = "et_vk.conv_with_clamp.default"
MAXPOOL = "aten.max_pool2d_with_indices.default"
AVGPOOL = "aten.avg_pool2d.default"


class MaxPoolIndices(nn.Module):
    """Max pooling that returns the indices too (a second program output)."""

    def forward(self, x):
        return F.max_pool2d(x, 3, 2, 1, return_indices=True)


def _seeded(seed, make):
    torch.manual_seed(seed)
    return make().eval()


def _inputs(seed, *shape, nan=False):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(*shape, generator=g) * 4.0 - 2.0
    if nan:  # about one element in twenty is NaN
        x[torch.rand(*shape, generator=g) < 0.05] = float("nan")
    return (x,)


def _case(name, make, *shape, ops, nan=False):
    seed = sum(map(ord, name))
    return name, _seeded(seed, make), _inputs(seed, *shape, nan=nan), ops, nan


_ALL = [
    _case("conv_regular", lambda: nn.Conv2d(4, 8, 3, 1, 1), 1, 4, 10, 10, ops=[CONV]),
    _case("conv_stride2_nobias", lambda: nn.Conv2d(6, 8, 3, 2, 1, bias=False),
          1, 6, 11, 11, ops=[CONV]),
    _case("conv_depthwise",
          lambda: nn.Sequential(nn.Conv2d(8, 8, 3, 1, 1, groups=8), nn.ReLU6()),
          1, 8, 10, 10, ops=[CLAMP]),
    _case("conv_depthwise_s2",
          lambda: nn.Sequential(nn.Conv2d(8, 8, 3, 2, 1, groups=8, bias=False), nn.ReLU6()),
          1, 8, 13, 13, ops=[CLAMP]),
    _case("conv_pointwise", lambda: nn.Conv2d(8, 16, 1), 1, 8, 9, 9, ops=[CONV]),
    _case("conv_grouped_dilated", lambda: nn.Conv2d(8, 12, 3, 1, 2, dilation=2, groups=4),
          1, 8, 10, 10, ops=[CONV]),
    _case("conv_relu", lambda: nn.Sequential(nn.Conv2d(4, 8, 3, 1, 1), nn.ReLU()),
          1, 4, 8, 8, ops=[CLAMP]),
    _case("conv_hardtanh",
          lambda: nn.Sequential(nn.Conv2d(4, 8, 3, 1, 0), nn.Hardtanh(-0.5, 0.75)),
          1, 4, 8, 8, ops=[CLAMP]),
    _case("conv_grouped_blocks",
          lambda: nn.Sequential(nn.Conv2d(6, 16, 3, 2, 1, groups=2), nn.ReLU()),
          1, 6, 11, 9, ops=[CLAMP]),
    _case("conv_rect", lambda: nn.Conv2d(4, 6, (3, 5), (2, 1), (1, 2)), 1, 4, 9, 12,
          ops=[CONV]),
    _case("conv_1d", lambda: nn.Conv1d(4, 8, 3, 2, 1), 1, 4, 17, ops=[CONV]),
    _case("conv_1d_dilated_grouped", lambda: nn.Conv1d(6, 4, 3, 1, 2, dilation=2, groups=2),
          1, 6, 15, ops=[CONV]),
    _case("conv_transposed", lambda: nn.ConvTranspose2d(4, 6, 3, 2, 1, output_padding=1),
          1, 4, 5, 5, ops=[CONV]),
    _case("conv_transposed_grouped",
          lambda: nn.ConvTranspose2d(4, 6, (3, 2), (2, 3), (1, 0), groups=2, dilation=(2, 1)),
          1, 4, 5, 6, ops=[CONV]),
    _case("conv_pool_max", lambda: nn.MaxPool2d(3, 2, 1), 1, 8, 12, 12, ops=[MAXPOOL]),
    _case("conv_pool_max_ceil_dilated",
          lambda: nn.MaxPool2d(3, 2, 1, dilation=2, ceil_mode=True), 1, 4, 11, 11,
          ops=[MAXPOOL]),
    _case("conv_pool_max_indices", MaxPoolIndices, 1, 4, 9, 9, ops=[MAXPOOL]),
    _case("conv_pool_max_nan", MaxPoolIndices, 1, 4, 9, 9, ops=[MAXPOOL], nan=True),
    _case("conv_pool_max_rank3", lambda: nn.MaxPool2d(2), 4, 8, 9, ops=[MAXPOOL]),
    _case("conv_pool_avg", lambda: nn.AvgPool2d(3, 2, 1), 1, 8, 12, 12, ops=[AVGPOOL]),
    _case("conv_pool_avg_ceil_nopad",
          lambda: nn.AvgPool2d(3, 2, 1, ceil_mode=True, count_include_pad=False),
          1, 4, 11, 11, ops=[AVGPOOL]),
    _case("conv_pool_avg_divisor", lambda: nn.AvgPool2d((2, 3), (2, 2), (1, 1),
                                                       divisor_override=5),
          1, 4, 9, 10, ops=[AVGPOOL]),
]

CASES = [(name, module, inputs) for name, module, inputs, _, _ in _ALL]
EXPECT = {name: ops for name, _, _, ops, _ in _ALL}
NAN = {name for name, _, _, _, nan in _ALL if nan}


def _flat(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _delegate_ops(pte_bytes):
    """(number of VulkanBackend delegates, their chain operator names, the
    operators left outside them) of a serialized program."""
    sys.path.insert(0, os.path.dirname(HERE))
    import export_vulkan as ev

    program, _, blobs = ev.decode(pte_bytes)
    names = [call.name for blob in blobs for call in blob["graph"].chain]
    return len(blobs), names, ev.portable_ops(program)


def export(name, module, inputs, out_dir):
    from executorch.backends.vulkan.partitioner.vulkan_partitioner import VulkanPartitioner
    from executorch.devtools import BundledProgram
    from executorch.devtools.bundled_program.config import MethodTestCase, MethodTestSuite
    from executorch.devtools.bundled_program.serialize import (
        serialize_from_bundled_program_to_flatbuffer)
    from executorch.exir import to_edge_transform_and_lower

    ep = torch.export.export(module, inputs, strict=False)
    prog = to_edge_transform_and_lower(ep, partitioner=[VulkanPartitioner()]).to_executorch()
    n, ops, rest = _delegate_ops(prog.buffer)
    missing = [op for op in EXPECT[name] if op not in ops]
    if n != 1 or missing or rest:
        raise RuntimeError(f"{name}: {n} delegates, chain {ops}, missing {missing}, "
                           f"outside the delegate {rest}")
    second = tuple(_inputs(sum(map(ord, name)) + 1, *t.shape, nan=name in NAN)[0]
                   for t in inputs)
    cases = []
    for ins in (inputs, second):
        with torch.no_grad():
            expected = _flat(module(*[t.clone() for t in ins]))
        cases.append(MethodTestCase(inputs=[t.clone().contiguous() for t in ins],
                                    expected_outputs=[t.clone().contiguous() for t in expected]))
    data = serialize_from_bundled_program_to_flatbuffer(
        BundledProgram(prog, [MethodTestSuite(method_name="forward", test_cases=cases)]))
    path = os.path.join(out_dir, f"{name}.bpte")
    with open(path, "wb") as f:
        f.write(data)
    print(f"{name}: {len(data)} bytes, chain {ops}", flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=os.path.join(ROOT, "test", "models", "vulkan", "ops"))
    p.add_argument("--only", default="*", help="fnmatch patterns, comma-separated")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, module, inputs in CASES:
        if any(fnmatch.fnmatch(name, pat) for pat in args.only.split(",")):
            export(name, module, inputs, args.out)


if __name__ == "__main__":
    main()
