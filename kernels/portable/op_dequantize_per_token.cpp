// quantized_decomposed::dequantize_per_token.out(Tensor input,
//     Tensor scales, Tensor zero_points, int quant_min, int quant_max,
//     ScalarType dtype, ScalarType output_dtype, *, Tensor(a!) out)
// out = (q - zero_points[t]) * scales[t] for every last-dim row t of input
// (scales and zero_points hold one element per token), computed in double
// when scales is Double and float32 otherwise (the eager reference's type
// promotion), then cast to output_dtype (out's dtype).
#include "kernels/portable/util/arithmetic.h"
#include "kernels/portable/util/quantize_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

template <typename Types, typename C = typename Types::Compute,
          typename Q = typename Types::Quant, typename T = typename Types::Float>
void dequantize_tokens(Tensor input, Tensor scales, Tensor zero_points, int64_t tokens,
                       int64_t width, Tensor out) {
  const Q* q = input.const_data_ptr<Q>();
  T* o = out.mutable_data_ptr<T>();
  for (int64_t t = 0; t < tokens; ++t) {
    const C s = C(element_as_double(scales, t));
    const int64_t zp = element_as_int(zero_points, t);
    for (int64_t i = t * width; i < (t + 1) * width; ++i) {
      // q - zp wraps like PyTorch's int64 subtraction (zp is data).
      o[i] = T(C(sub_values(int64_t(q[i]), zp)) * s);
    }
  }
}

void dequantize_per_token_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "quantized_decomposed::dequantize_per_token.out", 9);
  const Tensor input = a.tensor(0);
  const Tensor scales = a.tensor(1);
  const Tensor zero_points = a.tensor(2);
  const int64_t quant_min = a.int_value(3), quant_max = a.int_value(4);
  const int64_t dtype = a.int_value(5), output_dtype = a.int_value(6);
  const Tensor out = a.tensor(7);
  int64_t tokens = 0, width = 0;
  if (!a.ok() || !check_quantized(a, input, dtype, quant_min, quant_max, "input") ||
      !check_per_token(a, input, scales, zero_points, &tokens, &width) ||
      !check_floating(a, out, "out")) {
    return;
  }
  if (!check_out_dtype(a, out, output_dtype, "output_dtype") ||
      !resize_out(a, out, input.sizes())) {
    return;
  }
  visit_qdq_types(input, out, scales, [&](auto types) {
    dequantize_tokens<decltype(types)>(input, scales, zero_points, tokens, width, out);
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("quantized_decomposed::dequantize_per_token.out",
                      dequantize_per_token_out_boxed);

}  // namespace ember
