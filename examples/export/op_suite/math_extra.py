"""Cases for the inverse and hyperbolic trigonometric ops (acos, acosh, asin,
asinh, atan, atanh, cosh, sinh, tan), log10, atan2, glu, var_mean, the
plain copies (alias_copy, detach_copy, _conj_physical) and
squeeze_copy.dim.

Ops the edge lowering would decompose or drop (glu, var_mean.correction,
alias_copy, _conj_physical, squeeze_copy.dim) are kept with preserve_ops.
lift_fresh_copy becomes a clone in export's trace whatever preserve_ops
says; its cases write the operator back with a to_executorch pass (the
eager reference is PyTorch's lift_fresh_copy). Not here:
view_as_real_copy, whose input is complex, which Ember's tensors cannot
hold (test/kernels/portable/op_view_as_real_copy_test.cpp)."""

import torch
from executorch.exir.dialects._ops import ops as exir_ops
from executorch.exir.pass_base import ExportPass

from op_suite.registry import fn_case

torch.manual_seed(11)

A = torch.ops.aten
F = torch.nn.functional
NAN, INF = float("nan"), float("inf")


def _r(*shape, dtype=torch.float32, scale=1.0):
    return (torch.randn(*shape) * scale).to(dtype)


def _u(*shape, lo=-1.0, hi=1.0, dtype=torch.float32):
    """Uniform in (lo, hi)."""
    return (torch.rand(*shape) * (hi - lo) + lo).to(dtype)


def _i(*shape, lo=-9, hi=10, dtype=torch.int32):
    return torch.randint(lo, hi, shape, dtype=dtype)


def _t(values, dtype=torch.float32):
    return torch.tensor(values, dtype=dtype)


# ------------------------------------------------------------- unary maths
# For each op: random values inside its domain, the domain's edges (outside
# gives NaN), integer inputs (promoted to Float) and the 16-bit floats.
_COMMON_EDGE = [NAN, INF, -INF, 0.0, -0.0, 1e-30, -1e-30]
_UNARY = {
    # name: (fn, random input maker, edge values, integer range)
    "acos": (torch.acos, lambda *s: _u(*s), [1.0, -1.0, 1.5, -1.5, 0.5, -0.999], (-2, 3)),
    "asin": (torch.asin, lambda *s: _u(*s), [1.0, -1.0, 1.5, -1.5, 0.5, -0.999], (-2, 3)),
    "atanh": (torch.atanh, lambda *s: _u(*s, lo=-0.99, hi=0.99),
              [1.0, -1.0, 1.5, -1.5, 0.5, -0.999, 1e-8], (-2, 3)),
    "acosh": (torch.acosh, lambda *s: _u(*s, lo=1.0, hi=20.0),
              [1.0, 0.999, 0.5, -1.0, 1e30, 2.0, 1.0000001], (-1, 6)),
    "asinh": (torch.asinh, lambda *s: _r(*s, scale=5.0), [1e30, -1e30, 1e-8, 1.0, -3.5], (-9, 10)),
    "atan": (torch.atan, lambda *s: _r(*s, scale=5.0), [1e30, -1e30, 1.0, -1.0, 1e-8], (-9, 10)),
    # sinh and cosh overflow float32 a little above 89.4.
    "sinh": (torch.sinh, lambda *s: _r(*s, scale=3.0), [80.0, -80.0, 100.0, -100.0, 1e-8, 1.0],
             (-9, 10)),
    "cosh": (torch.cosh, lambda *s: _r(*s, scale=3.0), [80.0, -80.0, 100.0, -100.0, 1e-8, 1.0],
             (-9, 10)),
    # Moderate arguments only: tan of huge values depends on each libm's
    # argument reduction.
    "tan": (torch.tan, lambda *s: _r(*s, scale=1.5),
            [1.5707963, -1.5707963, 1.57, 3.1415927, 100.0, -100.0, 0.7853982], (-9, 10)),
    "log10": (torch.log10, lambda *s: _u(*s, lo=0.001, hi=1000.0),
              [1.0, 10.0, 1000.0, -1.0, 1e30, 1e-38, 0.1], (-3, 200)),
}
_HALF = ("acos", "atan", "sinh", "log10", "tan")
_BF16 = ("asin", "acosh", "cosh", "atanh", "asinh")

