"""Cases for softmax, normalization, pooling and resampling kernels:
_softmax, _log_softmax, native_layer_norm, native_group_norm,
_native_batch_norm_legit_no_training, avg_pool2d, _adaptive_avg_pool2d,
upsample_nearest2d, upsample_bilinear2d, pixel_shuffle, pixel_unshuffle."""

import torch
import torch.nn.functional as F

from op_suite.registry import fn_case, op_case

torch.manual_seed(2)


def _r(*shape, dtype=torch.float32):
    return torch.randn(*shape).to(dtype)


inf, nan = float("inf"), float("nan")

# --- softmax / log_softmax ---
fn_case("softmax__f32_last", ["aten::_softmax.out"], lambda a: torch.softmax(a, dim=-1),
        [(_r(4, 10) * 5,) for _ in range(2)])
fn_case("softmax__f32_middle", ["aten::_softmax.out"], lambda a: torch.softmax(a, dim=1),
        [(_r(2, 7, 5),) for _ in range(2)])
fn_case("softmax__f32_edge", ["aten::_softmax.out"], lambda a: torch.softmax(a, dim=1),
        [(torch.tensor([[nan, 1.0, 2.0], [inf, 1.0, 2.0], [-inf, 1.0, 2.0],
                        [-inf, -inf, -inf], [1000.0, -1000.0, 0.0]]),)])
fn_case("softmax__f16", ["aten::_softmax.out"], lambda a: torch.softmax(a, dim=-1),
        [(_r(3, 8, dtype=torch.float16),) for _ in range(2)])
fn_case("log_softmax__f32_last", ["aten::_log_softmax.out"],
        lambda a: torch.log_softmax(a, dim=-1), [(_r(4, 10) * 5,) for _ in range(2)])
fn_case("log_softmax__f32_dim0", ["aten::_log_softmax.out"],
        lambda a: torch.log_softmax(a, dim=0), [(_r(6, 3, 2),) for _ in range(2)])
fn_case("log_softmax__f32_edge", ["aten::_log_softmax.out"],
        lambda a: torch.log_softmax(a, dim=1),
        [(torch.tensor([[nan, 1.0, 2.0], [inf, 1.0, 2.0], [-inf, 1.0, 2.0],
                        [1000.0, -1000.0, 0.0]]),)])

# --- layer norm ---
op_case("layer_norm__f32_affine", ["aten::native_layer_norm.out"],
        lambda: torch.nn.LayerNorm(16), [(_r(2, 5, 16),) for _ in range(2)],
        rtol=1e-4, atol=1e-5)
fn_case("layer_norm__f32_2d_noaffine", ["aten::native_layer_norm.out"],
        lambda a: F.layer_norm(a, (3, 8), eps=1e-3), [(_r(4, 3, 8) * 3 + 1,) for _ in range(2)],
        rtol=1e-4, atol=1e-5)


class _Stats(torch.nn.Module):
    def forward(self, a):
        return torch.ops.aten.native_layer_norm.default(a, [6], None, None, 1e-5)


op_case("layer_norm__f32_stats", ["aten::native_layer_norm.out"], _Stats,
        [(_r(3, 6),) for _ in range(2)], rtol=1e-4, atol=1e-5)

# --- group norm ---
op_case("group_norm__f32_affine", ["aten::native_group_norm.out"],
        lambda: torch.nn.GroupNorm(2, 6), [(_r(2, 6, 4, 3),) for _ in range(2)],
        rtol=1e-4, atol=1e-5)
fn_case("group_norm__f32_noaffine", ["aten::native_group_norm.out"],
        lambda a: F.group_norm(a, 4), [(_r(1, 8, 5) * 2,) for _ in range(2)],
        rtol=1e-4, atol=1e-5)

# --- batch norm (inference) ---


def _bn(channels):
    def make():
        m = torch.nn.BatchNorm2d(channels)
        m.running_mean.copy_(torch.randn(channels))
        m.running_var.copy_(torch.rand(channels) + 0.5)
        m.weight.data.copy_(torch.randn(channels))
        m.bias.data.copy_(torch.randn(channels))
        return m.eval()
    return make


op_case("batch_norm__f32", ["aten::_native_batch_norm_legit_no_training.out"], _bn(3),
        [(_r(2, 3, 4, 5),) for _ in range(2)], rtol=1e-5, atol=1e-5)


def _bn1d():
    m = torch.nn.BatchNorm1d(4, affine=False)
    m.running_mean.copy_(torch.randn(4))
    m.running_var.copy_(torch.rand(4) + 0.5)
    return m.eval()


op_case("batch_norm__f32_1d_noaffine", ["aten::_native_batch_norm_legit_no_training.out"],
        _bn1d, [(_r(3, 4, 7),) for _ in range(2)], rtol=1e-5, atol=1e-5)

