#!/usr/bin/env python3
# Product tool: writes the runtime fixtures in test/models (and test/models/bundled).
"""Export the Ember test fixtures with the real upstream ExecuTorch exporter.

Usage (from the repository root):

    python examples/export/export_fixtures.py --out test/models [--check]

Pipeline per fixture:
    torch.export.export -> executorch.exir.to_edge -> .to_executorch()

Expected outputs are computed by running the original eager nn.Module (a
deep copy taken before export), never typed by hand. All randomness comes
from fixed torch.manual_seed() calls, so re-running produces byte-identical
files.

Layout written per fixture:
    <out>/<name>/model.pte
    <out>/<name>/ops.txt
    <out>/<name>/<method>/run<k>/input<i>.npy
    <out>/<name>/<method>/run<k>/output<i>.npy

Runs k = 0, 1, ... of a method are meant to be executed in order on ONE
loaded method instance (the `stateful` fixture depends on that).

--check reloads every written model.pte with the upstream Python runtime
(executorch.runtime.Runtime), executes the runs in order on one method
instance per method and compares against the saved .npy files.

Tested with torch==2.13.0 (CPU) and executorch==1.5.1.
"""

import argparse
import copy
import os
import shutil
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch
import torch.nn as nn
from torch.export import Dim, export
from torch.utils._pytree import tree_flatten

from executorch.exir import ExecutorchBackendConfig, to_edge
from executorch.exir._serialize._flatbuffer_program import (
    _flatbuffer_to_program,
    _program_to_flatbuffer,
)
from executorch.exir._serialize._program import (
    _get_extended_header,
    deserialize_pte_binary,
    serialize_pte_binary,
)
from executorch.exir.passes.init_mutable_pass import InitializedMutableBufferPass
from executorch.exir.schema import Program, Tensor, TensorShapeDynamism


# --------------------------------------------------------------------------
# Fixture description
# --------------------------------------------------------------------------


@dataclass
class MethodSpec:
    # Module whose forward() is the method (a wrapper for non-forward methods).
    module: nn.Module
    # Example args used for torch.export.export.
    example_args: Tuple[Any, ...]
    # Input tuples, one per run (runs execute in order on one method instance).
    runs: List[Tuple[Any, ...]]
    dynamic_shapes: Optional[Any] = None


@dataclass
class FixtureSpec:
    name: str
    description: str
    # Called after the seed is fixed; returns {method_name: MethodSpec}.
    build: Callable[[], Dict[str, MethodSpec]]
    backend_config: Callable[[], ExecutorchBackendConfig] = ExecutorchBackendConfig
    # "default": ExecutorchProgramManager.buffer (upstream serializer, which
    # moves constants into the constant segment and adds the "eh00" header).
    # "inline_constants": flatbuffer of the emitted Program as-is, constants
    # stay in Program.constant_buffer, no extended header, no segments.
    serialization: str = "default"
    seed: int = 0


# --------------------------------------------------------------------------
# Modules
# --------------------------------------------------------------------------


class Add(nn.Module):
    def forward(self, x, y):
        return x + y


class TwoMethodsForward(nn.Module):
    def forward(self, x):
        return x * 2 + 1


class TwoMethodsDoubleIt(nn.Module):
    def forward(self, x):
        return torch.relu(x) - x


class Stateful(nn.Module):
    def __init__(self):
        super().__init__()
        # Non-zero initial state: the runtime has to load it from the .pte.
        self.register_buffer("acc", torch.tensor([1.0, 2.0, 3.0]))

    def forward(self, x):
        self.acc.add_(x)
        return self.acc * 1.0


class Dynamic(nn.Module):
    def forward(self, x):
        return torch.relu(x) * 2


class IntBool(nn.Module):
    def forward(self, a, b, m):
        s = a + b
        p = a * b
        gt = a > b
        la = torch.logical_and(m, gt)
        w = torch.where(m, a, b)
        return s, p, la, w


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(16, 4)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


class Recurrent(nn.Module):
    """One Linear applied at four steps, as a recurrent layer's weight is:
    the exporter writes a permute_copy of the same weight for each step."""

    def __init__(self):
        super().__init__()
        self.cell = nn.Linear(8, 8)

    def forward(self, x):
        h = x
        for _ in range(4):
            h = torch.tanh(self.cell(h) + x)
        return h


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.act = nn.ReLU()
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(4 * 4 * 4, 3)

    def forward(self, x):
        x = self.pool(self.act(self.conv(x)))
        x = torch.flatten(x, 1)
        return self.fc(x)


