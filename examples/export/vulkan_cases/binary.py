#!/usr/bin/env python3
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

from export_vulkan import Case, export_case, r  # noqa: E402


class Fn(nn.Module):
    def __init__(self, f):
        super().__init__()
        self.f = f

    def forward(self, *args):
        return self.f(*args)


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "test", "models", "vulkan", "ops"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for case in CASES:
        n, portable, counts, written = export_case(case, args.out)
        print(f"{case.name}: {dict(counts)} -> {written}")


if __name__ == "__main__":
    main()
