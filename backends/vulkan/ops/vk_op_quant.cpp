// Dynamically quantized linear layers of upstream's Vulkan 8da4w lowering
// (export_llama -V -qmode 8da4w: torchao's Int8DynamicActivationIntxWeight
// with int4 per-group weights, fused by upstream's quantized_linear pattern):
//   torchao.choose_qparams_affine(x, mapping, block_size, target_dtype,
//     quant_min, quant_max, eps, scale_dtype, zero_point_dtype, keepdim,
//     [scale, zero_point]): per-block (per token, per tensor) qparams with
//     torchao's rules (shaders/quant_qparams.comp); ASYMMETRIC, SYMMETRIC
//     and SYMMETRIC_NO_CLIPPING_ERR; blocks must be 1 on leading dims and
//     whole on trailing ones (block_size [1, .., 1, K] per token);
//   et_vk.linear_dq8ca_q4gsw(x [.., K], input_scale, input_zero_point,
//     weights uint8 [N, K'/2], weight_sums int32 [G, N'], weight_scales
//     float [G, N''], group_size, bias [N'''] | null, out [.., N]): x
//     quantized to int8 with its row's qparams (round half to even, clamp),
//     int32 dot products per group with the int4 weights (low nibble = even
//     column, value - 8), times input_scale * weight_scale[g, n], plus bias;
//   et_vk.linear_q4gsw(x, weights, weight_scales, group_size, bias | null,
//     out): the same with float activations (weight-only 4-bit).
// Upstream pads: the packed weight's K to a multiple of 8 (K' >= K), the
// sums' N to a multiple of 8 and the scales' and bias's N to a multiple of
// 4, so every width is read through its own stride. The weight sums are not
// needed (the zero point is subtracted before the product) and only checked.
#include <cfloat>
#include <cmath>

#include "backends/vulkan/ops/vk_op_util.h"
#include "backends/vulkan/ops/vk_ops.h"

