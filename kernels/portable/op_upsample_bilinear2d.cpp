// aten::upsample_bilinear2d.vec_out(Tensor input, SymInt[]? output_size,
//     bool align_corners, float[]? scale_factors, *, Tensor(a!) out)
// [N, C, H, W] -> [N, C, OH, OW] by bilinear interpolation with PyTorch's
// source coordinates: align_corners maps corners to corners
// ((in - 1) / (out - 1)); otherwise half-pixel centres clamped at 0, with
// scale = 1 / scale_factor when given. Computed in float (double for
// Double). Floating dtypes; contiguous.
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/reduce_ops.h"
#include "kernels/portable/util/upsample_util.h"
#include "runtime/kernel/operator_registry.h"
#include "runtime/platform/threadpool.h"

namespace ember {
namespace {

template <typename C>
struct Tap {
  int64_t i0, i1;
  C l0, l1;
};

template <typename C>
Tap<C> make_tap(int64_t o, int64_t in, C scale, bool align_corners) {
  C src = align_corners ? scale * C(o) : scale * (C(o) + C(0.5)) - C(0.5);
  if (!align_corners && src < C(0)) {
    src = C(0);
  }
  Tap<C> t;
  t.i0 = static_cast<int64_t>(src);
  if (t.i0 > in - 1) {
    t.i0 = in - 1;
  }
  t.i1 = t.i0 + (t.i0 < in - 1 ? 1 : 0);
  t.l1 = src - C(t.i0);
  if (t.l1 > C(1)) {
    t.l1 = C(1);
  }
  t.l0 = C(1) - t.l1;
  return t;
}

template <typename T>
void bilinear(const T* in, T* out, int64_t planes, int64_t in_h, int64_t in_w,
              int64_t out_h, int64_t out_w, bool align_corners,
              Optional<Span<double>> scales, void* scratch) {
  using C = OpMath<T>;
  Tap<C>* cols = static_cast<Tap<C>*>(scratch);
  const C sh = upsample_area_scale<C>(align_corners, scales, 0, in_h, out_h);
  const C sw = upsample_area_scale<C>(align_corners, scales, 1, in_w, out_w);
  for (int64_t ow = 0; ow < out_w; ++ow) {
    cols[ow] = make_tap<C>(ow, in_w, sw, align_corners);
  }
  parallel_for(size_t(planes), [&](size_t p) {
    const T* ip = in + int64_t(p) * in_h * in_w;
    T* op = out + int64_t(p) * out_h * out_w;
    for (int64_t oh = 0; oh < out_h; ++oh) {
      const Tap<C> r = make_tap<C>(oh, in_h, sh, align_corners);
      const T* r0 = ip + r.i0 * in_w;
      const T* r1 = ip + r.i1 * in_w;
      T* orow = op + oh * out_w;
      for (int64_t ow = 0; ow < out_w; ++ow) {
        const Tap<C>& c = cols[ow];
        orow[ow] = T(r.l0 * (c.l0 * C(r0[c.i0]) + c.l1 * C(r0[c.i1])) +
                     r.l1 * (c.l0 * C(r1[c.i0]) + c.l1 * C(r1[c.i1])));
      }
    }
  });
}

void upsample_bilinear2d_vec_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::upsample_bilinear2d.vec_out", 6);
  const Tensor input = a.tensor(0);
  const Optional<Span<int64_t>> size = a.optional_int_list(1);
  const bool align_corners = a.bool_value(2);
  const Optional<Span<double>> scales = optional_double_list(a, 3);
  const Tensor out = a.tensor(4);
  int64_t out_h = 0, out_w = 0;
  if (!a.ok() || !require_floating(a, input, "input") ||
      !upsample_prologue(a, input, size, scales, out, &out_h, &out_w)) {
    return;
  }
  void* scratch = ctx.allocate_temp(size_t(out_w) * sizeof(Tap<double>));
  if (scratch == nullptr) {
    a.fail(Error::MemoryAllocationFailed, "needs %zu bytes of temp memory",
           size_t(out_w) * sizeof(Tap<double>));
    return;
  }
  const int64_t planes = int64_t(input.sizes()[0]) * input.sizes()[1];
  visit_float_double_half_bfloat16_dtype(input.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    bilinear<T>(input.const_data_ptr<T>(), out.mutable_data_ptr<T>(), planes,
                input.sizes()[2], input.sizes()[3], out_h, out_w, align_corners,
                scales, scratch);
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::upsample_bilinear2d.vec_out",
                      upsample_bilinear2d_vec_out_boxed);

}  // namespace ember
