// Elementwise unary operators: the activations (relu, hardtanh, clamp,
// sigmoid, tanh, gelu exact and tanh, silu, hardswish, hardsigmoid,
// leaky_relu, elu, hardshrink), the maths functions (exp, log, log2, log10,
// sqrt, rsqrt, neg, abs, sin, cos, floor, ceil, round half to even, trunc,
// sign, reciprocal, square), logical_not / bitwise_not and the dtype
// conversions (_to_copy, _to_dim_order_copy: float <-> int truncating
// toward zero, to bool as != 0, to float16 rounded). One shader
// (shaders/unary.comp) takes the operation as a code; integer inputs with
// integer outputs stay in int32 where the operation is defined on integers.
#include <cmath>
#include <cstring>

#include "backends/vulkan/ops/vk_op_util.h"
#include "backends/vulkan/ops/vk_ops.h"

namespace ember::vulkan {
namespace {

// Operation codes, as shaders/unary.comp numbers them.
enum UnaryCode : int32_t {
  kRelu = 0, kClamp = 1, kSigmoid = 2, kTanh = 3, kGeluErf = 4, kGeluTanh = 5, kSilu = 6,
  kHardswish = 7, kHardsigmoid = 8, kLeakyRelu = 9, kElu = 10, kExp = 11, kLog = 12,
  kSqrt = 13, kRsqrt = 14, kNeg = 15, kAbs = 16, kSin = 17, kCos = 18, kFloor = 19,
  kCeil = 20, kRound = 21, kSign = 22, kReciprocal = 23, kConvert = 24, kLog10 = 25,
  kHardshrink = 26, kLogicalNot = 27, kTrunc = 28, kLog2 = 29, kSquare = 30,
  kBitwiseNot = 31,
};

enum UnaryFlags : uint32_t {
  kInInt = 1, kOutInt = 2, kOutBool = 4, kOutHalf = 8, kHasLow = 16, kHasHigh = 32,
};

struct UnaryPush {
  uint32_t total;
  int32_t code;
  uint32_t flags;
  uint32_t pad;
  float a;
  float b;
  float c;
  int32_t ia;
  int32_t ib;
};
static_assert(sizeof(UnaryPush) <= kMaxPush, "push constants");

struct NameCode {
  const char* name;
  int32_t code;
};

// Operators whose only arguments are the input and the output.
const NameCode kPlain[] = {
    {"aten.relu.default", kRelu},           {"aten.sigmoid.default", kSigmoid},
    {"aten.tanh.default", kTanh},           {"aten.silu.default", kSilu},
    {"aten.hardswish.default", kHardswish}, {"aten.hardsigmoid.default", kHardsigmoid},
    {"aten.exp.default", kExp},             {"aten.log.default", kLog},
    {"aten.log2.default", kLog2},           {"aten.log10.default", kLog10},
    {"aten.sqrt.default", kSqrt},           {"aten.rsqrt.default", kRsqrt},
    {"aten.neg.default", kNeg},             {"aten.abs.default", kAbs},
    {"aten.sin.default", kSin},             {"aten.cos.default", kCos},
    {"aten.floor.default", kFloor},         {"aten.ceil.default", kCeil},
    {"aten.round.default", kRound},         {"aten.trunc.default", kTrunc},
    {"aten.sign.default", kSign},           {"aten.reciprocal.default", kReciprocal},
    {"aten.square.default", kSquare},       {"aten.logical_not.default", kLogicalNot},
    {"aten.bitwise_not.default", kBitwiseNot},
};

// Codes that keep an int32 input in int32 when the output is an integer.
bool int_defined(int32_t code) {
  switch (code) {
    case kRelu: case kClamp: case kNeg: case kAbs: case kSign: case kLogicalNot:
    case kSquare: case kBitwiseNot: case kConvert:
    case kFloor: case kCeil: case kRound: case kTrunc:
      return true;
    default:
      return false;
  }
}

// The input (arg 0) and output (last arg), the push constants' dtype flags
// and the element count. `same_shape`: the output's sizes must be the
// input's (else only the element counts must agree).
Error io(Builder& b, bool same_shape, const TensorDesc** in, const TensorDesc** out,
         UnaryPush* p) {
  EMBER_RETURN_IF_ERROR(b.expect_args(2));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, in));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, out));
  if ((*in)->numel != (*out)->numel) return b.invalid("input and output sizes differ");
  if (same_shape) {
    bool same = (*in)->rank == (*out)->rank;
    for (uint32_t d = 0; same && d < (*in)->rank; ++d) {
      same = (*in)->sizes[d] == (*out)->sizes[d];
    }
    if (!same) return b.invalid("an output shape other than the input's");
  }
  *p = UnaryPush{};
  p->total = uint32_t((*out)->numel);
  if (!device_float((*in)->dtype)) p->flags |= kInInt;
  if (!device_float((*out)->dtype)) p->flags |= kOutInt;
  if ((*out)->dtype == DType::Bool) p->flags |= kOutBool;
  if ((*out)->dtype == DType::Float16) p->flags |= kOutHalf;
  return Error::Ok;
}