namespace ember::vulkan {
namespace {

struct QParamsPush {
  uint32_t blocks;
  uint32_t block;
  int32_t qmin;
  int32_t qmax;
  float eps;
  uint32_t mode;
  int32_t sym_zp;
  uint32_t zp_float;
};
static_assert(sizeof(QParamsPush) == 32 && sizeof(QParamsPush) <= kMaxPush, "push constants");

struct Q4LinearPush {
  uint32_t total;
  uint32_t N;
  uint32_t groups;
  uint32_t group_size;
  uint32_t w_stride;
  uint32_t s_stride;
  uint32_t has_bias;
  uint32_t quant_input;
  int32_t qmin;
  int32_t qmax;
  uint32_t q_stride;
  uint32_t zp_float;
};
static_assert(sizeof(Q4LinearPush) == 48 && sizeof(Q4LinearPush) <= kMaxPush, "push constants");

constexpr int64_t kMaxElems = int64_t(1) << 31;

// int8 activations: the bounds the linear's shader clamps to (the ones
// choose_qparams_affine was given in every export seen: -128, 127).
constexpr int32_t kInt8Min = -128;
constexpr int32_t kInt8Max = 127;

// torchao.choose_qparams_affine(input, mapping_type, block_size,
// target_dtype, quant_min, quant_max, eps, scale_dtype, zero_point_dtype,
// keepdim, [scale, zero_point])
Error build_choose_qparams_affine(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(11));
  const TensorDesc* in = nullptr;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &in));
  const Value& mapping = b.value(b.arg_id(1));
  if (mapping.kind != ValueKind::String) return b.invalid("mapping_type is not a string");
  QParamsPush p{};
  if (mapping.text == "ASYMMETRIC") {
    p.mode = 0;
  } else if (mapping.text == "SYMMETRIC") {
    p.mode = 1;
  } else if (mapping.text == "SYMMETRIC_NO_CLIPPING_ERR") {
    p.mode = 2;
  } else {
    return b.unsupported("this mapping_type (ASYMMETRIC, SYMMETRIC, SYMMETRIC_NO_CLIPPING_ERR "
                         "only)");
  }
  std::vector<int64_t> block;
  EMBER_RETURN_IF_ERROR(b.int_list_arg(2, &block));
  // target_dtype is written as Null (a dtype is not serialized): the bounds
  // must be given.
  if (b.is_null(4) || b.is_null(5)) {
    return b.unsupported("quant_min/quant_max not given (the target dtype is not serialized)");
  }
  int64_t qmin = 0;
  int64_t qmax = 0;
  EMBER_RETURN_IF_ERROR(b.int_arg(4, &qmin));
  EMBER_RETURN_IF_ERROR(b.int_arg(5, &qmax));
  if (qmin >= qmax || qmin < -(int64_t(1) << 24) || qmax > (int64_t(1) << 24)) {
    return b.invalid("quant_min/quant_max that are not an increasing range of small ints");
  }
  if (p.mode == 2 && (qmin >= 0 || qmax <= 0)) {
    return b.unsupported("SYMMETRIC_NO_CLIPPING_ERR with a range that does not straddle 0");
  }
  // eps: torchao's default is the smallest normal of the input's dtype.
  double eps = in->dtype == DType::Float16 ? std::ldexp(1.0, -14) : double(FLT_MIN);
  if (!b.is_null(6)) EMBER_RETURN_IF_ERROR(b.double_arg(6, &eps));
  // The outputs: a ValueList [scale, zero_point], last.
  const Value& outs = b.value(b.arg_id(b.num_args() - 1));
  if (outs.kind != ValueKind::ValueList || outs.items.size() != 2) {
    return b.invalid("the result is not a list of two tensors [scale, zero_point]");
  }
  const int32_t scale_id = outs.items[0];
  const int32_t zp_id = outs.items[1];
  if (b.value(scale_id).kind != ValueKind::Tensor || b.value(zp_id).kind != ValueKind::Tensor) {
    return b.invalid("scale or zero_point is not a tensor");
  }
  const TensorDesc& scale = b.value(scale_id).tensor;
  const TensorDesc& zp = b.value(zp_id).tensor;
  if (!device_float(in->dtype) || !device_float(scale.dtype)) {
    return b.unsupported("a non-float input or scale");
  }
  if (in->numel >= kMaxElems) return b.unsupported("a tensor of 2^31 or more elements");
  if (block.size() != in->rank) return b.invalid("block_size of another rank than the input");
  // Blocks of 1 on the leading dims, whole trailing dims: contiguous blocks.
  uint32_t first_whole = in->rank;
  while (first_whole > 0 && block[first_whole - 1] == in->sizes[first_whole - 1]) --first_whole;
  int64_t blocks = 1;
  for (uint32_t d = 0; d < first_whole; ++d) {
    if (block[d] != 1) {
      return b.unsupported("a block_size other than 1 on leading dims and whole trailing dims "
                           "(per token or per tensor)");
    }
    blocks *= in->sizes[d];
  }
  const int64_t block_len = blocks == 0 ? 0 : in->numel / blocks;
  if (scale.numel != blocks || zp.numel != blocks) {
    return b.invalid("scale/zero_point with another element count than the number of blocks");
  }
  p.blocks = uint32_t(blocks);
  p.block = uint32_t(block_len);
  p.qmin = int32_t(qmin);
  p.qmax = int32_t(qmax);
  p.eps = float(eps);
  // Python's int((qmax + qmin + 1) / 2): true division, then truncation.
  p.sym_zp = int32_t(std::trunc(double(qmax + qmin + 1) / 2.0));
  p.zp_float = device_float(zp.dtype) ? 1u : 0u;
  return b.dispatch("quant_qparams", {b.arg_id(0), scale_id, zp_id}, &p, sizeof(p),
                    uint64_t(blocks));
}