# --- avg_pool2d ---
fn_case("avg_pool2d__f32_basic", ["aten::avg_pool2d.out"], lambda a: F.avg_pool2d(a, 2),
        [(_r(2, 3, 8, 8),) for _ in range(2)])
fn_case("avg_pool2d__f32_pad_ceil", ["aten::avg_pool2d.out"],
        lambda a: F.avg_pool2d(a, 3, stride=2, padding=1, ceil_mode=True),
        [(_r(1, 2, 7, 6),) for _ in range(2)])
fn_case("avg_pool2d__f32_exclude_pad", ["aten::avg_pool2d.out"],
        lambda a: F.avg_pool2d(a, (3, 2), stride=(2, 1), padding=(1, 1), ceil_mode=True,
                               count_include_pad=False),
        [(_r(1, 2, 7, 6),) for _ in range(2)])
fn_case("avg_pool2d__f32_divisor", ["aten::avg_pool2d.out"],
        lambda a: F.avg_pool2d(a, 2, padding=1, divisor_override=3),
        [(_r(2, 5, 5),) for _ in range(2)])

# --- adaptive avg pool ---
fn_case("adaptive_avg_pool2d__f32_uneven", ["aten::_adaptive_avg_pool2d.out"],
        lambda a: F.adaptive_avg_pool2d(a, (3, 4)), [(_r(2, 3, 7, 9),) for _ in range(2)])
fn_case("adaptive_avg_pool2d__f32_global", ["aten::_adaptive_avg_pool2d.out"],
        lambda a: F.adaptive_avg_pool2d(a, 1), [(_r(1, 4, 5, 6),) for _ in range(2)])
fn_case("adaptive_avg_pool2d__f32_upsize", ["aten::_adaptive_avg_pool2d.out"],
        lambda a: F.adaptive_avg_pool2d(a, (5, 3)), [(_r(1, 2, 3, 2),) for _ in range(2)])

# --- upsampling ---
fn_case("upsample_nearest2d__f32_scale2", ["aten::upsample_nearest2d.vec_out"],
        lambda a: F.interpolate(a, scale_factor=2, mode="nearest"),
        [(_r(1, 2, 3, 4),) for _ in range(2)])
fn_case("upsample_nearest2d__f32_size", ["aten::upsample_nearest2d.vec_out"],
        lambda a: F.interpolate(a, size=(5, 7), mode="nearest"),
        [(_r(2, 1, 3, 4),) for _ in range(2)])
fn_case("upsample_nearest2d__u8_down", ["aten::upsample_nearest2d.vec_out"],
        lambda a: F.interpolate(a, size=(2, 3), mode="nearest"),
        [(torch.randint(0, 255, (1, 2, 5, 7), dtype=torch.uint8),) for _ in range(2)])
fn_case("upsample_bilinear2d__f32_scale", ["aten::upsample_bilinear2d.vec_out"],
        lambda a: F.interpolate(a, scale_factor=2, mode="bilinear"),
        [(_r(1, 2, 3, 4),) for _ in range(2)], rtol=1e-5, atol=1e-5)
fn_case("upsample_bilinear2d__f32_align", ["aten::upsample_bilinear2d.vec_out"],
        lambda a: F.interpolate(a, size=(7, 5), mode="bilinear", align_corners=True),
        [(_r(2, 1, 4, 3),) for _ in range(2)], rtol=1e-5, atol=1e-5)
fn_case("upsample_bilinear2d__f32_down", ["aten::upsample_bilinear2d.vec_out"],
        lambda a: F.interpolate(a, size=(3, 2), mode="bilinear"),
        [(_r(1, 3, 7, 5),) for _ in range(2)], rtol=1e-5, atol=1e-5)

# --- pixel shuffle ---
fn_case("pixel_shuffle__f32", ["aten::pixel_shuffle.out"], lambda a: F.pixel_shuffle(a, 2),
        [(_r(2, 8, 3, 4),) for _ in range(2)])
fn_case("pixel_shuffle__i32_3d", ["aten::pixel_shuffle.out"], lambda a: F.pixel_shuffle(a, 3),
        [(torch.randint(-50, 50, (9, 2, 2), dtype=torch.int32),) for _ in range(2)])
fn_case("pixel_unshuffle__f32", ["aten::pixel_unshuffle.out"],
        lambda a: F.pixel_unshuffle(a, 2), [(_r(1, 3, 4, 6),) for _ in range(2)])
fn_case("pixel_unshuffle__bool", ["aten::pixel_unshuffle.out"],
        lambda a: F.pixel_unshuffle(a, 3), [(torch.rand(2, 1, 6, 3) > 0.5,) for _ in range(2)])
