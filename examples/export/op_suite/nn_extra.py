"""Cases for the padding, training-mode normalization, grid sampling and
antialiased resampling kernels: reflection_pad{1,2,3}d,
replication_pad{1,2,3}d, _native_batch_norm_legit.no_stats (what
InstanceNorm without running statistics exports to), grid_sampler_2d and
_upsample_bilinear2d_aa.

_native_batch_norm_legit.out (training with running statistics) cannot be
exported: torch.export functionalizes it and the edge lowering has no out
variant for the functional form, so its values are checked in
test/kernels/portable/op__native_batch_norm_legit_test.cpp instead."""

import torch
import torch.nn.functional as F

from op_suite.registry import edge_values, fn_case, op_case

torch.manual_seed(7)
aten = torch.ops.aten
inf, nan = float("inf"), float("nan")


def _r(*shape, dtype=torch.float32):
    return torch.randn(*shape).to(dtype)


def _two(*shape, dtype=torch.float32):
    return [(_r(*shape, dtype=dtype),) for _ in range(2)]


def _ints(*shape, dtype=torch.int32):
    return [(torch.randint(-100, 100, shape, dtype=dtype),) for _ in range(2)]


# --- reflection / replication padding (the edge lowering would decompose
# them into index arithmetic: kept with preserve_ops) ---
def _pad_case(name, op, pad, inputs):
    fn_case(name, [f"aten::{op._schema.name[6:]}.out"], lambda a: op(a, pad), inputs,
            preserve_ops=[op])


R1, R2, R3 = aten.reflection_pad1d.default, aten.reflection_pad2d.default, \
    aten.reflection_pad3d.default
P1, P2, P3 = aten.replication_pad1d.default, aten.replication_pad2d.default, \
    aten.replication_pad3d.default

_pad_case("reflection_pad1d__f32", R1, [2, 3], _two(2, 3, 6))
_pad_case("reflection_pad1d__f32_unbatched_max", R1, [4, 4], _two(3, 5))
_pad_case("reflection_pad1d__f32_crop", R1, [-2, 3], _two(2, 2, 5))
_pad_case("reflection_pad1d__f32_edge", R1, [3, 5], [(edge_values().reshape(1, 14),)])
_pad_case("reflection_pad1d__i64", R1, [1, 2], _ints(2, 4, dtype=torch.int64))
_pad_case("reflection_pad2d__f32", R2, [1, 2, 3, 0], _two(2, 3, 4, 5))
_pad_case("reflection_pad2d__f32_unbatched", R2, [4, 0, 2, 2], _two(2, 3, 5))
_pad_case("reflection_pad2d__f64_crop", R2, [-1, 2, 1, -2], _two(1, 2, 4, 4, dtype=torch.float64))
_pad_case("reflection_pad2d__f16", R2, [2, 2, 1, 1], _two(1, 2, 3, 3, dtype=torch.float16))
_pad_case("reflection_pad2d__u8", R2, [1, 1, 1, 1],
          [(torch.randint(0, 255, (2, 3, 4), dtype=torch.uint8),) for _ in range(2)])
_pad_case("reflection_pad3d__f32", R3, [1, 2, 2, 1, 2, 0], _two(1, 2, 3, 4, 5))
_pad_case("reflection_pad3d__bf16_unbatched", R3, [1, 1, 1, 1, 1, 1],
          _two(2, 3, 3, 4, dtype=torch.bfloat16))
_pad_case("reflection_pad3d__i32", R3, [0, 3, 1, 0, 1, 1], _ints(2, 1, 2, 3, 4))
_pad_case("replication_pad1d__f32", P1, [4, 7], _two(2, 3, 5))
_pad_case("replication_pad1d__f32_unbatched_crop", P1, [-2, 3], _two(3, 5))
_pad_case("replication_pad1d__f32_edge", P1, [2, 2], [(edge_values().reshape(2, 7),)])
_pad_case("replication_pad1d__i8_width1", P1, [3, 2],
          [(torch.randint(-100, 100, (2, 3, 1), dtype=torch.int8),) for _ in range(2)])
