// quantized_decomposed::embedding_4bit.out(Tensor weight,
//     Tensor weight_scales, Tensor? weight_zero_points, int weight_quant_min,
//     int weight_quant_max, Tensor indices, *, Tensor(a!) out)
// quantized_decomposed::embedding_4bit.dtype_out(... same ..., *,
//     ScalarType? dtype=None, Tensor(a!) out)
// Rows of a 4-bit quantized table, dequantized per row (or per group of
// columns); layout and maths in util/quantized_embedding.h. .out writes
// weight_scales' dtype, .dtype_out the dtype asked for.
#include "kernels/portable/util/quantized_embedding.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void unpack(KernelArgs& a, QuantizedEmbeddingArgs& e) {
  e.weight = a.tensor(0);
  e.scales = a.tensor(1);
  e.zero_points = a.optional_tensor(2);
  e.quant_min = a.int_value(3);
  e.quant_max = a.int_value(4);
  e.indices = a.tensor(5);
}

void embedding_4bit_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "quantized_decomposed::embedding_4bit.out", 8);
  QuantizedEmbeddingArgs e;
  unpack(a, e);
  e.out = a.tensor(6);
  if (a.ok()) {
    (void)run_quantized_embedding(a, e, 4);
  }
}

void embedding_4bit_dtype_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "quantized_decomposed::embedding_4bit.dtype_out", 9);
  QuantizedEmbeddingArgs e;
  unpack(a, e);
  e.dtype_variant = true;
  e.dtype = a.optional_enum(6);
  e.out = a.tensor(7);
  if (a.ok()) {
    (void)run_quantized_embedding(a, e, 4);
  }
}

}  // namespace

EMBER_REGISTER_KERNEL("quantized_decomposed::embedding_4bit.out", embedding_4bit_out_boxed);
EMBER_REGISTER_KERNEL("quantized_decomposed::embedding_4bit.dtype_out",
                      embedding_4bit_dtype_out_boxed);

}  // namespace ember