Error run(Builder& b, UnaryPush& p) {
  const bool in_int = (p.flags & kInInt) != 0;
  const bool out_int = (p.flags & kOutInt) != 0;
  if (in_int && out_int && !int_defined(p.code)) {
    return b.unsupported("this operator with an integer input and output");
  }
  return b.dispatch("unary", {b.arg_id(0), b.arg_id(b.num_args() - 1)}, &p, sizeof(p),
                    uint64_t(p.total));
}

// A scalar argument (Int or Double), or `fallback` when absent or null.
Error scalar_or(Builder& b, size_t arg, double fallback, double* out) {
  if (b.is_null(arg)) {
    *out = fallback;
    return Error::Ok;
  }
  return b.double_arg(arg, out);
}

Error build_plain(Builder& b) {
  const char* name = b.op().name.c_str();
  int32_t code = -1;
  for (const NameCode& c : kPlain) {
    if (std::strcmp(name, c.name) == 0) code = c.code;
  }
  if (code < 0) return b.unsupported("this unary operator");
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  UnaryPush p{};
  EMBER_RETURN_IF_ERROR(io(b, true, &in, &out, &p));
  // bitwise_not of a bool is logical negation.
  if (code == kBitwiseNot) {
    if (in->dtype == DType::Bool) {
      code = kLogicalNot;
    } else if (device_float(in->dtype)) {
      return b.unsupported("bitwise_not of a floating tensor");
    }
  }
  p.code = code;
  return run(b, p);
}

// Sets the clamp bounds from two optional scalars (args 1 and 2).
Error set_bounds(Builder& b, bool optional, UnaryPush* p) {
  EMBER_RETURN_IF_ERROR(b.expect_args(4));
  for (int k = 0; k < 2; ++k) {
    const size_t arg = size_t(1 + k);
    if (b.is_null(arg)) {
      if (!optional) return b.invalid("a null bound");
      continue;
    }
    double v = 0;
    EMBER_RETURN_IF_ERROR(b.double_arg(arg, &v));
    if (std::isnan(v)) return b.unsupported("a NaN bound");
    p->flags |= k == 0 ? kHasLow : kHasHigh;
    // Integer bounds: the nearest integers inside the interval.
    double r = k == 0 ? std::ceil(v) : std::floor(v);
    if (r < -2147483648.0) r = -2147483648.0;
    if (r > 2147483647.0) r = 2147483647.0;
    if (k == 0) {
      p->a = to_float(v);
      p->ia = int32_t(r);
    } else {
      p->b = to_float(v);
      p->ib = int32_t(r);
    }
  }
  return Error::Ok;
}

Error build_clamp(Builder& b) {
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  UnaryPush p{};
  EMBER_RETURN_IF_ERROR(io(b, true, &in, &out, &p));
  p.code = kClamp;
  const bool hardtanh = std::strcmp(b.op().name.c_str(), "aten.hardtanh.default") == 0;
  EMBER_RETURN_IF_ERROR(set_bounds(b, /*optional=*/!hardtanh, &p));
  return run(b, p);
}

