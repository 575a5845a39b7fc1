"""More shape and data-movement cases: as_strided_copy, diagonal_copy,
unfold_copy, select_scatter, slice_scatter, masked_select, masked_scatter,
repeat_interleave. Data movement is exact, so the cases sweep dtypes; the
view ops are kept as their copy variants with preserve_ops where the edge
lowering would otherwise rewrite them."""

import torch

from op_suite.registry import edge_values, fn_case

A = torch.ops.aten
torch.manual_seed(0)


def _r(*shape, dtype=torch.float32):
    return torch.randn(*shape).to(dtype)


def _i(*shape, dtype=torch.int64, lo=-50, hi=50):
    return torch.randint(lo, hi, shape, dtype=dtype)


def _b(*shape):
    return torch.rand(*shape) > 0.5


# as_strided_copy: reads self's storage through the given sizes and strides
# (overlapping windows, a zero stride, an offset, an empty result).
_asc = [A.as_strided_copy.default]
fn_case("as_strided_copy__f32_overlap", ["aten::as_strided_copy.out"],
        lambda a: A.as_strided_copy(a, [3, 3], [2, 1], 1),
        [(_r(4, 3),) for _ in range(2)], preserve_ops=_asc)
fn_case("as_strided_copy__i64_zero_stride", ["aten::as_strided_copy.out"],
        lambda a: A.as_strided_copy(a, [2, 3, 2], [0, 2, 5]),
        [(_i(12),) for _ in range(2)], preserve_ops=_asc)
fn_case("as_strided_copy__bf16_transpose", ["aten::as_strided_copy.out"],
        lambda a: A.as_strided_copy(a, [4, 2], [1, 4], 0),
        [(_r(2, 4, dtype=torch.bfloat16),)], preserve_ops=_asc)
fn_case("as_strided_copy__bool_empty", ["aten::as_strided_copy.out"],
        lambda a: A.as_strided_copy(a, [0, 3], [3, 1], 2),
        [(_b(2, 3),)], preserve_ops=_asc)
fn_case("as_strided_copy__f32_edge", ["aten::as_strided_copy.out"],
        lambda a: A.as_strided_copy(a, [5], [3], 1),
        [(edge_values(),)], preserve_ops=_asc)

# diagonal_copy: offsets on both sides, negative dims, dims in any order, an
# empty diagonal.
_dc = [A.diagonal_copy.default]
fn_case("diagonal_copy__f32", ["aten::diagonal_copy.out"],
        lambda a: A.diagonal_copy(a), [(_r(3, 4),) for _ in range(2)], preserve_ops=_dc)
fn_case("diagonal_copy__i32_offset_negdims", ["aten::diagonal_copy.out"],
        lambda a: A.diagonal_copy(a, 1, -1, 0),
        [(_i(4, 2, 3, dtype=torch.int32),) for _ in range(2)], preserve_ops=_dc)
fn_case("diagonal_copy__f16_negoffset", ["aten::diagonal_copy.out"],
        lambda a: A.diagonal_copy(a, -2, 1, 2),
        [(_r(2, 5, 3, dtype=torch.float16),)], preserve_ops=_dc)
fn_case("diagonal_copy__bool_empty", ["aten::diagonal_copy.out"],
        lambda a: A.diagonal_copy(a, 5, 0, 1), [(_b(3, 4),)], preserve_ops=_dc)
fn_case("diagonal_copy__u8_view", ["aten::diagonal_copy.out"],
        lambda a: torch.diagonal(a, 0, -2, -1) + 0,
        [(_i(2, 3, 3, dtype=torch.uint8, lo=0, hi=255),)])

# unfold_copy: windows along a dim, overlapping and not, negative dim, a
# size-0 window.
_uc = [A.unfold_copy.default]
fn_case("unfold_copy__f32", ["aten::unfold_copy.out"],
        lambda a: A.unfold_copy(a, 1, 3, 2), [(_r(2, 7),) for _ in range(2)],
        preserve_ops=_uc)
