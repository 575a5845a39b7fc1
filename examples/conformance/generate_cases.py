#!/usr/bin/env python3
# Product tool: generates conformance case trees for ember_conformance.
"""Generates a case tree for ember_conformance under upstream's test flows.

Usage:
  python3 examples/conformance/generate_cases.py [--out .conformance/cases]
        [--flows portable,xnnpack_fp32,xnnpack_int8,xnnpack_dynamic]
        [--suites op_suite,upstream_ops,models] [--ops PATTERNS] [--models PATTERNS]
        [--only PATTERNS] [--golden_artifacts] [--check] [--list]
  python3 examples/conformance/generate_cases.py --fixture_sidecars
        [--fixtures tiny_cnn,partial,q_tiny_cnn] [--fixtures_dir test/models/xnnpack]

Cases come from three places, all reused by import:
  op_suite      the project's operator suite (examples/export/op_suite, the
                cases export_op_suite.py writes to test/models/ops);
  upstream_ops  upstream's operator tests (executorch.backends.test.suite.
                operators): each test function is called with a stand-in for
                its test_runner fixture that records the module and inputs
                instead of running them;
  models        the small models of examples/export/export_xnnpack.py
                (tiny_cnn, residual_cnn, ...) and its whole models
                (mobilenet_v2, resnet18, ...; large, only when asked by name).

Each case is lowered with the stages of upstream's TestFlow (backends/test/
suite/flows): the flow's Tester, its Quantize stage when the flow quantizes
(calibrated on every test input set of the case), export, to_edge_transform_
and_lower (with an ETRecord, as upstream's runner does, to count the nodes),
to_executorch, serialize. Flows (tree name -> upstream flow):
  portable        -> portable
  xnnpack_fp32    -> xnnpack
  xnnpack_int8    -> xnnpack_static_int8_per_channel
  xnnpack_dynamic -> xnnpack_dynamic_int8_per_channel

For each (flow, case) it writes into OUT/<flow>/<suite>/:
  NAME.bpte            BundledProgram; one test case per input set, expected
                       outputs from PyTorch (the exported, possibly quantized,
                       program run eagerly: upstream's reference);
  NAME.portable.bpte   delegated flows only: the same exported program lowered
                       without a partitioner (the twin the suite runs when the
                       delegate is unavailable);
  NAME.aot.json        the exporter's facts (see README.md);
  with --golden_artifacts also upstream's GOLDEN_ARTIFACTS_DIR layout for the
  first input set: NAME.pte, NAME_input.bin or NAME_input_<i>.bin,
  NAME_expected_output.bin or NAME_expected_output_<i>.bin (raw bytes; inputs
  in the program's dim order, outputs contiguous), and NAME.portable.pte.
OUT/manifest.json holds the tolerances the flow or case sets (ember_conformance
--manifest; others fall to the suite's default by dtype); OUT/generation.json
lists what was written, what failed at which stage, what was skipped, the
--check verdicts (upstream's Python runtime, in a child process) and the time.

--fixture_sidecars re-exports committed XNNPACK fixtures with
examples/export/export_xnnpack.py's own recipe, compares the new .bpte and
its program with the committed ones (the program's structure must match),
and writes <fixture>.aot.json beside it.
"""

import argparse
import collections
import copy
import fnmatch
import hashlib
import importlib
import itertools
import json
import os
import pkgutil
import sys
import tempfile
import time
import traceback
import warnings

import torch
from torch.utils._pytree import tree_flatten

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
EXPORT_DIR = os.path.join(ROOT, "examples", "export")
sys.path.insert(0, EXPORT_DIR)

FLOWS = {
    "portable": "portable",
    "xnnpack_fp32": "xnnpack",
    "xnnpack_int8": "xnnpack_static_int8_per_channel",
    "xnnpack_dynamic": "xnnpack_dynamic_int8_per_channel",
}
SUITES = ("op_suite", "upstream_ops", "models")

# Small models from export_xnnpack.node_cases() used as model tests (the
# rest of node_cases are single-node cases, already covered by the op
# suites). export_xnnpack.whole_models() are added by name (--models).
SMALL_MODELS = ("tiny_cnn", "fused_cnn", "residual_cnn", "tiny_encoder", "tiny_attention",
                "partial", "dq_linear_block", "dynamic_seq")

