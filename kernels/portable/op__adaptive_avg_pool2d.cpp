// aten::_adaptive_avg_pool2d.out(Tensor self, SymInt[2] output_size, *,
//                                Tensor(a!) out)
// Input [N, C, H, W] or [C, H, W], contiguous, floating. Output cell (oh, ow)
// averages rows [floor(oh * H / OH), ceil((oh + 1) * H / OH)) and the same
// for columns, as PyTorch does.
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/reduce_ops.h"
#include "runtime/kernel/operator_registry.h"
#include "runtime/platform/threadpool.h"

namespace ember {
namespace {

inline int64_t start_index(int64_t o, int64_t out, int64_t in) {
  return (o * in) / out;
}
inline int64_t end_index(int64_t o, int64_t out, int64_t in) {
  return ((o + 1) * in + out - 1) / out;
}

template <typename T>
void adaptive_plane(const T* ip, T* op, int64_t in_h, int64_t in_w,
                    int64_t out_h, int64_t out_w) {
  using C = OpMath<T>;
  for (int64_t oh = 0; oh < out_h; ++oh) {
    const int64_t h0 = start_index(oh, out_h, in_h), h1 = end_index(oh, out_h, in_h);
    for (int64_t ow = 0; ow < out_w; ++ow) {
      const int64_t w0 = start_index(ow, out_w, in_w), w1 = end_index(ow, out_w, in_w);
      C sum = 0;
      for (int64_t h = h0; h < h1; ++h) {
        for (int64_t w = w0; w < w1; ++w) {
          sum += C(ip[h * in_w + w]);
        }
      }
      op[oh * out_w + ow] = T(sum / C((h1 - h0) * (w1 - w0)));
    }
  }
}

void adaptive_avg_pool2d_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::_adaptive_avg_pool2d.out", 4);
  const Tensor self = a.tensor(0);
  const Span<int64_t> size = a.int_list(1);
  const Tensor out = a.tensor(2);
  if (!a.ok() || !require_floating(a, self, "self") ||
      !check_same_dtype(a, self, out) || !check_contiguous(a, self, "self") ||
      !check_contiguous(a, out, "out")) {
    return;
  }
  const size_t ndim = self.dim();
  if (ndim != 3 && ndim != 4) {
    a.fail(Error::InvalidArgument, "self must have 3 or 4 dims, has %zu", ndim);
    return;
  }
  if (size.size() != 2 || size[0] < 1 || size[1] < 1 || size[0] > INT32_MAX ||
      size[1] > INT32_MAX) {
    a.fail(Error::InvalidArgument,
           "output_size must be two sizes in [1, 2^31), got %zu entries",
           size.size());
    return;
  }
  const int64_t in_h = self.sizes()[ndim - 2], in_w = self.sizes()[ndim - 1];
  if (in_h == 0 || in_w == 0) {
    a.fail(Error::InvalidArgument, "input spatial size must be nonzero");
    return;
  }
  const int64_t planes = self.numel() / (in_h * in_w);
  Shape shape = shape_of(self);
  shape.sizes[ndim - 2] = SizesType(size[0]);
  shape.sizes[ndim - 1] = SizesType(size[1]);
  if (shape.numel() > INT32_MAX || !resize_out(a, out, shape.span())) {
    if (a.ok()) {
      a.fail(Error::InvalidArgument, "output is too large");
    }
    return;
  }
  const int64_t out_h = size[0], out_w = size[1];
  visit_float_double_half_bfloat16_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = self.const_data_ptr<T>();
    T* o = out.mutable_data_ptr<T>();
    parallel_for(size_t(planes), [&](size_t p) {
      adaptive_plane<T>(in + int64_t(p) * in_h * in_w, o + int64_t(p) * out_h * out_w,
                        in_h, in_w, out_h, out_w);
    });
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::_adaptive_avg_pool2d.out", adaptive_avg_pool2d_out_boxed);

}  // namespace ember
