// aten::max_pool2d_with_indices.out(Tensor self, int[2] kernel_size,
//     int[2] stride=[], int[2] padding=0, int[2] dilation=1,
//     bool ceil_mode=False, *, Tensor(a!) out, Tensor(b!) indices)
//     -> (Tensor(a!), Tensor(b!))
// Boxed args: [self, kernel_size, stride, padding, dilation, ceil_mode, out,
// indices] followed by the return: either one value holding the (out,
// indices) tuple, which is what the exporter serializes (9 args), or the two
// tensors separately (10 args). Input [N, C, H, W] or [C, H, W], contiguous. Each
// index is the flat h * W + w position of the max within its plane; NaN
// wins (the last one, as in PyTorch's CPU kernel).
#include <cmath>
#include <limits>
#include <type_traits>

#include "kernels/math/pool.h"
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/pool_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

using PoolGeometry = PoolWindow2d;

template <typename T>
void max_pool(const PoolGeometry& g, const T* in, T* out, int64_t* indices) {
  if constexpr (std::is_same_v<T, float>) {
    // Float: the kernel maths library (kernels/math/pool.h), vectorized
    // and threaded, same rule; the loops below are the reference for the
    // other dtypes.
    math::MaxPool2dShape s;
    s.planes = size_t(g.planes), s.in_h = size_t(g.in_h), s.in_w = size_t(g.in_w);
    s.out_h = size_t(g.out_h), s.out_w = size_t(g.out_w);
    s.kernel_h = size_t(g.kernel[0]), s.kernel_w = size_t(g.kernel[1]);
    s.stride_h = size_t(g.stride[0]), s.stride_w = size_t(g.stride[1]);
    s.pad_h = size_t(g.pad[0]), s.pad_w = size_t(g.pad[1]);
    s.dilation_h = size_t(g.dilation[0]), s.dilation_w = size_t(g.dilation[1]);
    math::max_pool2d_f32(s, in, out, indices);
    return;
  }
  using C = typename std::conditional<is_reduced_float_v<T>, float, T>::type;
  const C lowest = std::numeric_limits<C>::has_infinity
                       ? -std::numeric_limits<C>::infinity()
                       : std::numeric_limits<C>::lowest();
  for (int64_t p = 0; p < g.planes; ++p) {
    const T* ip = in + p * g.in_h * g.in_w;
    T* op = out + p * g.out_h * g.out_w;
    int64_t* xp = indices + p * g.out_h * g.out_w;
    for (int64_t oh = 0; oh < g.out_h; ++oh) {
      int64_t h0 = oh * g.stride[0] - g.pad[0];
      const int64_t h_end_raw = h0 + (g.kernel[0] - 1) * g.dilation[0] + 1;
      const int64_t h1 = h_end_raw < g.in_h ? h_end_raw : g.in_h;
      while (h0 < 0) {
        h0 += g.dilation[0];
      }
      for (int64_t ow = 0; ow < g.out_w; ++ow) {
        int64_t w0 = ow * g.stride[1] - g.pad[1];
        const int64_t w_end_raw = w0 + (g.kernel[1] - 1) * g.dilation[1] + 1;
        const int64_t w1 = w_end_raw < g.in_w ? w_end_raw : g.in_w;
        while (w0 < 0) {
          w0 += g.dilation[1];
        }
        C best = lowest;
        int64_t best_index = h0 * g.in_w + w0;
        for (int64_t h = h0; h < h1; h += g.dilation[0]) {
          for (int64_t w = w0; w < w1; w += g.dilation[1]) {
            const C v = static_cast<C>(ip[h * g.in_w + w]);
            bool nan = false;
            if constexpr (std::is_floating_point<C>::value) {
              nan = std::isnan(v);
            }
            if (v > best || nan) {
              best = v;
              best_index = h * g.in_w + w;
            }
          }
        }
        op[oh * g.out_w + ow] = T(best);
        xp[oh * g.out_w + ow] = best_index;
      }
    }
  }
}

void max_pool2d_with_indices_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  const size_t count = args.size() == 9 ? 9 : 10;
  KernelArgs a(ctx, args, "aten::max_pool2d_with_indices.out", count);
  const Tensor self = a.tensor(0);
  const Span<int64_t> kernel = a.int_list(1), stride = a.int_list(2),
                      padding = a.int_list(3), dilation = a.int_list(4);
  const bool ceil_mode = a.bool_value(5);
  const Tensor out = a.tensor(6), indices = a.tensor(7);
  if (!a.ok() || !check_same_dtype(a, self, out) ||
      !check_contiguous(a, self, "self") || !check_contiguous(a, out, "out") ||
      !check_contiguous(a, indices, "indices")) {
    return;
  }
  if (self.scalar_type() == ScalarType::Bool) {
    a.fail(Error::InvalidArgument, "Bool input is not supported");
    return;
  }
  if (indices.scalar_type() != ScalarType::Long) {
    a.fail(Error::InvalidArgument, "indices must be Long, got %s",
           scalar_type_name(indices.scalar_type()));
    return;
  }
  PoolGeometry g{};
  if (!pool2d_window(a, self, kernel, stride, padding, dilation, ceil_mode, &g) ||
      !check_pooled_size(a, g)) {
    return;
  }
  const size_t ndim = self.dim();
  Shape shape = shape_of(self);
  shape.sizes[ndim - 2] = SizesType(g.out_h);
  shape.sizes[ndim - 1] = SizesType(g.out_w);
  if (!resize_out(a, out, shape.span()) ||
      !resize_out(a, indices, shape.span())) {
    return;
  }
  visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same<T, bool>::value) {
      max_pool<T>(g, self.const_data_ptr<T>(), out.mutable_data_ptr<T>(),
                  indices.mutable_data_ptr<int64_t>());
    }
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::max_pool2d_with_indices.out",
                      max_pool2d_with_indices_out_boxed);

}  // namespace ember