# Tolerances written to OUT/manifest.json (a value left out falls to the
# suite's default by output dtype). Quantized flows: the ones upstream's
# runner gives every test (run_test: atol 1e-1, rtol 4e-2). Otherwise the
# case's own (op suite overrides, models), else for xnnpack_fp32 the XNNPACK
# fixtures' default (export_xnnpack.Case).
QUANT_RTOL, QUANT_ATOL = 4e-2, 1e-1
XNNPACK_FP32_RTOL, XNNPACK_FP32_ATOL = 1e-4, 1e-5
# The suite's defaults by output dtype (for --check when a case sets none).
DTYPE_TOLERANCE = {torch.float32: (1e-5, 1e-6), torch.float64: (1e-10, 1e-12),
                   torch.float16: (1e-3, 1e-3), torch.bfloat16: (1e-2, 1e-2)}


class Case:
    """One test: a module factory and its input sets (each a tuple of
    forward() arguments; the first is the export example)."""

    def __init__(self, suite, name, make_module, inputs, rtol=None, atol=None,
                 dynamic_shapes=None, params=""):
        self.suite = suite
        self.name = name
        self.make_module = make_module
        self.inputs = [tuple(a) for a in inputs]
        self.rtol = rtol
        self.atol = atol
        self.dynamic_shapes = dynamic_shapes
        self.params = params

    @property
    def id(self):
        return f"{self.suite}/{self.name}"


# ------------------------------------------------------------ case sources

def op_suite_cases():
    import export_op_suite
    from op_suite import registry

    export_op_suite.load_case_modules()
    return [Case("op_suite", c.name, c.module, c.inputs, c.rtol, c.atol) for c in registry.CASES]


class _RecordingRunner:
    """Stands in for upstream's test_runner fixture: records each
    lower_and_run_model call (one subtest each) instead of running it."""

    def __init__(self, flow):
        self._flow = flow
        self.calls = []

    def lower_and_run_model(self, model, inputs, generate_random_test_inputs=True,
                            dynamic_shapes=None):
        self.calls.append((model, tuple(inputs), dynamic_shapes))


