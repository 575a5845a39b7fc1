// aten::max_pool2d_with_indices_backward.grad_input(Tensor grad_output,
//     Tensor self, int[2] kernel_size, int[2] stride, int[2] padding,
//     int[2] dilation, bool ceil_mode, Tensor indices, *,
//     Tensor(a!) grad_input) -> Tensor(a!)
//
// The gradient of max_pool2d_with_indices: grad_input (self's shape) is
// zero except where a window's maximum was taken, which receives the sum of
// the gradients of every window that chose it. indices are the forward's
// (the flat h * W + w position within each plane), Long, shaped like
// grad_output; the pooling parameters are checked as the forward checks
// them and must give grad_output's spatial size. Every index is checked to
// lie in its plane before anything is written. Input [N, C, H, W] or
// [C, H, W], contiguous; Float, Double, Half, BFloat16 (Half and BFloat16
// add in float and round each sum).
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/pool_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

template <typename T>
void scatter_gradients(int64_t planes, int64_t in_plane, int64_t out_plane, const T* grad,
                       const int64_t* indices, T* grad_input) {
  using C = OpMath<T>;
  for (int64_t i = 0; i < planes * in_plane; ++i) {
    grad_input[i] = T(0);
  }
  for (int64_t p = 0; p < planes; ++p) {
    T* gi = grad_input + p * in_plane;
    for (int64_t o = p * out_plane; o < (p + 1) * out_plane; ++o) {
      T& dst = gi[indices[o]];
      dst = T(C(dst) + C(grad[o]));
    }
  }
}

void max_pool2d_with_indices_backward_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::max_pool2d_with_indices_backward.grad_input", 10);
  const Tensor grad = a.tensor(0), self = a.tensor(1);
  const Span<int64_t> kernel = a.int_list(2), stride = a.int_list(3),
                      padding = a.int_list(4), dilation = a.int_list(5);
  const bool ceil_mode = a.bool_value(6);
  const Tensor indices = a.tensor(7), grad_input = a.tensor(8);
  if (!a.ok()) {
    return;
  }
  const ScalarType type = self.scalar_type();
  if (!visit_float_double_half_bfloat16_dtype(type, [](auto) {})) {
    a.fail(Error::NotSupported, "dtype %s is not supported (a floating type)",
           scalar_type_name(type));
    return;
  }
  if (!check_same_dtype(a, self, grad) || !check_same_dtype(a, self, grad_input) ||
      !check_contiguous(a, grad, "grad_output") || !check_contiguous(a, self, "self") ||
      !check_contiguous(a, indices, "indices") ||
      !check_contiguous(a, grad_input, "grad_input")) {
    return;
  }
  if (indices.scalar_type() != ScalarType::Long) {
    a.fail(Error::InvalidArgument, "indices must be Long, got %s",
           scalar_type_name(indices.scalar_type()));
    return;
  }
  PoolWindow2d w{};
  if (!pool2d_window(a, self, kernel, stride, padding, dilation, ceil_mode, &w)) {
    return;
  }
  const size_t ndim = self.dim();
  const int64_t in_h = w.in_h, in_w = w.in_w;
  const int64_t out_size[2] = {w.out_h, w.out_w};
  Shape expected = shape_of(self);
  expected.sizes[ndim - 2] = SizesType(out_size[0] > 0 ? out_size[0] : 0);
  expected.sizes[ndim - 1] = SizesType(out_size[1] > 0 ? out_size[1] : 0);
  const Span<const SizesType> want = expected.span();
  auto same = [&](Tensor t) {
    if (t.dim() != ndim) {
      return false;
    }
    for (size_t d = 0; d < ndim; ++d) {
      if (t.sizes()[d] != want[d]) {
        return false;
      }
    }
    return true;
  };
  if (out_size[0] < 1 || out_size[1] < 1 || !same(grad) || !same(indices)) {
    a.fail(Error::InvalidArgument,
           "grad_output and indices must have self's shape with the pooled size "
           "%lld x %lld as their last two dims",
           static_cast<long long>(out_size[0]), static_cast<long long>(out_size[1]));
    return;
  }
  if (!resize_out(a, grad_input, shape_of(self).span()) || self.numel() == 0) {
    return;
  }
  const int64_t in_plane = in_h * in_w, out_plane = out_size[0] * out_size[1];
  const int64_t planes = w.planes;
  const int64_t* idx = indices.const_data_ptr<int64_t>();
  for (int64_t i = 0; i < planes * out_plane; ++i) {
    if (idx[i] < 0 || idx[i] >= in_plane) {
      a.fail(Error::InvalidArgument, "indices[%lld] = %lld is outside the %lld x %lld plane",
             static_cast<long long>(i), static_cast<long long>(idx[i]),
             static_cast<long long>(in_h), static_cast<long long>(in_w));
      return;
    }
  }
  visit_float_double_half_bfloat16_dtype(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    scatter_gradients<T>(planes, in_plane, out_plane, grad.const_data_ptr<T>(), idx,
                         grad_input.mutable_data_ptr<T>());
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::max_pool2d_with_indices_backward.grad_input",
                      max_pool2d_with_indices_backward_boxed);

}  // namespace ember
