"""Cases for the reduction kernels: sum, mean, prod, amax, amin, max.dim,
min.dim, max/min (all), argmax, argmin, var, any, all, cumsum, logsumexp."""

import torch

from op_suite.registry import edge_values, fn_case

torch.manual_seed(1)


def _r(*shape, dtype=torch.float32):
    return torch.randn(*shape).to(dtype)


def _i(*shape, lo=-5, hi=6, dtype=torch.int64):
    return torch.randint(lo, hi, shape, dtype=dtype)


# Edge values laid out as a [2, 7] matrix: NaN and +-inf in different rows.
def _edge2d(dtype=torch.float32):
    return edge_values(dtype).reshape(2, 7)


# Rows of NaN / inf / signed zero / tiny values without catastrophic
# cancellation (whose result would depend on the summation order).
def _edge_rows():
    inf, nan = float("inf"), float("nan")
    return torch.tensor([[nan, 1.0, 2.0], [inf, 1.0, 2.0], [-inf, 1.0, 2.0],
                         [inf, -inf, 1.0], [-0.0, -0.0, -0.0], [1e-30, 1e-30, 0.0]])


# --- sum ---
fn_case("sum__f32_middle_dim", ["aten::sum.IntList_out"], lambda a: a.sum(dim=1),
        [(_r(4, 33, 5),) for _ in range(2)], rtol=1e-5, atol=1e-5)
fn_case("sum__f32_dims_0_2_keepdim", ["aten::sum.IntList_out"],
        lambda a: a.sum(dim=(0, 2), keepdim=True),
        [(_r(3, 4, 5, 6),) for _ in range(2)], rtol=1e-5, atol=1e-5)
fn_case("sum__f32_all", ["aten::sum.IntList_out"], lambda a: a.sum(),
        [(_r(7, 9),) for _ in range(2)], rtol=1e-5, atol=1e-5)
fn_case("sum__i32_neg_dim", ["aten::sum.IntList_out"], lambda a: a.sum(dim=-1),
        [(_i(3, 4, 5, dtype=torch.int32),) for _ in range(2)])
fn_case("sum__bool", ["aten::sum.IntList_out"], lambda a: a.sum(dim=0),
        [(torch.rand(5, 3) > 0.5,) for _ in range(2)])
fn_case("sum__f16_dtype_f32", ["aten::sum.IntList_out"],
        lambda a: torch.sum(a, dim=1, dtype=torch.float32),
        [(_r(3, 40, dtype=torch.float16),) for _ in range(2)], rtol=1e-4, atol=1e-4)
fn_case("sum__bf16", ["aten::sum.IntList_out"], lambda a: a.sum(dim=0),
        [(_r(6, 5, dtype=torch.bfloat16),) for _ in range(2)])
fn_case("sum__f32_edge", ["aten::sum.IntList_out"], lambda a: a.sum(dim=1),
        [(_edge_rows(),)])
fn_case("sum__f32_empty", ["aten::sum.IntList_out"], lambda a: a.sum(dim=0),
        [(torch.zeros(0, 4),)])

# --- mean ---
fn_case("mean__f32_last_keepdim", ["aten::mean.out"], lambda a: a.mean(dim=-1, keepdim=True),
        [(_r(4, 6, 17),) for _ in range(2)])
fn_case("mean__f32_first", ["aten::mean.out"], lambda a: a.mean(dim=0),
        [(_r(9, 4, 5),) for _ in range(2)])
fn_case("mean__f16", ["aten::mean.out"], lambda a: a.mean(dim=(1, 2)),
        [(_r(2, 3, 8, dtype=torch.float16),) for _ in range(2)])
fn_case("mean__i64_dtype_f32", ["aten::mean.out"],
        lambda a: torch.mean(a, dim=1, dtype=torch.float32),
        [(_i(3, 5),) for _ in range(2)])
fn_case("mean__f32_all_dtype", ["aten::mean.dtype_out"],
        lambda a: torch.ops.aten.mean.default(a, dtype=torch.float32),
        [(_r(4, 5),) for _ in range(2)])

# --- prod ---
fn_case("prod__f32_dim", ["aten::prod.int_out"], lambda a: a.prod(dim=1),
        [(torch.rand(3, 6, 4) + 0.5,) for _ in range(2)])
