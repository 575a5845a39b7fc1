#!/usr/bin/env python3
# Product tool: writes the external-weights (.pte + .ptd) fixtures in test/models/external.
"""Exports the external-weights fixtures: programs whose constants live in a
separate .ptd file (upstream's flat_tensor format) instead of the .pte.

Usage:
  python examples/export/export_external.py [--out test/models/external] [--check]

Writes, for one small module (linear -> relu -> linear, plus a constant
buffer added to the output):
  portable.pte + portable.ptd   ExecutorchBackendConfig(external_constants=True):
                                every parameter and buffer is an EXTERNAL
                                tensor of the program, keyed by its fqn.
  xnnpack.pte + xnnpack.ptd     lowered with XnnpackPartitioner after tagging
                                every constant with
                                delegate_external_constants_pass_unlifted: the
                                delegate reads its weights by (sha256) key
                                from xnnpack.ptd through the named data map;
                                constants left outside the delegate (if any)
                                are EXTERNAL tensors in the same file.
  forward/run0/input0.npy       the input (the run-folder layout of
  forward/run0/output0.npy      test/models/README.md); the output is eager
                                PyTorch's (a deep copy of the module taken
                                before export)

--check runs each .pte + .ptd pair in upstream's Python runtime and compares
with output0.npy (rtol 1e-5, atol 1e-6).
"""

import argparse
import copy
import os
import sys

import numpy as np
import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


class SmallMlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 4)
        self.register_buffer("offset", torch.linspace(-1.0, 1.0, 4))

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x))) + self.offset


def write_pair(prog, out, stem, files):
    """Writes <stem>.pte and one .ptd per external tag; `files` maps each
    tag upstream produced to the file name it gets."""
    with open(os.path.join(out, stem + ".pte"), "wb") as f:
        prog.write_to_file(f)
    data = prog._tensor_data
    if sorted(data) != sorted(files):
        sys.exit(f"{stem}: expected external tags {sorted(files)}, got {sorted(data)}")
    for tag, name in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(bytes(data[tag]))
        print(f"wrote {name} (tag '{tag}', {len(bytes(data[tag]))} B)")


def export_portable(module, example, out):
    from executorch.exir import ExecutorchBackendConfig, to_edge
    ep = torch.export.export(module, example)
    prog = to_edge(ep).to_executorch(ExecutorchBackendConfig(external_constants=True))
    write_pair(prog, out, "portable",
               {"_default_external_constant": "portable.ptd"})


def export_xnnpack(module, example, out):
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import ExecutorchBackendConfig, to_edge_transform_and_lower
    from executorch.exir.passes.external_constants_pass import (
        delegate_external_constants_pass_unlifted,
    )
    ep = torch.export.export(module, example)
    unlifted = ep.module()
    delegate_external_constants_pass_unlifted(unlifted, lambda node: "xnnpack")
    ep = torch.export.export(unlifted, example)
    edge = to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()])
    # The constants left outside the delegate go to the same tag, so that one
    # .ptd holds everything (upstream's Python loader takes one data file).
    prog = edge.to_executorch(ExecutorchBackendConfig(external_constants=lambda node: "xnnpack"))
    write_pair(prog, out, "xnnpack", {"xnnpack": "xnnpack.ptd"})


def check(out, expected, x):
    from executorch.extension.pybindings.portable_lib import _load_for_executorch
    import executorch.backends.xnnpack  # noqa: F401  (registers the backend)
    ok = True
    for stem in ("portable", "xnnpack"):
        m = _load_for_executorch(os.path.join(out, stem + ".pte"),
                                 os.path.join(out, stem + ".ptd"))
        got = m.forward((torch.from_numpy(x),))[0].numpy()
        same = np.allclose(got, expected, rtol=1e-5, atol=1e-6)
        print(f"check {stem}: {'ok' if same else 'MISMATCH'}")
        ok = ok and same
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "test", "models", "external"))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    torch.manual_seed(0)
    module = SmallMlp().eval()
    x = torch.randn(2, 8)
    reference = copy.deepcopy(module)
    with torch.no_grad():
        expected = reference(x).numpy()
    run = os.path.join(args.out, "forward", "run0")
    os.makedirs(run, exist_ok=True)
    np.save(os.path.join(run, "input0.npy"), x.numpy())
    np.save(os.path.join(run, "output0.npy"), expected)

    export_portable(copy.deepcopy(module), (x,), args.out)
    export_xnnpack(copy.deepcopy(module), (x,), args.out)
    if args.check and not check(args.out, expected, x.numpy()):
        sys.exit(1)


if __name__ == "__main__":
    main()
