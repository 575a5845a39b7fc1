// quantized_decomposed::quantize_per_token.out(Tensor input, Tensor scales,
//     Tensor zero_points, int quant_min, int quant_max, ScalarType dtype, *,
//     Tensor(a!) out)
// Every last-dim row t of input (a "token") has its own scale and zero
// point (scales and zero_points hold one element per token, any shape):
//   out = clamp(round_half_even(x * (1 / scales[t]) + zero_points[t]),
//               quant_min, quant_max)
// in the order the eager reference computes it (the zero point is added
// before rounding, unlike quantize_per_tensor), in double when scales is
// Double (the reference's type promotion) and float32 otherwise.
#include "kernels/portable/util/quantize_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

// One token's values, clamped before the integer cast (NaN gives 0, as
// quantize_to does).
template <typename C, typename T, typename Q>
void quantize_token(const T* x, int64_t width, C inv, C zp, C lo, C hi, Q* o) {
  for (int64_t i = 0; i < width; ++i) {
    C q = std::nearbyint(C(OpMath<T>(x[i])) * inv + zp);
    q = q != q ? C(0) : (q < lo ? lo : (q > hi ? hi : q));
    o[i] = static_cast<Q>(q);
  }
}

// Every token of input, in the compute type C of Types.
template <typename Types, typename C = typename Types::Compute,
          typename Q = typename Types::Quant, typename T = typename Types::Float>
void quantize_tokens(Tensor input, Tensor scales, Tensor zero_points, int64_t tokens,
                     int64_t width, int64_t quant_min, int64_t quant_max, Tensor out) {
  const T* x = input.const_data_ptr<T>();
  Q* o = out.mutable_data_ptr<Q>();
  for (int64_t t = 0; t < tokens; ++t) {
    const C inv = C(1) / C(element_as_double(scales, t));
    const int64_t at = t * width;
    quantize_token<C>(x + at, width, inv, C(element_as_int(zero_points, t)), C(quant_min),
                      C(quant_max), o + at);
  }
}

void quantize_per_token_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "quantized_decomposed::quantize_per_token.out", 8);
  const Tensor input = a.tensor(0);
  const Tensor scales = a.tensor(1);
  const Tensor zero_points = a.tensor(2);
  const int64_t quant_min = a.int_value(3), quant_max = a.int_value(4);
  const int64_t dtype = a.int_value(5);
  const Tensor out = a.tensor(6);
  int64_t tokens = 0, width = 0;
  if (!a.ok() || !check_floating(a, input, "input") ||
      !check_quantized(a, out, dtype, quant_min, quant_max, "out") ||
      !check_per_token(a, input, scales, zero_points, &tokens, &width)) {
    return;
  }
  if (!resize_out(a, out, input.sizes())) {
    return;
  }
  visit_qdq_types(out, input, scales, [&](auto types) {
    quantize_tokens<decltype(types)>(input, scales, zero_points, tokens, width, quant_min,
                                     quant_max, out);
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("quantized_decomposed::quantize_per_token.out",
                      quantize_per_token_out_boxed);

}  // namespace ember
