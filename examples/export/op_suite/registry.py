"""Case registry for the operator suite (see __init__.py)."""

from dataclasses import dataclass, field
from typing import Callable, List, Optional, Sequence, Tuple

import torch


@dataclass
class OpCase:
    # File name stem: "<op>__<variant>", e.g. "add__f32_broadcast".
    name: str
    # The ATen operators this case is meant to exercise (informational; the
    # exporter decides what is emitted, which export_op_suite.py records).
    ops: Sequence[str]
    # Builds the nn.Module whose forward calls the op.
    module: Callable[[], torch.nn.Module]
    # Test cases: each a tuple of forward() arguments. All must have the
    # same shapes and dtypes (a program has static shapes); the first one is
    # also the export example.
    inputs: List[Tuple]
    # Optional per-case tolerance override (default: by output dtype in the
    # C++ test). Recorded in the suite manifest.
    rtol: Optional[float] = None
    atol: Optional[float] = None
    # ATen ops (torch.ops.aten.<op>.<overload>) the edge lowering must keep
    # rather than decompose, for out-variants an export would not emit
    # otherwise (rsub.Scalar, floor_divide, masked_fill.Scalar, logit, ...).
    preserve_ops: Sequence = ()
    # Extra EdgeCompileConfig / ExecutorchBackendConfig fields for ops that
    # only appear under non-default exporter settings (_skip_dim_order=True
    # keeps _to_copy/clone/empty; remove_view_copy=False keeps view_copy;
    # run_reinplace_pass=True writes index_put_).
    edge_options: Optional[dict] = None
    et_options: Optional[dict] = None


CASES: List[OpCase] = []


def op_case(name: str, ops, module, inputs, rtol=None, atol=None, preserve_ops=(),
            edge_options=None, et_options=None) -> None:
    if any(c.name == name for c in CASES):
        raise ValueError(f"duplicate op case {name}")
    CASES.append(OpCase(name, list(ops), module, list(inputs), rtol, atol, tuple(preserve_ops),
                        edge_options, et_options))


class Lambda(torch.nn.Module):
    """Module wrapping a function of the inputs (keeps cases one-liners)."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


def fn_case(name: str, ops, fn, inputs, rtol=None, atol=None, preserve_ops=(),
            edge_options=None, et_options=None) -> None:
    """op_case for a plain function: `fn(*inputs)` is the forward."""
    op_case(name, ops, lambda: Lambda(fn), inputs, rtol, atol, preserve_ops, edge_options,
            et_options)


def edge_values(dtype=torch.float32) -> torch.Tensor:
    """A 1-D tensor of awkward float values: NaN, +-inf, +-0, tiny, huge."""
    return torch.tensor(
        [float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 1e-30, -1e-30,
         1e30, -1e30, 1.0, -1.0, 0.5, -2.5, 3.7],
        dtype=dtype,
    )