fn_case("unfold_copy__i16_negdim_overlap", ["aten::unfold_copy.out"],
        lambda a: A.unfold_copy(a, -2, 2, 1),
        [(_i(2, 4, 3, dtype=torch.int16),) for _ in range(2)], preserve_ops=_uc)
fn_case("unfold_copy__f64_whole", ["aten::unfold_copy.out"],
        lambda a: A.unfold_copy(a, 0, 5, 7), [(_r(5, 2, dtype=torch.float64),)],
        preserve_ops=_uc)
fn_case("unfold_copy__i8_size0", ["aten::unfold_copy.out"],
        lambda a: A.unfold_copy(a, 0, 0, 1), [(_i(3, 2, dtype=torch.int8),)],
        preserve_ops=_uc)
# A 0-d input is tested in C++ (op_unfold_copy_test.cpp): upstream's
# runtime aborts on it, so --check cannot run it.

# select_scatter: negative dim and index, several dtypes.
_ss = [A.select_scatter.default]
fn_case("select_scatter__f32", ["aten::select_scatter.out"],
        lambda a, s: torch.select_scatter(a, s, 1, 2),
        [(_r(3, 4), _r(3)) for _ in range(2)], preserve_ops=_ss)
fn_case("select_scatter__i64_neg", ["aten::select_scatter.out"],
        lambda a, s: torch.select_scatter(a, s, -1, -1),
        [(_i(2, 3, 4), _i(2, 3)) for _ in range(2)], preserve_ops=_ss)
fn_case("select_scatter__bool", ["aten::select_scatter.out"],
        lambda a, s: torch.select_scatter(a, s, 0, 0), [(_b(2, 3), _b(3))], preserve_ops=_ss)
fn_case("select_scatter__bf16_empty", ["aten::select_scatter.out"],
        lambda a, s: torch.select_scatter(a, s, 0, 1),
        [(_r(2, 0, dtype=torch.bfloat16), _r(0, dtype=torch.bfloat16))], preserve_ops=_ss)

# slice_scatter: steps, negative and out-of-range bounds (clamped), omitted
# bounds, an empty slice.
fn_case("slice_scatter__f32_step", ["aten::slice_scatter.out"],
        lambda a, s: torch.slice_scatter(a, s, 1, 1, None, 2),
        [(_r(2, 6), _r(2, 3)) for _ in range(2)])
fn_case("slice_scatter__i32_neg", ["aten::slice_scatter.out"],
        lambda a, s: torch.slice_scatter(a, s, -2, -3, -1),
        [(_i(5, 2, dtype=torch.int32), _i(2, 2, dtype=torch.int32)) for _ in range(2)])
fn_case("slice_scatter__f16_clamp", ["aten::slice_scatter.out"],
        lambda a, s: torch.slice_scatter(a, s, 0, -10, 100, 3),
        [(_r(4, 2, dtype=torch.float16), _r(2, 2, dtype=torch.float16))])
fn_case("slice_scatter__u8_all", ["aten::slice_scatter.out"],
        lambda a, s: torch.slice_scatter(a, s),
        [(_i(3, 2, dtype=torch.uint8, lo=0, hi=255),
          _i(3, 2, dtype=torch.uint8, lo=0, hi=255))])
fn_case("slice_scatter__f32_empty", ["aten::slice_scatter.out"],
        lambda a, s: torch.slice_scatter(a, s, 1, 3, 1),
        [(_r(2, 4), _r(2, 0))])

# masked_select: the result's length depends on the mask (a bounded-dynamic
# out); self and mask broadcast together. The export needs an upper bound on
# that length (torch._check) and the op kept (it is not core ATen).
def _masked_select(a, m):
    o = torch.masked_select(a, m)
    torch._check(o.shape[0] <= torch.broadcast_shapes(a.shape, m.shape).numel())
    return o