for _name, (_fn, _mk, _edges, (_lo, _hi)) in _UNARY.items():
    _op = [f"aten::{_name}.out"]
    fn_case(f"{_name}__f32", _op, _fn, [(_mk(3, 4),) for _ in range(3)])
    fn_case(f"{_name}__f32_edge", _op, _fn, [(_t(_COMMON_EDGE + _edges),)])
    fn_case(f"{_name}__i32", _op, _fn, [(_i(2, 5, lo=_lo, hi=_hi),) for _ in range(2)])
    if _name in _HALF:
        fn_case(f"{_name}__f16", _op, _fn, [(_mk(2, 5).half(),) for _ in range(2)])
    if _name in _BF16:
        fn_case(f"{_name}__bf16", _op, _fn, [(_mk(2, 5).bfloat16(),) for _ in range(2)])

fn_case("acos__f64", ["aten::acos.out"], torch.acos,
        [(_t([1.0, -1.0, 1.5, 0.25, -0.0, NAN], torch.float64),)])
fn_case("log10__f64", ["aten::log10.out"], torch.log10,
        [(_u(6, lo=0.0, hi=1e6, dtype=torch.float64),)])
fn_case("atanh__f64_edge", ["aten::atanh.out"], torch.atanh,
        [(_t([1.0, -1.0, 1.5, 0.5, -0.0, 1e-300, NAN, INF], torch.float64),)])
fn_case("asin__bool", ["aten::asin.out"], torch.asin, [(_t([True, False, True], torch.bool),)])
fn_case("cosh__u8", ["aten::cosh.out"], torch.cosh, [(_i(6, lo=0, hi=12, dtype=torch.uint8),)])
fn_case("log10__i64", ["aten::log10.out"], torch.log10,
        [(_t([0, 1, 10, 100, -5, 10**15], torch.int64),)])
fn_case("tan__f32_empty", ["aten::tan.out"], torch.tan, [(_r(0, 3),)])
fn_case("sinh__f32_strided", ["aten::sinh.out"], lambda a: torch.sinh(a.transpose(0, 1)),
        [(_r(3, 4),) for _ in range(2)])

# -------------------------------------------------------------------- atan2
# Every quadrant, both zeros and the infinities: atan2(+-0, -0) = +-pi,
# atan2(+-inf, -inf) = +-3pi/4, a NaN on either side.
_Y = _t([[0.0], [-0.0], [1.0], [-1.0], [INF], [-INF], [NAN], [1e-30]])
_X = _t([0.0, -0.0, 2.0, -2.0, INF, -INF, NAN, 1e30])
_a2 = ["aten::atan2.out"]
fn_case("atan2__f32_edge_broadcast", _a2, torch.atan2, [(_Y, _X)])
fn_case("atan2__f32", _a2, torch.atan2,
        [(_r(3, 4, scale=3.0), _r(3, 4, scale=3.0)) for _ in range(3)])
fn_case("atan2__f32_broadcast", _a2, torch.atan2,
        [(_r(2, 3, 1), _r(4, scale=2.0)) for _ in range(2)])
fn_case("atan2__i32_i64", _a2, torch.atan2,
        [(_i(2, 4), _i(4, dtype=torch.int64)) for _ in range(2)])
fn_case("atan2__i32_f16", _a2, torch.atan2, [(_i(3, 2), _r(3, 2).half()) for _ in range(2)])
fn_case("atan2__bool_u8", _a2, torch.atan2,
        [(_t([True, False, True, False], torch.bool), _i(4, lo=0, hi=3, dtype=torch.uint8))])
fn_case("atan2__f16", _a2, torch.atan2, [(_r(2, 5).half(), _r(2, 5).half()) for _ in range(2)])
fn_case("atan2__bf16_f32", _a2, torch.atan2, [(_r(2, 5).bfloat16(), _r(2, 5)) for _ in range(2)])
fn_case("atan2__f64_zero_dim", _a2, torch.atan2,
        [(_r(2, 3), _t(-2.5, torch.float64)), (_r(2, 3), _t(0.0, torch.float64))])
fn_case("atan2__f64", _a2, torch.atan2,
        [(_r(4, dtype=torch.float64), _r(4, dtype=torch.float64))])
fn_case("atan2__f32_empty", _a2, torch.atan2, [(_r(0, 3), _r(3))])

