// quantized_decomposed::embedding_2bit.out(Tensor weight,
//     Tensor weight_scales, Tensor? weight_zero_points, int weight_quant_min,
//     int weight_quant_max, Tensor indices, *, Tensor(a!) out)
// quantized_decomposed::embedding_2bit.dtype_out(... same ..., *,
//     ScalarType? dtype=None, Tensor(a!) out)
// Rows of a 2-bit quantized table, dequantized per row (or per group of
// columns); layout and maths in util/quantized_embedding.h. .out writes
// weight_scales' dtype, .dtype_out the dtype asked for.
#include "kernels/portable/util/quantized_embedding.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

EMBER_REGISTER_KERNEL("quantized_decomposed::embedding_2bit.out",
                      (quantized_embedding_kernel<2, false>));
EMBER_REGISTER_KERNEL("quantized_decomposed::embedding_2bit.dtype_out",
                      (quantized_embedding_kernel<2, true>));

}  // namespace ember