fn_case("prod__f32_all", ["aten::prod.out"], lambda a: a.prod(),
        [(torch.rand(2, 5) + 0.5,) for _ in range(2)])
fn_case("prod__i32_keepdim", ["aten::prod.int_out"], lambda a: a.prod(dim=0, keepdim=True),
        [(_i(4, 3, lo=-3, hi=4, dtype=torch.int32),) for _ in range(2)])
fn_case("prod__f32_edge", ["aten::prod.int_out"], lambda a: a.prod(dim=-1),
        [(_edge_rows(),)])

# --- amax / amin ---
fn_case("amax__f32_dims", ["aten::amax.out"], lambda a: torch.amax(a, dim=(0, 2)),
        [(_r(3, 4, 5),) for _ in range(2)])
fn_case("amax__f32_edge", ["aten::amax.out"], lambda a: torch.amax(a, dim=1),
        [(_edge2d(),)])
fn_case("amax__i8_keepdim", ["aten::amax.out"], lambda a: torch.amax(a, dim=-1, keepdim=True),
        [(_i(3, 7, lo=-100, hi=100, dtype=torch.int8),) for _ in range(2)])
fn_case("amin__f32_middle", ["aten::amin.out"], lambda a: torch.amin(a, dim=1),
        [(_r(3, 8, 6),) for _ in range(2)])
fn_case("amin__f32_edge_col", ["aten::amin.out"], lambda a: torch.amin(a, dim=0),
        [(_edge2d(),)])
fn_case("amin__bf16", ["aten::amin.out"], lambda a: torch.amin(a, dim=0),
        [(_r(5, 4, dtype=torch.bfloat16),) for _ in range(2)])

# --- max.dim / min.dim / max / min ---
fn_case("max__dim_f32", ["aten::max.dim_max"], lambda a: tuple(torch.max(a, dim=1)),
        [(_r(3, 7, 5),) for _ in range(2)])
fn_case("max__dim_edge_keepdim", ["aten::max.dim_max"], lambda a: tuple(torch.max(a, dim=-1, keepdim=True)),
        [(_edge2d(),)])
fn_case("max__dim_i64_ties", ["aten::max.dim_max"], lambda a: tuple(torch.max(a, dim=0)),
        [(_i(6, 4, lo=0, hi=3),) for _ in range(2)])
fn_case("max__all_f32", ["aten::max.unary_out"], lambda a: torch.max(a),
        [(_r(4, 5),) for _ in range(2)])
fn_case("min__dim_f32", ["aten::min.dim_min"], lambda a: tuple(torch.min(a, dim=0)),
        [(_r(6, 5),) for _ in range(2)])
fn_case("min__dim_edge", ["aten::min.dim_min"], lambda a: tuple(torch.min(a, dim=1)),
        [(_edge2d(),)])
fn_case("min__all_i32", ["aten::min.unary_out"], lambda a: torch.min(a),
        [(_i(3, 4, dtype=torch.int32),) for _ in range(2)])

# --- argmax / argmin ---
fn_case("argmax__f32_dim", ["aten::argmax.out"], lambda a: torch.argmax(a, dim=1),
        [(_r(4, 9, 3),) for _ in range(2)])
fn_case("argmax__f32_flat", ["aten::argmax.out"], lambda a: torch.argmax(a),
        [(_r(5, 6),) for _ in range(2)])
fn_case("argmax__edge_keepdim", ["aten::argmax.out"], lambda a: torch.argmax(a, dim=1, keepdim=True),
        [(_edge2d(),)])
fn_case("argmin__i64_ties", ["aten::argmin.out"], lambda a: torch.argmin(a, dim=0),
        [(_i(7, 5, lo=0, hi=3),) for _ in range(2)])
fn_case("argmin__f16_last", ["aten::argmin.out"], lambda a: torch.argmin(a, dim=-1),
        [(_r(3, 10, dtype=torch.float16),) for _ in range(2)])
fn_case("argmin__edge", ["aten::argmin.out"], lambda a: torch.argmin(a, dim=0),
        [(_edge2d(),)])