class ScalarOps(nn.Module):
    """Uses x.shape[0] in arithmetic so the graph keeps runtime SymInt math
    (aten::sym_size.int + executorch_prim:: scalar ops)."""

    def forward(self, x):
        n = x.shape[0]
        y = x.reshape(n * 2, -1)  # [2n, 2]
        z = torch.ones(n + 1) * x.sum()  # [n+1]
        return y, z


# --------------------------------------------------------------------------
# Fixture builders
# --------------------------------------------------------------------------


def _linear_module() -> nn.Module:
    # Same seed in `linear` and `linear_inline` -> identical weights.
    torch.manual_seed(1234)
    return nn.Linear(4, 3)


def build_add():
    return {
        "forward": MethodSpec(
            Add(),
            (torch.randn(2, 3), torch.randn(2, 3)),
            [(torch.randn(2, 3), torch.randn(2, 3)) for _ in range(2)],
        )
    }


def build_linear():
    m = _linear_module()
    return {
        "forward": MethodSpec(
            m, (torch.randn(2, 4),), [(torch.randn(2, 4),) for _ in range(2)]
        )
    }


def build_two_methods():
    return {
        "forward": MethodSpec(
            TwoMethodsForward(),
            (torch.randn(3),),
            [(torch.randn(3),) for _ in range(2)],
        ),
        "double_it": MethodSpec(
            TwoMethodsDoubleIt(),
            (torch.randn(3),),
            [(torch.randn(3),) for _ in range(2)],
        ),
    }


def build_stateful():
    return {
        "forward": MethodSpec(
            Stateful(), (torch.randn(3),), [(torch.randn(3),) for _ in range(3)]
        )
    }


def build_dynamic():
    n = Dim("n", min=1, max=8)
    return {
        "forward": MethodSpec(
            Dynamic(),
            (torch.randn(8, 4),),
            [(torch.randn(8, 4),), (torch.randn(3, 4),)],
            dynamic_shapes=({0: n},),
        )
    }


def build_int_bool():
    def ints():
        return torch.randint(-10, 10, (4,), dtype=torch.int64)

    def bools():
        return torch.randint(0, 2, (4,), dtype=torch.int64).to(torch.bool)

    return {
        "forward": MethodSpec(
            IntBool(),
            (ints(), ints(), bools()),
            [(ints(), ints(), bools()) for _ in range(2)],
        )
    }


def build_mlp():
    m = MLP()
    return {
        "forward": MethodSpec(
            m, (torch.randn(2, 8),), [(torch.randn(2, 8),) for _ in range(2)]
        )
    }


def build_recurrent():
    m = Recurrent()
    return {
        "forward": MethodSpec(
            m, (torch.randn(1, 8),), [(torch.randn(1, 8),) for _ in range(2)]
        )
    }


def build_convnet():
    m = ConvNet()
    return {
        "forward": MethodSpec(
            m,
            (torch.randn(1, 1, 8, 8),),
            [(torch.randn(1, 1, 8, 8),) for _ in range(2)],
        )
    }


def build_scalar_ops():
    n = Dim("n", min=1, max=8)
    return {
        "forward": MethodSpec(
            ScalarOps(),
            (torch.randn(8, 4),),
            [(torch.randn(5, 4),), (torch.randn(2, 4),)],
            dynamic_shapes=({0: n},),
        )
    }


class CondNet(nn.Module):
    """torch.cond on a data-dependent predicate: the emitter writes both
    branches inline with JumpFalse instructions, one of them to the end of
    the chain."""

    def forward(self, x):
        return torch.cond(x.sum() > 0, lambda t: t * 2.0 + 1.0, lambda t: t.cos() - 1.0, (x,))


def build_cond():
    torch.manual_seed(11)
    pos = torch.rand(2, 3) + 0.1
    return {
        "forward": MethodSpec(CondNet(), (pos,), [(pos,), (-pos,), (pos * 3,)]),
    }


