"""Cases for distances, random tensors and two training-only backward ops:
_cdist_forward, _pdist_forward, rand, randn,
max_pool2d_with_indices_backward, convolution_backward.

rand and randn produce values no bundled test can compare, so their
programs output checks of the values (a Bool tensor that must be all True,
shaped like the random tensor) instead of the values themselves."""

import torch

from op_suite.registry import fn_case, op_case

torch.manual_seed(11)

aten = torch.ops.aten
inf, nan = float("inf"), float("nan")


def _r(*shape, dtype=torch.float32):
    return torch.randn(*shape).to(dtype)


# --- _cdist_forward ---
def _cdist(p, mode=None):
    return lambda a, b: aten._cdist_forward.default(a, b, p, mode)


_CDIST = ["aten::_cdist_forward.out"]
_KEEP_CDIST = [aten._cdist_forward.default]
for _p, _tag in [(2.0, "p2"), (1.0, "p1"), (0.0, "p0"), (inf, "pinf"), (3.0, "p3"),
                 (0.5, "p0_5")]:
    fn_case(f"cdist__f32_{_tag}", _CDIST, _cdist(_p),
            [(_r(4, 3), _r(5, 3)) for _ in range(2)], rtol=1e-4, atol=1e-5,
            preserve_ops=_KEEP_CDIST)
# p = 0 counts differing coordinates: make some equal.
_a0 = torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0], [1.0, -2.0, 3.0]])
fn_case("cdist__f32_p0_ties", _CDIST, _cdist(0.0), [(_a0, _a0.flip(0))],
        preserve_ops=_KEEP_CDIST)
# Batched, with broadcast batch dims; every compute_mode (Ember computes the
# distances directly in every mode; the inputs keep rows apart so the
# matrix-product form PyTorch may choose agrees within tolerance).
for _mode in [None, 0, 1, 2]:
    fn_case(f"cdist__f32_batched_mode{_mode}", _CDIST, _cdist(2.0, _mode),
            [(_r(2, 1, 6, 4) * 3, _r(3, 7, 4) * 3) for _ in range(2)], rtol=1e-4, atol=1e-4,
            preserve_ops=_KEEP_CDIST)
fn_case("cdist__f64_p2", _CDIST, _cdist(2.0), [(_r(3, 5, dtype=torch.float64),
                                                _r(2, 5, dtype=torch.float64))],
        preserve_ops=_KEEP_CDIST)
fn_case("cdist__f64_p1_5", _CDIST, _cdist(1.5), [(_r(3, 5, dtype=torch.float64),
                                                  _r(2, 5, dtype=torch.float64))],
        preserve_ops=_KEEP_CDIST)
fn_case("cdist__f32_edge", _CDIST, _cdist(2.0),
        [(torch.tensor([[nan, 1.0], [inf, 0.0], [1.0, 2.0]]),
          torch.tensor([[0.0, 0.0], [inf, 0.0], [-0.0, 1e20]]))],
        preserve_ops=_KEEP_CDIST)
fn_case("cdist__f32_edge_pinf", _CDIST, _cdist(inf),
        [(torch.tensor([[nan, 1.0], [inf, 0.0], [1.0, 2.0]]),
          torch.tensor([[0.0, 0.0], [-inf, 0.0], [-0.0, 1e20]]))],
        preserve_ops=_KEEP_CDIST)
fn_case("cdist__f32_empty_rows", _CDIST, _cdist(2.0), [(_r(0, 3), _r(4, 3))],
        preserve_ops=_KEEP_CDIST)
fn_case("cdist__f32_zero_cols", _CDIST, _cdist(2.0), [(_r(2, 0), _r(3, 0))],
        preserve_ops=_KEEP_CDIST)

# --- _pdist_forward ---
_PDIST = ["aten::_pdist_forward.out"]
_KEEP_PDIST = [aten._pdist_forward.default]
for _p, _tag in [(2.0, "p2"), (1.0, "p1"), (0.0, "p0"), (inf, "pinf"), (2.5, "p2_5")]:
    fn_case(f"pdist__f32_{_tag}", _PDIST,
            (lambda p: lambda a: aten._pdist_forward.default(a, p))(_p),
            [(_r(6, 4),) for _ in range(2)], rtol=1e-4, atol=1e-5,
            preserve_ops=_KEEP_PDIST)
