"""Cases for the kernels that already exist (issue #2 set): keeps the
framework exercised and those kernels covered by generated files."""

import torch

from op_suite.registry import edge_values, fn_case

torch.manual_seed(0)


def _r(*shape, dtype=torch.float32):
    return torch.randn(*shape).to(dtype)


fn_case("add__f32", ["aten::add.out"], lambda a, b: a + b,
        [(_r(2, 3), _r(2, 3)) for _ in range(3)])
fn_case("add__f32_broadcast", ["aten::add.out"], lambda a, b: a + b,
        [(_r(4, 1, 3), _r(5, 1)) for _ in range(3)])
fn_case("add__f32_edge", ["aten::add.out"], lambda a, b: a + b,
        [(edge_values(), edge_values().flip(0))])
fn_case("add__i64_alpha", ["aten::add.out"], lambda a, b: torch.add(a, b, alpha=3),
        [(torch.randint(-100, 100, (6,)), torch.randint(-100, 100, (6,))) for _ in range(3)])
fn_case("mul__i32_f32_promote", ["aten::mul.out"], lambda a, b: a * b,
        [(torch.randint(-9, 9, (2, 3), dtype=torch.int32), _r(2, 3)) for _ in range(3)])
fn_case("sub__scalar", ["aten::sub.out"], lambda a: a - 2.5, [(_r(3, 2),) for _ in range(3)])
fn_case("relu__f32_edge", ["aten::relu.out"], torch.relu, [(edge_values(),)])
fn_case("mm__f32", ["aten::mm.out"], torch.mm, [(_r(5, 7), _r(7, 3)) for _ in range(3)])
fn_case("bmm__f32", ["aten::bmm.out"], torch.bmm, [(_r(2, 3, 4), _r(2, 4, 5)) for _ in range(2)])
fn_case("gt__f32_edge", ["aten::gt.Tensor_out"], lambda a, b: a > b,
        [(edge_values(), edge_values().flip(0))])
fn_case("where__f32", ["aten::where.self_out"], lambda c, a, b: torch.where(c, a, b),
        [(torch.rand(4, 3) > 0.5, _r(4, 3), _r(1, 3)) for _ in range(3)])
fn_case("permute__f32", ["aten::permute_copy.out"], lambda a: a.permute(2, 0, 1).contiguous(),
        [(_r(2, 3, 4),) for _ in range(2)])
fn_case("sum__f32_dim", ["aten::sum.IntList_out"], lambda a: a.sum(dim=1, keepdim=True),
        [(_r(3, 5, 2),) for _ in range(2)])
fn_case("mean__f32_dims", ["aten::mean.out"], lambda a: a.mean(dim=(0, 2)),
        [(_r(3, 5, 2),) for _ in range(2)])
fn_case("conv2d__f32_groups", ["aten::convolution.out"],
        lambda x, w: torch.nn.functional.conv2d(x, w, stride=2, padding=1, groups=2),
        [(_r(1, 4, 9, 9), _r(6, 2, 3, 3)) for _ in range(2)], rtol=1e-4, atol=1e-5)
fn_case("cat__f32", ["aten::cat.out"], lambda a, b: torch.cat([a, b], dim=1),
        [(_r(2, 3), _r(2, 5)) for _ in range(2)])
