// aten::_fft_r2c.out(Tensor self, int[] dim, int normalization,
//     bool onesided, *, Tensor(a!) out)
// The forward DFT of a real tensor over the dims in `dim`: out is complex
// (Float -> ComplexFloat, Double -> ComplexDouble), shaped like self
// except along the last dim named, which keeps n/2 + 1 entries when
// onesided (the rest are conjugates of these) and all n otherwise.
// Normalization by the product n of self's lengths along `dim` (0: none,
// 1: 1/sqrt(n), 2: 1/n). The rules every spectral operator shares, and
// where Ember refuses what PyTorch accepts: kernels/portable/util/fft_util.h.
//
// Prepare: checks, out resized, one scratch for the longest transform.
// Execute: real-to-complex transforms along the last dim named, straight
// from self into out, then complex transforms in place along the others.
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/fft_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

template <typename T>
bool r2c(KernelArgs& a, KernelContext& ctx, Tensor self, const FftDims& dims, double scale,
         Tensor out) {
  size_t lengths[kMaxTensorDim];
  for (size_t i = 0; i < dims.count; ++i) {
    lengths[i] = size_t(self.sizes()[dims.dims[i]]);
  }
  FftScratch<T> scratch;
  if (!alloc_fft_scratch(a, ctx, lengths, dims.count, &scratch)) {
    return false;
  }
  const size_t last = dims.last();
  FftPass pass;
  pass.shape = out.sizes();
  pass.axis = last;
  pass.in = self.const_data_ptr();
  pass.in_strides = self.strides().data();
  pass.out = out.mutable_data_ptr();
  pass.out_strides = out.strides().data();
  pass.length = lengths[dims.count - 1];
  pass.out_count = size_t(out.sizes()[last]);
  pass.scale = dims.count == 1 ? scale : 1.0;
  if (!run_r2c_pass(a, scratch, pass)) {
    return false;
  }
  pass.in = out.const_data_ptr();
  pass.in_strides = out.strides().data();
  for (size_t i = 0; i + 1 < dims.count; ++i) {
    pass.axis = dims.dims[i];
    pass.length = lengths[i];
    pass.scale = i + 2 == dims.count ? scale : 1.0;
    if (!run_c2c_pass(a, scratch, pass)) {
      return false;
    }
  }
  return true;
}

void fft_r2c_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::_fft_r2c.out", 6);
  const Tensor self = a.tensor(0);
  const Span<int64_t> dim = a.int_list(1);
  const int64_t normalization = a.int_value(2);
  const bool onesided = a.bool_value(3);
  const Tensor out = a.tensor(4);
  if (!a.ok()) {
    return;
  }
  ScalarType result = ScalarType::ComplexFloat;
  if (!fft_complex_of(self.scalar_type(), &result)) {
    a.fail(Error::InvalidArgument, "self must be Float or Double, got %s",
           scalar_type_name(self.scalar_type()));
    return;
  }
  FftDims dims;
  if (!check_fft_out_dtype(a, self, out, result) ||
      !parse_fft_dims(a, dim, self.dim(), false, &dims) ||
      !check_fft_lengths(a, self.sizes(), dims, "self")) {
    return;
  }
  double n = 1.0;
  Shape shape = shape_of(self);
  for (size_t i = 0; i < dims.count; ++i) {
    n *= double(self.sizes()[dims.dims[i]]);
  }
  if (onesided) {
    shape.sizes[dims.last()] = shape.sizes[dims.last()] / 2 + 1;
  }
  double scale = 1.0;
  if (!fft_norm_scale(a, normalization, n, &scale) || !resize_out(a, out, shape.span()) ||
      out.numel() == 0) {
    return;
  }
  (void)visit_float_or_double_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    (void)r2c<T>(a, ctx, self, dims, scale, out);
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::_fft_r2c.out", fft_r2c_out_boxed);

}  // namespace ember