def stateful_config() -> ExecutorchBackendConfig:
    # Without this pass the emitter only serializes shape/dtype of a mutated
    # buffer ("meaningless initial state"). With it, the initial value
    # [1, 2, 3] goes into Program.mutable_data_segments.
    return ExecutorchBackendConfig(passes=[InitializedMutableBufferPass(["acc"])])


FIXTURES: List[FixtureSpec] = [
    FixtureSpec("add", "forward(x, y) = x + y, float32 [2,3].", build_add),
    FixtureSpec(
        "linear",
        "nn.Linear(4, 3) with bias, input float32 [2,4]; default serialization "
        "(constants in the constant segment, extended header 'eh00').",
        build_linear,
    ),
    FixtureSpec(
        "linear_inline",
        "Same module/weights/inputs as `linear`, but constants stay inline in "
        "Program.constant_buffer (no segments, no extended header).",
        build_linear,
        serialization="inline_constants",
    ),
    FixtureSpec(
        "two_methods",
        "One program, two methods: forward(x) = x*2 + 1 and "
        "double_it(x) = relu(x) - x, float32 [3].",
        build_two_methods,
    ),
    FixtureSpec(
        "stateful",
        "Buffer `acc` (initial value [1,2,3]) mutated in place: "
        "acc.add_(x); return acc * 1.0. 3 runs, cumulative.",
        build_stateful,
        backend_config=stateful_config,
    ),
    FixtureSpec(
        "dynamic",
        "forward(x) = relu(x) * 2, x float32 [n,4] with n in [1,8] "
        "(upper bound [8,4]); run0 [8,4], run1 [3,4].",
        build_dynamic,
    ),
    FixtureSpec(
        "int_bool",
        "forward(a:int64[4], b:int64[4], m:bool[4]) -> "
        "(a+b, a*b, logical_and(m, a>b), where(m, a, b)).",
        build_int_bool,
    ),
    FixtureSpec(
        "mlp",
        "Linear(8,16) -> ReLU -> Linear(16,4), input float32 [2,8].",
        build_mlp,
    ),
    FixtureSpec(
        "recurrent",
        "h = tanh(Linear(8,8)(h) + x) four times from h = x, input float32 [1,8]: "
        "one weight read by four addmm calls, each through its own permute_copy.",
        build_recurrent,
    ),
    FixtureSpec(
        "convnet",
        "Conv2d(1,4,3,padding=1) -> ReLU -> MaxPool2d(2) -> flatten -> "
        "Linear(64,3), input float32 [1,1,8,8].",
        build_convnet,
    ),
    FixtureSpec(
        "cond",
        "torch.cond(x.sum() > 0, 2x + 1, cos(x) - 1), x float32 [2,3]; runs take "
        "the true, false and true branch.",
        build_cond,
    ),
    FixtureSpec(
        "scalar_ops",
        "x float32 [n,4], n in [1,8]: returns (x.reshape(2n, -1), "
        "ones(n+1) * x.sum()); runtime SymInt math via aten::sym_size.int and "
        "executorch_prim:: ops. run0 [5,4], run1 [2,4].",
        build_scalar_ops,
    ),
]


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


def to_numpy(v: Any) -> np.ndarray:
    if isinstance(v, torch.Tensor):
        a = v.detach().cpu().contiguous().numpy()
    elif isinstance(v, bool):
        a = np.array(v, dtype=np.bool_)
    elif isinstance(v, int):
        a = np.array(v, dtype=np.int64)
    elif isinstance(v, float):
        a = np.array(v, dtype=np.float64)
    else:
        raise TypeError(f"unsupported value type {type(v)}")
    a = np.ascontiguousarray(a)
    if a.dtype.byteorder == ">":
        a = a.astype(a.dtype.newbyteorder("<"))
    return a


def save_npy(path: str, v: Any) -> None:
    np.save(path, to_numpy(v), allow_pickle=False)


def from_numpy(a: np.ndarray) -> Any:
    if a.ndim == 0 and a.dtype in (np.int64, np.float64, np.bool_):
        # 0-d int64/float64/bool are scalars in this layout.
        return a.item()
    return torch.from_numpy(np.ascontiguousarray(a))


def run_dir(out: str, name: str, method: str, k: int) -> str:
    return os.path.join(out, name, method, f"run{k}")