def _sparse_mask(shape, k):
    """A mask with k True entries. The exporter bounds masked_select's length
    by self's numel, not by the broadcast shape: keep the count under it
    where self is the smaller operand."""
    m = torch.zeros(shape, dtype=torch.bool).flatten()
    m[torch.randperm(m.numel())[:k]] = True
    return m.reshape(shape)


_msel = [A.masked_select.default]
fn_case("masked_select__f32", ["aten::masked_select.out"],
        _masked_select, [(_r(3, 4), _b(3, 4)) for _ in range(3)],
        preserve_ops=_msel)
fn_case("masked_select__i32_bcast", ["aten::masked_select.out"],
        _masked_select,
        [(_i(2, 3, 4, dtype=torch.int32), _b(3, 1)) for _ in range(2)],
        preserve_ops=_msel)
fn_case("masked_select__bool_bcast_self", ["aten::masked_select.out"],
        _masked_select, [(_b(4), _sparse_mask((3, 1), 1))],
        preserve_ops=_msel)
fn_case("masked_select__f32_edge_none", ["aten::masked_select.out"],
        _masked_select,
        [(edge_values(), torch.zeros(14, dtype=torch.bool))],
        preserve_ops=_msel)
fn_case("masked_select__f32_edge", ["aten::masked_select.out"],
        _masked_select,
        [(edge_values(), torch.arange(14) % 3 != 1)],
        preserve_ops=_msel)
fn_case("masked_select__bf16_all", ["aten::masked_select.out"],
        _masked_select,
        [(_r(2, 3, dtype=torch.bfloat16), torch.ones(2, 3, dtype=torch.bool))],
        preserve_ops=_msel)

# masked_scatter: source consumed in order; mask broadcast to self and self
# to mask.
_ms = [A.masked_scatter.default]
fn_case("masked_scatter__f32", ["aten::masked_scatter.out"],
        lambda a, m, s: a.masked_scatter(m, s),
        [(_r(3, 4), _b(3, 4), _r(12)) for _ in range(3)], preserve_ops=_ms)
fn_case("masked_scatter__i64_bcast_mask", ["aten::masked_scatter.out"],
        lambda a, m, s: a.masked_scatter(m, s),
        [(_i(2, 3), _b(3), _i(2, 4)) for _ in range(2)], preserve_ops=_ms)
fn_case("masked_scatter__f16_bcast_self", ["aten::masked_scatter.out"],
        lambda a, m, s: torch.masked_scatter(a, m, s),
        [(_r(3, dtype=torch.float16), _b(2, 3), _r(7, dtype=torch.float16))],
        preserve_ops=_ms)
fn_case("masked_scatter__bool_empty", ["aten::masked_scatter.out"],
        lambda a, m, s: torch.masked_scatter(a, m, s),
        [(_b(0, 3), _b(0, 3), _b(2))], preserve_ops=_ms)

# repeat_interleave.Tensor: repeats -> indices (length from the data, bounded
# for the export by torch._check; the op is not core ATen).
def _repeat_interleave(r):
    o = torch.repeat_interleave(r)
    torch._check(o.shape[0] <= 16)
    return o


_ri = [A.repeat_interleave.Tensor]
fn_case("repeat_interleave__i64", ["aten::repeat_interleave.Tensor_out"],
        _repeat_interleave,
        [(torch.tensor([2, 0, 1, 3]),), (torch.tensor([0, 0, 4, 1]),)],
        preserve_ops=_ri)
fn_case("repeat_interleave__i32", ["aten::repeat_interleave.Tensor_out"],
        _repeat_interleave,
        [(torch.tensor([1, 2, 3], dtype=torch.int32),)],
        preserve_ops=_ri)
fn_case("repeat_interleave__zeros", ["aten::repeat_interleave.Tensor_out"],
        _repeat_interleave, [(torch.zeros(3, dtype=torch.int64),)],
        preserve_ops=_ri)
