#!/usr/bin/env python3
# Product tool: writes the operator suite in test/models/ops.
"""Exports Ember's operator suite: one small .bpte per op case.

Usage:
  python examples/export/export_op_suite.py --out test/models/ops [--only PATTERN[,PATTERN...]]
        [--check]

For each case declared in examples/export/op_suite/*.py: export the module
with torch.export -> to_edge -> to_executorch (no delegation), run the
eager module on every test-case input to get PyTorch's outputs, and write
<out>/<case>.bpte with upstream's BundledProgram serializer. <out>/MANIFEST
lists every file with the operators the program actually contains and its
tolerance override. --check also runs each file in upstream's Python
runtime. Re-running with the same torch/executorch produces the same bytes.
"""

import argparse
import copy
import fnmatch
import importlib
import os
import pkgutil
import sys

import torch
from torch.utils._pytree import tree_flatten

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from op_suite import registry  # noqa: E402


def load_case_modules():
    import op_suite

    for info in pkgutil.iter_modules(op_suite.__path__):
        if info.name != "registry":
            importlib.import_module(f"op_suite.{info.name}")


def program_ops(et_prog):
    ops = set()
    for plan in et_prog.executorch_program.execution_plan:
        for op in plan.operators:
            ops.add(f"{op.name}.{op.overload}" if op.overload else op.name)
    return sorted(ops)


def export_case(case, out):
    from executorch.devtools import BundledProgram
    from executorch.devtools.bundled_program.config import MethodTestCase, MethodTestSuite
    from executorch.devtools.bundled_program.serialize import (
        serialize_from_bundled_program_to_flatbuffer,
    )
    from executorch.exir import EdgeCompileConfig, ExecutorchBackendConfig, to_edge

    torch.manual_seed(0)
    module = case.module().eval()
    cases = []
    with torch.no_grad():
        for args in case.inputs:
            flat, _ = tree_flatten(copy.deepcopy(module)(*copy.deepcopy(args)))
            cases.append(
                MethodTestCase(
                    inputs=[a.clone().contiguous() if isinstance(a, torch.Tensor) else a
                            for a in args],
                    expected_outputs=[o.clone().contiguous() if isinstance(o, torch.Tensor)
                                      else o for o in flat],
                )
            )
    ep = torch.export.export(module, tuple(case.inputs[0]), strict=False)
    edge_options = dict(case.edge_options or {})
    if case.preserve_ops:
        keep = list(case.preserve_ops)
        edge_options.update(preserve_ops=keep, _core_aten_ops_exception_list=keep)
    edge = to_edge(ep, compile_config=EdgeCompileConfig(**edge_options)) if edge_options \
        else to_edge(ep)
    et_prog = edge.to_executorch(ExecutorchBackendConfig(**(case.et_options or {})))
    data = serialize_from_bundled_program_to_flatbuffer(
        BundledProgram(et_prog, [MethodTestSuite(method_name="forward", test_cases=cases)])
    )
    with open(os.path.join(out, f"{case.name}.bpte"), "wb") as f:
        f.write(data)
    return program_ops(et_prog), len(data)


def check_case(path, rtol, atol):
    from executorch.extension.pybindings.portable_lib import (
        _load_bundled_program_from_buffer,
    )
    from executorch.devtools.bundled_program.serialize import (
        deserialize_from_flatbuffer_to_bundled_program,
    )

    with open(path, "rb") as f:
        data = f.read()
    n = len(deserialize_from_flatbuffer_to_bundled_program(data).method_test_suites[0].test_cases)
    module = _load_bundled_program_from_buffer(data)
    for k in range(n):
        module.verify_result_with_bundled_expected_output("forward", k, rtol, atol)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(HERE, "..", "..", "test", "models", "ops"))
    parser.add_argument("--only", default="*",
                        help="fnmatch patterns of case names, comma-separated")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()

    load_case_modules()
    os.makedirs(args.out, exist_ok=True)
    manifest_path = os.path.join(args.out, "MANIFEST")
    manifest = {}
    if os.path.exists(manifest_path):
        for line in open(manifest_path):
            if line.strip() and not line.startswith("#"):
                manifest[line.split()[0]] = line.rstrip("\n")
    failures = []
    ran = []
    for case in registry.CASES:
        if not any(fnmatch.fnmatch(case.name, p) for p in args.only.split(",")):
            continue
        try:
            ops, size = export_case(case, args.out)
        except Exception as e:  # report and go on: one bad case must not stop the rest
            failures.append(f"{case.name}: export failed: {e}")
            continue
        tol = f"rtol={case.rtol if case.rtol is not None else '-'} " \
              f"atol={case.atol if case.atol is not None else '-'}"
        manifest[case.name] = f"{case.name} {tol} ops={','.join(ops)}"
        ran.append(case.name)
        print(f"{case.name}: {size} bytes, ops {', '.join(ops)}")
        if args.check:
            try:
                check_case(os.path.join(args.out, f"{case.name}.bpte"),
                           case.rtol if case.rtol is not None else 1e-5,
                           case.atol if case.atol is not None else 1e-6)
            except Exception as e:
                failures.append(f"{case.name}: upstream runtime check failed: {e}")
    # Several exports may run at once: re-read MANIFEST under a lock and
    # merge this run's entries, so no run drops another's.
    import fcntl

    updated = {name: manifest[name] for name in ran}
    with open(manifest_path, "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        merged = {}
        for line in f:
            if line.strip() and not line.startswith("#"):
                merged[line.split()[0]] = line.rstrip("\n")
        merged.update(updated)
        f.seek(0)
        f.truncate()
        f.write("# Generated by examples/export/export_op_suite.py -- do not edit.\n")
        f.write("# <case> rtol=<override|-> atol=<override|-> ops=<operators in the program>\n")
        for name in sorted(merged):
            f.write(merged[name] + "\n")
    for msg in failures:
        print("FAILED", msg, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
