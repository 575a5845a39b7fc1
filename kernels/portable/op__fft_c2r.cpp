// aten::_fft_c2r.out(Tensor self, int[] dim, int normalization,
//     SymInt last_dim_size, *, Tensor(a!) out)
// The inverse DFT over the dims in `dim` of a complex tensor that holds
// the onesided half of a Hermitian spectrum along the last dim named: out
// is real (ComplexFloat -> Float, ComplexDouble -> Double), shaped like
// self except that the last dim named has last_dim_size entries. Along it
// only the first last_dim_size/2 + 1 entries of self are read (self may
// hold more; fewer is refused), and the imaginary parts of entry 0 and,
// for an even size, entry last_dim_size/2 do not count. The other dims
// named are inverse complex transforms, done first. Normalization by the
// product n of out's lengths along `dim` (0: none, 1: 1/sqrt(n), 2: 1/n).
// Shared rules and refusals: kernels/portable/util/fft_util.h.
//
// Prepare: checks, out resized, scratch (plus, with several dims, a
// complex buffer for the half spectrum after the complex transforms).
// Execute: complex transforms along the other dims (self -> buffer), then
// complex-to-real transforms along the last (buffer or self -> out).
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/fft_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

// The half spectrum as a contiguous complex buffer of `shape` from temp
// memory, with its strides.
template <typename T>
T* alloc_half_spectrum(KernelArgs& a, KernelContext& ctx, const Shape& shape,
                       StridesType* strides) {
  int64_t numel = 1;
  for (size_t d = shape.dim; d-- > 0;) {
    strides[d] = numel;
    numel *= shape.sizes[d];
  }
  const size_t bytes = size_t(numel) * 2 * sizeof(T);
  T* buffer = static_cast<T*>(ctx.allocate_temp(bytes));
  if (buffer == nullptr) {
    a.fail(Error::MemoryAllocationFailed,
           "needs %llu bytes of temp memory for the half spectrum",
           static_cast<unsigned long long>(bytes));
  }
  return buffer;
}

template <typename T>
bool c2r(KernelArgs& a, KernelContext& ctx, Tensor self, const FftDims& dims, double scale,
         Tensor out) {
  size_t lengths[kMaxTensorDim];
  for (size_t i = 0; i < dims.count; ++i) {
    lengths[i] = size_t(out.sizes()[dims.dims[i]]);
  }
  FftScratch<T> scratch;
  if (!alloc_fft_scratch(a, ctx, lengths, dims.count, &scratch)) {
    return false;
  }
  const size_t last = dims.last();
  // The complex passes run on the half spectrum: self's shape with
  // last_dim_size/2 + 1 entries along the last dim named.
  Shape half = shape_of(self);
  half.sizes[last] = SizesType(lengths[dims.count - 1] / 2 + 1);
  const void* spectrum = self.const_data_ptr();
  const StridesType* spectrum_strides = self.strides().data();
  StridesType buffer_strides[kMaxTensorDim];
  if (dims.count > 1) {
    T* buffer = alloc_half_spectrum<T>(a, ctx, half, buffer_strides);
    if (buffer == nullptr) {
      return false;
    }
    FftPass pass;
    pass.shape = half.span();
    pass.in = self.const_data_ptr();
    pass.in_strides = self.strides().data();
    pass.out = buffer;
    pass.out_strides = buffer_strides;
    pass.inverse = true;
    for (size_t i = 0; i + 1 < dims.count; ++i) {
      pass.axis = dims.dims[i];
      pass.length = lengths[i];
      if (!run_c2c_pass(a, scratch, pass)) {
        return false;
      }
      pass.in = buffer;
      pass.in_strides = buffer_strides;
    }
    spectrum = buffer;
    spectrum_strides = buffer_strides;
  }
  FftPass pass;
  pass.shape = out.sizes();
  pass.axis = last;
  pass.in = spectrum;
  pass.in_strides = spectrum_strides;
  pass.out = out.mutable_data_ptr();
  pass.out_strides = out.strides().data();
  pass.length = lengths[dims.count - 1];
  pass.scale = scale;
  return run_c2r_pass(a, scratch, pass);
}

void fft_c2r_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::_fft_c2r.out", 6);
  const Tensor self = a.tensor(0);
  const Span<int64_t> dim = a.int_list(1);
  const int64_t normalization = a.int_value(2);
  const int64_t last_dim_size = a.int_value(3);
  const Tensor out = a.tensor(4);
  if (!a.ok()) {
    return;
  }
  ScalarType result = ScalarType::Float;
  if (!fft_real_of(self.scalar_type(), &result)) {
    a.fail(Error::InvalidArgument, "self must be ComplexFloat or ComplexDouble, got %s",
           scalar_type_name(self.scalar_type()));
    return;
  }
  FftDims dims;
  if (!check_fft_out_dtype(a, self, out, result) ||
      !parse_fft_dims(a, dim, self.dim(), false, &dims)) {
    return;
  }
  const size_t last = dims.last();
  if (last_dim_size < 1 || last_dim_size > INT32_MAX) {
    a.fail(Error::InvalidArgument, "last_dim_size %lld is not a length in [1, 2^31)",
           static_cast<long long>(last_dim_size));
    return;
  }
  const int64_t needed = last_dim_size / 2 + 1;
  if (self.sizes()[last] < needed) {
    a.fail(Error::InvalidArgument,
           "self has %lld entries along dim %llu; last_dim_size %lld needs at least %lld",
           static_cast<long long>(self.sizes()[last]), static_cast<unsigned long long>(last),
           static_cast<long long>(last_dim_size), static_cast<long long>(needed));
    return;
  }
  Shape shape = shape_of(self);
  shape.sizes[last] = SizesType(last_dim_size);
  double n = 1.0;
  for (size_t i = 0; i < dims.count; ++i) {
    n *= double(shape.sizes[dims.dims[i]]);
  }
  double scale = 1.0;
  if (!check_fft_lengths(a, shape.span(), dims, "self") ||
      !fft_norm_scale(a, normalization, n, &scale) || !resize_out(a, out, shape.span()) ||
      out.numel() == 0) {
    return;
  }
  (void)visit_float_or_double_dtype(result, [&](auto tag) {
    using T = typename decltype(tag)::type;
    (void)c2r<T>(a, ctx, self, dims, scale, out);
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::_fft_c2r.out", fft_c2r_out_boxed);

}  // namespace ember
