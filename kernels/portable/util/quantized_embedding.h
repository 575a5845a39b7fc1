// The quantized embedding lookups of upstream's quantized kernels
// (quantized_decomposed::embedding_byte / embedding_4bit / embedding_2bit,
// .out and .dtype_out), shared by op_embedding_{byte,4bit,2bit}.cpp.
//
// weight [N, P] holds N rows of D quantized values: D = P for 8 bits
// (Byte or Char), D = 2P for 4 bits (Byte; value 2j is the high nibble of
// byte j, value 2j+1 the low one, each minus 8), D = 4P for 2 bits (Byte;
// value 4j + i is bits 2i..2i+1 of byte j, lowest first, minus 2).
// weight_scales is [N] or
// [N, G] (Float, Half or BFloat16; G groups of D / G columns per row) and
// weight_zero_points, when present, has the same shape. For each index i
// (Long or Int, any shape):
//   out[i, c] = (w[i, c] - zp[i, g]) * scale[i, g],  g = c / (D / G)
// computed in float and rounded once to out's dtype. out is
// [*indices.shape, D]. quant_min / quant_max are metadata (only
// quant_min <= quant_max is checked), as upstream.
#pragma once

#include <cstdint>

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

struct QuantizedEmbeddingArgs {
  Tensor weight;
  Tensor scales;
  Optional<Tensor> zero_points;
  int64_t quant_min = 0, quant_max = 0;
  Tensor indices;
  // .dtype_out: the requested out dtype (None: any floating out). .out:
  // out must have the scales' dtype.
  bool dtype_variant = false;
  Optional<int64_t> dtype;
  Tensor out;
};

// Checks everything above, resizes out and fills it; bits is 8, 4 or 2.
// Returns false after failing the kernel.
bool run_quantized_embedding(KernelArgs& args, const QuantizedEmbeddingArgs& e, int bits);

// The whole boxed kernel of quantized_decomposed::embedding_<bits>.out
// (dtype_variant false) or .dtype_out (true): unpacks the arguments by the schema above and runs the lookup.
void quantized_embedding_boxed(KernelContext& ctx, Span<EValue*> args, int bits,
                               bool dtype_variant);

// The boxed kernel for one bit width and variant, for registration.
template <int Bits, bool DtypeVariant>
void quantized_embedding_kernel(KernelContext& ctx, Span<EValue*> args) {
  quantized_embedding_boxed(ctx, args, Bits, DtypeVariant);
}

}  // namespace ember
