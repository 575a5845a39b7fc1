#!/usr/bin/env python3
# Product tool: exports real models (ConvNeXt-T, Swin-T, style transfer) as .bpte files.
"""Exports the real models that issue #12 named as refused (no delegate,
upstream's default exporter settings) as bundled programs with one test
case each: a random input and eager PyTorch's output.

Usage (from the repository root):

    python examples/export/export_gap_models.py [--out .bench/gap_models] [--only NAME ...]
    build/examples/executor_runner --model_path=.bench/gap_models/convnext_tiny.bpte \
        --rtol=1e-3 --atol=1e-4

Models (random weights, seed 0; outputs too large to commit):
  convnext_tiny   torchvision's ConvNeXt-T (its LayerNorm2d permutes; the
                  exporter writes as_strided_copy)
  swin_t          torchvision's Swin-T (shifted windows: slice_scatter,
                  alias_copy, as_strided_copy)
  style_transfer  the fast neural style network (reflection padding,
                  InstanceNorm without running statistics, nearest
                  upsampling): _native_batch_norm_legit.no_stats_out,
                  reflection_pad2d

torchvision 0.28.0's model definitions are imported with its compiled-op
registrations stubbed (they need a matching torch build and are not used).
"""

import argparse
import os
import sys
import types

import torch
import torch.nn as nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_op_suite import program_ops  # noqa: E402


def torchvision():
    sys.modules.setdefault("torchvision._meta_registrations",
                           types.ModuleType("torchvision._meta_registrations"))
    import torchvision as tv
    return tv


class ConvLayer(nn.Module):
    def __init__(self, cin, cout, k, stride):
        super().__init__()
        self.pad = nn.ReflectionPad2d(k // 2)
        self.conv = nn.Conv2d(cin, cout, k, stride)

    def forward(self, x):
        return self.conv(self.pad(x))


class Residual(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c1, self.n1 = ConvLayer(c, c, 3, 1), nn.InstanceNorm2d(c, affine=True)
        self.c2, self.n2 = ConvLayer(c, c, 3, 1), nn.InstanceNorm2d(c, affine=True)

    def forward(self, x):
        y = torch.relu(self.n1(self.c1(x)))
        return x + self.n2(self.c2(y))


class Upsample(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = ConvLayer(cin, cout, 3, 1)

    def forward(self, x):
        return self.conv(nn.functional.interpolate(x, scale_factor=2, mode="nearest"))


class StyleTransfer(nn.Module):
    """Johnson et al.'s feed-forward style network, as the fast-neural-style
    examples build it (reflection padding, InstanceNorm, 5 residual blocks)."""

    def __init__(self):
        super().__init__()
        layers = [ConvLayer(3, 32, 9, 1), nn.InstanceNorm2d(32, affine=True), nn.ReLU(),
                  ConvLayer(32, 64, 3, 2), nn.InstanceNorm2d(64, affine=True), nn.ReLU(),
                  ConvLayer(64, 128, 3, 2), nn.InstanceNorm2d(128, affine=True), nn.ReLU()]
        layers += [Residual(128) for _ in range(5)]
        layers += [Upsample(128, 64), nn.InstanceNorm2d(64, affine=True), nn.ReLU(),
                   Upsample(64, 32), nn.InstanceNorm2d(32, affine=True), nn.ReLU(),
                   ConvLayer(32, 3, 9, 1)]
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


MODELS = {
    "convnext_tiny": (lambda: torchvision().models.convnext_tiny(weights=None), (1, 3, 224, 224)),
    "swin_t": (lambda: torchvision().models.swin_t(weights=None), (1, 3, 224, 224)),
    "style_transfer": (StyleTransfer, (1, 3, 128, 128)),
}


def export(name, out):
    from executorch.devtools import BundledProgram
    from executorch.devtools.bundled_program.config import MethodTestCase, MethodTestSuite
    from executorch.devtools.bundled_program.serialize import (
        serialize_from_bundled_program_to_flatbuffer)
    from executorch.exir import to_edge

    make, shape = MODELS[name]
    torch.manual_seed(0)
    model = make().eval()
    x = torch.randn(shape)
    with torch.no_grad():
        y = model(x)
    prog = to_edge(torch.export.export(model, (x,), strict=False)).to_executorch()
    suite = MethodTestSuite(method_name="forward", test_cases=[
        MethodTestCase(inputs=[x], expected_outputs=[y])])
    path = os.path.join(out, f"{name}.bpte")
    with open(path, "wb") as f:
        f.write(serialize_from_bundled_program_to_flatbuffer(BundledProgram(prog, [suite])))
    print(f"{path}: {os.path.getsize(path) / 1e6:.1f} MB, operators: {', '.join(program_ops(prog))}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                 "..", "..", ".bench", "gap_models"))
    p.add_argument("--only", nargs="*", default=list(MODELS))
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in args.only:
        export(name, args.out)


if __name__ == "__main__":
    main()
