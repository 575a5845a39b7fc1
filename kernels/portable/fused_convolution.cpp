// Fused kernels (runtime/kernel/fusion_registry.h) for the inference
// pattern every exported CNN without a delegate has:
//
//   convolution.out -> _native_batch_norm_legit_no_training.out
//                   [-> hardtanh.out | relu.out]
//
// run as one convolution whose epilogue applies the batch norm's
// per-channel scale and shift and the activation's clamp
// (kernels/math/conv.h's ConvEpilogue), so the convolution's and
// the batch norm's outputs are never written: two passes over the
// activation less per layer. The method only fuses when those outputs are
// read nowhere else.
//
// Same maths as the calls one by one: scale = weight / sqrt(var + eps) and
// shift = bias - mean * scale in double, rounded to float as the batch norm
// kernel does; then out = clamp((conv + conv_bias) * scale + shift). The
// results agree with the unfused calls up to float rounding (the epilogue
// may fuse the multiply-add).
//
// The fused kernel declines (and the calls run one by one, reporting any
// error themselves) unless: Float throughout, a non-transposed
// convolution, contiguous operands, batch norm parameters of the
// convolution's channel count, an output that does not overlap the
// weights or parameters, and temp memory for the per-channel factors and
// the convolution's workspace. A memory plan may give the last call's
// output the input's memory (dead after the convolution, as in ResNet's
// conv + batch norm before the residual add): then the result is computed
// into the convolution's own output and copied.
#include <cmath>
#include <cstring>

#include "kernels/portable/util/conv_args.h"
#include "kernels/portable/util/norm_util.h"
#include "kernels/portable/util/shape_util.h"
#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/fusion_registry.h"

