// aten::avg_pool2d.out(Tensor self, int[2] kernel_size, int[2] stride=[],
//     int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True,
//     int? divisor_override=None, *, Tensor(a!) out)
// Input [N, C, H, W] or [C, H, W], contiguous, floating. Each output is the
// window's sum divided by divisor_override, or by the window size clipped
// to the padded input (count_include_pad) or to the input itself, as
// PyTorch's CPU kernel does. Planes are split across the thread pool.
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/pool_util.h"
#include "kernels/portable/util/reduce_ops.h"
#include "runtime/kernel/operator_registry.h"
#include "runtime/platform/threadpool.h"

namespace ember {
namespace {

struct AvgPoolGeometry : PoolWindow2d {
  bool count_include_pad;
  int64_t divisor;  // 0: none
};

template <typename T>
void avg_pool_plane(const AvgPoolGeometry& g, const T* ip, T* op) {
  using C = OpMath<T>;
  for (int64_t oh = 0; oh < g.out_h; ++oh) {
    int64_t h0 = oh * g.stride[0] - g.pad[0];
    int64_t h1 = h0 + g.kernel[0];
    h1 = h1 < g.in_h + g.pad[0] ? h1 : g.in_h + g.pad[0];
    const int64_t pool_h = h1 - h0;
    h0 = h0 > 0 ? h0 : 0;
    h1 = h1 < g.in_h ? h1 : g.in_h;
    for (int64_t ow = 0; ow < g.out_w; ++ow) {
      int64_t w0 = ow * g.stride[1] - g.pad[1];
      int64_t w1 = w0 + g.kernel[1];
      w1 = w1 < g.in_w + g.pad[1] ? w1 : g.in_w + g.pad[1];
      const int64_t pool_size = pool_h * (w1 - w0);
      w0 = w0 > 0 ? w0 : 0;
      w1 = w1 < g.in_w ? w1 : g.in_w;
      if (h0 >= h1 || w0 >= w1) {
        op[oh * g.out_w + ow] = T(0);
        continue;
      }
      C sum = 0;
      for (int64_t h = h0; h < h1; ++h) {
        const T* row = ip + h * g.in_w;
        for (int64_t w = w0; w < w1; ++w) {
          sum += C(row[w]);
        }
      }
      const int64_t divide = g.divisor != 0         ? g.divisor
                             : g.count_include_pad ? pool_size
                                                   : (h1 - h0) * (w1 - w0);
      op[oh * g.out_w + ow] = T(sum / C(divide));
    }
  }
}

void avg_pool2d_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::avg_pool2d.out", 9);
  const Tensor self = a.tensor(0);
  const Span<int64_t> kernel = a.int_list(1), stride = a.int_list(2),
                      padding = a.int_list(3);
  const bool ceil_mode = a.bool_value(4);
  AvgPoolGeometry g{};
  g.count_include_pad = a.bool_value(5);
  const Optional<int64_t> divisor = a.optional_int(6);
  const Tensor out = a.tensor(7);
  if (!a.ok() || !require_floating(a, self, "self") ||
      !check_same_dtype(a, self, out) || !check_contiguous(a, self, "self") ||
      !check_contiguous(a, out, "out")) {
    return;
  }
  if (!pool2d_window(a, self, kernel, stride, padding, Span<int64_t>(), ceil_mode, &g) ||
      !check_pooled_size(a, g)) {
    return;
  }
  if (divisor.has_value() &&
      (divisor.value() == 0 || divisor.value() > (int64_t(1) << 30) ||
       divisor.value() < -(int64_t(1) << 30))) {
    a.fail(Error::InvalidArgument, "divisor_override = %lld is out of range",
           static_cast<long long>(divisor.value()));
    return;
  }
  g.divisor = divisor.has_value() ? divisor.value() : 0;
  const size_t ndim = self.dim();
  Shape shape = shape_of(self);
  shape.sizes[ndim - 2] = SizesType(g.out_h);
  shape.sizes[ndim - 1] = SizesType(g.out_w);
  if (!resize_out(a, out, shape.span())) {
    return;
  }
  visit_float_double_half_bfloat16_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = self.const_data_ptr<T>();
    T* o = out.mutable_data_ptr<T>();
    parallel_for(size_t(g.planes), [&](size_t p) {
      avg_pool_plane<T>(g, in + int64_t(p) * g.in_h * g.in_w,
                        o + int64_t(p) * g.out_h * g.out_w);
    });
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::avg_pool2d.out", avg_pool2d_out_boxed);

}  // namespace ember
