"""Cases for convolution (plain, pointwise, depthwise, dilated, 1-D and
transposed) and the matrix products in 16-bit floats."""

import torch
import torch.nn.functional as F

from op_suite.registry import fn_case

torch.manual_seed(3)


def _r(*shape, dtype=torch.float32):
    return torch.randn(*shape).to(dtype)


_TOL = dict(rtol=1e-4, atol=1e-5)

# --- convolution ---
fn_case("conv2d__f32_bias_pad", ["aten::convolution.out"],
        lambda x, w, b: F.conv2d(x, w, b, padding=1),
        [(_r(2, 3, 10, 9), _r(8, 3, 3, 3), _r(8)) for _ in range(2)], **_TOL)
fn_case("conv2d__f32_stride_dilation", ["aten::convolution.out"],
        lambda x, w: F.conv2d(x, w, stride=(2, 1), padding=(2, 1), dilation=(2, 3)),
        [(_r(1, 4, 11, 12), _r(5, 4, 3, 2)) for _ in range(2)], **_TOL)
fn_case("conv2d__f32_pointwise", ["aten::convolution.out"],
        lambda x, w, b: F.conv2d(x, w, b),
        [(_r(2, 6, 5, 7), _r(9, 6, 1, 1), _r(9)) for _ in range(2)], **_TOL)
fn_case("conv2d__f32_depthwise", ["aten::convolution.out"],
        lambda x, w: F.conv2d(x, w, stride=2, padding=1, groups=4),
        [(_r(1, 4, 9, 8), _r(8, 1, 3, 3)) for _ in range(2)], **_TOL)
fn_case("conv2d__f64", ["aten::convolution.out"],
        lambda x, w: F.conv2d(x, w, padding=2),
        [(_r(1, 2, 6, 6, dtype=torch.float64), _r(3, 2, 5, 5, dtype=torch.float64))
         for _ in range(2)])
# 64 x 3 x 3 = 576 im2col rows: the 256 output pixels take two column tiles.
fn_case("conv2d__f32_two_tiles", ["aten::convolution.out"],
        lambda x, w, b: F.conv2d(x, w, b, padding=1),
        [(_r(1, 64, 16, 16), _r(8, 64, 3, 3), _r(8))], rtol=1e-4, atol=1e-4)
fn_case("conv1d__f32_groups", ["aten::convolution.out"],
        lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=2, groups=2),
        [(_r(2, 4, 15), _r(6, 2, 4), _r(6)) for _ in range(2)], **_TOL)
fn_case("conv_transpose2d__f32", ["aten::convolution.out"],
        lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1),
        [(_r(1, 4, 5, 6), _r(4, 3, 3, 3), _r(3)) for _ in range(2)], **_TOL)
fn_case("conv_transpose2d__f32_groups_outpad", ["aten::convolution.out"],
        lambda x, w: F.conv_transpose2d(x, w, stride=(2, 3), padding=(0, 1),
                                        output_padding=(1, 2), groups=2, dilation=1),
        [(_r(2, 4, 4, 3), _r(4, 3, 2, 4)) for _ in range(2)], **_TOL)
fn_case("conv_transpose2d__f32_dilation", ["aten::convolution.out"],
        lambda x, w: F.conv_transpose2d(x, w, dilation=2, padding=1),
        [(_r(1, 3, 4, 4), _r(3, 2, 3, 3)) for _ in range(2)], **_TOL)
fn_case("conv_transpose1d__f32", ["aten::convolution.out"],
        lambda x, w, b: F.conv_transpose1d(x, w, b, stride=3, padding=1, output_padding=2),
        [(_r(2, 3, 7), _r(3, 5, 4), _r(5)) for _ in range(2)], **_TOL)

# --- matrix products in 16-bit floats (float accumulation) ---
_T16 = dict(rtol=1e-2, atol=1e-2)
fn_case("mm__f16", ["aten::mm.out"], torch.mm,
        [(_r(5, 17, dtype=torch.float16), _r(17, 6, dtype=torch.float16)) for _ in range(2)],
        **_T16)
fn_case("mm__bf16", ["aten::mm.out"], torch.mm,
        [(_r(9, 8, dtype=torch.bfloat16), _r(8, 3, dtype=torch.bfloat16)) for _ in range(2)],
        rtol=2e-2, atol=2e-2)
fn_case("bmm__f16", ["aten::bmm.out"], torch.bmm,
        [(_r(3, 4, 6, dtype=torch.float16), _r(3, 6, 5, dtype=torch.float16)) for _ in range(2)],
        **_T16)
fn_case("addmm__f32_linear", ["aten::addmm.out"],
        lambda x, w, b: F.linear(x, w, b),
        [(_r(7, 33), _r(65, 33), _r(65)) for _ in range(2)], **_TOL)
fn_case("addmm__bf16_beta_alpha", ["aten::addmm.out"],
        lambda c, a, b: torch.addmm(c, a, b, beta=0.5, alpha=2.0),
        [(_r(4, 5, dtype=torch.bfloat16), _r(4, 6, dtype=torch.bfloat16),
          _r(6, 5, dtype=torch.bfloat16)) for _ in range(2)], rtol=2e-2, atol=5e-2)