fn_case("pdist__f64_p2", _PDIST, lambda a: aten._pdist_forward.default(a, 2.0),
        [(_r(5, 3, dtype=torch.float64),)], preserve_ops=_KEEP_PDIST)
fn_case("pdist__f32_edge", _PDIST, lambda a: aten._pdist_forward.default(a, 2.0),
        [(torch.tensor([[nan, 1.0], [inf, 0.0], [1.0, 2.0], [1.0, 2.0]]),)],
        preserve_ops=_KEEP_PDIST)
fn_case("pdist__f32_one_row", _PDIST, lambda a: aten._pdist_forward.default(a, 2.0),
        [(_r(1, 3),)], preserve_ops=_KEEP_PDIST)


# --- rand / randn: checks of the values, not the values ---
class _RandCheck(torch.nn.Module):
    """All of rand(shape) in [0, 1): a Bool tensor shaped like it."""

    def __init__(self, dtype):
        super().__init__()
        self.dtype = dtype

    def forward(self, x):
        r = torch.rand(3, 4, 5, dtype=self.dtype)
        return (r >= 0) & (r < 1), x + 1


class _RandnCheck(torch.nn.Module):
    """randn of 4096 samples: every |value| < 12 (P(fail) ~ 1e-29 per
    sample), mean within 0.15 of 0 (9.6 sigma) and standard deviation
    within 0.15 of 1 (13 sigma): three Bools that must be True."""

    def __init__(self, dtype):
        super().__init__()
        self.dtype = dtype

    def forward(self, x):
        r = torch.randn(64, 64, dtype=self.dtype).to(torch.float32)
        in_range = (r.abs() < 12).all()
        mean_ok = r.mean().abs() < 0.15
        std_ok = (r.var(correction=0).sqrt() - 1).abs() < 0.15
        return torch.stack([in_range, mean_ok, std_ok]), x + 1


for _dt, _tag in [(torch.float32, "f32"), (torch.float64, "f64"), (torch.float16, "f16")]:
    op_case(f"rand__{_tag}_range", ["aten::rand.out"], (lambda d: lambda: _RandCheck(d))(_dt),
            [(torch.zeros(2),)])
    op_case(f"randn__{_tag}_stats", ["aten::randn.out"],
            (lambda d: lambda: _RandnCheck(d))(_dt), [(torch.zeros(2),)])


# --- max_pool2d_with_indices_backward ---
# (export_op_suite.py --check reports these as failing: upstream 1.5.1's
# portable runtime returns other values than PyTorch's eager gradients, which
# are what the files hold and what Ember is tested against.)
class _MaxPoolBackward(torch.nn.Module):
    def __init__(self, kernel, stride, padding, dilation, ceil_mode):
        super().__init__()
        self.args = (kernel, stride, padding, dilation, ceil_mode)

    def forward(self, x, grad):
        k, s, p, d, c = self.args
        _, idx = aten.max_pool2d_with_indices.default(x, k, s, p, d, c)
        return aten.max_pool2d_with_indices_backward.default(grad, x, k, s, p, d, c, idx)


_MPB = ["aten::max_pool2d_with_indices_backward.grad_input"]
_KEEP_MPB = [aten.max_pool2d_with_indices_backward.default]


def _mpb_case(name, shape, out_shape, kernel, stride, padding, dilation, ceil_mode,
              dtype=torch.float32, x=None):
    inputs = [((x if x is not None else _r(*shape, dtype=dtype)),
               _r(*out_shape, dtype=dtype)) for _ in range(2 if x is None else 1)]
    op_case(name, _MPB,
            lambda: _MaxPoolBackward(kernel, stride, padding, dilation, ceil_mode),
            inputs, preserve_ops=_KEEP_MPB)


_mpb_case("max_pool2d_backward__f32_2x2", (2, 3, 6, 6), (2, 3, 3, 3), [2, 2], [2, 2],
          [0, 0], [1, 1], False)
# Overlapping windows: one input can win several windows (gradients add).
_mpb_case("max_pool2d_backward__f32_overlap", (1, 2, 5, 7), (1, 2, 4, 6), [2, 2], [1, 1],
          [0, 0], [1, 1], False)
_mpb_case("max_pool2d_backward__f32_pad_dil_ceil", (1, 2, 7, 8), (1, 2, 4, 4), [3, 3],
          [2, 2], [1, 1], [1, 2], True)
