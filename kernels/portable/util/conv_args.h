// The argument checks and geometry of aten::convolution.out, shared by
// the operator (op_convolution.cpp) and the fused convolution + batch
// norm (+ activation) kernels (fused_convolution.cpp), and the Float
// fast path both run on kernels/math.
#pragma once

#include <type_traits>

#include "kernels/math/conv.h"
#include "kernels/portable/util/conv_gemm.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_context.h"
#include "runtime/kernel/operand_preparation.h"
#include "runtime/platform/threadpool.h"

namespace ember {

struct ConvCall {
  Tensor input, weight, out;
  Optional<Tensor> bias;
  ScalarType type = ScalarType::Float;
  ConvGeometry g{};
};

// A convolution's operands and parameters as an operator received them.
struct ConvSpec {
  Tensor input, weight;
  Optional<Tensor> bias;
  Span<int64_t> stride, padding, dilation, output_padding;
  bool transposed = false;
  int64_t groups = 1;
};

// Checks the shapes and parameters of `spec` (ranks, list lengths and
// ranges, groups against the channels, bias size, output size; not the
// dtypes or the layout) and computes the geometry. False after failing
// `a`. Shared by convolution.out and convolution_backward.out.
bool convolution_geometry(KernelArgs& a, const ConvSpec& spec, ConvGeometry* g);

// Reads convolution.out's arguments from `a` (input, weight, bias,
// stride, padding, dilation, transposed, output_padding, groups, out),
// checks them (Float or Double, contiguous, consistent geometry),
// computes the geometry and resizes out. False after failing `a`.
bool prepare_convolution(KernelArgs& a, ConvCall* call);

math::Conv2dShape opt_shape(const ConvGeometry& g);

// convolution.out's weight (argument 1) packed once, at load, for the
// pointwise product of few pixels (kernels/math/conv.h,
// conv2d_pack_weights) when the call's shapes take that form (0 bytes
// otherwise): the operand preparation op_convolution.cpp registers.
// run_convolution_f32 finds it through the kernel context.
size_t conv_weight_operand_bytes(Span<EValue*> args, const OperandSource& source);
void prepare_conv_weight_operand(Span<EValue*> args, const OperandSource& source, void* out);

// Float, not transposed, on kernels/math/conv.h (depthwise or the
// GEMM form), with `epilogue` applied to every output (null: none). Each
// thread takes its workspace (an im2col block, or a padded plane) from
// temp memory; one thread's if that is short. False when even that is
// missing (nothing written; the caller then runs the reference form or
// declines).
bool run_convolution_f32(KernelContext& ctx, const ConvGeometry& g, const float* in,
                         const float* weight, const float* bias, float* out,
                         const math::ConvEpilogue* epilogue = nullptr);

// out = conv(in, weight) + bias (bias may be null) for either kind of
// convolution, by the engines op_convolution.cpp's overview describes:
// Float non-transposed on kernels/math, the rest on util/conv_gemm.h.
// False when transposed convolution finds no temp memory (it has no
// scratch-free fallback); nothing is written then.
template <typename T>
bool run_convolution(KernelContext& ctx, const ConvGeometry& g, const T* in,
                     const T* weight, const T* bias, T* out) {
  if constexpr (std::is_same_v<T, float>) {
    if (!g.transposed && run_convolution_f32(ctx, g, in, weight, bias, out)) {
      return true;
    }
  }
  if (g.transposed) {
    const int64_t icg = g.in_channels / g.groups;
    const int64_t rows = g.out_channels / g.groups * g.kernel_h * g.kernel_w;
    const int64_t need = icg * rows + rows * conv_transposed_tile<T>(g);
    T* scratch = static_cast<T*>(ctx.allocate_temp(size_t(need) * sizeof(T)));
    if (scratch == nullptr) {
      return false;
    }
    conv_transposed_gemm<T>(g, in, weight, bias, out, scratch, scratch + icg * rows);
    return true;
  }
  const bool depthwise = g.in_channels == g.groups;
  const int64_t need = conv_gemm_scratch<T>(g);
  T* col = nullptr;
  int64_t workers = int64_t(num_threads());
  if (!depthwise && need > 0) {
    // One column tile per thread; settle for one if memory is short.
    col = static_cast<T*>(ctx.allocate_temp(size_t(need * workers) * sizeof(T)));
    if (col == nullptr && workers > 1) {
      workers = 1;
      col = static_cast<T*>(ctx.allocate_temp(size_t(need) * sizeof(T)));
    }
  }
  if (depthwise || (need > 0 && col == nullptr)) {
    conv_direct<T>(g, in, weight, bias, out);
  } else {
    conv_gemm<T>(g, in, weight, bias, out, col, workers);
  }
  return true;
}

}  // namespace ember
