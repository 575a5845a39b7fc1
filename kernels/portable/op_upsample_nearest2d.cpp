// aten::upsample_nearest2d.vec_out(Tensor input, SymInt[]? output_size,
//     float[]? scale_factors, *, Tensor(a!) out)
// [N, C, H, W] -> [N, C, OH, OW]; source index min(floor(o * scale), in - 1)
// in float, scale = 1 / scale_factor when given, else in / out (PyTorch's
// nearest_idx, exact shortcuts included). Any storage dtype; contiguous.
#include <cmath>

#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/upsample_util.h"
#include "runtime/kernel/operator_registry.h"
#include "runtime/platform/threadpool.h"

namespace ember {
namespace {

int64_t nearest_index(int64_t o, int64_t in, int64_t out, float scale) {
  if (out == in) {
    return o;
  }
  if (out == 2 * in) {
    return o >> 1;
  }
  const int64_t i = static_cast<int64_t>(std::floor(float(o) * scale));
  return i < in - 1 ? i : in - 1;
}

template <typename T>
void upsample_nearest(const T* in, T* out, int64_t planes, int64_t in_h,
                      int64_t in_w, int64_t out_h, int64_t out_w, float scale_h,
                      float scale_w, int64_t* src_w) {
  for (int64_t ow = 0; ow < out_w; ++ow) {
    src_w[ow] = nearest_index(ow, in_w, out_w, scale_w);
  }
  parallel_for(size_t(planes), [&](size_t p) {
    const T* ip = in + int64_t(p) * in_h * in_w;
    T* op = out + int64_t(p) * out_h * out_w;
    for (int64_t oh = 0; oh < out_h; ++oh) {
      const T* row = ip + nearest_index(oh, in_h, out_h, scale_h) * in_w;
      T* orow = op + oh * out_w;
      for (int64_t ow = 0; ow < out_w; ++ow) {
        orow[ow] = row[src_w[ow]];
      }
    }
  });
}

void upsample_nearest2d_vec_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::upsample_nearest2d.vec_out", 5);
  const Tensor input = a.tensor(0);
  const Optional<Span<int64_t>> size = a.optional_int_list(1);
  const Optional<Span<double>> scales = optional_double_list(a, 2);
  const Tensor out = a.tensor(3);
  int64_t out_h = 0, out_w = 0;
  if (!upsample_prologue(a, input, size, scales, out, &out_h, &out_w)) {
    return;
  }
  const int64_t in_h = input.sizes()[2], in_w = input.sizes()[3];
  int64_t* src_w = static_cast<int64_t*>(ctx.allocate_temp(size_t(out_w) * sizeof(int64_t)));
  if (src_w == nullptr) {
    a.fail(Error::MemoryAllocationFailed, "needs %lld bytes of temp memory",
           static_cast<long long>(out_w) * 8);
    return;
  }
  const float scale_h = upsample_scale<float>(scales, 0, in_h, out_h);
  const float scale_w = upsample_scale<float>(scales, 1, in_w, out_w);
  const int64_t planes = int64_t(input.sizes()[0]) * input.sizes()[1];
  if (!visit_storage_dtype(input.scalar_type(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        upsample_nearest<T>(input.const_data_ptr<T>(), out.mutable_data_ptr<T>(),
                            planes, in_h, in_w, out_h, out_w, scale_h, scale_w,
                            src_w);
      })) {
    a.fail(Error::InvalidArgument, "unsupported dtype %s",
           scalar_type_name(input.scalar_type()));
  }
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::upsample_nearest2d.vec_out",
                      upsample_nearest2d_vec_out_boxed);

}  // namespace ember