_pad_case("replication_pad2d__f32", P2, [3, 1, 0, 5], _two(2, 2, 3, 4))
_pad_case("replication_pad2d__f64_unbatched", P2, [1, 1, 2, 2], _two(2, 3, 3, dtype=torch.float64))
_pad_case("replication_pad2d__f32_crop", P2, [-1, -1, 2, -1], _two(1, 3, 4, 5))
_pad_case("replication_pad2d__bf16", P2, [2, 0, 0, 2], _two(1, 2, 2, 3, dtype=torch.bfloat16))
_pad_case("replication_pad3d__f32", P3, [2, 1, 1, 3, 2, 2], _two(1, 2, 2, 3, 4))
_pad_case("replication_pad3d__i32_unbatched", P3, [1, 0, 0, 1, 2, 1], _ints(2, 2, 2, 3))
_pad_case("replication_pad3d__f16", P3, [1, 1, 1, 1, 1, 1], _two(1, 1, 1, 2, 2, dtype=torch.float16))


# --- batch norm without running statistics (training statistics) ---
def _inorm(cls, channels, affine):
    def make():
        m = cls(channels, affine=affine)
        if affine:
            m.weight.data.copy_(torch.randn(channels))
            m.bias.data.copy_(torch.randn(channels))
        return m
    return make


_BN = ["aten::_native_batch_norm_legit.no_stats_out"]
op_case("instance_norm2d__f32", _BN, _inorm(torch.nn.InstanceNorm2d, 3, False),
        [(_r(2, 3, 5, 6) * 3 + 1,) for _ in range(2)], rtol=1e-4, atol=1e-5)
op_case("instance_norm2d__f32_affine", _BN, _inorm(torch.nn.InstanceNorm2d, 4, True),
        _two(2, 4, 3, 3), rtol=1e-4, atol=1e-5)
op_case("instance_norm1d__f32", _BN, _inorm(torch.nn.InstanceNorm1d, 3, False),
        _two(2, 3, 7), rtol=1e-4, atol=1e-5)


