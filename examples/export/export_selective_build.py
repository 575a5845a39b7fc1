#!/usr/bin/env python3
# Product tool: writes the selective-build fixtures in test/models/selective_build.
"""Exports the programs of the selective-build checks (examples/selective_build,
scripts/binary_sizes.sh, test/selective_build).

Usage (from the repository root, torch 2.13.0 and executorch 1.5.1):

    python examples/export/export_selective_build.py [--out test/models/selective_build]
        [--mobilenet-v2 DIR]

Writes <out>/prim_only.pte: forward(x) returns (x, x.shape[0] * 2 + 1) with
a dynamic first dimension (at most 64), so its operator table holds only
prim ops (aten::sym_size.int, executorch_prim::mul.Scalar,
executorch_prim::add.Scalar): the core runtime with no kernel library loads
and runs it (ember_minimal_runner).

--mobilenet-v2 DIR also writes DIR/mobilenet_v2.portable.pte (the
MobileNetV2 of export_xnnpack.py, random weights, exported without a
partitioner; 14 MB, not committed) and prints its operators, which
examples/selective_build/mobilenet_v2_ops.txt holds; regenerate that file
with
    build/examples/ember_list_ops --output=examples/selective_build/mobilenet_v2_ops.txt \\
        DIR/mobilenet_v2.portable.pte
(export_xnnpack.py --models writes the same program as
mobilenet_v2.portable.pte, with its XNNPACK-lowered twin).
"""

import argparse
import os
import sys

import torch
from executorch.exir import to_edge

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


class PrimOnly(torch.nn.Module):
    def forward(self, x):
        return x, x.shape[0] * 2 + 1


def export(module, args, dynamic_shapes=None):
    ep = torch.export.export(module, args, dynamic_shapes=dynamic_shapes)
    return to_edge(ep).to_executorch()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=os.path.join(ROOT, "test", "models", "selective_build"))
    p.add_argument("--mobilenet-v2", default=None)
    a = p.parse_args()

    torch.manual_seed(0)
    os.makedirs(a.out, exist_ok=True)
    prog = export(PrimOnly(), (torch.ones(4, 3),), {"x": {0: torch.export.Dim("n", max=64)}})
    path = os.path.join(a.out, "prim_only.pte")
    with open(path, "wb") as f:
        f.write(prog.buffer)
    ops = sorted({f"{op.name}.{op.overload}" if op.overload else op.name
                  for plan in prog.executorch_program.execution_plan for op in plan.operators})
    print(path, ops)

    if a.mobilenet_v2:
        sys.path.insert(0, HERE)
        from export_xnnpack import MobileNetV2  # noqa: E402
        model = MobileNetV2().eval()
        prog = export(model, (torch.randn(1, 3, 224, 224),))
        os.makedirs(a.mobilenet_v2, exist_ok=True)
        path = os.path.join(a.mobilenet_v2, "mobilenet_v2.portable.pte")
        with open(path, "wb") as f:
            f.write(prog.buffer)
        ops = sorted({f"{op.name}.{op.overload}" if op.overload else op.name
                      for plan in prog.executorch_program.execution_plan
                      for op in plan.operators})
        print(path, "\n  " + "\n  ".join(ops))


if __name__ == "__main__":
    main()
