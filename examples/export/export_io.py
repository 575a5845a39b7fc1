#!/usr/bin/env python3
# Product tool: writes the graph input/output fixtures in test/models/io.
"""Exports the graph input/output fixtures into test/models/io.

Usage (from the repository root):

    python examples/export/export_io.py [--out test/models/io] [--check]

Each fixture has the layout of test/models (export_fixtures.py):

    <out>/<name>/model.pte
    <out>/<name>/ops.txt
    <out>/<name>/<method>/run<k>/input<i>.npy
    <out>/<name>/<method>/run<k>/output<i>.npy   (eager PyTorch's results)

and <out>/<name>/model.bpte: the same program bundled by upstream's
BundledProgram with every run as a test case of its method.

Fixtures:

  unplanned_portable  two inputs, two outputs, portable kernels only;
      written with MemoryPlanningPass(alloc_graph_input=False,
      alloc_graph_output=False): no graph input or output has planned
      memory, the application hands every buffer (what an app that avoids
      copies does).
  unplanned_xnnpack   the same with the graph lowered to XNNPACK by
      upstream's XnnpackPartitioner: the delegate reads the caller's input
      buffers and writes the caller's output buffers.
  unplanned_mutated_input  one unplanned input that the program writes
      in place (x.add_(1); the exporter ends the graph with a copy_ into
      the input) and one unplanned output: a runner that binds a bundled
      input to the bundle's bytes would change the bundle (or fault on a
      read-only mapping); every execution must see the bundled values.
  no_forward          two methods, prefill_forward and kv_forward (the
      names upstream's LLM exports use), neither named forward; ordinary
      memory planning. A runner with no method named runs the program's
      first method.

--check loads every written model.pte with upstream's Python runtime and
runs the runs of each method against the saved outputs
(export_fixtures.check_fixture), and verifies every test case of
no_forward's model.bpte with upstream's bundled runtime
(check_bundled_file). Upstream's bundled Python runtime crashes on the
unplanned programs (it gives their outputs no memory), so their bundles
are checked to hold exactly the runs that the .pte check verified.

Tested with torch==2.13.0 (CPU) and executorch==1.5.1.
"""

import argparse
import copy
import os
import shutil
import sys

import torch
import torch.nn as nn
from torch.export import export
from torch.utils._pytree import tree_flatten

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

import export_fixtures as fx  # noqa: E402  (layout helpers and the checker)


class TwoInTwoOut(nn.Module):
    """y = relu(x @ W^T + b) + bias_in; s = softmax(y) * scale: two graph
    inputs (x, bias_in) and two graph outputs (y, s)."""

    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(8, 6)

    def forward(self, x, bias_in):
        y = torch.relu(self.linear(x)) + bias_in
        return y, torch.softmax(y, dim=-1) * 2.0


class MutatesInput(nn.Module):
    """x += 1 in place (a mutated graph input), returns x * 2."""

    def forward(self, x):
        x.add_(1.0)
        return x * 2.0


class Prefill(nn.Module):
    """prefill_forward(tokens [4, 8]) -> keys [4, 6]."""

    def __init__(self, shared):
        super().__init__()
        self.proj = shared

    def forward(self, tokens):
        return torch.tanh(self.proj(tokens))


class KvStep(nn.Module):
    """kv_forward(token [1, 8], keys [4, 6]) -> (attention [1, 4], mixed [1, 6])."""

    def __init__(self, shared):
        super().__init__()
        self.proj = shared

    def forward(self, token, keys):
        q = self.proj(token)
        attn = torch.softmax(q @ keys.transpose(0, 1), dim=-1)
        return attn, attn @ keys


def unplanned_config():
    from executorch.exir import ExecutorchBackendConfig
    from executorch.exir.passes import MemoryPlanningPass

    return ExecutorchBackendConfig(memory_planning_pass=MemoryPlanningPass(
        alloc_graph_input=False, alloc_graph_output=False))


def build(name):
    """{method: (module, runs)} with the seed fixed; runs are input tuples."""
    torch.manual_seed(0)
    if name in ("unplanned_portable", "unplanned_xnnpack"):
        m = TwoInTwoOut().eval()
        runs = [(torch.randn(3, 8), torch.randn(3, 6)) for _ in range(2)]
        return {"forward": (m, runs)}
    if name == "unplanned_mutated_input":
        return {"forward": (MutatesInput(), [(torch.randn(2, 5),) for _ in range(2)])}
    if name == "no_forward":
        shared = nn.Linear(8, 6)
        keys = torch.randn(4, 6)
        return {
            "prefill_forward": (Prefill(shared).eval(), [(torch.randn(4, 8),)]),
            "kv_forward": (KvStep(shared).eval(),
                           [(torch.randn(1, 8), keys), (torch.randn(1, 8), keys)]),
        }
    raise KeyError(name)