def _param_sets(fn):
    """The pytest.mark.parametrize combinations of a test function, as
    (kwargs, id) pairs."""
    axes = []
    for mark in getattr(fn, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        names = [n.strip() for n in mark.args[0].split(",")] if isinstance(
            mark.args[0], str) else list(mark.args[0])
        values = list(mark.args[1])
        ids = mark.kwargs.get("ids")
        axis = []
        for k, v in enumerate(values):
            vals = v if len(names) > 1 else (v,)
            if callable(ids):
                pid = "-".join(str(ids(x)) for x in vals)
            elif ids is not None:
                pid = str(ids[k])
            else:
                pid = "-".join(str(x) for x in vals)
            axis.append((dict(zip(names, vals)), pid))
        axes.append(axis)
    for combo in itertools.product(*axes):
        kwargs, pids = {}, []
        for kw, pid in combo:
            kwargs.update(kw)
            pids.append(pid)
        yield kwargs, "-".join(pids)


def _seed(name):
    # Stable across runs and machines, as upstream seeds its tests.
    return int.from_bytes(hashlib.md5(name.encode()).digest(), "little") % 100_000_000


def upstream_op_cases(patterns):
    """Upstream's operator tests whose name matches one of `patterns`
    (fnmatch over the case name, e.g. "add_*"): the tests are only called
    when they match, so importing them all stays cheap."""
    from executorch.backends.test.suite import operators
    from executorch.backends.test.suite.flows.portable import PORTABLE_TEST_FLOW

    cases = []
    for info in pkgutil.iter_modules(operators.__path__):
        if not info.name.startswith("test_"):
            continue
        try:
            mod = importlib.import_module(f"{operators.__name__}.{info.name}")
        except Exception as e:  # a test needing a missing package
            print(f"upstream_ops: cannot import {info.name}: {e}", file=sys.stderr)
            continue
        for fname in sorted(dir(mod)):
            fn = getattr(mod, fname)
            if not fname.startswith("test_") or not callable(fn):
                continue
            for kwargs, pid in _param_sets(fn):
                base = fname[len("test_"):] + (f"_{pid}" if pid else "")
                if not any(fnmatch.fnmatch(base, p) for p in patterns):
                    continue
                runner = _RecordingRunner(PORTABLE_TEST_FLOW)
                torch.manual_seed(_seed(fname))
                try:
                    fn(runner, **kwargs)
                except Exception as e:
                    print(f"upstream_ops: {fname}[{pid}] raised {e}", file=sys.stderr)
                    continue
                params = json.dumps({k: str(v) for k, v in kwargs.items()}) if kwargs else ""
                for k, (model, inputs, dyn) in enumerate(runner.calls):
                    name = base if k == 0 else f"{base}_{k}"
                    cases.append(Case("upstream_ops", name, (lambda m=model: m), [inputs],
                                      dynamic_shapes=dyn, params=params))
    return cases


def model_cases(patterns):
    import export_xnnpack

    small = {c.name: c for c in export_xnnpack.node_cases() if c.name in SMALL_MODELS}
    cases = []
    for name in SMALL_MODELS:
        c = small[name]
        if any(fnmatch.fnmatch(name, p) for p in patterns):
            cases.append(Case("models", name, (lambda m=c.module: m), c.inputs, c.rtol, c.atol,
                              c.dynamic_shapes))
    # The whole models are built only when named (they take a while).
    if any(p != "*" for p in patterns):
        for c in export_xnnpack.whole_models():
            if any(fnmatch.fnmatch(c.name, p) for p in patterns if p != "*"):
                cases.append(Case("models", c.name, (lambda m=c.module: m), c.inputs,
                                  c.rtol, c.atol))
    return cases


# ------------------------------------------------------------ program facts

def count_exporter_ops(edge_manager):
    """Upstream's counts (backends/test/suite/runner.py): call_function
    nodes of the edge program before partitioning (the ETRecord's) minus
    those left outside the lowered modules."""
    from executorch.backends.test.suite.reporting import count_ops

    edge_ops = count_ops({"forward": edge_manager._etrecord.edge_dialect_program})
    undelegated = count_ops(edge_manager._edge_programs)
    delegated = edge_ops - undelegated
    return delegated, undelegated


def program_facts(et_prog):
    """What the serialized program holds, as the C++ side reads it: kernel
    calls per operator, delegate calls, delegate blobs and their bytes."""
    from executorch.exir.schema import DataLocation, DelegateCall, KernelCall

    program = getattr(et_prog, "executorch_program", et_prog)  # a manager or a Program
    kernels = collections.Counter()
    delegate_calls = 0
    blobs = blob_bytes = 0
    backends = set()
    for plan in program.execution_plan:
        for chain in plan.chains:
            for ins in chain.instructions:
                if isinstance(ins.instr_args, KernelCall):
                    op = plan.operators[ins.instr_args.op_index]
                    kernels[f"{op.name}.{op.overload}" if op.overload else op.name] += 1
                elif isinstance(ins.instr_args, DelegateCall):
                    delegate_calls += 1
        for d in plan.delegates:
            blobs += 1
            backends.add(d.id)
            ref = d.processed
            if ref.location == DataLocation.INLINE:
                blob_bytes += len(program.backend_delegate_data[ref.index].data)
            else:
                blob_bytes += program.segments[ref.index].size
    return {"kernel_calls": sum(kernels.values()), "delegate_calls": delegate_calls,
            "kernels": dict(sorted(kernels.items())), "delegate_blobs": blobs,
            "delegate_blob_bytes": blob_bytes, "backends": sorted(backends)}


def xnnpack_nodes(et_prog):
    """XNNPACK node types in all blobs (upstream's schema, decoded with
    flatc), or None when flatc is missing."""
    import shutil

    import export_xnnpack

    if not shutil.which("flatc"):
        return None
    nodes = collections.Counter()
    for b in export_xnnpack.blob_summary(et_prog):
        nodes.update(b["nodes"])
    return dict(sorted(nodes.items()))


def sidecar(flow, params, quantize_s, lower_s, delegated, undelegated, facts, extra):
    out = {
        "flow": flow,
        "params": params,
        "quantize_time_s": round(quantize_s, 3),
        "lower_time_s": round(lower_s, 3),
        "delegated_nodes": sum(delegated.values()),
        "undelegated_nodes": sum(undelegated.values()),
        "delegated_ops": dict(sorted(delegated.items())),
        "undelegated_ops": dict(sorted(undelegated.items())),
        "delegate_blobs": facts["delegate_blobs"],
        "delegate_blob_bytes": facts["delegate_blob_bytes"],
    }
    out.update(extra)
    return out


# ------------------------------------------------------------ writers

def bundle(et_prog, inputs_list, expected_list):
    """BundledProgram bytes, one method test case per input set. (Like
    export_xnnpack.bundle, but upstream's operator tests pass scalars too.)"""
    from executorch.devtools import BundledProgram
    from executorch.devtools.bundled_program.config import MethodTestCase, MethodTestSuite
    from executorch.devtools.bundled_program.serialize import (
        serialize_from_bundled_program_to_flatbuffer)

    def own(v):
        return v.detach().clone().contiguous() if isinstance(v, torch.Tensor) else v

    cases = [MethodTestCase(inputs=[own(a) for a in ins], expected_outputs=[own(o) for o in outs])
             for ins, outs in zip(inputs_list, expected_list)]
    return serialize_from_bundled_program_to_flatbuffer(
        BundledProgram(et_prog, [MethodTestSuite(method_name="forward", test_cases=cases)]))


def write_golden(stem, pte, inputs, outputs):
    """Upstream's golden layout (backends/test/harness/tester.py,
    _dump_golden_artifacts): no index suffix when there is one tensor.
    Unlike upstream, inputs are numbered as the program sees them, flattened
    (upstream numbers the top-level arguments and skips a tuple of tensors,
    such as index_put's indices, so its files do not line up with the
    program's inputs)."""
    inputs = tree_flatten(tuple(inputs))[0]
    def raw(t):  # numpy has no bfloat16: write its bits
        return t.view(torch.int16) if t.dtype == torch.bfloat16 else t

    written = [stem + ".pte"]
    with open(written[0], "wb") as f:
        f.write(pte)
    for i, t in enumerate(inputs):
        if isinstance(t, torch.Tensor):
            path = f"{stem}_input{'' if len(inputs) == 1 else f'_{i}'}.bin"
            raw(t.detach().permute(t.dim_order()).contiguous()).numpy().tofile(path)
            written.append(path)
    for i, t in enumerate(outputs):
        if isinstance(t, torch.Tensor):
            path = f"{stem}_expected_output{'' if len(outputs) == 1 else f'_{i}'}.bin"
            raw(t.detach().contiguous()).numpy().tofile(path)
            written.append(path)
    return written


# ------------------------------------------------------------ lowering

def upstream_flow(name):
    if name == "portable":
        from executorch.backends.test.suite.flows.portable import PORTABLE_TEST_FLOW
        return PORTABLE_TEST_FLOW
    from executorch.backends.test.suite.flows import xnnpack as x
    return {"xnnpack": x.XNNPACK_TEST_FLOW,
            "xnnpack_static_int8_per_channel": x.XNNPACK_STATIC_INT8_PER_CHANNEL_TEST_FLOW,
            "xnnpack_dynamic_int8_per_channel":
                x.XNNPACK_DYNAMIC_INT8_PER_CHANNEL_TEST_FLOW}[name]


class StageFailed(Exception):
    def __init__(self, stage, error):
        super().__init__(f"{stage}: {type(error).__name__}: {error}")
        self.stage = stage


def lower_case(flow, case):
    """Runs the flow's stages on the case; returns a dict of the artifacts
    and timings. Raises StageFailed naming upstream's result detail."""
    from executorch.backends.test.harness import stages as base_stages
    from executorch.backends.test.harness.stages import StageType

    torch.manual_seed(_seed(case.name))
    module = copy.deepcopy(case.make_module()).eval()
    example = case.inputs[0]
    # As upstream's runner: a test whose module does not run eagerly is
    # skipped (a bad test, not a backend failure).
    try:
        with torch.no_grad():
            copy.deepcopy(module)(*copy.deepcopy(example))
    except Exception as e:
        raise StageFailed("Skip", e)
    try:
        tester = flow.tester_factory(module, example)
    except Exception as e:
        raise StageFailed("Unknown Failure", e)
    quantize_s = 0.0
    if flow.quantize:
        stage = flow.quantize_stage_factory() if flow.quantize_stage_factory else None
        if stage is not None:
            stage.calibration_samples = case.inputs
        start = time.perf_counter()
        try:
            tester.quantize(stage)
        except Exception as e:
            raise StageFailed("Quantization Failed", e)
        quantize_s = time.perf_counter() - start
    try:
        tester.export(tester._get_default_stage(StageType.EXPORT,
                                                dynamic_shapes=case.dynamic_shapes))
    except Exception as e:
        raise StageFailed("Export Failed", e)
    exported = tester.get_artifact(StageType.EXPORT)
    start = time.perf_counter()
    try:
        tester.to_edge_transform_and_lower(generate_etrecord=True)
    except Exception as e:
        raise StageFailed("Lowering Failed", e)
    lower_s = time.perf_counter() - start
    delegated, undelegated = count_exporter_ops(tester.get_artifact())
    try:
        tester.to_executorch()
        tester.serialize()
    except Exception as e:
        raise StageFailed("Serialize Failed", e)
    et_prog = tester.get_artifact(StageType.TO_EXECUTORCH)
    twin = None
    if flow.is_delegated:
        # The same exported program through the portable flow's own stages.
        try:
            edge = base_stages.ToEdgeTransformAndLower()
            edge.run(copy.deepcopy(exported))
            to_et = base_stages.ToExecutorch()
            to_et.run(edge.artifact)
            twin = to_et.artifact
        except Exception as e:
            raise StageFailed("Portable Twin Failed", e)
    # Upstream's reference: the exported (quantized) program run in PyTorch.
    expected = []
    with torch.no_grad():
        for args in case.inputs:
            flat, _ = tree_flatten(exported.module()(*copy.deepcopy(args)))
            expected.append(flat)
    return dict(et_prog=et_prog, twin=twin, expected=expected, quantize_s=quantize_s,
                lower_s=lower_s, delegated=delegated, undelegated=undelegated)


def generate_one(tree_flow, case, out, golden):
    flow = upstream_flow(FLOWS[tree_flow])
    folder = os.path.join(out, tree_flow, case.suite)
    os.makedirs(folder, exist_ok=True)
    stem = os.path.join(folder, case.name)
    r = lower_case(flow, case)
    written = []
    with open(stem + ".bpte", "wb") as f:
        f.write(bundle(r["et_prog"], case.inputs, r["expected"]))
    written.append(stem + ".bpte")
    if r["twin"] is not None:
        with open(stem + ".portable.bpte", "wb") as f:
            f.write(bundle(r["twin"], case.inputs, r["expected"]))
        written.append(stem + ".portable.bpte")
    if golden:
        written += write_golden(stem, r["et_prog"].buffer, case.inputs[0], r["expected"][0])
        if r["twin"] is not None:
            with open(stem + ".portable.pte", "wb") as f:
                f.write(r["twin"].buffer)
            written.append(stem + ".portable.pte")
    facts = program_facts(r["et_prog"])
    rtol, atol = case.rtol, case.atol
    if flow.quantize:
        rtol, atol = QUANT_RTOL, QUANT_ATOL
    elif flow.is_delegated:
        rtol = XNNPACK_FP32_RTOL if rtol is None else rtol
        atol = XNNPACK_FP32_ATOL if atol is None else atol
    extra = {"upstream_flow": flow.name, "source": case.id, "rtol": rtol, "atol": atol,
             "pte_bytes": len(r["et_prog"].buffer), "program": facts}
    if "XnnpackBackend" in facts["backends"]:
        extra["xnnpack_nodes"] = xnnpack_nodes(r["et_prog"])
    side = sidecar(tree_flow, case.params, r["quantize_s"], r["lower_s"], r["delegated"],
                   r["undelegated"], facts, extra)
    with open(stem + ".aot.json", "w") as f:
        json.dump(side, f, indent=1)
        f.write("\n")
    written.append(stem + ".aot.json")
    return side, written


# ------------------------------------------------------------ fixture sidecars

def bundled_program_bytes(bpte):
    from executorch.devtools.bundled_program.serialize import (
        deserialize_from_flatbuffer_to_bundled_program)

    return bytes(deserialize_from_flatbuffer_to_bundled_program(bpte).program)


def committed_program(bpte):
    """The schema Program inside a .bpte's embedded program bytes."""
    from executorch.exir._serialize._program import deserialize_pte_binary

    return deserialize_pte_binary(bundled_program_bytes(bpte)).program


def fixture_sidecars(names, fixtures_dir):
    """Re-exports committed XNNPACK fixtures with export_xnnpack.py's recipe
    (its export_case, untouched), recording the exporter's counts by wrapping
    executorch.exir.to_edge_transform_and_lower (ETRecord on, which does not
    change the program) and export_xnnpack.quantize (for the time)."""
    import executorch.exir as exir
    import export_xnnpack

    cases = {c.name: c for c in export_xnnpack.node_cases()}
    original_lower = exir.to_edge_transform_and_lower
    original_quantize = export_xnnpack.quantize
    ok = True
    for name in names:
        case = cases[name]
        seen = {"lower": [], "quantize_s": 0.0}

        def recording_lower(*args, **kwargs):
            kwargs["generate_etrecord"] = True
            start = time.perf_counter()
            manager = original_lower(*args, **kwargs)
            lower_s = time.perf_counter() - start
            # Count now: to_executorch rewrites the edge programs in place.
            counts = count_exporter_ops(manager)
            to_executorch = manager.to_executorch

            def keep(*a, **k):
                et_prog = to_executorch(*a, **k)
                seen["lower"].append((counts, lower_s, et_prog))
                return et_prog

            manager.to_executorch = keep
            return manager

        def timed_quantize(*args, **kwargs):
            start = time.perf_counter()
            result = original_quantize(*args, **kwargs)
            seen["quantize_s"] += time.perf_counter() - start
            return result

        exir.to_edge_transform_and_lower = recording_lower
        export_xnnpack.quantize = timed_quantize
        try:
            with tempfile.TemporaryDirectory() as tmp:
                export_xnnpack.export_case(case, tmp)
                new = open(os.path.join(tmp, f"{name}.bpte"), "rb").read()
        finally:
            exir.to_edge_transform_and_lower = original_lower
            export_xnnpack.quantize = original_quantize
        committed_path = os.path.join(fixtures_dir, f"{name}.bpte")
        committed = open(committed_path, "rb").read()
        identical = new == committed
        # The delegated lowering (the twin goes through to_edge).
        (delegated, undelegated), lower_s, et_prog = seen["lower"][0]
        # The program facts are read from the committed file; the regenerated
        # program must hold the same structure (its weights or test inputs may
        # differ when the RNG stream of node_cases() changed since the commit).
        facts = program_facts(committed_program(committed))
        same_program = bundled_program_bytes(new) == bundled_program_bytes(committed)
        if program_facts(et_prog) != facts:
            print(f"{name}: the regenerated program's structure differs from the committed "
                  f"one: {program_facts(et_prog)} vs {facts}")
            ok = False
        flow = "xnnpack_int8" if case.quant is True else (
            "xnnpack_dynamic" if case.quant else "xnnpack_fp32")
        # (No rtol/atol: the fixture's tolerance is in its directory's MANIFEST.)
        extra = {"upstream_flow": None, "source": f"examples/export/export_xnnpack.py:{name}",
                 "pte_bytes": len(et_prog.buffer),
                 "program": facts, "xnnpack_nodes": xnnpack_nodes(et_prog),
                 "regenerated_bpte_identical": identical,
                 "regenerated_program_identical": same_program}
        side = sidecar(flow, "", seen["quantize_s"], lower_s, delegated, undelegated, facts,
                       extra)
        with open(os.path.join(fixtures_dir, f"{name}.aot.json"), "w") as f:
            json.dump(side, f, indent=1)
            f.write("\n")
        print(f"{name}: regenerated .bpte {'identical to' if identical else 'differs from'} "
              f"the committed one ({len(new)} vs {len(committed)} bytes), program "
              f"{'identical' if same_program else 'differs'}; "
              f"delegated {side['delegated_nodes']} undelegated {side['undelegated_nodes']} "
              f"blobs {side['delegate_blobs']} ({side['delegate_blob_bytes']} bytes)")
    return 0 if ok else 1


# ------------------------------------------------------------ --check

def check_files(items):
    """Verifies each (path, rtol, atol) in upstream's Python runtime, in a
    child process (its portable kernels abort on some programs: a crash
    is recorded for that file and the child restarted after it). Returns
    {path: "ok" | reason}."""
    import subprocess

    results = {}
    pending = list(items)
    while pending:
        spec = json.dumps(pending)
        child = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--_check_child"],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        out, err = child.communicate(spec)
        for line in out.splitlines():
            if line.startswith("CHECK\t"):
                _, path, verdict = line.split("\t", 2)
                results[path] = verdict
        pending = [p for p in pending if p[0] not in results]
        if child.returncode != 0 and pending:
            last = [l for l in err.splitlines() if l.strip()][-1:] or [""]
            results[pending[0][0]] = f"Process Crash (exit {child.returncode}): {last[0][:200]}"
            pending = pending[1:]
    return results


def _torch_dtype(scalar_type):
    from executorch.exir.schema import ScalarType

    return {ScalarType.FLOAT: torch.float32, ScalarType.DOUBLE: torch.float64,
            ScalarType.HALF: torch.float16, ScalarType.BFLOAT16: torch.bfloat16}.get(scalar_type)


def check_child():
    import export_xnnpack

    from executorch.devtools.bundled_program.serialize import (
        deserialize_from_flatbuffer_to_bundled_program)
    from executorch.exir._serialize._program import deserialize_pte_binary

    for path, rtol, atol in json.load(sys.stdin):
        try:
            if rtol is None or atol is None:
                # The suite's default for the first output's dtype.
                with open(path, "rb") as f:
                    bp = deserialize_from_flatbuffer_to_bundled_program(f.read())
                plan = deserialize_pte_binary(bytes(bp.program)).program.execution_plan[0]
                value = plan.values[plan.outputs[0]].val
                dtype = getattr(value, "scalar_type", None)
                default = DTYPE_TOLERANCE.get(_torch_dtype(dtype), (0.0, 0.0))
                rtol = default[0] if rtol is None else rtol
                atol = default[1] if atol is None else atol
            export_xnnpack.check(path, rtol, atol)
            verdict = "ok"
        except Exception as e:
            verdict = " ".join(str(e).split())[:300] or type(e).__name__
        print(f"CHECK\t{path}\t{verdict}", flush=True)
    return 0


# ------------------------------------------------------------ main

def split(text):
    return [p for p in (text or "").split(",") if p]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=os.path.join(ROOT, ".conformance", "cases"))
    p.add_argument("--flows", default=",".join(FLOWS), help=f"comma-separated, of {list(FLOWS)}")
    p.add_argument("--suites", default=",".join(SUITES), help=f"comma-separated, of {SUITES}")
    p.add_argument("--ops", default="*",
                   help="fnmatch patterns of operator case names (op_suite and upstream_ops)")
    p.add_argument("--models", default="*", help="fnmatch patterns of model names")
    p.add_argument("--only", default="*",
                   help="fnmatch patterns over '<flow>/<suite>/<case>'")
    p.add_argument("--golden_artifacts", action="store_true",
                   help="also write upstream's golden layout (NAME.pte, NAME_input*.bin, ...)")
    p.add_argument("--list", action="store_true", help="print the cases and stop")
    p.add_argument("--fixture_sidecars", action="store_true",
                   help="write <fixture>.aot.json for committed XNNPACK fixtures")
    p.add_argument("--fixtures", default="tiny_cnn,partial,q_tiny_cnn")
    p.add_argument("--fixtures_dir", default=os.path.join(ROOT, "test", "models", "xnnpack"))
    p.add_argument("--check", action="store_true",
                   help="run each written .bpte in upstream's Python runtime (its tolerance)")
    p.add_argument("--_check_child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    warnings.filterwarnings("ignore", category=FutureWarning)
    if args._check_child:
        return check_child()

    if args.fixture_sidecars:
        return fixture_sidecars(split(args.fixtures), args.fixtures_dir)

    flows = split(args.flows)
    for f in flows:
        if f not in FLOWS:
            p.error(f"unknown flow {f}; flows are {list(FLOWS)}")
    suites = split(args.suites)
    ops, models, only = split(args.ops), split(args.models), split(args.only)
    cases = []
    if "op_suite" in suites:
        cases += [c for c in op_suite_cases() if any(fnmatch.fnmatch(c.name, q) for q in ops)]
    if "upstream_ops" in suites:
        cases += upstream_op_cases(ops)
    if "models" in suites:
        cases += model_cases(models)
    jobs = [(f, c) for f in flows for c in cases
            if any(fnmatch.fnmatch(f"{f}/{c.id}", q) for q in only)]
    if args.list:
        for f, c in jobs:
            print(f"{f}/{c.id}")
        print(f"{len(jobs)} cases", file=sys.stderr)
        return 0

    os.makedirs(args.out, exist_ok=True)
    manifest_path = os.path.join(args.out, "manifest.json")
    manifest = {"cases": {}}
    if os.path.exists(manifest_path):
        manifest = json.load(open(manifest_path))
    done, failed, skipped, to_check = [], [], [], []
    start_all = time.perf_counter()
    for f, c in jobs:
        start = time.perf_counter()
        try:
            side, written = generate_one(f, c, args.out, args.golden_artifacts)
        except StageFailed as e:
            if e.stage == "Skip":
                skipped.append({"case": f"{f}/{c.id}", "error": str(e)[:400]})
                print(f"SKIP {f}/{c.id}: {str(e)[:200]}", flush=True)
                continue
            failed.append({"case": f"{f}/{c.id}", "detail": e.stage, "error": str(e)[:400]})
            print(f"FAIL {f}/{c.id}: {str(e)[:300]}", flush=True)
            continue
        except Exception as e:
            failed.append({"case": f"{f}/{c.id}", "detail": "Unknown Failure",
                           "error": str(e)[:400]})
            print(f"FAIL {f}/{c.id}: {traceback.format_exc(limit=3)}", flush=True)
            continue
        rel = f"{f}/{c.suite}/{c.name}"
        to_check += [(w, side["rtol"], side["atol"]) for w in written if w.endswith(".bpte")]
        tol = {k: side[k] for k in ("rtol", "atol") if side[k] is not None}
        if tol:
            manifest["cases"][rel + ".*"] = tol
        seconds = time.perf_counter() - start
        done.append({"case": rel, "seconds": round(seconds, 2),
                     "files": [os.path.relpath(w, args.out) for w in written]})
        print(f"{rel}: {seconds:.1f} s, delegated {side['delegated_nodes']} "
              f"undelegated {side['undelegated_nodes']} blobs {side['delegate_blobs']}",
              flush=True)
    checks = check_files(to_check) if args.check else {}
    total = time.perf_counter() - start_all
    manifest["cases"] = dict(sorted(manifest["cases"].items()))
    with open(manifest_path, "w") as fh:
        json.dump(manifest, fh, indent=1)
        fh.write("\n")
    with open(os.path.join(args.out, "generation.json"), "w") as fh:
        json.dump({"seconds": round(total, 1), "written": done, "failed": failed,
                   "skipped": skipped, "checked": checks}, fh, indent=1)
        fh.write("\n")
    bad = {k: v for k, v in checks.items() if v != "ok"}
    for path, why in sorted(bad.items()):
        print(f"CHECK FAILED {os.path.relpath(path, args.out)}: {why[:300]}")
    print(f"{len(done)} cases written, {len(failed)} failed, {len(skipped)} skipped, "
          + (f"{len(checks) - len(bad)}/{len(checks)} .bpte files verified by upstream's "
             f"runtime, " if args.check else "") + f"{total:.0f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