# --- var ---
fn_case("var__f32_dim_unbiased", ["aten::var.correction_out"], lambda a: torch.var(a, dim=1),
        [(_r(4, 12, 3),) for _ in range(2)])
fn_case("var__f32_all_biased", ["aten::var.correction_out"], lambda a: torch.var(a, unbiased=False),
        [(_r(5, 7),) for _ in range(2)])
fn_case("var__f32_correction_keepdim", ["aten::var.correction_out"],
        lambda a: torch.var(a, dim=(0, 2), correction=2, keepdim=True),
        [(_r(3, 4, 5),) for _ in range(2)])
fn_case("var__f32_single", ["aten::var.correction_out"], lambda a: torch.var(a, dim=0),
        [(_r(1, 4),)])
fn_case("var__f32_edge", ["aten::var.correction_out"], lambda a: torch.var(a, dim=1),
        [(_edge_rows(),)])

# --- any / all ---
fn_case("any__dim_f32", ["aten::any.out"], lambda a: torch.any(a, dim=1),
        [(torch.randint(0, 2, (3, 4)).float() * _r(3, 4),) for _ in range(2)])
fn_case("any__dims_bool", ["aten::any.dims_out"], lambda a: torch.any(a, dim=(0, 2)),
        [(torch.rand(3, 4, 5) > 0.9,) for _ in range(2)])
fn_case("any__all_i32", ["aten::any.all_out"], lambda a: torch.any(a),
        [(torch.zeros(3, 4, dtype=torch.int32),), (_i(3, 4, dtype=torch.int32),)])
fn_case("any__nan", ["aten::any.out"], lambda a: torch.any(a, dim=-1, keepdim=True),
        [(torch.tensor([[0.0, float("nan")], [0.0, -0.0]]),)])
fn_case("all__dim_bool", ["aten::all.out"], lambda a: torch.all(a, dim=0),
        [(torch.rand(4, 5) > 0.2,) for _ in range(2)])
fn_case("all__all_f32", ["aten::all.all_out"], lambda a: torch.all(a),
        [(torch.ones(2, 7),), (_edge2d(),)])
fn_case("all__dims_u8", ["aten::all.dims_out"], lambda a: torch.all(a, dim=(1,)),
        [(_i(3, 4, lo=0, hi=3, dtype=torch.uint8),) for _ in range(2)])

# --- cumsum ---
fn_case("cumsum__f32_last", ["aten::cumsum.out"], lambda a: torch.cumsum(a, dim=-1),
        [(_r(3, 20),) for _ in range(2)], rtol=1e-5, atol=1e-5)
fn_case("cumsum__f32_middle", ["aten::cumsum.out"], lambda a: torch.cumsum(a, dim=1),
        [(_r(2, 9, 7),) for _ in range(2)], rtol=1e-5, atol=1e-5)
fn_case("cumsum__i32_to_i64", ["aten::cumsum.out"], lambda a: torch.cumsum(a, dim=0),
        [(_i(5, 3, dtype=torch.int32),) for _ in range(2)])
fn_case("cumsum__i64_dtype_f32", ["aten::cumsum.out"],
        lambda a: torch.cumsum(a, dim=0, dtype=torch.float32),
        [(_i(6, 2),) for _ in range(2)])
fn_case("cumsum__f32_edge", ["aten::cumsum.out"], lambda a: torch.cumsum(a, dim=1),
        [(_edge_rows(),)])

# --- logsumexp ---
fn_case("logsumexp__f32_last", ["aten::logsumexp.out"], lambda a: torch.logsumexp(a, dim=-1),
        [(_r(4, 11) * 10,) for _ in range(2)])
fn_case("logsumexp__f32_dims_keepdim", ["aten::logsumexp.out"],
        lambda a: torch.logsumexp(a, dim=(0, 2), keepdim=True),
        [(_r(3, 4, 5),) for _ in range(2)])
fn_case("logsumexp__f32_inf", ["aten::logsumexp.out"], lambda a: torch.logsumexp(a, dim=1),
        [(torch.tensor([[float("-inf"), float("-inf")], [float("inf"), 1.0],
                        [float("nan"), 2.0], [1000.0, 1000.0]]),)])
