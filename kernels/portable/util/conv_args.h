// The argument checks and geometry of aten::convolution.out, shared by
// the operator (op_convolution.cpp) and the fused convolution + batch
// norm (+ activation) kernels (fused_convolution.cpp), and the Float
// fast path both run on kernels/optimized.
#pragma once

#include "kernels/optimized/conv.h"
#include "kernels/portable/util/conv_gemm.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {

struct ConvCall {
  Tensor input, weight, out;
  Optional<Tensor> bias;
  ScalarType type = ScalarType::Float;
  ConvGeometry g{};
};

// Reads convolution.out's arguments from `a` (input, weight, bias,
// stride, padding, dilation, transposed, output_padding, groups, out),
// checks them (Float or Double, contiguous, consistent geometry),
// computes the geometry and resizes out. False after failing `a`.
bool prepare_convolution(KernelArgs& a, ConvCall* call);

opt::Conv2dShape opt_shape(const ConvGeometry& g);

// Float, not transposed, on kernels/optimized/conv.h (depthwise or the
// GEMM form), with `epilogue` applied to every output (null: none). Each
// thread takes its workspace (an im2col block, or a padded plane) from
// temp memory; one thread's if that is short. False when even that is
// missing (nothing written; the caller then runs the reference form or
// declines).
bool run_convolution_f32(KernelContext& ctx, const ConvGeometry& g, const float* in,
                         const float* weight, const float* bias, float* out,
                         const opt::ConvEpilogue* epilogue = nullptr);

}  // namespace ember
