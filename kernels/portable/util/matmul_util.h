// Argument checks shared by mm, bmm and addmm.
#pragma once

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {

// Fails unless every tensor is contiguous, has `dim` dims and shares
// tensors[0]'s dtype, which must be Float, Double, Half or BFloat16.
bool check_matmul_operands(KernelArgs& args, const Tensor* tensors,
                           const char* const* names, size_t count, size_t dim);

// c[i] = beta * c[i] + alpha * a[i] @ b[i] for i < batch, with a [m, k],
// b [k, n] and c [m, n] contiguous and of dtype `type`. Float runs the
// kernel maths library's GEMM (kernels/math/gemm.h), B packed in temp
// memory when there is room; Double, and Float when beta != 0 finds no
// temp memory for the product, run the reference blocked GEMM
// (util/matmul.h), split across the thread pool; Half and
// BFloat16 are widened to float in temp memory, multiplied with float
// accumulation and rounded once. beta == 0 ignores c's contents. Returns
// false after failing the kernel when temp memory runs out.
bool run_matmul(KernelArgs& args, KernelContext& ctx, ScalarType type,
                int64_t batch, int64_t m, int64_t n, int64_t k, double alpha,
                const void* a, const void* b, double beta, void* c);

}  // namespace ember
