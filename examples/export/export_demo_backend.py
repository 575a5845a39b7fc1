#!/usr/bin/env python3
# Product tool: writes the demo-backend fixtures in test/models/demo.
"""Exports the demo backend fixtures: the export tutorial's programs lowered
to upstream's example backend BackendWithCompilerDemo, which Ember runs in
backends/demo.

Usage:
  python examples/export/export_demo_backend.py [--out test/models/demo]
        [--only PATTERN[,PATTERN...]] [--check]

Cases (the tutorial's "Delegating to a Backend" section):

  tutorial_sin        whole-module lowering: to_backend("BackendWithCompilerDemo",
                      edge.exported_program(), []) of torch.sin(x), x [1];
                      the .pte is the lowered module's own buffer().
  tutorial_composed   the lowered sin module called twice inside a module
                      whose add runs on portable kernels (a, b, a + b + 0.3).
  tutorial_partition  to_edge(...).to_backend(AddMulPartitionerDemo()) of
                      the tutorial's f(a, x, b) (mm, add, sub, mm, add): two
                      delegates (mm then add), sub left to portable kernels.
  addmm_mix           AddMulPartitionerDemo on mm + bias (broadcast [5]),
                      mul, add, relu at [3, 4] x [4, 5]: two delegates of
                      other shapes than upstream's own test runtime runs
                      (it hardcodes 2 x 2), mul and relu on portable kernels.

Each case is written as <case>.pte (the lowered program), <case>.bpte (the
same program with test cases whose expected outputs come from eager
PyTorch), <case>.portable.bpte (the module not delegated, same test cases:
the portable twin) and <case>.aot.json (the exporter's facts for the
conformance suite: delegated and undelegated operators by name, counted
per delegate call, lowering time, blob count and bytes). MANIFEST has one
line per file.

--check runs every written file in upstream's Python runtime
(executorch.extension.pybindings.portable_lib). Upstream's prebuilt
pybindings register no BackendWithCompilerDemo, so the delegated files are
expected to fail there ("Backend BackendWithCompilerDemo is not
registered"); the check reports that and verifies the portable twins.
"""

import argparse
import collections
import copy
import fnmatch
import json
import os
import sys
import time

import torch
import torch.nn as nn
from torch.utils._pytree import tree_flatten

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

RTOL, ATOL = 1e-5, 1e-6


# ---------------------------------------------------------------- modules

class LowerableModule(nn.Module):  # the tutorial's whole-module example
    def forward(self, x):
        return torch.sin(x)


class NotLowerableModule(nn.Module):
    def __init__(self, bias):
        super().__init__()
        self.bias = bias

    def forward(self, a, b):
        return torch.add(torch.add(a, b), self.bias)


class ComposedModule(nn.Module):
    def __init__(self, lowered):
        super().__init__()
        self.non_lowerable = NotLowerableModule(torch.ones(1) * 0.3)
        self.lowerable = lowered

    def forward(self, x):
        a = self.lowerable(x)
        b = self.lowerable(a)
        ret = self.non_lowerable(a, b)
        return a, b, ret


class TutorialF(nn.Module):  # the tutorial's partitioning example
    def forward(self, a, x, b):
        y = torch.mm(a, x)
        z = y + b
        a = z - a
        y = torch.mm(a, x)
        z = y + b
        return z


class AddmmMix(nn.Module):
    def forward(self, a, w, bias, c):
        y = torch.mm(a, w) + bias   # delegate: mm then add (bias broadcasts)
        z = y * c                   # mul: portable (the partitioner takes add and mm)
        return torch.relu(z + bias)  # add: a delegate of its own; relu portable


# ---------------------------------------------------------------- lowering

def edge_of(module, example):
    from executorch.exir import to_edge

    return to_edge(torch.export.export(module, example, strict=True))


def lower_whole(module, example):
    """The tutorial's to_backend(backend id, program, compile specs): a
    LoweredBackendModule whose buffer() is a whole .pte."""
    from executorch.exir.backend.backend_api import to_backend
    # Importing the backend registers its preprocess with to_backend.
    from executorch.exir.backend.test.backend_with_compiler_demo import (  # noqa: F401
        BackendWithCompilerDemo)

    return to_backend("BackendWithCompilerDemo", edge_of(module, example).exported_program(), [])


def lower_partitioned(module, example):
    from executorch.exir.backend.test.op_partitioner_demo import AddMulPartitionerDemo

    return edge_of(module, example).to_backend(AddMulPartitionerDemo())


def lowered_modules(program):
    """(graph, {name: LoweredBackendModule}) of the program's forward graph."""
    gm = program.graph_module
    return gm.graph, {n: getattr(gm, n) for n, _ in gm.named_children()
                      if n.startswith("lowered_module")}


def op_name(target):
    return target.name() if hasattr(target, "name") else getattr(target, "__name__", str(target))


IGNORED = {"executorch_call_delegate", "getitem"}