def serialize(et_prog, mode: str) -> bytes:
    if mode == "default":
        return bytes(et_prog.buffer)
    if mode == "inline_constants":
        # executorch 1.5.1's serialize_pte_binary() always moves
        # Program.constant_buffer into a constant segment and there is no
        # ExecutorchBackendConfig switch to turn that off. The emitted Program
        # (before serialization) still has the constants inline, so we
        # flatbuffer-encode it directly: no extended header, no segments.
        program: Program = copy.deepcopy(et_prog.executorch_program)
        assert not program.segments, "unexpected segments in emitted program"
        assert not program.mutable_data_segments
        return bytes(_program_to_flatbuffer(program).data)
    raise ValueError(mode)


def op_full_name(op) -> str:
    return f"{op.name}.{op.overload}" if op.overload else op.name


def describe_program(pte: bytes) -> Tuple[str, Dict[str, Any]]:
    """Reads the serialized file back (flatbuffer only, segments untouched)
    and returns (ops.txt text, summary dict)."""
    eh = _get_extended_header(pte)
    has_eh = eh is not None and eh.is_valid()
    program_size = eh.program_size if has_eh else len(pte)
    program: Program = _flatbuffer_to_program(pte[:program_size])

    all_ops = set()
    all_delegates = set()
    method_lines = []
    any_dynamic = False
    for plan in program.execution_plan:
        ops = [op_full_name(o) for o in plan.operators]
        dels = [d.id for d in plan.delegates]
        all_ops.update(ops)
        all_delegates.update(dels)
        dyn = sorted(
            {
                v.val.shape_dynamism.name
                for v in plan.values
                if isinstance(v.val, Tensor)
            }
        )
        any_dynamic |= any(d != "STATIC" for d in dyn)
        method_lines.append(
            f"method {plan.name} inputs={len(plan.inputs)} "
            f"outputs={len(plan.outputs)} values={len(plan.values)} "
            f"instructions={sum(len(c.instructions) for c in plan.chains)} "
            f"non_const_buffer_sizes={','.join(str(s) for s in plan.non_const_buffer_sizes)} "
            f"tensor_shape_dynamism={','.join(dyn) if dyn else '-'}"
        )
        for o in ops:
            method_lines.append(f"method_op {plan.name} {o}")
        for d in dels:
            method_lines.append(f"method_delegate {plan.name} {d}")

    cs_offsets = (
        len(program.constant_segment.offsets) if program.constant_segment else 0
    )
    mds = program.mutable_data_segments or []
    summary = {
        "size": len(pte),
        "extended_header": has_eh,
        "segments": len(program.segments),
        "constant_buffer": len(program.constant_buffer),
        "constant_buffer_nonempty": sum(
            1 for b in program.constant_buffer if len(b.storage) > 0
        ),
        "constant_segment_offsets": cs_offsets,
        "mutable_data_segments": len(mds),
        "mutable_data_segment_offsets": [len(s.offsets) for s in mds],
        "ops": sorted(all_ops),
        "delegates": sorted(all_delegates),
        "dynamic": any_dynamic,
        "methods": [p.name for p in program.execution_plan],
    }

    lines = [
        "# Generated by examples/export/export_fixtures.py -- do not edit.",
        "# 'op <name.overload>' = union of operators over all methods;",
        "# 'delegate <id>' = union of delegate ids; the rest is program info.",
    ]
    lines += [f"op {o}" for o in summary["ops"]]
    lines += [f"delegate {d}" for d in summary["delegates"]]
    lines += [
        f"file_identifier {pte[4:8].decode('ascii', 'replace')}",
        f"file_size {len(pte)}",
        f"extended_header {'yes' if has_eh else 'no'}"
        + (
            f" program_size={eh.program_size} "
            f"segment_base_offset={eh.segment_base_offset} "
            f"segment_data_size={eh.segment_data_size}"
            if has_eh
            else ""
        ),
        f"segments_count {len(program.segments)}",
        f"constant_buffer_count {len(program.constant_buffer)}",
        f"constant_segment_index "
        f"{program.constant_segment.segment_index if program.constant_segment else '-'}",
        f"constant_segment_offsets_count {cs_offsets}",
        f"mutable_data_segments_count {len(mds)}",
    ]
    for i, s in enumerate(mds):
        lines.append(
            f"mutable_data_segment {i} segment_index={s.segment_index} "
            f"offsets_count={len(s.offsets)}"
        )
    lines.append(f"named_data_count {len(program.named_data or [])}")
    lines += method_lines
    return "\n".join(lines) + "\n", summary


