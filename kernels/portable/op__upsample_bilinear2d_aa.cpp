// aten::_upsample_bilinear2d_aa.out(Tensor self, SymInt[2] output_size,
//     bool align_corners, float? scales_h=None, float? scales_w=None, *,
//     Tensor(a!) out) -> Tensor(a!)
// Antialiased bilinear resize of [N, C, H, W] to [N, C, OH, OW], as
// F.interpolate(..., mode="bilinear", antialias=True); per output dim the
// taps of kernels/math/antialias.h with scale s (util/upsample_util.h:
// upsample_area_scale). The two dims are
// separable: out = sum_y wy * sum_x wx * in. Weights in double, sums in
// OpMath<T>. Float, Double, Half, BFloat16; contiguous.
#include <cmath>

#include "kernels/math/antialias.h"
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/reduce_ops.h"
#include "kernels/portable/util/upsample_util.h"
#include "runtime/kernel/operator_registry.h"
#include "runtime/platform/threadpool.h"

namespace ember {
namespace {

// The taps of one dim: output i reads inputs [first[i], first[i] + count[i])
// with weights w[i * max_taps + k].
template <typename C>
struct Taps {
  int64_t* first;
  int64_t* count;
  C* w;
  int64_t max_taps;
};

template <typename T>
void resample(const T* in, T* out, int64_t planes, int64_t in_h, int64_t in_w,
              int64_t out_h, int64_t out_w, const Taps<OpMath<T>>& th,
              const Taps<OpMath<T>>& tw) {
  using C = OpMath<T>;
  parallel_for(size_t(planes), [&](size_t p) {
    const T* ip = in + int64_t(p) * in_h * in_w;
    T* op = out + int64_t(p) * out_h * out_w;
    for (int64_t oy = 0; oy < out_h; ++oy) {
      const C* wy = th.w + oy * th.max_taps;
      for (int64_t ox = 0; ox < out_w; ++ox) {
        const C* wx = tw.w + ox * tw.max_taps;
        const T* base = ip + th.first[oy] * in_w + tw.first[ox];
        C acc = C(0);
        for (int64_t j = 0; j < th.count[oy]; ++j) {
          const T* row = base + j * in_w;
          C s = C(0);
          for (int64_t k = 0; k < tw.count[ox]; ++k) {
            s += wx[k] * C(row[k]);
          }
          acc += wy[j] * s;
        }
        op[oy * out_w + ox] = T(acc);
      }
    }
  });
}

// Whether `scale` keeps every output's window (centre scale * (i + 0.5),
// half-width max(scale, 1)) well inside int64: a scales_h or scales_w near
// zero gives a reciprocal near infinity.
bool scale_in_range(double scale, int64_t out) {
  return std::isfinite(scale) && scale * (double(out) + 1.0) < 4.0e15;
}

// Carves one dim's taps out of temp memory; false when it runs out.
template <typename C>
bool allocate_taps(KernelContext& ctx, int64_t out, int64_t taps_per, Taps<C>* t) {
  t->max_taps = taps_per;
  t->first = static_cast<int64_t*>(ctx.allocate_temp(size_t(out) * sizeof(int64_t)));
  t->count = static_cast<int64_t*>(ctx.allocate_temp(size_t(out) * sizeof(int64_t)));
  t->w = static_cast<C*>(ctx.allocate_temp(size_t(out * taps_per) * sizeof(C)));
  return t->first != nullptr && t->count != nullptr && t->w != nullptr;
}

void upsample_bilinear2d_aa_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::_upsample_bilinear2d_aa.out", 7);
  const Tensor input = a.tensor(0);
  const Span<int64_t> size = a.int_list(1);
  const bool align_corners = a.bool_value(2);
  double scale_values[2] = {0.0, 0.0};
  for (size_t i = 0; i < 2; ++i) {
    if (a.ok() && !a.value(3 + i).is_none()) {
      scale_values[i] = a.double_value(3 + i);
    }
  }
  const Tensor out = a.tensor(5);
  int64_t out_h = 0, out_w = 0;
  if (!a.ok() || !require_floating(a, input, "input") ||
      !upsample_prologue(a, input, Optional<Span<int64_t>>(size), {}, out, &out_h,
                         &out_w)) {
    return;
  }
  const Optional<Span<double>> scales(Span<double>(scale_values, 2));
  const int64_t in_h = input.sizes()[2], in_w = input.sizes()[3];
  const int64_t planes = int64_t(input.sizes()[0]) * input.sizes()[1];
  visit_float_double_half_bfloat16_dtype(input.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = OpMath<T>;
    // The scales as PyTorch computes them (in OpMath<T>), widened for the
    // weights.
    const double sh = double(upsample_area_scale<C>(align_corners, scales, 0, in_h, out_h));
    const double sw = double(upsample_area_scale<C>(align_corners, scales, 1, in_w, out_w));
    if (!scale_in_range(sh, out_h) || !scale_in_range(sw, out_w)) {
      a.fail(Error::InvalidArgument,
             "scales (%g, %g) put the source coordinates out of range",
             scale_values[0], scale_values[1]);
      return;
    }
    Taps<C> th, tw;
    if (!allocate_taps(ctx, out_h, math::antialias_max_taps(sh, in_h), &th) ||
        !allocate_taps(ctx, out_w, math::antialias_max_taps(sw, in_w), &tw)) {
      a.fail(Error::MemoryAllocationFailed, "out of temp memory for %lld x %lld taps",
             static_cast<long long>(out_h + out_w),
             static_cast<long long>(th.max_taps > tw.max_taps ? th.max_taps : tw.max_taps));
      return;
    }
    math::antialias_taps<C>(in_h, out_h, sh, th.max_taps, th.first, th.count, th.w);
    math::antialias_taps<C>(in_w, out_w, sw, tw.max_taps, tw.first, tw.count, tw.w);
    resample<T>(input.const_data_ptr<T>(), out.mutable_data_ptr<T>(), planes, in_h,
                in_w, out_h, out_w, th, tw);
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::_upsample_bilinear2d_aa.out", upsample_bilinear2d_aa_out_boxed);

}  // namespace ember
