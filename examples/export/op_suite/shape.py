"""Shape and data-movement cases (issue #4): select, split, stack, index,
gather/scatter, repeat, flip, roll, tril/triu, pad, creation ops, sort,
topk, nonzero, dropout. Data movement is exact, so the cases sweep dtypes."""

import torch

from op_suite.registry import edge_values, fn_case

A = torch.ops.aten
torch.manual_seed(0)


def _r(*shape, dtype=torch.float32):
    return torch.randn(*shape).to(dtype)


def _i(*shape, dtype=torch.int64, lo=-50, hi=50):
    return torch.randint(lo, hi, shape, dtype=dtype)


# select_copy / narrow_copy
fn_case("select__f32_neg", ["aten::select_copy.int_out"], lambda a: a[:, -1],
        [(_r(3, 4, 2),) for _ in range(2)])
fn_case("select__i8_dim0", ["aten::select_copy.int_out"], lambda a: a[1],
        [(_i(3, 5, dtype=torch.int8),) for _ in range(2)])
fn_case("select__bool_last", ["aten::select_copy.int_out"], lambda a: a[..., 0],
        [(torch.rand(2, 3, 2) > 0.5,) for _ in range(2)])
fn_case("narrow__f16", ["aten::narrow_copy.out"], lambda a: torch.narrow_copy(a, 1, 1, 3),
        [(_r(2, 5, dtype=torch.float16),) for _ in range(2)])
fn_case("narrow__i64_negdim", ["aten::narrow_copy.out"],
        lambda a: torch.narrow_copy(a, -1, 0, 2), [(_i(3, 4),) for _ in range(2)])

# split / unbind / stack
fn_case("split__f32", ["aten::split_with_sizes_copy.out"],
        lambda a: tuple(torch.split(a, 2, dim=1)), [(_r(3, 5),) for _ in range(2)])
fn_case("split_with_sizes__bf16_neg", ["aten::split_with_sizes_copy.out"],
        lambda a: tuple(torch.split(a, [1, 3, 0], dim=-1)),
        [(_r(2, 4, dtype=torch.bfloat16),) for _ in range(2)])
fn_case("split_copy__i32", ["aten::split_copy.Tensor_out"],
        lambda a: tuple(A.split_copy(a, 2, 0)),
        [(_i(5, 3, dtype=torch.int32),) for _ in range(2)],
        preserve_ops=[A.split_copy.Tensor])
fn_case("unbind_copy__f32_neg", ["aten::unbind_copy.int_out"],
        lambda a: tuple(A.unbind_copy(a, -1)), [(_r(2, 3),) for _ in range(2)],
        preserve_ops=[A.unbind_copy.int])
fn_case("unbind_copy__u8", ["aten::unbind_copy.int_out"],
        lambda a: tuple(A.unbind_copy(a, 0)),
        [(_i(3, 2, 2, dtype=torch.uint8, lo=0, hi=255),) for _ in range(2)],
        preserve_ops=[A.unbind_copy.int])
fn_case("stack__f32_mid", ["aten::stack.out"], lambda a, b: torch.stack([a, b], 1),
        [(_r(2, 3), _r(2, 3)) for _ in range(2)], preserve_ops=[A.stack.default])
fn_case("stack__i16_neg", ["aten::stack.out"], lambda a, b, c: torch.stack([a, b, c], -1),
        [tuple(_i(2, 2, dtype=torch.int16) for _ in range(3)) for _ in range(2)],
        preserve_ops=[A.stack.default])

# index / index_put / index_select / gather / scatter
fn_case("index__f32_two", ["aten::index.Tensor_out"], lambda a, i, j: a[i, j],
        [(_r(4, 5, 2), torch.tensor([0, -1, 2]), torch.tensor([[1], [4]])) for _ in range(2)])
fn_case("index__i32_none", ["aten::index.Tensor_out"], lambda a, j: a[:, j],
        [(_i(3, 4, dtype=torch.int32), torch.tensor([3, 0, 0], dtype=torch.int32))
         for _ in range(2)])
fn_case("index__f32_split", ["aten::index.Tensor_out"], lambda a, i, j: a[i, :, j],
        [(_r(3, 2, 4), torch.tensor([2, 0]), torch.tensor([1, 3])) for _ in range(2)])
fn_case("index__bool_mask", ["aten::index.Tensor_out"], lambda a, m: a[m],
        [(_r(4, 3), torch.tensor([True, False, True, True]))])
fn_case("index_put__f32", ["aten::index_put.out"],
        lambda a, i, v: torch.index_put(a, (i,), v),
        [(_r(4, 3), torch.tensor([0, -2]), _r(2, 3)) for _ in range(2)])