# --------------------------------------------------------------------------
# Export
# --------------------------------------------------------------------------


def export_fixture(spec: FixtureSpec, out: str) -> Dict[str, Any]:
    torch.manual_seed(spec.seed)
    methods = spec.build()

    # Expected outputs from eager mode on deep copies made before export.
    # Runs are executed in order on the same copy (state carries over).
    expected: Dict[str, List[List[Any]]] = {}
    for mname, ms in methods.items():
        eager = copy.deepcopy(ms.module).eval()
        outs = []
        with torch.no_grad():
            for args in ms.runs:
                res = eager(*copy.deepcopy(args))
                flat, _ = tree_flatten(res)
                outs.append([copy.deepcopy(o) for o in flat])
        expected[mname] = outs

    eps = {}
    for mname, ms in methods.items():
        eps[mname] = export(
            ms.module.eval(),
            ms.example_args,
            dynamic_shapes=ms.dynamic_shapes,
            strict=False,
        )
    edge = to_edge(eps)
    et_prog = edge.to_executorch(spec.backend_config())
    pte = serialize(et_prog, spec.serialization)

    fdir = os.path.join(out, spec.name)
    if os.path.isdir(fdir):
        shutil.rmtree(fdir)
    os.makedirs(fdir)
    with open(os.path.join(fdir, "model.pte"), "wb") as f:
        f.write(pte)

    for mname, ms in methods.items():
        for k, args in enumerate(ms.runs):
            d = run_dir(out, spec.name, mname, k)
            os.makedirs(d)
            for i, a in enumerate(args):
                save_npy(os.path.join(d, f"input{i}.npy"), a)
            for i, o in enumerate(expected[mname][k]):
                save_npy(os.path.join(d, f"output{i}.npy"), o)

    text, summary = describe_program(pte)
    with open(os.path.join(fdir, "ops.txt"), "w") as f:
        f.write(text)
    summary["runs"] = {m: len(ms.runs) for m, ms in methods.items()}
    return summary


# --------------------------------------------------------------------------
# Bundled programs (.bpte)
# --------------------------------------------------------------------------
#
# Written by upstream's own tooling (BundledProgram + MethodTestSuite +
# serialize_from_bundled_program_to_flatbuffer) into <out>/bundled/<name>.bpte.
# Each MethodSpec "run" is one test case; expected outputs come from eager
# mode. Only models without state: test cases must be independent.


def build_bundled_add():
    return {
        "forward": MethodSpec(
            Add(),
            (torch.randn(2, 3), torch.randn(2, 3)),
            [(torch.randn(2, 3), torch.randn(2, 3)) for _ in range(4)],
        )
    }


def build_bundled_int_bool():
    spec = build_int_bool()["forward"]
    extra = build_int_bool()["forward"].runs
    spec.runs = spec.runs + extra[:1]  # 3 test cases
    return {"forward": spec}


def build_bundled_two_methods():
    return {
        "forward": MethodSpec(
            TwoMethodsForward(), (torch.randn(3),), [(torch.randn(3),) for _ in range(3)]
        ),
        "double_it": MethodSpec(
            TwoMethodsDoubleIt(), (torch.randn(3),), [(torch.randn(3),) for _ in range(3)]
        ),
    }


def build_bundled_mlp():
    m = MLP()
    return {
        "forward": MethodSpec(
            m, (torch.randn(2, 8),), [(torch.randn(2, 8),) for _ in range(3)]
        )
    }


def build_bundled_dynamic():
    n = Dim("n", min=1, max=8)
    return {
        "forward": MethodSpec(
            Dynamic(),
            (torch.randn(8, 4),),
            [(torch.randn(k, 4),) for k in (8, 3, 1)],
            dynamic_shapes=({0: n},),
        )
    }