# ---------------------------------------------------------------------- glu
_glu = [A.glu.default]
_g = ["aten::glu.out"]
fn_case("glu__f32_last", _g, F.glu, [(_r(3, 8, scale=2.0),) for _ in range(2)], preserve_ops=_glu)
fn_case("glu__f32_dim0", _g, lambda a: F.glu(a, 0), [(_r(4, 3),) for _ in range(2)],
        preserve_ops=_glu)
fn_case("glu__f32_middle", _g, lambda a: F.glu(a, -2), [(_r(2, 6, 3),) for _ in range(2)],
        preserve_ops=_glu)
# a: NaN, +-inf, -0; b: +-inf (sigmoid 1 and 0), NaN, large.
fn_case("glu__f32_edge", _g, lambda a: F.glu(a, 0),
        [(_t([[NAN, INF, -INF, -0.0, 2.0, INF, 3.0, 1.0],
              [1.0, 1.0, 1.0, 1.0, INF, -INF, NAN, -100.0]]),)],
        preserve_ops=_glu)
fn_case("glu__f64", _g, F.glu, [(_r(2, 4, dtype=torch.float64),)], preserve_ops=_glu)
fn_case("glu__f16", _g, F.glu, [(_r(3, 4).half(),) for _ in range(2)], preserve_ops=_glu)
fn_case("glu__bf16", _g, lambda a: F.glu(a, 1), [(_r(3, 4, 2).bfloat16(),)], preserve_ops=_glu)
fn_case("glu__f32_empty", _g, F.glu, [(_r(0, 4),)], preserve_ops=_glu)
fn_case("glu__f32_empty_halved", _g, F.glu, [(_r(3, 0),)], preserve_ops=_glu)

# ----------------------------------------------------------------- var_mean
_vm = [A.var_mean.correction]
_v = ["aten::var_mean.correction_out"]
fn_case("var_mean__f32_dim", _v, lambda a: torch.var_mean(a, 1),
        [(_r(4, 12, 3),) for _ in range(2)], preserve_ops=_vm)
fn_case("var_mean__f32_all", _v, lambda a: torch.var_mean(a),
        [(_r(5, 7, scale=3.0),) for _ in range(2)], preserve_ops=_vm)
fn_case("var_mean__f32_biased_keepdim", _v,
        lambda a: torch.var_mean(a, dim=(0, 2), correction=0, keepdim=True),
        [(_r(3, 4, 5),) for _ in range(2)], preserve_ops=_vm)
fn_case("var_mean__f32_correction2_last", _v, lambda a: torch.var_mean(a, -1, correction=2),
        [(_r(3, 6),)], preserve_ops=_vm)
# Degrees of freedom <= 0: inf for spread values, NaN for equal ones.
fn_case("var_mean__f32_dof_nonpositive", _v, lambda a: torch.var_mean(a, 1, correction=3),
        [(_t([[1.0, 2.0, 4.0], [2.0, 2.0, 2.0]]),)], preserve_ops=_vm)
# PyTorch's mean here is a running (Welford) mean: an infinity followed by
# anything gives NaN, a last infinity gives +-inf; the variance is NaN.
_VM_EDGE = [[NAN, 1.0, 2.0], [INF, 1.0, 2.0], [1.0, 2.0, INF], [-INF, -INF, -INF],
            [1.0, 2.0, -INF], [-0.0, 0.0, -0.0], [1e30, -1e30, 3.0]]
fn_case("var_mean__f32_edge", _v, lambda a: torch.var_mean(a, 1),
        [(_t(_VM_EDGE),)], preserve_ops=_vm)
fn_case("var_mean__f32_edge_dim0", _v, lambda a: torch.var_mean(a, 0),
        [(_t(_VM_EDGE).t().contiguous(),)], preserve_ops=_vm)
fn_case("var_mean__f64", _v, lambda a: torch.var_mean(a, 0),
        [(_r(5, 3, dtype=torch.float64),)], preserve_ops=_vm)
fn_case("var_mean__f16", _v, lambda a: torch.var_mean(a, 1),
        [(_r(3, 8).half(),)], preserve_ops=_vm)
fn_case("var_mean__f32_empty_reduce", _v, lambda a: torch.var_mean(a, 0),
        [(_r(0, 3),)], preserve_ops=_vm)
fn_case("var_mean__f32_single", _v, lambda a: torch.var_mean(a, 0),
        [(_r(1, 4),)], preserve_ops=_vm)