fn_case("index_put__i64_acc", ["aten::index_put.out"],
        lambda a, i, j, v: torch.index_put(a, (i, j), v, accumulate=True),
        [(_i(3, 4), torch.tensor([0, 0, 2]), torch.tensor([1, 1, 3]), _i(3))
         for _ in range(2)])
fn_case("index_select__f32", ["aten::index_select.out"],
        lambda a, i: torch.index_select(a, 1, i),
        [(_r(2, 5, 3), torch.tensor([4, 0, 4, 1])) for _ in range(2)])
fn_case("index_select__bf16_i32", ["aten::index_select.out"],
        lambda a, i: torch.index_select(a, -2, i),
        [(_r(4, 3, dtype=torch.bfloat16), torch.tensor([3, 1], dtype=torch.int32))
         for _ in range(2)])
fn_case("gather__f32", ["aten::gather.out"], lambda a, i: torch.gather(a, 1, i),
        [(_r(3, 4), torch.randint(0, 4, (3, 6))) for _ in range(2)])
fn_case("gather__i8_dim0_small", ["aten::gather.out"], lambda a, i: torch.gather(a, 0, i),
        [(_i(4, 3, dtype=torch.int8), torch.randint(0, 4, (2, 2))) for _ in range(2)])
_perm = torch.stack([torch.randperm(4)[:3] for _ in range(2)], 0)  # no repeats per row
fn_case("scatter__f32_src", ["aten::scatter.src_out"],
        lambda a, i, s: torch.scatter(a, 1, i, s),
        [(_r(2, 4), _perm, _r(2, 3)) for _ in range(2)])
fn_case("scatter__i32_value", ["aten::scatter.value_out"],
        lambda a, i: torch.scatter(a, 0, i, 7),
        [(_i(3, 4, dtype=torch.int32), torch.tensor([[2, 0, 1, 1]])) for _ in range(2)])
fn_case("scatter_add__f32", ["aten::scatter_add.out"],
        lambda a, i, s: torch.scatter_add(a, 0, i, s),
        [(_r(3, 4), torch.randint(0, 3, (5, 4)), _r(5, 4)) for _ in range(2)])
fn_case("scatter_add__i64", ["aten::scatter_add.out"],
        lambda a, i, s: torch.scatter_add(a, -1, i, s),
        [(_i(2, 3), torch.randint(0, 3, (2, 5)), _i(2, 5)) for _ in range(2)])
fn_case("embedding__f32", ["aten::embedding.out"],
        lambda w, i: torch.nn.functional.embedding(i, w),
        [(_r(6, 4), torch.randint(0, 6, (2, 3))) for _ in range(2)])

# repeat / flip / roll / tril / triu / pad
fn_case("repeat__f32_lead", ["aten::repeat.out"], lambda a: a.repeat(2, 1, 3),
        [(_r(2, 3),) for _ in range(2)])
fn_case("repeat__bool", ["aten::repeat.out"], lambda a: a.repeat(3, 2),
        [(torch.rand(2, 1) > 0.5,) for _ in range(2)])
fn_case("flip__f32", ["aten::flip.out"], lambda a: torch.flip(a, [0, -1]),
        [(_r(3, 2, 4),) for _ in range(2)])
fn_case("flip__i64_mid", ["aten::flip.out"], lambda a: torch.flip(a, [1]),
        [(_i(2, 5, 1),) for _ in range(2)])
fn_case("roll__f32_dims", ["aten::roll.out"], lambda a: torch.roll(a, (1, -3), (0, 2)),
        [(_r(3, 2, 4),) for _ in range(2)], preserve_ops=[A.roll.default])
fn_case("roll__u8_flat", ["aten::roll.out"], lambda a: torch.roll(a, 5),
        [(_i(3, 4, dtype=torch.uint8, lo=0, hi=255),) for _ in range(2)],
        preserve_ops=[A.roll.default])
fn_case("tril__f32_neg_diag", ["aten::tril.out"], lambda a: torch.tril(a, -1),
        [(_r(2, 4, 3),) for _ in range(2)], preserve_ops=[A.tril.default])
fn_case("tril__i32", ["aten::tril.out"], lambda a: torch.tril(a, 2),
        [(_i(3, 5, dtype=torch.int32),) for _ in range(2)], preserve_ops=[A.tril.default])
fn_case("triu__f32", ["aten::triu.out"], lambda a: torch.triu(a, 1),
        [(_r(4, 4),) for _ in range(2)], preserve_ops=[A.triu.default])