BUNDLED_FIXTURES: List[FixtureSpec] = [
    FixtureSpec("add", "float32 x + y, 4 test cases.", build_bundled_add),
    FixtureSpec(
        "int_bool",
        "int64/bool inputs, 4 outputs (int64, int64, bool, int64), 3 test cases.",
        build_bundled_int_bool,
    ),
    FixtureSpec(
        "two_methods",
        "forward and double_it, 3 test cases each.",
        build_bundled_two_methods,
    ),
    FixtureSpec("mlp", "Linear-ReLU-Linear (addmm), 3 test cases.", build_bundled_mlp),
    FixtureSpec(
        "dynamic",
        "relu(x) * 2 with x [n,4], n in [1,8]; test cases of shapes [8,4], [3,4], [1,4].",
        build_bundled_dynamic,
    ),
]


def export_bundled(spec: FixtureSpec, out: str) -> Dict[str, Any]:
    from executorch.devtools import BundledProgram
    from executorch.devtools.bundled_program.config import (
        MethodTestCase,
        MethodTestSuite,
    )
    from executorch.devtools.bundled_program.serialize import (
        serialize_from_bundled_program_to_flatbuffer,
    )

    torch.manual_seed(spec.seed)
    methods = spec.build()
    suites = []
    for mname, ms in methods.items():
        eager = copy.deepcopy(ms.module).eval()
        cases = []
        with torch.no_grad():
            for args in ms.runs:
                flat, _ = tree_flatten(eager(*copy.deepcopy(args)))
                cases.append(
                    MethodTestCase(
                        inputs=[a.clone().contiguous() for a in args],
                        expected_outputs=[o.clone().contiguous() for o in flat],
                    )
                )
        suites.append(MethodTestSuite(method_name=mname, test_cases=cases))
    eps = {
        mname: export(
            ms.module.eval(), ms.example_args, dynamic_shapes=ms.dynamic_shapes,
            strict=False,
        )
        for mname, ms in methods.items()
    }
    et_prog = to_edge(eps).to_executorch(spec.backend_config())
    data = serialize_from_bundled_program_to_flatbuffer(
        BundledProgram(et_prog, suites)
    )
    os.makedirs(os.path.join(out, "bundled"), exist_ok=True)
    path = os.path.join(out, "bundled", f"{spec.name}.bpte")
    with open(path, "wb") as f:
        f.write(data)
    return {
        "size": len(data),
        "cases": {m: len(ms.runs) for m, ms in methods.items()},
    }


def check_bundled_file(path: str, rtol: float = 1e-5, atol: float = 1e-8) -> List[str]:
    """Runs every test case of a .bpte through upstream's Python runtime
    (load input, execute, verify)."""
    from executorch.devtools.bundled_program.serialize import (
        deserialize_from_flatbuffer_to_bundled_program,
    )
    from executorch.extension.pybindings.portable_lib import (
        _load_bundled_program_from_buffer,
    )

    errors = []
    with open(path, "rb") as f:
        data = f.read()
    schema = deserialize_from_flatbuffer_to_bundled_program(data)
    module = _load_bundled_program_from_buffer(data)
    for suite in schema.method_test_suites:
        for k in range(len(suite.test_cases)):
            try:
                module.verify_result_with_bundled_expected_output(
                    suite.method_name, k, rtol, atol
                )
            except RuntimeError as e:
                errors.append(f"{path}: {suite.method_name} case {k}: {e}")
        print(f"  check {os.path.basename(path)}/{suite.method_name}: "
              f"{len(suite.test_cases)} case(s)")
    return errors


def _npy_like(value) -> np.ndarray:
    """A deserialized bundled Value as a numpy array (tensor or 0-d scalar)."""
    from executorch.devtools.bundled_program.schema import (
        bundled_program_schema as bp,
    )

    v = value.val
    if isinstance(v, bp.Tensor):
        dtypes = {0: np.uint8, 1: np.int8, 2: np.int16, 3: np.int32, 4: np.int64,
                  5: np.float16, 6: np.float32, 7: np.float64, 11: np.bool_}
        dt = dtypes[int(v.scalar_type)]
        return np.frombuffer(bytes(v.data), dtype=dt).reshape(v.sizes)
    if isinstance(v, bp.Int):
        return np.array(v.int_val, dtype=np.int64)
    if isinstance(v, bp.Bool):
        return np.array(v.bool_val, dtype=np.bool_)
    return np.array(v.double_val, dtype=np.float64)