class _NoStats(torch.nn.Module):
    def __init__(self, channels, affine, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.w = torch.nn.Parameter(torch.randn(channels)) if affine else None
        self.b = torch.nn.Parameter(torch.randn(channels)) if affine else None

    def forward(self, a):
        w = None if self.w is None else self.w.to(a.dtype)
        b = None if self.b is None else self.b.to(a.dtype)
        return aten._native_batch_norm_legit.no_stats(a, w, b, True, 0.1, self.eps)


op_case("batch_norm_legit_no_stats__f32_affine", _BN, lambda: _NoStats(3, True),
        _two(4, 3, 2, 5), rtol=1e-4, atol=1e-5)
op_case("batch_norm_legit_no_stats__f32_2d", _BN, lambda: _NoStats(5, False, 1e-3),
        _two(6, 5), rtol=1e-4, atol=1e-5)
op_case("batch_norm_legit_no_stats__f32_constant_channel", _BN, lambda: _NoStats(3, False),
        [(torch.stack([torch.full((2, 4), 2.5), _r(2, 4) * 100 + 1000, _r(2, 4) * 1e-3], 1),)],
        rtol=1e-3, atol=1e-3)
op_case("batch_norm_legit_no_stats__f64", _BN, lambda: _NoStats(2, True),
        _two(3, 2, 4, dtype=torch.float64))
op_case("batch_norm_legit_no_stats__f16", _BN, lambda: _NoStats(2, False),
        _two(2, 2, 8, dtype=torch.float16), rtol=1e-2, atol=1e-2)
# Upstream's own runtime misses this one at its tolerance (--check reports
# it); Ember's statistics are in double and pass.
op_case("batch_norm_legit_no_stats__bf16", _BN, lambda: _NoStats(3, False),
        _two(2, 3, 6, dtype=torch.bfloat16), rtol=3e-2, atol=3e-2)


# --- grid_sampler_2d ---
def _grid(n, h, w, spread=1.3, dtype=torch.float32):
    g = (torch.rand(n, h, w, 2) * 2 - 1) * spread
    flat = g.view(-1)
    flat[:6] = torch.tensor([-1.0, 1.0, 0.0, -1.0, 1.0, 1.0])  # exact corners and centre
    return g.to(dtype)


def _grid_inputs(shape, grid_hw, dtype=torch.float32, spread=1.3):
    return [(_r(*shape, dtype=dtype), _grid(shape[0], *grid_hw, spread=spread, dtype=dtype))
            for _ in range(2)]


_GS = ["aten::grid_sampler_2d.out"]
for mode in ("bilinear", "nearest", "bicubic"):
    for pad in ("zeros", "border", "reflection"):
        for align in (False, True):
            fn_case(f"grid_sampler_2d__f32_{mode}_{pad}{'_align' if align else ''}", _GS,
                    lambda a, g, m=mode, p=pad, al=align:
                        F.grid_sample(a, g, mode=m, padding_mode=p, align_corners=al),
                    _grid_inputs((2, 3, 5, 7), (4, 6)), rtol=1e-4, atol=1e-5)
fn_case("grid_sampler_2d__f32_bilinear_reflection_far", _GS,
        lambda a, g: F.grid_sample(a, g, padding_mode="reflection"),
        _grid_inputs((1, 2, 4, 3), (5, 5), spread=7.0), rtol=1e-4, atol=1e-5)
fn_case("grid_sampler_2d__f32_bicubic_border_far", _GS,
        lambda a, g: F.grid_sample(a, g, mode="bicubic", padding_mode="border"),
        _grid_inputs((1, 2, 4, 3), (5, 5), spread=3.0), rtol=1e-4, atol=1e-5)
fn_case("grid_sampler_2d__f32_pixel_reflection_align", _GS,
        lambda a, g: F.grid_sample(a, g, padding_mode="reflection", align_corners=True),
        _grid_inputs((2, 1, 1, 1), (2, 3)), rtol=1e-4, atol=1e-5)
fn_case("grid_sampler_2d__f64_bicubic_zeros", _GS,
        lambda a, g: F.grid_sample(a, g, mode="bicubic"),
        _grid_inputs((1, 2, 6, 5), (3, 4), dtype=torch.float64))
fn_case("grid_sampler_2d__f64_nearest_reflection", _GS,
        lambda a, g: F.grid_sample(a, g, mode="nearest", padding_mode="reflection"),
        _grid_inputs((1, 2, 6, 5), (3, 4), dtype=torch.float64))


# --- antialiased bilinear resize ---
_AA = ["aten::_upsample_bilinear2d_aa.out"]


def _aa_case(name, inputs, rtol=1e-4, atol=1e-5, **kw):
    fn_case(name, _AA, lambda a: F.interpolate(a, mode="bilinear", antialias=True, **kw),
            inputs, rtol=rtol, atol=atol)


_aa_case("upsample_bilinear2d_aa__f32_down", _two(1, 2, 17, 13), size=(5, 4))
_aa_case("upsample_bilinear2d_aa__f32_down_align", _two(2, 1, 9, 11), size=(4, 3),
         align_corners=True)
_aa_case("upsample_bilinear2d_aa__f32_up", _two(1, 2, 4, 5), size=(9, 12))
_aa_case("upsample_bilinear2d_aa__f32_up_align", _two(1, 1, 3, 4), size=(7, 5),
         align_corners=True)
_aa_case("upsample_bilinear2d_aa__f32_mixed", _two(1, 3, 12, 3), size=(5, 8))
_aa_case("upsample_bilinear2d_aa__f32_to_one", _two(1, 2, 6, 7), size=(1, 1))
_aa_case("upsample_bilinear2d_aa__f32_scale", _two(1, 2, 10, 9), scale_factor=0.37)
_aa_case("upsample_bilinear2d_aa__f32_large_ratio", _two(1, 1, 30, 20), size=(3, 2))
_aa_case("upsample_bilinear2d_aa__f32_edge", [(edge_values().reshape(1, 1, 2, 7),)],
         size=(1, 3))
_aa_case("upsample_bilinear2d_aa__f64", _two(1, 2, 11, 7, dtype=torch.float64), size=(4, 5))


# grid_sampler_2d: NaN / inf / -0 / huge inputs (every in-bounds tap is
# multiplied by its weight, as in PyTorch: inf * 0 is NaN), and Half /
# BFloat16 (bilinear only: a coordinate rounded differently could pick
# another nearest pixel). Upstream's runtime misses the BFloat16 case at
# its tolerance (--check reports it); Ember computes in float and passes.
for mode in ("bilinear", "nearest", "bicubic"):
    fn_case(f"grid_sampler_2d__f32_edge_{mode}", _GS,
            lambda a, g, m=mode: F.grid_sample(a, g, mode=m, align_corners=True),
            [(edge_values().reshape(1, 1, 2, 7), _grid(1, 3, 4, spread=1.1))],
            rtol=1e-4, atol=1e-5)
fn_case("grid_sampler_2d__f16_bilinear_zeros", _GS,
        lambda a, g: F.grid_sample(a, g, mode="bilinear", padding_mode="zeros"),
        _grid_inputs((1, 2, 4, 5), (3, 3), dtype=torch.float16), rtol=1e-2, atol=1e-2)
fn_case("grid_sampler_2d__bf16_bilinear_border", _GS,
        lambda a, g: F.grid_sample(a, g, mode="bilinear", padding_mode="border"),
        _grid_inputs((1, 2, 4, 5), (3, 3), dtype=torch.bfloat16), rtol=5e-2, atol=5e-2)
