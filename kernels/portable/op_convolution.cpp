// aten::convolution.out(Tensor input, Tensor weight, Tensor? bias,
//     SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed,
//     SymInt[] output_padding, SymInt groups, *, Tensor(a!) out)
//
// 1-D ([N, C, L]) and 2-D ([N, C, H, W]) convolution, plain and transposed,
// with stride, zero padding, dilation, groups and (transposed)
// output_padding; Float or Double, contiguous.
//
// Float, not transposed, runs the kernel maths library (kernels/math/
// conv.h): NCHW GEMM over im2col packed in place, or the depthwise kernel;
// its transposed form multiplies on the optimized GEMM (util/matmul.h).
// The reference form below runs Double, and Float when temp memory is
// missing for the im2col blocks:
//
// Formulation (util/conv_gemm.h): im2col of a tile of output pixels into
// temp memory, then the blocked GEMM weight[oc, ic*kh*kw] x col, split
// across the thread pool; 1x1 stride-1 unpadded convolutions multiply the
// input directly. Transposed convolution is the GEMM weight^T x input into
// a column tile followed by col2im (scatter-add), parallel over output
// channels. Depthwise convolution (one input channel per group) and the
// no-temp-memory fallback use a direct per-plane kernel (a shifted-row
// axpy that vectorizes), parallel over planes.
#include "kernels/math/conv.h"
#include "kernels/portable/util/conv_args.h"
#include "kernels/portable/util/conv_gemm.h"
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void convolution_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::convolution.out", 11);
  ConvCall c;
  if (!prepare_convolution(a, &c)) {
    return;
  }
  const ConvGeometry& g = c.g;
  const Tensor input = c.input, weight = c.weight, out = c.out;
  const Optional<Tensor> bias = c.bias;
  const ScalarType type = c.type;
  if (out.numel() == 0) {
    return;
  }
  bool ok = true;
  visit_float_or_double_dtype(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    ok = run_convolution<T>(ctx, g, input.const_data_ptr<T>(), weight.const_data_ptr<T>(),
                       bias.has_value() ? bias.value().const_data_ptr<T>() : nullptr,
                       out.mutable_data_ptr<T>());
  });
  if (!ok) {
    a.fail(Error::MemoryAllocationFailed,
           "transposed convolution needs temp memory (temp allocator absent "
           "or full)");
  }
}

}  // namespace

// A pointwise convolution of few pixels with a constant weight gets it
// packed at load (util/conv_args.h); fused calls read it too.
const OperandPreparation kPackedConvWeight{"conv_weight_f32", "aten::convolution.out", 1,
                                           conv_weight_operand_bytes,
                                           prepare_conv_weight_operand};
EMBER_REGISTER_OPERAND_PREPARATION(kPackedConvWeight);
EMBER_REGISTER_KERNEL("aten::convolution.out", convolution_out_boxed);

}  // namespace ember