# ------------------------------------------------------------------ copies
fn_case("alias_copy__f32", ["aten::alias_copy.out"], lambda a: A.alias_copy(a),
        [(_r(2, 3, 4),), (_t([NAN, INF, -0.0, 1.0] * 6).reshape(2, 3, 4),)],
        preserve_ops=[A.alias_copy.default])
fn_case("alias_copy__i64", ["aten::alias_copy.out"], lambda a: A.alias_copy(a),
        [(_i(5, dtype=torch.int64),)], preserve_ops=[A.alias_copy.default])
fn_case("alias_copy__bool_empty", ["aten::alias_copy.out"], lambda a: A.alias_copy(a),
        [(torch.zeros(0, 2, dtype=torch.bool),)], preserve_ops=[A.alias_copy.default])
fn_case("detach_copy__f32", ["aten::detach_copy.out"], lambda a: A.detach_copy(a),
        [(_r(3, 4),) for _ in range(2)])
fn_case("detach_copy__u8", ["aten::detach_copy.out"], lambda a: A.detach_copy(a),
        [(_i(7, lo=0, hi=256, dtype=torch.uint8),)])
fn_case("detach_copy__bf16", ["aten::detach_copy.out"], lambda a: A.detach_copy(a),
        [(_r(2, 2).bfloat16(),)])
fn_case("_conj_physical__f32", ["aten::_conj_physical.out"], lambda a: A._conj_physical(a),
        [(_r(3, 4),), (_t([NAN, INF, -INF, -0.0] * 3).reshape(3, 4),)],
        preserve_ops=[A._conj_physical.default])
fn_case("_conj_physical__i32", ["aten::_conj_physical.out"], lambda a: A._conj_physical(a),
        [(_i(2, 3),)], preserve_ops=[A._conj_physical.default])
fn_case("_conj_physical__f16_empty", ["aten::_conj_physical.out"],
        lambda a: A._conj_physical(a), [(_r(4, 0).half(),)],
        preserve_ops=[A._conj_physical.default])

# ---------------------------------------------------------- squeeze_copy.dim
_sq = [A.squeeze_copy.dim]
_s = ["aten::squeeze_copy.dim_out"]
fn_case("squeeze_copy__dim_f32", _s, lambda a: A.squeeze_copy.dim(a, 1),
        [(_r(3, 1, 4),) for _ in range(2)], preserve_ops=_sq)
fn_case("squeeze_copy__dim_negative_i64", _s, lambda a: A.squeeze_copy.dim(a, -1),
        [(_i(2, 3, 1, dtype=torch.int64),)], preserve_ops=_sq)
# A dim whose size is not 1 is kept (a plain copy).
fn_case("squeeze_copy__dim_not_one", _s, lambda a: A.squeeze_copy.dim(a, 0),
        [(_r(2, 1, 3),)], preserve_ops=_sq)
fn_case("squeeze_copy__dim_zero_dim", _s, lambda a: A.squeeze_copy.dim(a, 0),
        [(_t(2.5),)], preserve_ops=_sq)
fn_case("squeeze_copy__dim_empty_bool", _s, lambda a: A.squeeze_copy.dim(a, 0),
        [(torch.zeros(1, 0, 3, dtype=torch.bool),)], preserve_ops=_sq)


# ---------------------------------------------------------- lift_fresh_copy
class _CloneToLiftFreshCopy(ExportPass):
    """Writes back as lift_fresh_copy the clone that export's trace made of
    it (the programs below hold no other clone)."""

    def call_operator(self, op, args, kwargs, meta):
        if op == exir_ops.edge.aten.clone.default:
            op, kwargs = exir_ops.edge.aten.lift_fresh_copy.default, {}
        return super().call_operator(op, args, kwargs, meta)


def _lift_case(name, inputs):
    fn_case(name, ["aten::lift_fresh_copy.out"], lambda a: A.lift_fresh_copy(a), inputs,
            edge_options={"_skip_dim_order": True},
            et_options={"passes": [_CloneToLiftFreshCopy()]})


_lift_case("lift_fresh_copy__f32",
           [(_r(2, 3),), (_t([NAN, INF, -INF, -0.0, 1e-38, 3.5]).reshape(2, 3),)])
_lift_case("lift_fresh_copy__i64", [(_t([-2**63, -1, 2**63 - 1], torch.int64),)])
_lift_case("lift_fresh_copy__bool", [(_t([True, False, True], torch.bool),)])
_lift_case("lift_fresh_copy__f16_empty", [(_r(0, 3).half(),)])