def check_cpp_bundler(bundler: str, out: str, work: str) -> List[str]:
    """Bundles fixtures with Ember's C++ bundler (from their run folders)
    and checks that upstream's Python tooling reads back the same program and
    test cases, and that its runtime verifies every case."""
    import subprocess

    from executorch.devtools.bundled_program.serialize import (
        deserialize_from_flatbuffer_to_bundled_program,
    )

    errors: List[str] = []
    os.makedirs(work, exist_ok=True)
    for name in ("add", "int_bool", "two_methods", "mlp", "dynamic"):
        fdir = os.path.join(out, name)
        bpte = os.path.join(work, f"{name}_cpp.bpte")
        subprocess.run(
            [bundler, "--program", os.path.join(fdir, "model.pte"), "--out", bpte,
             "--cases_dir", fdir],
            check=True,
        )
        with open(bpte, "rb") as f:
            data = f.read()
        with open(os.path.join(fdir, "model.pte"), "rb") as f:
            pte = f.read()
        schema = deserialize_from_flatbuffer_to_bundled_program(data)
        if bytes(schema.program) != pte:
            errors.append(f"{name}: embedded program differs from model.pte")
        methods = sorted(
            d for d in os.listdir(fdir) if os.path.isdir(os.path.join(fdir, d))
        )
        got_methods = [s.method_name for s in schema.method_test_suites]
        if got_methods != methods:
            errors.append(f"{name}: suites {got_methods}, expected {methods}")
        for suite in schema.method_test_suites:
            for k, case in enumerate(suite.test_cases):
                d = run_dir(out, name, suite.method_name, k)
                for kind, values in (("input", case.inputs), ("output", case.expected_outputs)):
                    for i, value in enumerate(values):
                        want = np.load(os.path.join(d, f"{kind}{i}.npy"))
                        have = _npy_like(value)
                        if have.dtype != want.dtype or not np.array_equal(have, want):
                            errors.append(f"{name}/{suite.method_name}/run{k} {kind}{i} differs")
        if name != "stateful":
            errors += check_bundled_file(bpte, rtol=1e-5, atol=1e-6)
        print(f"  cpp bundler {name}: {sum(len(s.test_cases) for s in schema.method_test_suites)} case(s) read back")
    return errors


# --------------------------------------------------------------------------
# Check with the upstream runtime
# --------------------------------------------------------------------------


def _has_inline_constants(pte: bytes) -> bool:
    eh = _get_extended_header(pte)
    size = eh.program_size if eh is not None and eh.is_valid() else len(pte)
    program = _flatbuffer_to_program(pte[:size])
    return any(len(b.storage) > 0 for b in program.constant_buffer)


