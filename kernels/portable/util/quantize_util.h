// Shared pieces of the quantized_decomposed Q/DQ kernels, which follow the
// reference implementations in torch/ao/quantization/fx/_decomposed.py
// (what PyTorch computes when the model runs eagerly):
//   quantize:   clamp(round_half_even(x * (1 / scale)) + zero_point,
//                     quant_min, quant_max) cast to the quantized dtype
//   dequantize: (q - zero_point) * scale
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/portable/util/dtype_util.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

// Quantized storage types: Byte, Char, Short, Int.
template <typename F>
bool visit_quantized_dtype(ScalarType t, F&& f) {
  switch (t) {
    case ScalarType::Byte: f(TypeTag<uint8_t>{}); return true;
    case ScalarType::Char: f(TypeTag<int8_t>{}); return true;
    case ScalarType::Short: f(TypeTag<int16_t>{}); return true;
    case ScalarType::Int: f(TypeTag<int32_t>{}); return true;
    default: return false;
  }
}

// The element types of a per-channel or per-token Q/DQ kernel.
template <typename C, typename Q, typename T>
struct QdqTypes {
  using Compute = C;  // double for Double scales (the eager reference's
                      // promotion), float otherwise
  using Quant = Q;    // the quantized storage type
  using Float = T;    // the floating type: Float, Double, Half, BFloat16
};

// Calls f(QdqTypes<C, Q, T>{}) for the dtypes of `quantized`, `floating`
// and `scales`; calls nothing for other types (the caller has checked
// them).
template <typename F>
void visit_qdq_types(Tensor quantized, Tensor floating, Tensor scales, F&& f) {
  const bool wide = scales.scalar_type() == ScalarType::Double;
  (void)visit_quantized_dtype(quantized.scalar_type(), [&](auto qtag) {
    // decay_t: inside the inner lambda GCC sees the captured qtag as a
    // reference.
    using Q = typename std::decay_t<decltype(qtag)>::type;
    (void)visit_storage_dtype(floating.scalar_type(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_floating_point<T>::value || is_reduced_float_v<T>) {
        if (wide) {
          f(QdqTypes<double, Q, T>{});
        } else {
          f(QdqTypes<float, Q, T>{});
        }
      }
    });
  });
}

// Fails unless out's dtype is `want` (the value of the argument `what`).
bool check_out_dtype(KernelArgs& args, Tensor out, int64_t want, const char* what);

// The token layout of the per-token Q/DQ kernels: every last-dim row of
// `input` is a token (a 0-D input is one token of width 1). Checks that
// scales is floating, zero_points a supported dtype, that input, scales
// and zero_points are contiguous, and that scales and zero_points hold one
// element per token; sets *tokens and *width.
bool check_per_token(KernelArgs& args, Tensor input, Tensor scales, Tensor zero_points,
                     int64_t* tokens, int64_t* width);

// Checks that `t` (the quantized tensor) has the ScalarType the `dtype`
// argument names, that it is a quantized storage type, and that
// [quant_min, quant_max] is a non-empty range inside it.
bool check_quantized(KernelArgs& args, Tensor t, int64_t dtype,
                     int64_t quant_min, int64_t quant_max, const char* what);

// Checks a floating tensor (Float, Double, Half, BFloat16).
bool check_floating(KernelArgs& args, Tensor t, const char* what);

// Reads element i of a floating or integral tensor as double / int64.
double element_as_double(Tensor t, int64_t i);
int64_t element_as_int(Tensor t, int64_t i);

// One quantized value, computed in C (float or double), already clamped to
// [qmin, qmax] so the caller's integer cast is defined. NaN quantizes to 0
// (even outside [qmin, qmax]), which is what PyTorch's eager kernel produces
// on x86 (its float-to-int cast of NaN); casting NaN in C++ is undefined.
template <typename C>
inline C quantize_to(C x, C inv_scale, C zero_point, C qmin, C qmax) {
  C q = std::nearbyint(x * inv_scale) + zero_point;
  if (q != q) {
    return C(0);
  }
  q = q < qmin ? qmin : q;
  return q > qmax ? qmax : q;
}

}  // namespace ember