namespace ember {
namespace {

enum class Activation { kNone, kHardtanh, kRelu };

bool overlaps(const Tensor& a, const void* b, size_t b_bytes) {
  const char* p = static_cast<const char*>(a.const_data_ptr());
  const char* q = static_cast<const char*>(b);
  return p < q + b_bytes && q < p + a.nbytes();
}

bool float_dense(const Tensor& t) {
  return t.scalar_type() == ScalarType::Float && t.is_contiguous();
}

struct BatchNormArgs {
  Optional<Tensor> weight, bias;
  Tensor mean, var, out, save_mean, save_invstd;
  double eps = 0;
};

// The batch norm call's arguments, checked against the convolution's
// output (its input); resizes its outputs as the kernel does.
bool read_batch_norm(KernelArgs& b, const Tensor& conv_out, BatchNormArgs* bn) {
  bn->weight = b.optional_tensor(1);
  bn->bias = b.optional_tensor(2);
  bn->mean = b.tensor(3);
  bn->var = b.tensor(4);
  (void)b.double_value(5);
  bn->eps = b.double_value(6);
  bn->out = b.tensor(7);
  bn->save_mean = b.tensor(8);
  bn->save_invstd = b.tensor(9);
  if (!b.ok() || !float_dense(bn->out)) return false;
  const int64_t c = conv_out.sizes()[1];
  if (!check_norm_param(b, bn->weight, ScalarType::Float, c, "weight") ||
      !check_norm_param(b, bn->bias, ScalarType::Float, c, "bias") ||
      !check_norm_param(b, bn->mean, ScalarType::Float, c, "running_mean") ||
      !check_norm_param(b, bn->var, ScalarType::Float, c, "running_var")) {
    return false;
  }
  const SizesType empty[1] = {0};
  return resize_out(b, bn->out, conv_out.sizes()) &&
         resize_out(b, bn->save_mean, {empty, 1}) && resize_out(b, bn->save_invstd, {empty, 1});
}

// The activation call's clamp and output.
bool read_activation(KernelContext& check, Span<EValue*> args, Activation act,
                     const Tensor& in, math::ConvEpilogue* ep, Tensor* out) {
  if (act == Activation::kRelu) {
    KernelArgs r(check, args, "aten::relu.out", 3);
    *out = r.tensor(1);
    ep->lo = 0.0f;
    return r.ok() && float_dense(*out) && resize_out(r, *out, in.sizes());
  }
  KernelArgs h(check, args, "aten::hardtanh.out", 5);
  const Scalar lo = h.scalar(1), hi = h.scalar(2);
  *out = h.tensor(3);
  return h.ok() && float_dense(*out) && scalar_cast_to(h, lo, "min_val", &ep->lo) &&
         scalar_cast_to(h, hi, "max_val", &ep->hi) && resize_out(h, *out, in.sizes());
}

template <Activation kAct>
bool fused_convolution(KernelContext& ctx, const Span<EValue*>* calls, size_t count) {
  // Argument checks on a context of their own: a failure here declines,
  // and the unfused calls then report it.
  KernelContext check;
  KernelArgs a(check, calls[0], "aten::convolution.out", 11);
  ConvCall c;
  if (!prepare_convolution(a, &c) || c.type != ScalarType::Float || c.g.transposed ||
      c.out.numel() == 0) {
    return false;
  }
  KernelArgs b(check, calls[1], "aten::_native_batch_norm_legit_no_training.out",
               tuple_op_arg_count(calls[1].size(), 10, 3));
  BatchNormArgs bn;
  if (!read_batch_norm(b, c.out, &bn)) return false;
  math::ConvEpilogue ep;
  Tensor dst = bn.out;
  if constexpr (kAct != Activation::kNone) {
    if (count != 3 || !read_activation(check, calls[2], kAct, bn.out, &ep, &dst)) return false;
  }
  // The destination must not alias anything the convolution reads. A plan
  // may give it the input's memory (dead after the convolution): then the
  // fused result goes to the convolution's own output (dead after the
  // batch norm, which fusion requires) and is copied over.
  const bool into_conv_out = overlaps(dst, c.input.const_data_ptr(), c.input.nbytes());
  if (into_conv_out && (overlaps(c.out, c.input.const_data_ptr(), c.input.nbytes()) ||
                        overlaps(c.out, dst.const_data_ptr(), dst.nbytes()) ||
                        c.out.nbytes() != dst.nbytes())) {
    return false;
  }
  const Tensor result = into_conv_out ? c.out : dst;
  const Tensor reads[] = {c.weight, bn.mean, bn.var};
  for (const Tensor& t : reads) {
    if (overlaps(result, t.const_data_ptr(), t.nbytes())) return false;
  }
  const Optional<Tensor> params[] = {c.bias, bn.weight, bn.bias};
  for (const Optional<Tensor>& t : params) {
    if (t.has_value() && overlaps(result, t.value().const_data_ptr(), t.value().nbytes())) {
      return false;
    }
  }
  // Per-channel factors, as the batch norm kernel computes them
  // (util/norm_util.h).
  const size_t channels = size_t(c.g.out_channels);
  float* factors = static_cast<float*>(ctx.allocate_temp(2 * channels * sizeof(float)));
  if (factors == nullptr) return false;
  const float* w = bn.weight.has_value() ? bn.weight.value().const_data_ptr<float>() : nullptr;
  const float* bb = bn.bias.has_value() ? bn.bias.value().const_data_ptr<float>() : nullptr;
  const float* mean = bn.mean.const_data_ptr<float>();
  const float* var = bn.var.const_data_ptr<float>();
  for (size_t ch = 0; ch < channels; ++ch) {
    double scale, shift;
    batch_norm_factors(w, bb, mean, var, bn.eps, int64_t(ch), &scale, &shift);
    factors[ch] = float(scale);
    factors[channels + ch] = float(shift);
  }
  ep.scale = factors;
  ep.shift = factors + channels;
  if (!run_convolution_f32(ctx, c.g, c.input.const_data_ptr<float>(),
                           c.weight.const_data_ptr<float>(),
                           c.bias.has_value() ? c.bias.value().const_data_ptr<float>() : nullptr,
                           result.mutable_data_ptr<float>(), &ep)) {
    return false;
  }
  if (into_conv_out) {
    std::memcpy(dst.mutable_data_ptr(), result.const_data_ptr(), dst.nbytes());
  }
  return true;
}

// Primary outputs: convolution.out's `out` is argument 9, the batch
// norm's first output argument 7, the activations' `out` 3 and 1.
constexpr const char* kConv = "aten::convolution.out";
constexpr const char* kBatchNorm = "aten::_native_batch_norm_legit_no_training.out";

}  // namespace

// Longest first: a sequence with its activation is preferred.
EMBER_REGISTER_FUSION((FusionPattern{"convolution+batch_norm+hardtanh", 3,
                                     {kConv, kBatchNorm, "aten::hardtanh.out"},
                                     {9, 7, 3},
                                     fused_convolution<Activation::kHardtanh>}));
EMBER_REGISTER_FUSION((FusionPattern{"convolution+batch_norm+relu", 3,
                                     {kConv, kBatchNorm, "aten::relu.out"},
                                     {9, 7, 1},
                                     fused_convolution<Activation::kRelu>}));
EMBER_REGISTER_FUSION((FusionPattern{"convolution+batch_norm", 2, {kConv, kBatchNorm, nullptr},
                                     {9, 7, 0},
                                     fused_convolution<Activation::kNone>}));

}  // namespace ember