// The common part of the two linears. `scale_arg` < 0: weight only.
Error build_q4_linear(Builder& b, int scale_arg, int zp_arg, size_t w_arg, int sums_arg,
                      size_t wscale_arg, size_t group_arg, size_t bias_arg) {
  const TensorDesc* in = nullptr;
  const TensorDesc* w = nullptr;
  const TensorDesc* ws = nullptr;
  const TensorDesc* bias = nullptr;
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &in));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(w_arg, &w));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(wscale_arg, &ws));
  if (!b.is_null(bias_arg)) EMBER_RETURN_IF_ERROR(b.tensor_arg(bias_arg, &bias));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, &out));
  if (b.value(b.arg_id(group_arg)).kind != ValueKind::Int) {
    return b.invalid("group_size is not an Int");
  }
  int64_t group = 0;
  EMBER_RETURN_IF_ERROR(b.int_arg(group_arg, &group));
  for (const TensorDesc* t : {in, ws, bias, out}) {
    if (t != nullptr && !device_float(t->dtype)) {
      return b.unsupported("a non-float input, scale, bias or output");
    }
  }
  if (w->dtype != DType::UInt8 || w->rank != 2) {
    return b.unsupported("weights other than 2-d uint8 [N, K/2] (two int4 per byte)");
  }
  if (ws->rank != 2) return b.invalid("weight scales that are not 2-d [K / group_size, N]");
  if (in->rank < 1) return b.invalid("a 0-d input");
  for (const TensorDesc* t : {in, w, ws, out}) {
    if (t->numel >= kMaxElems) return b.unsupported("a tensor of 2^31 or more elements");
  }
  const int64_t K = in->sizes[in->rank - 1];
  const int64_t M = K == 0 ? 0 : in->numel / K;
  const int64_t N = out->rank > 0 ? out->sizes[out->rank - 1] : 1;
  const int64_t groups = ws->sizes[0];
  int64_t covered = 0;
  if (group <= 0 || !checked_mul(groups, group, &covered) || covered != K) {
    return b.invalid("group_size * the scales' rows differ from the input's last dim");
  }
  if (out->rank < 1 || out->numel != M * N) return b.invalid("an output shape other than [..., N]");
  if (w->sizes[0] < N || w->sizes[1] * 2 < K) {
    return b.invalid("packed weights smaller than [N, K / 2]");
  }
  if (ws->sizes[1] < N) return b.invalid("weight scales with fewer than N columns");
  if (bias != nullptr && (bias->rank != 1 || bias->sizes[0] < N)) {
    return b.invalid("a bias that is not 1-d with at least N elements");
  }
  Q4LinearPush p{};
  p.total = uint32_t(M * N);
  p.N = uint32_t(N);
  p.groups = uint32_t(groups);
  p.group_size = uint32_t(group);
  p.w_stride = uint32_t(w->sizes[1]);
  p.s_stride = uint32_t(ws->sizes[1]);
  p.has_bias = bias != nullptr ? 1u : 0u;
  p.qmin = kInt8Min;
  p.qmax = kInt8Max;
  int32_t scale_id = b.arg_id(0);
  int32_t zp_id = b.arg_id(0);
  if (scale_arg >= 0) {
    const TensorDesc* s = nullptr;
    const TensorDesc* z = nullptr;
    EMBER_RETURN_IF_ERROR(b.tensor_arg(size_t(scale_arg), &s));
    EMBER_RETURN_IF_ERROR(b.tensor_arg(size_t(zp_arg), &z));
    if (!device_float(s->dtype)) return b.unsupported("a non-float input scale");
    if (s->numel != z->numel || (s->numel != M && s->numel != 1)) {
      return b.unsupported("input qparams other than one per row (per token) or one per tensor");
    }
    const TensorDesc* sums = nullptr;
    EMBER_RETURN_IF_ERROR(b.tensor_arg(size_t(sums_arg), &sums));
    if (sums->rank != 2 || sums->sizes[0] != groups || sums->sizes[1] < N) {
      return b.invalid("weight sums that are not [K / group_size, N]");
    }
    p.quant_input = 1;
    p.q_stride = s->numel == M && M != 1 ? 1u : 0u;
    p.zp_float = device_float(z->dtype) ? 1u : 0u;
    scale_id = b.arg_id(size_t(scale_arg));
    zp_id = b.arg_id(size_t(zp_arg));
  }
  const int32_t bias_id = bias != nullptr ? b.arg_id(bias_arg) : b.arg_id(0);
  return b.dispatch("quant_linear_q4",
                    {b.arg_id(0), scale_id, zp_id, b.arg_id(w_arg), b.arg_id(wscale_arg), bias_id,
                     b.arg_id(b.num_args() - 1)},
                    &p, sizeof(p), uint64_t(p.total));
}

// et_vk.linear_dq8ca_q4gsw(x, input_scale, input_zero_point, weights,
// weight_sums, weight_scales, group_size, bias?, out)
Error build_linear_dq8ca_q4gsw(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(9));
  return build_q4_linear(b, 1, 2, 3, 4, 5, 6, 7);
}

// et_vk.linear_q4gsw(x, weights, weight_scales, group_size, bias?, out)
Error build_linear_q4gsw(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(6));
  return build_q4_linear(b, -1, -1, 1, -1, 2, 3, 4);
}

const OpEntry kRows[] = {
    {"torchao.choose_qparams_affine.default", build_choose_qparams_affine},
    {"et_vk.linear_dq8ca_q4gsw.default", build_linear_dq8ca_q4gsw},
    {"et_vk.linear_q4gsw.default", build_linear_q4gsw},
};

}  // namespace

OpFamily quant_ops() { return {kRows, sizeof(kRows) / sizeof(kRows[0])}; }

}  // namespace ember::vulkan