Error build_gelu(Builder& b) {
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  UnaryPush p{};
  EMBER_RETURN_IF_ERROR(io(b, true, &in, &out, &p));
  p.code = kGeluErf;
  if (b.num_args() >= 3 && !b.is_null(1)) {
    const Value& v = b.value(b.arg_id(1));
    if (v.kind != ValueKind::String) return b.invalid("approximate is not a string");
    if (v.text == "tanh") {
      p.code = kGeluTanh;
    } else if (v.text != "none") {
      return b.unsupported("this gelu approximation");
    }
  }
  if (device_float(in->dtype) == false) return b.unsupported("gelu of an integer tensor");
  return run(b, p);
}

Error build_leaky_relu(Builder& b) {
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  UnaryPush p{};
  EMBER_RETURN_IF_ERROR(io(b, true, &in, &out, &p));
  p.code = kLeakyRelu;
  double slope = 0.01;
  if (b.num_args() >= 3) EMBER_RETURN_IF_ERROR(scalar_or(b, 1, 0.01, &slope));
  p.a = to_float(slope);
  return run(b, p);
}

Error build_hardshrink(Builder& b) {
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  UnaryPush p{};
  EMBER_RETURN_IF_ERROR(io(b, true, &in, &out, &p));
  p.code = kHardshrink;
  double lambd = 0.5;
  if (b.num_args() >= 3) EMBER_RETURN_IF_ERROR(scalar_or(b, 1, 0.5, &lambd));
  p.a = to_float(lambd);
  return run(b, p);
}

// elu(x, alpha, scale, input_scale).
Error build_elu(Builder& b) {
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  UnaryPush p{};
  EMBER_RETURN_IF_ERROR(io(b, true, &in, &out, &p));
  p.code = kElu;
  double alpha = 1, scale = 1, input_scale = 1;
  const size_t n = b.num_args();
  if (n >= 3) EMBER_RETURN_IF_ERROR(scalar_or(b, 1, 1.0, &alpha));
  if (n >= 4) EMBER_RETURN_IF_ERROR(scalar_or(b, 2, 1.0, &scale));
  if (n >= 5) EMBER_RETURN_IF_ERROR(scalar_or(b, 3, 1.0, &input_scale));
  p.a = to_float(alpha);
  p.b = to_float(scale);
  p.c = to_float(input_scale);
  return run(b, p);
}

// _to_copy / _to_dim_order_copy: the values converted to the output's
// dtype. Every device tensor is contiguous in its logical order, so a
// memory format or dim order changes nothing here.
Error build_convert(Builder& b) {
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  UnaryPush p{};
  EMBER_RETURN_IF_ERROR(io(b, true, &in, &out, &p));
  p.code = kConvert;
  return run(b, p);
}

const OpEntry kRows[] = {
    {"aten.relu.default", build_plain},
    {"aten.sigmoid.default", build_plain},
    {"aten.tanh.default", build_plain},
    {"aten.silu.default", build_plain},
    {"aten.hardswish.default", build_plain},
    {"aten.hardsigmoid.default", build_plain},
    {"aten.exp.default", build_plain},
    {"aten.log.default", build_plain},
    {"aten.log2.default", build_plain},
    {"aten.log10.default", build_plain},
    {"aten.sqrt.default", build_plain},
    {"aten.rsqrt.default", build_plain},
    {"aten.neg.default", build_plain},
    {"aten.abs.default", build_plain},
    {"aten.sin.default", build_plain},
    {"aten.cos.default", build_plain},
    {"aten.floor.default", build_plain},
    {"aten.ceil.default", build_plain},
    {"aten.round.default", build_plain},
    {"aten.trunc.default", build_plain},
    {"aten.sign.default", build_plain},
    {"aten.reciprocal.default", build_plain},
    {"aten.square.default", build_plain},
    {"aten.logical_not.default", build_plain},
    {"aten.bitwise_not.default", build_plain},
    {"aten.hardtanh.default", build_clamp},
    {"aten.clamp.default", build_clamp},
    {"aten.gelu.default", build_gelu},
    {"aten.leaky_relu.default", build_leaky_relu},
    {"aten.hardshrink.default", build_hardshrink},
    {"aten.elu.default", build_elu},
    {"aten._to_copy.default", build_convert},
    {"dim_order_ops._to_dim_order_copy.default", build_convert},
};

}  // namespace

OpFamily unary_ops() { return {kRows, sizeof(kRows) / sizeof(kRows[0])}; }

}  // namespace ember::vulkan
