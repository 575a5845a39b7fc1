// aten::grid_sampler_2d.out(Tensor input, Tensor grid, int interpolation_mode,
//     int padding_mode, bool align_corners, *, Tensor(a!) out) -> Tensor(a!)
// input [N, C, H, W] sampled at grid [N, OH, OW, 2] ((x, y) in [-1, 1])
// into out [N, C, OH, OW], as torch.nn.functional.grid_sample.
//   interpolation_mode: 0 bilinear, 1 nearest (round half to even),
//     2 bicubic (A = -0.75, 4 x 4 taps).
//   padding_mode: 0 zeros (taps outside read 0), 1 border (coordinates
//     clipped to the edge), 2 reflection (coordinates mirrored, then
//     clipped).
//   align_corners: -1 and 1 are the centres of the corner pixels, else
//     their outer edges.
// Bilinear and nearest pad the sample coordinate; bicubic pads each tap's
// coordinate, as PyTorch does. Coordinates are computed in OpMath<T>.
// Border and reflection padding clip infinite coordinates to the edge; a
// coordinate still non-finite after padding (NaN, or infinite under zeros)
// samples nothing (0) rather than reach an undefined cast. (PyTorch's
// results for such grids differ between modes; these are defined.)
// Float, Double, Half, BFloat16; grid has input's dtype; contiguous.
#include <cmath>

#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/reduce_ops.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"
#include "runtime/platform/threadpool.h"

