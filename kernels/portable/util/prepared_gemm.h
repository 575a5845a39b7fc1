// A float matrix product's B operand packed once from a constant (a
// linear layer's weight, usually read through its transpose), for
// addmm.out's and mm.out's operand preparations
// (runtime/kernel/operand_preparation.h). The packing is the optimized
// GEMM's own (kernels/math/gemm.h, pack_gemm_b / pack_gemm_bt) for
// the ISA chosen at run time, behind a small header that says what was
// packed, so a call uses it only when it matches.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/evalue.h"
#include "runtime/kernel/kernel_context.h"
#include "runtime/kernel/operand_preparation.h"

namespace ember {

// A prepared B [k, n] of any origin: its bytes (a header, then
// gemm_packed_b_floats(k, n) floats of panels for the ISA chosen at run
// time), and the header written into `out`, returning where the panels go.
size_t prepared_b_bytes(size_t k, size_t n);
float* prepared_b_panels(void* out, size_t k, size_t n);

// Bytes for `operand` (the call's B: Float, 2-D [k, n]) packed from
// `source`, or 0 when this is not such a product.
size_t gemm_b_operand_bytes(const EValue& operand, const OperandSource& source);
// Packs it into `out` (gemm_b_operand_bytes long, 64-byte aligned).
void prepare_gemm_b_operand(const EValue& operand, const OperandSource& source, void* out);
// The call's packed B for a [k, n] operand, or null when the call has no
// prepared operand or it was packed for another shape or ISA.
const float* prepared_gemm_b(const KernelContext& ctx, int64_t k, int64_t n);

// out[m, n] = a[m, k] @ B + bias[n] on the call's prepared B, the bias
// added in the GEMM's epilogue (no pass over out before or after). False,
// having written nothing, when the call has no prepared B for [k, n],
// bias overlaps out, or temp memory for the bias padded to whole panels
// runs out: the caller then takes its general path.
bool prepared_linear_f32(KernelContext& ctx, int64_t m, int64_t n, int64_t k, const float* a,
                         const float* bias, float* out);

}  // namespace ember
