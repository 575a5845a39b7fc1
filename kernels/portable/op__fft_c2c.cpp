// aten::_fft_c2c.out(Tensor self, SymInt[] dim, int normalization,
//     bool forward, *, Tensor(a!) out)
// The DFT of a complex tensor (ComplexFloat or ComplexDouble) over the
// dims in `dim`: forward uses exp(-2*pi*i*j*k/n), otherwise exp(+...),
// unnormalized either way. out has self's dtype and shape. Normalization
// by the product n of the lengths along `dim` (0: none, 1: 1/sqrt(n),
// 2: 1/n). An empty `dim` copies self (n = 1), as in PyTorch. Shared
// rules and refusals: kernels/portable/util/fft_util.h.
//
// Prepare: checks, out resized, one scratch for the longest transform.
// Execute: the first dim transformed from self into out, the others in
// place in out.
#include <cstring>

#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/elementwise.h"
#include "kernels/portable/util/fft_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

// out = self, element by element in any dim orders (an empty `dim`).
bool copy_complex(KernelArgs& a, Tensor self, Tensor out) {
  ElementwisePlan plan;
  if (!make_elementwise_plan(a, out, &self, 1, &plan)) {
    return false;
  }
  const size_t es = self.element_size();
  const char* src = static_cast<const char*>(self.const_data_ptr());
  char* dst = static_cast<char*>(out.mutable_data_ptr());
  for_each_run(plan, [&](const int64_t* off, const int64_t* stride, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      std::memcpy(dst + size_t(off[0] + i * stride[0]) * es,
                  src + size_t(off[1] + i * stride[1]) * es, es);
    }
  });
  return true;
}

template <typename T>
bool c2c(KernelArgs& a, KernelContext& ctx, Tensor self, const FftDims& dims, bool forward,
         double scale, Tensor out) {
  size_t lengths[kMaxTensorDim];
  for (size_t i = 0; i < dims.count; ++i) {
    lengths[i] = size_t(self.sizes()[dims.dims[i]]);
  }
  FftScratch<T> scratch;
  if (!alloc_fft_scratch(a, ctx, lengths, dims.count, &scratch)) {
    return false;
  }
  FftPass pass;
  pass.shape = out.sizes();
  pass.in = self.const_data_ptr();
  pass.in_strides = self.strides().data();
  pass.out = out.mutable_data_ptr();
  pass.out_strides = out.strides().data();
  pass.inverse = !forward;
  for (size_t i = 0; i < dims.count; ++i) {
    pass.axis = dims.dims[i];
    pass.length = lengths[i];
    pass.scale = i + 1 == dims.count ? scale : 1.0;
    if (!run_c2c_pass(a, scratch, pass)) {
      return false;
    }
    pass.in = out.const_data_ptr();
    pass.in_strides = out.strides().data();
  }
  return true;
}

void fft_c2c_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::_fft_c2c.out", 6);
  const Tensor self = a.tensor(0);
  const Span<int64_t> dim = a.int_list(1);
  const int64_t normalization = a.int_value(2);
  const bool forward = a.bool_value(3);
  const Tensor out = a.tensor(4);
  if (!a.ok()) {
    return;
  }
  ScalarType real = ScalarType::Float;
  if (!fft_real_of(self.scalar_type(), &real)) {
    a.fail(Error::InvalidArgument, "self must be ComplexFloat or ComplexDouble, got %s",
           scalar_type_name(self.scalar_type()));
    return;
  }
  FftDims dims;
  if (!check_fft_out_dtype(a, self, out, self.scalar_type()) ||
      !parse_fft_dims(a, dim, self.dim(), true, &dims) ||
      !check_fft_lengths(a, self.sizes(), dims, "self")) {
    return;
  }
  double n = 1.0;
  for (size_t i = 0; i < dims.count; ++i) {
    n *= double(self.sizes()[dims.dims[i]]);
  }
  double scale = 1.0;
  if (!fft_norm_scale(a, normalization, n, &scale) || !resize_out(a, out, self.sizes()) ||
      out.numel() == 0) {
    return;
  }
  if (dims.count == 0) {
    (void)copy_complex(a, self, out);
    return;
  }
  (void)visit_float_or_double_dtype(real, [&](auto tag) {
    using T = typename decltype(tag)::type;
    (void)c2c<T>(a, ctx, self, dims, forward, scale, out);
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::_fft_c2c.out", fft_c2c_out_boxed);

}  // namespace ember