def aot_facts(program, lower_time):
    """Delegated operators (inside each delegate call's lowered module,
    counted per call), undelegated operators (the rest of the graph), and
    the blobs, named as upstream's suite names them (OpOverload.name())."""
    graph, modules = lowered_modules(program)
    delegated, undelegated = collections.Counter(), collections.Counter()
    blobs = {}
    for n in graph.nodes:
        if n.op != "call_function":
            continue
        name = op_name(n.target)
        if name == "executorch_call_delegate":
            lowered = modules[n.args[0].target]
            blobs[n.args[0].target] = len(lowered.processed_bytes)
            for m in lowered.original_module.graph.nodes:
                if m.op == "call_function" and op_name(m.target) not in IGNORED:
                    delegated[op_name(m.target)] += 1
        elif name not in IGNORED:
            undelegated[name] += 1
    return {
        "flow": "demo",
        "params": "",
        "quantize_time_s": 0.0,
        "lower_time_s": round(lower_time, 3),
        "delegated_nodes": sum(delegated.values()),
        "undelegated_nodes": sum(undelegated.values()),
        "delegated_ops": dict(sorted(delegated.items())),
        "undelegated_ops": dict(sorted(undelegated.items())),
        "delegate_blobs": len(blobs),
        "delegate_blob_bytes": sum(blobs.values()),
    }


# ---------------------------------------------------------------- cases

def r(*shape):
    return torch.rand(*shape) * 4.0 - 2.0


def build(name):
    """(delegated .pte bytes, portable program, eager module, test inputs,
    AOT facts) for one case."""
    from executorch.exir import to_edge

    torch.manual_seed(0)
    if name == "tutorial_sin":
        module, example = LowerableModule(), (torch.ones(1),)
        inputs = [(torch.ones(1),), (torch.tensor([0.5]),), (torch.tensor([-2.5]),),
                  (torch.tensor([3.0]),)]
        start = time.perf_counter()
        lowered = lower_whole(module, example)
        lower_time = time.perf_counter() - start
        # A LoweredBackendModule is a program of one delegate call.
        delegated = collections.Counter(
            op_name(m.target) for m in lowered.original_module.graph.nodes
            if m.op == "call_function" and op_name(m.target) not in IGNORED)
        facts = {"flow": "demo", "params": "", "quantize_time_s": 0.0,
                 "lower_time_s": round(lower_time, 3),
                 "delegated_nodes": sum(delegated.values()), "undelegated_nodes": 0,
                 "delegated_ops": dict(sorted(delegated.items())), "undelegated_ops": {},
                 "delegate_blobs": 1, "delegate_blob_bytes": len(lowered.processed_bytes)}
        return lowered.buffer(), edge_of(module, example), module, inputs, facts
    if name == "tutorial_composed":
        example = (torch.ones(1),)
        lowered = lower_whole(LowerableModule(), example)
        module = ComposedModule(lowered)
        inputs = [(torch.ones(1),), (torch.tensor([0.25]),), (torch.tensor([-1.5]),)]
        start = time.perf_counter()
        program = edge_of(module, example)
        lower_time = time.perf_counter() - start
        facts = aot_facts(program.exported_program(), lower_time)
        twin = ComposedModule(LowerableModule())  # same maths, not delegated
        return program.to_executorch().buffer, edge_of(twin, example), twin, inputs, facts
    if name == "tutorial_partition":
        module = TutorialF()
        example = (torch.randn(2, 2), torch.randn(2, 2), torch.randn(2, 2))
        inputs = [example] + [(r(2, 2), r(2, 2), r(2, 2)) for _ in range(3)]
    elif name == "addmm_mix":
        module = AddmmMix()
        example = (r(3, 4), r(4, 5), r(5), r(3, 5))
        inputs = [example] + [(r(3, 4), r(4, 5), r(5), r(3, 5)) for _ in range(2)]
    else:
        raise ValueError(name)
    start = time.perf_counter()
    program = lower_partitioned(module, example)
    lower_time = time.perf_counter() - start
    facts = aot_facts(program.exported_program(), lower_time)
    return program.to_executorch().buffer, edge_of(module, example), module, inputs, facts


CASES = ["tutorial_sin", "tutorial_composed", "tutorial_partition", "addmm_mix"]


# ---------------------------------------------------------------- writing

def bundle(pte_bytes, inputs_list, expected_list):
    import tempfile
    from executorch.devtools import BundledProgram
    from executorch.devtools.bundled_program.config import MethodTestCase, MethodTestSuite
    from executorch.devtools.bundled_program.serialize import (
        serialize_from_bundled_program_to_flatbuffer)

    cases = [MethodTestCase(inputs=[a.clone().contiguous() for a in ins],
                            expected_outputs=[o.clone().contiguous() for o in outs])
             for ins, outs in zip(inputs_list, expected_list)]
    # The bundler reads a written program back (a LoweredBackendModule's
    # buffer() is not an ExecutorchProgramManager).
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "program.pte")
        with open(path, "wb") as f:
            f.write(pte_bytes)
        bp = BundledProgram(None, [MethodTestSuite(method_name="forward", test_cases=cases)],
                            pte_file_path=path)
        return serialize_from_bundled_program_to_flatbuffer(bp)