def check_fixture(out: str, name: str) -> List[str]:
    from executorch.runtime import Runtime

    errors: List[str] = []
    fdir = os.path.join(out, name)
    with open(os.path.join(fdir, "model.pte"), "rb") as f:
        pte = f.read()
    try:
        program = Runtime.get().load_program(pte)
    except RuntimeError as e:
        if not _has_inline_constants(pte):
            raise
        # The upstream pybindings are built with
        # ET_ENABLE_DEPRECATED_CONSTANT_BUFFER=0 and refuse inline
        # Program.constant_buffer. Check the same program re-serialized by the
        # upstream serializer (constants moved to the constant segment, every
        # other field unchanged) instead.
        print(
            f"  note: {name}: upstream runtime refused the inline "
            f"constant_buffer ({e}); checking a constant-segment re-serialization"
        )
        pte = bytes(serialize_pte_binary(deserialize_pte_binary(pte)))
        program = Runtime.get().load_program(pte)
    method_names = sorted(
        d for d in os.listdir(fdir) if os.path.isdir(os.path.join(fdir, d))
    )
    if set(method_names) != set(program.method_names):
        errors.append(
            f"{name}: method dirs {method_names} != program {program.method_names}"
        )
    for mname in method_names:
        method = program.load_method(mname)  # one instance for all runs
        k = 0
        while os.path.isdir(run_dir(out, name, mname, k)):
            d = run_dir(out, name, mname, k)
            inputs = []
            i = 0
            while os.path.exists(os.path.join(d, f"input{i}.npy")):
                inputs.append(from_numpy(np.load(os.path.join(d, f"input{i}.npy"))))
                i += 1
            outs = method.execute(inputs)
            exp = []
            i = 0
            while os.path.exists(os.path.join(d, f"output{i}.npy")):
                exp.append(np.load(os.path.join(d, f"output{i}.npy")))
                i += 1
            tag = f"{name}/{mname}/run{k}"
            if len(outs) != len(exp):
                errors.append(f"{tag}: {len(outs)} outputs, expected {len(exp)}")
            for i, (got, want) in enumerate(zip(outs, exp)):
                g = to_numpy(got)
                if g.shape != want.shape or g.dtype != want.dtype:
                    errors.append(
                        f"{tag} output{i}: got {g.dtype}{list(g.shape)}, "
                        f"want {want.dtype}{list(want.shape)}"
                    )
                    continue
                if want.dtype.kind == "f":
                    ok = np.allclose(g, want, rtol=1e-5, atol=1e-6)
                else:
                    ok = np.array_equal(g, want)
                if not ok:
                    errors.append(f"{tag} output{i}: values differ\n{g}\n{want}")
            k += 1
        print(f"  check {name}/{mname}: {k} run(s)")
    return errors


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="output dir, e.g. test/models")
    p.add_argument(
        "--only", nargs="*", default=None, help="export only these fixture names"
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="reload each .pte with the upstream Python runtime and compare "
        "against the saved expected outputs",
    )
    p.add_argument(
        "--check-only",
        action="store_true",
        help="do not export; only run the --check on existing fixtures",
    )
    p.add_argument(
        "--bundled",
        action="store_true",
        help="also write the bundled fixtures <out>/bundled/<name>.bpte (with --check: "
        "verify every test case with upstream's bundled runtime)",
    )
    p.add_argument(
        "--check-bundler",
        metavar="BUNDLER",
        default=None,
        help="path to Ember's C++ `bundler`: bundle fixtures with it and check that "
        "upstream's Python tooling reads back the same test cases and verifies them",
    )
    args = p.parse_args(argv)

    specs = [s for s in FIXTURES if args.only is None or s.name in args.only]
    if args.only:
        unknown = set(args.only) - {s.name for s in FIXTURES}
        if unknown:
            p.error(f"unknown fixtures: {sorted(unknown)}")

    os.makedirs(args.out, exist_ok=True)
    if not args.check_only:
        for spec in specs:
            s = export_fixture(spec, args.out)
            print(
                f"{spec.name}: {s['size']} bytes, methods={s['methods']}, "
                f"eh={'yes' if s['extended_header'] else 'no'}, "
                f"constant_buffer={s['constant_buffer']}, "
                f"constant_segment_offsets={s['constant_segment_offsets']}, "
                f"mutable_data_segments={s['mutable_data_segments']}, "
                f"dynamic={s['dynamic']}\n    ops: {' '.join(s['ops'])}"
            )

    bundled_specs = [
        s for s in BUNDLED_FIXTURES if args.only is None or s.name in args.only
    ]
    if args.bundled and not args.check_only:
        for spec in bundled_specs:
            s = export_bundled(spec, args.out)
            print(f"bundled/{spec.name}.bpte: {s['size']} bytes, cases={s['cases']}")

    if args.check_bundler:
        import tempfile

        with tempfile.TemporaryDirectory() as work:
            errors = check_cpp_bundler(args.check_bundler, args.out, work)
        if errors:
            print("BUNDLER CHECK FAILED:\n" + "\n".join(errors))
            return 1
        print("BUNDLER CHECK OK: C++-bundled files read back in upstream's tooling")

    if args.check or args.check_only:
        try:
            import executorch.runtime  # noqa: F401
        except Exception as e:  # pragma: no cover
            print(f"upstream runtime unavailable, cannot --check: {e}")
            return 2
        errors: List[str] = []
        for spec in specs:
            errors += check_fixture(args.out, spec.name)
        if args.bundled:
            for spec in bundled_specs:
                errors += check_bundled_file(
                    os.path.join(args.out, "bundled", f"{spec.name}.bpte")
                )
        if errors:
            print("CHECK FAILED:\n" + "\n".join(errors))
            return 1
        print("CHECK OK: all fixtures match the upstream runtime")
    return 0


if __name__ == "__main__":
    sys.exit(main())
