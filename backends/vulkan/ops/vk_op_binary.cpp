// Elementwise binary operators with broadcasting: add, sub (both with
// alpha), mul, div, and the comparisons, minimum and maximum. One shader
// (shaders/binary.comp) takes the operation as a code. A scalar operand
// (add.Scalar, or an Int/Double where a tensor may stand) is passed as a
// push constant.
#include <cstring>

#include "backends/vulkan/ops/vk_ops.h"
#include "backends/vulkan/ops/vk_op_util.h"

namespace ember::vulkan {
namespace {

// Operation codes, as shaders/binary.comp numbers them.
enum BinaryCode : int32_t {
  kAdd = 0, kSub = 1, kMul = 2, kDiv = 3, kMinimum = 4, kMaximum = 5, kPow = 6,
  kEq = 7, kNe = 8, kLt = 9, kLe = 10, kGt = 11, kGe = 12, kFloorDiv = 13, kRsub = 14,
  kLogicalAnd = 15, kLogicalOr = 16,
};

struct NameCode {
  const char* prefix;
  int32_t code;
};

const NameCode kCodes[] = {
    {"aten.add.", kAdd},       {"aten.sub.", kSub},         {"aten.rsub.", kRsub},
    {"aten.mul.", kMul},       {"aten.div.", kDiv},         {"aten.minimum.", kMinimum},
    {"aten.maximum.", kMaximum}, {"aten.pow.", kPow},       {"aten.eq.", kEq},
    {"aten.ne.", kNe},         {"aten.lt.", kLt},           {"aten.le.", kLe},
    {"aten.gt.", kGt},         {"aten.ge.", kGe},           {"aten.floor_divide.", kFloorDiv},
    {"aten.logical_and.", kLogicalAnd}, {"aten.logical_or.", kLogicalOr},
};

struct BinaryPush {
  uint32_t total;
  int32_t code;
  uint32_t rank;
  uint32_t flags;  // bit 0: a is int, 1: b is int, 2: out is int, 3: b is the scalar
  float alpha;
  float scalar;
  uint32_t sizes[kMaxRank];
  uint32_t a_strides[kMaxRank];
  uint32_t b_strides[kMaxRank];
};
static_assert(sizeof(BinaryPush) <= kMaxPush, "push constants");

}  // namespace

namespace {

Error build_binary(Builder& b) {
  const char* name = b.op().name.c_str();
  int32_t code = -1;
  for (const NameCode& c : kCodes) {
    if (std::strncmp(name, c.prefix, std::strlen(c.prefix)) == 0) code = c.code;
  }
  if (code < 0) return b.unsupported("this binary operator");
  EMBER_RETURN_IF_ERROR(b.expect_args(3));
  const TensorDesc* a = nullptr;
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &a));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, &out));
  BinaryPush p{};
  p.total = uint32_t(out->numel);
  p.code = code;
  p.rank = out->rank;
  p.alpha = 1.0f;
  const bool b_tensor = b.value(b.arg_id(1)).kind == ValueKind::Tensor;
  const TensorDesc* other = nullptr;
  if (b_tensor) {
    EMBER_RETURN_IF_ERROR(b.tensor_arg(1, &other));
  } else {
    double s = 0;
    EMBER_RETURN_IF_ERROR(b.double_arg(1, &s));
    p.scalar = to_float(s);
    p.flags |= 8u;
  }
  // add/sub/rsub carry alpha as the third argument of four.
  if ((code == kAdd || code == kSub || code == kRsub) && b.num_args() == 4 && !b.is_null(2)) {
    double alpha = 1;
    EMBER_RETURN_IF_ERROR(b.double_arg(2, &alpha));
    p.alpha = to_float(alpha);
  }
  p.flags |= device_float(a->dtype) ? 0u : 1u;
  p.flags |= (other == nullptr || device_float(other->dtype)) ? 0u : 2u;
  p.flags |= device_float(out->dtype) ? 0u : 4u;
  for (uint32_t d = 0; d < out->rank; ++d) p.sizes[d] = uint32_t(out->sizes[d]);
  EMBER_RETURN_IF_ERROR(broadcast_strides(b, *a, *out, p.a_strides));
  if (other != nullptr) {
    EMBER_RETURN_IF_ERROR(broadcast_strides(b, *other, *out, p.b_strides));
    return b.dispatch("binary", {b.arg_id(0), b.arg_id(1), b.arg_id(b.num_args() - 1)}, &p,
                      sizeof(p), uint64_t(out->numel));
  }
  // No second tensor: bind the first twice (the shader reads the scalar).
  return b.dispatch("binary", {b.arg_id(0), b.arg_id(0), b.arg_id(b.num_args() - 1)}, &p,
                    sizeof(p), uint64_t(out->numel));
}

const OpEntry kRows[] = {
    {"aten.add.Tensor", build_binary},     {"aten.add.Scalar", build_binary},
    {"aten.sub.Tensor", build_binary},     {"aten.sub.Scalar", build_binary},
    {"aten.rsub.Scalar", build_binary},    {"aten.mul.Tensor", build_binary},
    {"aten.mul.Scalar", build_binary},     {"aten.div.Tensor", build_binary},
    {"aten.div.Scalar", build_binary},     {"aten.minimum.default", build_binary},
    {"aten.maximum.default", build_binary}, {"aten.pow.Tensor_Tensor", build_binary},
    {"aten.pow.Tensor_Scalar", build_binary}, {"aten.eq.Tensor", build_binary},
    {"aten.eq.Scalar", build_binary},      {"aten.ne.Tensor", build_binary},
    {"aten.ne.Scalar", build_binary},      {"aten.lt.Tensor", build_binary},
    {"aten.lt.Scalar", build_binary},      {"aten.le.Tensor", build_binary},
    {"aten.le.Scalar", build_binary},      {"aten.gt.Tensor", build_binary},
    {"aten.gt.Scalar", build_binary},      {"aten.ge.Tensor", build_binary},
    {"aten.ge.Scalar", build_binary},      {"aten.floor_divide.default", build_binary},
    {"aten.logical_and.default", build_binary}, {"aten.logical_or.default", build_binary},
};

}  // namespace

OpFamily binary_ops() { return {kRows, sizeof(kRows) / sizeof(kRows[0])}; }

}  // namespace ember::vulkan