def summary(pte_bytes):
    """(delegate ids, DelegateCall count, portable operator names)."""
    from executorch.exir._serialize._program import deserialize_pte_binary

    program = deserialize_pte_binary(pte_bytes)
    program = getattr(program, "program", program)
    plan = program.execution_plan[0]
    calls = sum(1 for i in plan.chains[0].instructions
                if type(i.instr_args).__name__ == "DelegateCall")
    ops = sorted({f"{o.name}.{o.overload}" if o.overload else o.name for o in plan.operators})
    return [d.id for d in plan.delegates], calls, ops


def manifest_line(filename, kind, pte_bytes):
    """One line per file. The case itself (<case>.bpte) is keyed by its
    name, as in test/models/xnnpack/MANIFEST and as the conformance suite
    looks tolerances up; the other files by their file name."""
    ids, calls, ops = summary(pte_bytes)
    key = filename[:-len(".bpte")] if filename.endswith(".bpte") and \
        not filename.endswith(".portable.bpte") else filename
    return (f"{key} {kind} delegates={len(ids)} delegate_calls={calls} rtol={RTOL} "
            f"atol={ATOL} portable_ops={','.join(ops) or '-'}")


def export_case(name, out):
    pte, portable_edge, module, inputs, facts = build(name)
    with torch.no_grad():
        expected = [tree_flatten(module(*copy.deepcopy(a)))[0] for a in inputs]
    portable = portable_edge.to_executorch().buffer
    written = {}
    files = [(f"{name}.pte", "demo", pte, pte),
             (f"{name}.bpte", "demo", bundle(pte, inputs, expected), pte),
             (f"{name}.portable.bpte", "portable", bundle(portable, inputs, expected), portable)]
    lines = []
    for filename, kind, data, program in files:
        with open(os.path.join(out, filename), "wb") as f:
            f.write(data)
        written[filename] = (kind, data, inputs, expected)
        lines.append(manifest_line(filename, kind, program))
    with open(os.path.join(out, f"{name}.aot.json"), "w") as f:
        json.dump(facts, f, indent=1, sort_keys=True)
        f.write("\n")
    return written, lines


def check(out, written):
    """Runs every file in upstream's runtime; returns the failures that were
    not expected (a delegated file failing for want of the backend is
    expected and reported)."""
    from executorch.extension.pybindings import portable_lib as pl

    registered = pl._get_registered_backend_names()
    print(f"upstream runtime registers backends {registered}")
    unexpected = 0
    for filename, (kind, data, inputs, expected) in sorted(written.items()):
        try:
            if filename.endswith(".bpte"):
                m = pl._load_bundled_program_from_buffer(data)
                for k in range(len(inputs)):
                    m.verify_result_with_bundled_expected_output("forward", k, RTOL, ATOL)
                print(f"  {filename}: {len(inputs)} test cases verify in upstream's runtime")
            else:
                m = pl._load_for_executorch_from_buffer(data)
                for ins, outs in zip(inputs, expected):
                    got = m.forward(tuple(ins))
                    if not all(torch.allclose(g, e, rtol=RTOL, atol=ATOL)
                               for g, e in zip(got, outs)):
                        raise RuntimeError("outputs differ from PyTorch's")
                print(f"  {filename}: {len(inputs)} runs match PyTorch in upstream's runtime")
        except Exception as e:  # noqa: BLE001 - report and go on
            expected = kind == "demo" and "BackendWithCompilerDemo" not in registered
            tag = "expected (no BackendWithCompilerDemo in upstream's pybindings)" \
                if expected else "UNEXPECTED"
            print(f"  {filename}: fails in upstream's runtime, {tag}: "
                  f"{str(e).splitlines()[0][:160]}")
            unexpected += 0 if expected else 1
    return unexpected


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=os.path.join(ROOT, "test", "models", "demo"))
    p.add_argument("--only", default="*", help="fnmatch patterns, comma-separated")
    p.add_argument("--check", action="store_true")
    args = p.parse_args()

    os.makedirs(args.out, exist_ok=True)
    written, manifest = {}, []
    for name in CASES:
        if not any(fnmatch.fnmatch(name, pat) for pat in args.only.split(",")):
            continue
        files, lines = export_case(name, args.out)
        written.update(files)
        manifest.extend(lines)
        for line in lines:
            print(line, flush=True)
    # Merge into the MANIFEST (one line per file, sorted by name).
    path = os.path.join(args.out, "MANIFEST")
    lines = {}
    if os.path.exists(path):
        for line in open(path):
            if line.strip():
                lines[line.split()[0]] = line.rstrip("\n")
    for line in manifest:
        lines[line.split()[0]] = line
    with open(path, "w") as f:
        f.write("\n".join(lines[k] for k in sorted(lines)) + "\n")
    if args.check and check(args.out, written):
        sys.exit(1)


if __name__ == "__main__":
    main()