def lower(name, eps):
    from executorch.exir import to_edge, to_edge_transform_and_lower

    if name in ("unplanned_portable", "unplanned_mutated_input"):
        return to_edge(eps).to_executorch(unplanned_config())
    if name == "unplanned_xnnpack":
        from executorch.backends.xnnpack.partition.xnnpack_partitioner import (
            XnnpackPartitioner)
        return to_edge_transform_and_lower(
            eps, partitioner=[XnnpackPartitioner()]).to_executorch(unplanned_config())
    return to_edge(eps).to_executorch()


def program_outputs(eager, args):
    """Eager outputs as the program returns them: the exporter makes each
    graph input the module writes in place an extra output, ahead of the
    module's own (its value after the write)."""
    before = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
    outputs = tree_flatten(eager(*args))[0]
    mutated = [a for a, b in zip(args, before)
               if isinstance(a, torch.Tensor) and not torch.equal(a, b)]
    return mutated + outputs


def export_one(name, out):
    methods = build(name)
    expected = {}
    for mname, (module, runs) in methods.items():
        eager = copy.deepcopy(module)
        with torch.no_grad():
            expected[mname] = [program_outputs(eager, copy.deepcopy(args)) for args in runs]
    eps = {mname: export(module, runs[0], strict=False)
           for mname, (module, runs) in methods.items()}
    prog = lower(name, eps)

    fdir = os.path.join(out, name)
    if os.path.isdir(fdir):
        shutil.rmtree(fdir)
    os.makedirs(fdir)
    with open(os.path.join(fdir, "model.pte"), "wb") as f:
        f.write(prog.buffer)
    for mname, (_, runs) in methods.items():
        for k, args in enumerate(runs):
            d = fx.run_dir(out, name, mname, k)
            os.makedirs(d)
            for i, a in enumerate(args):
                fx.save_npy(os.path.join(d, f"input{i}.npy"), a)
            for i, o in enumerate(expected[mname][k]):
                fx.save_npy(os.path.join(d, f"output{i}.npy"), o)
    from executorch.devtools import BundledProgram
    from executorch.devtools.bundled_program.config import MethodTestCase, MethodTestSuite
    from executorch.devtools.bundled_program.serialize import (
        serialize_from_bundled_program_to_flatbuffer)
    suites = [MethodTestSuite(method_name=mname, test_cases=[
        MethodTestCase(inputs=[a.clone().contiguous() for a in args],
                       expected_outputs=[o.clone().contiguous() for o in expected[mname][k]])
        for k, args in enumerate(runs)]) for mname, (_, runs) in methods.items()]
    with open(os.path.join(fdir, "model.bpte"), "wb") as f:
        f.write(serialize_from_bundled_program_to_flatbuffer(BundledProgram(prog, suites)))
    text, summary = fx.describe_program(bytes(prog.buffer))
    with open(os.path.join(fdir, "ops.txt"), "w") as f:
        f.write(text)
    print(f"{fdir}: methods {[p.name for p in prog.executorch_program.execution_plan]}")


def check_bundle_matches_runs(out, name, bpte):
    import numpy as np
    from executorch.devtools.bundled_program.serialize import (
        deserialize_from_flatbuffer_to_bundled_program)

    errors = []
    with open(bpte, "rb") as f:
        schema = deserialize_from_flatbuffer_to_bundled_program(f.read())
    for suite in schema.method_test_suites:
        for k, case in enumerate(suite.test_cases):
            d = fx.run_dir(out, name, suite.method_name, k)
            for kind, values in (("input", case.inputs), ("output", case.expected_outputs)):
                for i, v in enumerate(values):
                    want = np.load(os.path.join(d, f"{kind}{i}.npy"))
                    got = np.frombuffer(bytes(v.val.data), dtype=want.dtype).reshape(
                        v.val.sizes)
                    if not np.array_equal(got, want):
                        errors.append(f"{bpte}: {suite.method_name} case {k} {kind} {i}")
        print(f"  check {name}/model.bpte/{suite.method_name}: "
              f"{len(suite.test_cases)} case(s) equal the runs")
    return errors


FIXTURES = ["unplanned_portable", "unplanned_xnnpack", "unplanned_mutated_input",
            "no_forward"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=os.path.join(ROOT, "test", "models", "io"))
    p.add_argument("--only", nargs="*", default=FIXTURES)
    p.add_argument("--check", action="store_true")
    args = p.parse_args()
    errors = []
    for name in args.only:
        export_one(name, args.out)
        if args.check and name == "unplanned_mutated_input":
            # Upstream's Python runtime runs this program on an input
            # buffer of its own (zeros, then ones: it keeps the write)
            # instead of the given input, so its outputs are not PyTorch's;
            # the expected outputs are eager PyTorch's, checked by Ember.
            print(f"  {name}: not checked with upstream's Python runtime (see source)")
            continue
        if args.check:
            errors += fx.check_fixture(args.out, name)
            bpte = os.path.join(args.out, name, "model.bpte")
            if name.startswith("unplanned"):
                # Upstream's bundled Python runtime gives unplanned outputs
                # no memory and crashes (SIGSEGV) running them; check that
                # the bundle holds exactly the checked .npy runs instead.
                errors += check_bundle_matches_runs(args.out, name, bpte)
            else:
                errors += fx.check_bundled_file(bpte)
    for e in errors:
        print("FAIL:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