namespace ember {
namespace {

enum class Interp : int64_t { Bilinear = 0, Nearest = 1, Bicubic = 2 };
enum class Padding : int64_t { Zeros = 0, Border = 1, Reflection = 2 };

// A grid value in [-1, 1] -> a pixel coordinate of a dim of `size`.
template <typename C>
C unnormalize(C g, int64_t size, bool align_corners) {
  return align_corners ? (g + C(1)) / C(2) * C(size - 1)
                       : ((g + C(1)) * C(size) - C(1)) / C(2);
}

template <typename C>
C clip(C v, int64_t size) {
  return v < C(0) ? C(0) : v > C(size - 1) ? C(size - 1) : v;
}

// Mirrors v into [lo, hi] (given doubled: twice_lo, twice_hi), repeating
// with period 2 * (hi - lo).
template <typename C>
C reflect(C v, int64_t twice_lo, int64_t twice_hi) {
  if (twice_lo == twice_hi) {
    return C(0);
  }
  const C lo = C(twice_lo) / C(2);
  const C span = C(twice_hi - twice_lo) / C(2);
  v = std::fabs(v - lo);
  const C extra = std::fmod(v, span);
  const bool even_flips = std::fmod(std::floor(v / span), C(2)) == C(0);
  return even_flips ? extra + lo : span - extra + lo;
}

// A pixel coordinate after the padding mode's treatment. NaN is returned
// as it is (the callers sample nothing there).
template <typename C>
C pad_coordinate(C v, int64_t size, Padding padding, bool align_corners) {
  if (std::isnan(v)) {
    return v;
  }
  if (padding == Padding::Border) {
    return clip(v, size);
  }
  if (padding == Padding::Reflection && std::isfinite(v)) {
    v = align_corners ? reflect(v, 0, 2 * (size - 1)) : reflect(v, -1, 2 * size - 1);
    return clip(v, size);
  }
  return v;
}

// Integer tap positions are only formed from coordinates in this range,
// so the casts below are defined; anything outside reads as padding.
template <typename C>
bool castable(C v, int64_t size) {
  return v > C(-4) && v < C(size + 4);
}

struct Plane {
  int64_t h, w;
};

template <typename C, typename T>
C tap(const T* plane, Plane p, int64_t y, int64_t x) {
  return (y >= 0 && y < p.h && x >= 0 && x < p.w) ? C(plane[y * p.w + x]) : C(0);
}

// The four cubic convolution weights for fraction t in [0, 1).
template <typename C>
void cubic_weights(C t, C* w) {
  const C a = C(-0.75);
  auto near = [a](C x) { return ((a + C(2)) * x - (a + C(3))) * x * x + C(1); };
  auto far = [a](C x) { return ((a * x - C(5) * a) * x + C(8) * a) * x - C(4) * a; };
  w[0] = far(t + C(1));
  w[1] = near(t);
  w[2] = near(C(1) - t);
  w[3] = far(C(2) - t);
}

struct SamplerConfig {
  Interp interp;
  Padding padding;
  bool align_corners;
};

// out[c] for c in [0, channels) at one grid point (gx, gy).
template <typename T>
void sample_point(const T* in, int64_t channels, Plane p, OpMath<T> gx, OpMath<T> gy,
                  const SamplerConfig& cfg, T* out, int64_t out_stride) {
  using C = OpMath<T>;
  const int64_t plane = p.h * p.w;
  C x = unnormalize(gx, p.w, cfg.align_corners);
  C y = unnormalize(gy, p.h, cfg.align_corners);
  if (cfg.interp == Interp::Bicubic) {
    // A non-finite coordinate: taps far outside (zeros reads 0 there).
    x = std::isfinite(x) ? x : C(-8);
    y = std::isfinite(y) ? y : C(-8);
    const C fx = std::floor(x), fy = std::floor(y);
    C wx[4], wy[4];
    cubic_weights(x - fx, wx);
    cubic_weights(y - fy, wy);
    // Each tap's coordinate padded on its own; zeros padding reads 0
    // outside.
    int64_t xs[4], ys[4];
    for (int k = 0; k < 4; ++k) {
      const C tx = pad_coordinate(fx - C(1) + C(k), p.w, cfg.padding, cfg.align_corners);
      const C ty = pad_coordinate(fy - C(1) + C(k), p.h, cfg.padding, cfg.align_corners);
      xs[k] = castable(tx, p.w) ? int64_t(tx) : -1;
      ys[k] = castable(ty, p.h) ? int64_t(ty) : -1;
    }
    for (int64_t c = 0; c < channels; ++c) {
      const T* ip = in + c * plane;
      C acc = C(0);
      for (int j = 0; j < 4; ++j) {
        C row = C(0);
        for (int k = 0; k < 4; ++k) {
          row += wx[k] * tap<C>(ip, p, ys[j], xs[k]);
        }
        acc += wy[j] * row;
      }
      out[c * out_stride] = T(acc);
    }
    return;
  }
  x = pad_coordinate(x, p.w, cfg.padding, cfg.align_corners);
  y = pad_coordinate(y, p.h, cfg.padding, cfg.align_corners);
  if (!castable(x, p.w) || !castable(y, p.h)) {
    for (int64_t c = 0; c < channels; ++c) {
      out[c * out_stride] = T(0);
    }
    return;
  }
  if (cfg.interp == Interp::Nearest) {
    const int64_t ix = int64_t(std::nearbyint(x)), iy = int64_t(std::nearbyint(y));
    for (int64_t c = 0; c < channels; ++c) {
      out[c * out_stride] = T(tap<C>(in + c * plane, p, iy, ix));
    }
    return;
  }
  const C fx = std::floor(x), fy = std::floor(y);
  const int64_t x0 = int64_t(fx), y0 = int64_t(fy);
  const C east = x - fx, south = y - fy;
  const C w_nw = (C(1) - east) * (C(1) - south), w_ne = east * (C(1) - south);
  const C w_sw = (C(1) - east) * south, w_se = east * south;
  for (int64_t c = 0; c < channels; ++c) {
    const T* ip = in + c * plane;
    out[c * out_stride] =
        T(tap<C>(ip, p, y0, x0) * w_nw + tap<C>(ip, p, y0, x0 + 1) * w_ne +
          tap<C>(ip, p, y0 + 1, x0) * w_sw + tap<C>(ip, p, y0 + 1, x0 + 1) * w_se);
  }
}

template <typename T>
void grid_sample(const T* in, const T* grid, T* out, int64_t n, int64_t channels,
                 Plane p, int64_t oh, int64_t ow, const SamplerConfig& cfg) {
  using C = OpMath<T>;
  const int64_t out_plane = oh * ow;
  parallel_for(size_t(n * oh), [&](size_t task) {
    const int64_t b = int64_t(task) / oh, row = int64_t(task) % oh;
    const T* ib = in + b * channels * p.h * p.w;
    for (int64_t col = 0; col < ow; ++col) {
      const T* g = grid + ((b * oh + row) * ow + col) * 2;
      sample_point<T>(ib, channels, p, C(g[0]), C(g[1]), cfg,
                      out + b * channels * out_plane + row * ow + col, out_plane);
    }
  });
}

void grid_sampler_2d_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::grid_sampler_2d.out", 7);
  const Tensor input = a.tensor(0), grid = a.tensor(1);
  const int64_t interp = a.int_value(2), padding = a.int_value(3);
  const bool align_corners = a.bool_value(4);
  const Tensor out = a.tensor(5);
  if (!a.ok() || !require_floating(a, input, "input") ||
      !check_same_dtype(a, input, out) || !check_contiguous(a, input, "input") ||
      !check_contiguous(a, grid, "grid") || !check_contiguous(a, out, "out")) {
    return;
  }
  if (grid.scalar_type() != input.scalar_type()) {
    a.fail(Error::InvalidArgument, "grid has dtype %s, expected input's %s",
           scalar_type_name(grid.scalar_type()), scalar_type_name(input.scalar_type()));
    return;
  }
  if (interp < 0 || interp > 2) {
    a.fail(Error::InvalidArgument,
           "interpolation_mode %lld is not 0 (bilinear), 1 (nearest) or 2 (bicubic)",
           static_cast<long long>(interp));
    return;
  }
  if (padding < 0 || padding > 2) {
    a.fail(Error::InvalidArgument,
           "padding_mode %lld is not 0 (zeros), 1 (border) or 2 (reflection)",
           static_cast<long long>(padding));
    return;
  }
  if (input.dim() != 4 || grid.dim() != 4) {
    a.fail(Error::InvalidArgument, "input and grid must have 4 dims, have %zu and %zu",
           input.dim(), grid.dim());
    return;
  }
  if (grid.sizes()[0] != input.sizes()[0] || grid.sizes()[3] != 2) {
    a.fail(Error::InvalidArgument,
           "grid must be [N = %d, OH, OW, 2], is [%d, %d, %d, %d]",
           int(input.sizes()[0]), int(grid.sizes()[0]), int(grid.sizes()[1]),
           int(grid.sizes()[2]), int(grid.sizes()[3]));
    return;
  }
  if (input.sizes()[2] == 0 || input.sizes()[3] == 0) {
    a.fail(Error::InvalidArgument, "input spatial size must be nonzero");
    return;
  }
  const int64_t n = input.sizes()[0], channels = input.sizes()[1];
  const int64_t oh = grid.sizes()[1], ow = grid.sizes()[2];
  // Every factor fits int32; the product is checked.
  int64_t total;
  if (__builtin_mul_overflow(n * channels, oh * ow, &total) || total > INT32_MAX) {
    a.fail(Error::InvalidArgument, "output is too large");
    return;
  }
  const SizesType shape[4] = {SizesType(n), SizesType(channels), SizesType(oh),
                              SizesType(ow)};
  if (!resize_out(a, out, {shape, 4}) || total == 0) {
    return;
  }
  const SamplerConfig cfg{Interp(interp), Padding(padding), align_corners};
  const Plane p{input.sizes()[2], input.sizes()[3]};
  visit_float_double_half_bfloat16_dtype(input.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    grid_sample<T>(input.const_data_ptr<T>(), grid.const_data_ptr<T>(),
                   out.mutable_data_ptr<T>(), n, channels, p, oh, ow, cfg);
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::grid_sampler_2d.out", grid_sampler_2d_out_boxed);

}  // namespace ember
