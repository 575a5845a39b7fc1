// quantized_decomposed::embedding_byte.out(Tensor weight,
//     Tensor weight_scales, Tensor? weight_zero_points, int weight_quant_min,
//     int weight_quant_max, Tensor indices, *, Tensor(a!) out)
// quantized_decomposed::embedding_byte.dtype_out(... same ..., *,
//     ScalarType? dtype=None, Tensor(a!) out)
// Rows of a 8-bit quantized table, dequantized per row (or per group of
// columns); layout and maths in util/quantized_embedding.h. .out writes
// weight_scales' dtype, .dtype_out the dtype asked for.
#include "kernels/portable/util/quantized_embedding.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

EMBER_REGISTER_KERNEL("quantized_decomposed::embedding_byte.out",
                      (quantized_embedding_kernel<8, false>));
EMBER_REGISTER_KERNEL("quantized_decomposed::embedding_byte.dtype_out",
                      (quantized_embedding_kernel<8, true>));

}  // namespace ember