fn_case("triu__f16_wide", ["aten::triu.out"], lambda a: torch.triu(a, -1),
        [(_r(3, 6, dtype=torch.float16),) for _ in range(2)], preserve_ops=[A.triu.default])
fn_case("constant_pad__f32", ["aten::constant_pad_nd.out"],
        lambda a: torch.nn.functional.pad(a, (1, 2, 0, 1), value=-1.5),
        [(_r(2, 3, 2),) for _ in range(2)])
fn_case("constant_pad__i64_crop", ["aten::constant_pad_nd.out"],
        lambda a: torch.nn.functional.pad(a, (-1, 2), value=7),
        [(_i(3, 4),) for _ in range(2)])

# creation and fill ops
fn_case("zeros__f32", ["aten::zeros.out"], lambda a: a + torch.zeros(2, 3),
        [(_r(2, 3),)], preserve_ops=[A.zeros.default])
fn_case("ones__i32", ["aten::ones.out"],
        lambda a: a + torch.ones(2, 3, dtype=torch.int32),
        [(_i(2, 3, dtype=torch.int32),)], preserve_ops=[A.ones.default])
fn_case("arange__start_step", ["aten::arange.start_out"],
        lambda a: a + torch.arange(1, 12, 2), [(_i(6),)])
fn_case("arange__f32_end", ["aten::arange.out"],
        lambda a: a + torch.arange(5, dtype=torch.float32), [(_r(5),)],
        preserve_ops=[A.arange.default])
fn_case("scalar_tensor__f32", ["aten::scalar_tensor.out"],
        lambda a: a * torch.scalar_tensor(3.5), [(_r(4),)])
fn_case("empty__fill", ["dim_order_ops::_empty_dim_order.out"],
        lambda a: a + torch.empty(2, 3).fill_(1.25), [(_r(2, 3),)])
fn_case("fill__scalar_i64", ["aten::fill.Scalar_out"], lambda a: A.fill.Scalar(a, 3),
        [(_i(2, 3),)], preserve_ops=[A.fill.Scalar])
fn_case("fill__tensor_f32", ["aten::fill.Tensor_out"],
        lambda a, v: A.fill.Tensor(a, v), [(_r(3, 2), torch.tensor(2.5))],
        preserve_ops=[A.fill.Tensor])
fn_case("copy__broadcast_f32", ["aten::copy.out"], lambda a, b: A.copy(a, b),
        [(_r(2, 3), _r(3)) for _ in range(2)])
fn_case("clone__dim_order_i16", ["dim_order_ops::_clone_dim_order.out"],
        lambda a: a.clone(), [(_i(2, 3, dtype=torch.int16),) for _ in range(2)])
fn_case("clone__channels_last", ["dim_order_ops::_clone_dim_order.out"],
        lambda a: (a.contiguous(memory_format=torch.channels_last) * 2).contiguous(),
        [(_r(1, 3, 2, 2),) for _ in range(2)])

# sort / topk / nonzero / dropout
fn_case("sort__f32_desc", ["aten::sort.values"],
        lambda a: tuple(torch.sort(a, dim=-1, descending=True)),
        [(_r(3, 6),) for _ in range(2)])
fn_case("sort__f32_edge", ["aten::sort.values"], lambda a: tuple(torch.sort(a, dim=0)),
        [(edge_values()[[0, 1, 2, 3, 5, 7, 8, 9, 11, 12, 13]],)])
fn_case("sort__i32_dim0", ["aten::sort.values"], lambda a: tuple(torch.sort(a, dim=0)),
        [(torch.stack([torch.randperm(5, dtype=torch.int32) for _ in range(3)], 1),)])
fn_case("topk__f32", ["aten::topk.values"], lambda a: tuple(torch.topk(a, 3)),
        [(_r(2, 7),) for _ in range(2)])
fn_case("topk__f32_smallest_dim0", ["aten::topk.values"],
        lambda a: tuple(torch.topk(a, 2, dim=0, largest=False)),
        [(_r(5, 3),) for _ in range(2)])
fn_case("topk__i64", ["aten::topk.values"], lambda a: tuple(torch.topk(a, 2)),
        [(torch.randperm(8).reshape(2, 4),)])
fn_case("nonzero__f32", ["aten::nonzero.out"], lambda a: torch.nonzero(a).contiguous(),
        [(torch.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]]),)])
fn_case("nonzero__bool_3d", ["aten::nonzero.out"], lambda a: torch.nonzero(a).contiguous(),
        [(torch.rand(2, 3, 2) > 0.5,)])
fn_case("native_dropout__eval", ["aten::native_dropout.out"],
        lambda a: tuple(A.native_dropout(a, 0.5, False)), [(_r(3, 4),)])