_mpb_case("max_pool2d_backward__f32_3d", (3, 5, 5), (3, 2, 2), [3, 3], [2, 2], [0, 0],
          [1, 1], False)
_mpb_case("max_pool2d_backward__f64", (1, 2, 4, 4), (1, 2, 2, 2), [2, 2], [2, 2],
          [0, 0], [1, 1], False, dtype=torch.float64)
# Ties: a constant plane sends every window's gradient to its first element.
_mpb_case("max_pool2d_backward__f32_ties", (1, 1, 4, 4), (1, 1, 3, 3), [2, 2], [1, 1],
          [0, 0], [1, 1], False, x=torch.ones(1, 1, 4, 4))


# --- convolution_backward ---
# (Upstream 1.5.1's portable kernel refuses 1-D and transposed convolutions,
# so --check reports those three cases as failing; the files hold PyTorch's
# eager gradients.)
class _ConvBackward(torch.nn.Module):
    def __init__(self, bias_sizes, stride, padding, dilation, transposed, output_padding,
                 groups, mask):
        super().__init__()
        self.args = (bias_sizes, stride, padding, dilation, transposed, output_padding,
                     groups, mask)

    def forward(self, grad, x, w):
        b, s, p, d, t, op, g, m = self.args
        gi, gw, gb = aten.convolution_backward.default(grad, x, w, b, s, p, d, t, op, g, m)
        return tuple(v for v, keep in zip((gi, gw, gb), m) if keep)


_CB = ["aten::convolution_backward.out"]
_KEEP_CB = [aten.convolution_backward.default]


def _cb_case(name, x_shape, w_shape, stride, padding, dilation, groups, mask=(True,) * 3,
             transposed=False, output_padding=None, dtype=torch.float32, bias=True):
    spatial = len(x_shape) - 2
    output_padding = output_padding or [0] * spatial
    x = _r(*x_shape, dtype=dtype)
    w = _r(*w_shape, dtype=dtype)
    y = torch.ops.aten.convolution.default(x, w, None, stride, padding, dilation, transposed,
                                           output_padding, groups)
    out_channels = y.shape[1]
    inputs = [(_r(*y.shape, dtype=dtype), _r(*x_shape, dtype=dtype), _r(*w_shape, dtype=dtype))
              for _ in range(2)]
    op_case(name, _CB,
            lambda: _ConvBackward([out_channels] if bias else None, stride, padding, dilation,
                                  transposed, output_padding, groups, list(mask)),
            inputs, rtol=1e-4, atol=1e-4, preserve_ops=_KEEP_CB)


_cb_case("convolution_backward__f32_basic", (2, 3, 6, 5), (4, 3, 3, 3), [1, 1], [0, 0],
         [1, 1], 1)
_cb_case("convolution_backward__f32_stride_pad_dil", (1, 2, 9, 8), (3, 2, 3, 2), [2, 3],
         [1, 2], [2, 1], 1)
_cb_case("convolution_backward__f32_groups", (2, 4, 5, 5), (6, 2, 3, 3), [1, 1], [1, 1],
         [1, 1], 2)
_cb_case("convolution_backward__f32_depthwise", (1, 3, 6, 6), (3, 1, 3, 3), [2, 2], [1, 1],
         [1, 1], 3)
_cb_case("convolution_backward__f32_1d", (2, 3, 10), (4, 3, 3), [2], [1], [1], 1)
_cb_case("convolution_backward__f32_mask_input", (1, 2, 5, 5), (3, 2, 3, 3), [1, 1], [1, 1],
         [1, 1], 1, mask=(True, False, False))
_cb_case("convolution_backward__f32_mask_weight_bias", (1, 2, 5, 5), (3, 2, 3, 3), [1, 1],
         [1, 1], [1, 1], 1, mask=(False, True, True))
_cb_case("convolution_backward__f64", (1, 2, 5, 4), (2, 2, 2, 2), [1, 1], [0, 0], [1, 1], 1,
         dtype=torch.float64)
_cb_case("convolution_backward__f32_transposed", (1, 4, 4, 5), (4, 3, 3, 3), [2, 2], [1, 1],
         [1, 1], 1, transposed=True, output_padding=[1, 0])
_cb_case("convolution_backward__f32_transposed_groups", (2, 4, 3, 3), (4, 1, 2, 3), [1, 2],
         [0, 1], [2, 1], 2, transposed=True)
