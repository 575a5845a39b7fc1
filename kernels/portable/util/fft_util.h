// Shared by the spectral operators (op__fft_r2c.cpp, op__fft_c2r.cpp,
// op__fft_c2c.cpp): their argument checks, the temp memory they run in,
// and the passes that apply a 1-D transform of kernels/math/fft.h along
// one dim of a strided tensor.
//
// PyTorch's rules (checked against torch 2.13's CPU kernels):
//   - `dim` names dims in [0, ndim) of a tensor with at least one dim;
//     every transformed dim has at least one element;
//   - normalization 0: none, 1: times 1/sqrt(n), 2: times 1/n, where n is
//     the number of elements of one signal (the product of the full
//     lengths along `dim`: the real side's, for r2c and c2r).
// Refused here where PyTorch does not refuse: a dim named twice (PyTorch
// then computes neither one transform nor two), a normalization outside
// 0..2 (PyTorch's MKL path treats it as 2), and an out whose dtype is not
// exactly the result's (PyTorch's .out casts; exported programs never ask
// for it). Taken here where PyTorch's CPU kernels stop on an internal
// assert: negative dims (torch.fft's frontends pass them normalized) and,
// for c2r, a self longer than n/2 + 1 along the last dim but shorter than
// n (its first n/2 + 1 entries are read). Every failure is recorded
// through KernelArgs and returned as false; the kernel returns at once.
//
// Memory: FftScratch comes from the kernel's temp allocator, sized for the
// longest transform the operator runs; each pass lays its plan out in it
// again. Single-threaded.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/math/fft.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {

// The transform dims, normalized to [0, ndim), in the order given.
struct FftDims {
  size_t dims[kMaxTensorDim];
  size_t count = 0;
  size_t last() const { return dims[count - 1]; }
};

// Normalizes `dim` (each in [-ndim, ndim)) for a tensor of `ndim` dims.
// Refuses a 0-dim tensor, a dim out of range, a repeated dim, and (unless
// allow_empty) an empty list.
bool parse_fft_dims(KernelArgs& args, Span<const int64_t> dim, size_t ndim, bool allow_empty,
                    FftDims* out);

// Fails unless sizes[d] >= 1 for every transform dim d.
bool check_fft_lengths(KernelArgs& args, Span<const SizesType> sizes, const FftDims& dims,
                       const char* what);

// The factor `normalization` applies to a signal of `n` elements.
bool fft_norm_scale(KernelArgs& args, int64_t normalization, double n, double* scale);

// Float <-> ComplexFloat, Double <-> ComplexDouble; false for any other
// dtype (ComplexHalf and Half included: PyTorch's CPU FFT refuses them).
bool fft_complex_of(ScalarType real, ScalarType* complex);
bool fft_real_of(ScalarType complex, ScalarType* real);

// Fails unless out's dtype is `want` (what the result is).
bool check_fft_out_dtype(KernelArgs& args, Tensor self, Tensor out, ScalarType want);

// Temp memory for the transforms of one operator call, in T (float or
// double): a plan's memory and three lines.
template <typename T>
struct FftScratch {
  void* plan_memory = nullptr;
  size_t plan_bytes = 0;
  size_t max_length = 0;
  T* line_a = nullptr;  // 2 * max_length values (input line(s))
  T* line_b = nullptr;  // 4 * max_length values (output line(s))
  T* work = nullptr;    // 4 * max_length values
};

// Sizes the scratch for transforms of each of lengths[0..count) and takes
// it from the context's temp memory (MemoryAllocationFailed when short).
template <typename T>
bool alloc_fft_scratch(KernelArgs& args, KernelContext& ctx, const size_t* lengths, size_t count,
                       FftScratch<T>* scratch);

// One pass: for every line along `axis` of a region of `shape` (its size
// along `axis` is not used), read `in` at offsets sum_d index[d] *
// in_strides[d] (in elements of in; a complex element counts one),
// transform, multiply by `scale` and write `out` likewise. Lines do not
// overlap, so in may be out.
struct FftPass {
  Span<const SizesType> shape;
  size_t axis = 0;
  const void* in = nullptr;
  const StridesType* in_strides = nullptr;
  void* out = nullptr;
  const StridesType* out_strides = nullptr;
  size_t length = 0;     // the transform length n
  size_t out_count = 0;  // r2c: pairs written per line (n/2 + 1 or n)
  bool inverse = false;  // c2c: exp(+2*pi*i*...) instead of exp(-...)
  double scale = 1.0;
};

// complex -> complex, n pairs read and written per line.
template <typename T>
bool run_c2c_pass(KernelArgs& args, FftScratch<T>& scratch, const FftPass& pass);
// real -> complex: n reals read, out_count pairs written. Lines go two at
// a time through one complex transform (math::fft_r2c_pair).
template <typename T>
bool run_r2c_pass(KernelArgs& args, FftScratch<T>& scratch, const FftPass& pass);
// complex -> real: n/2 + 1 pairs read (fft_c2r), n reals written.
template <typename T>
bool run_c2r_pass(KernelArgs& args, FftScratch<T>& scratch, const FftPass& pass);

}  // namespace ember
