// Elementwise math kernels: what a generated op-suite file cannot express
// (the exporter or PyTorch itself refuses these programs): integer division
// by zero, refused dtypes and bad argument values, arguments of the wrong
// type, and non-contiguous dim orders. Values are covered by the generated
// suite (examples/export/op_suite/elementwise.py).
#include <cstring>
#include <limits>

#include "runtime/core/error_message.h"
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

// Calls `op` with raw EValues (for String arguments, which Arg lacks).
Error call_raw(const std::string& op, std::vector<EValue> values) {
  const size_t dot = op.find('.');
  OpFunction fn = find_kernel(op.substr(0, dot).c_str(), op.substr(dot + 1).c_str());
  EXPECT_NE(fn, nullptr) << op;
  if (fn == nullptr) return Error::OperatorMissing;
  std::vector<EValue*> ptrs;
  for (EValue& v : values) ptrs.push_back(&v);
  static std::vector<unsigned char> temp(1 << 16);
  MemoryAllocator temp_allocator(temp.data(), temp.size());
  KernelContext ctx(&temp_allocator);
  clear_error_message();
  fn(ctx, Span<EValue*>(ptrs.data(), ptrs.size()));
  return ctx.failure();
}

EValue str(const char* s) { return EValue(StringView{s, std::strlen(s)}); }

bool message_has(const char* needle) {
  return std::strstr(last_error_message(), needle) != nullptr;
}

TEST(IntegerDivision, ZeroDivisorIsAnErrorForEveryOp) {
  auto a = tensor<int64_t>(ScalarType::Long, {3}, {7, -7, 1});
  auto b = tensor<int64_t>(ScalarType::Long, {3}, {2, 0, 3});
  auto out = empty(ScalarType::Long, {3});
  for (const char* op : {"aten::remainder.Tensor_out", "aten::fmod.Tensor_out",
                         "aten::floor_divide.out"}) {
    EXPECT_EQ(call_kernel(op, {*a, *b, *out, *out}), Error::InvalidArgument) << op;
    EXPECT_TRUE(message_has("division by zero")) << op << ": " << last_error_message();
  }
  for (const char* mode : {"trunc", "floor"}) {
    EXPECT_EQ(call_raw("aten::div.out_mode",
                       {EValue(a->tensor()), EValue(b->tensor()), str(mode),
                        EValue(out->tensor()), EValue(out->tensor())}),
              Error::InvalidArgument)
        << mode;
    EXPECT_EQ(call_raw("aten::div.Scalar_mode_out",
                       {EValue(a->tensor()), EValue(int64_t(0)), str(mode),
                        EValue(out->tensor()), EValue(out->tensor())}),
              Error::InvalidArgument)
        << mode;
  }
  for (const char* op : {"aten::remainder.Scalar_out", "aten::fmod.Scalar_out"}) {
    EXPECT_EQ(call_kernel(op, {*a, 0, *out, *out}), Error::InvalidArgument) << op;
  }
}

TEST(IntegerDivision, ZeroFromBoolAndNarrowDivisors) {
  // A Bool divisor promotes to the dividend's type: False divides by zero.
  auto a = tensor<int8_t>(ScalarType::Char, {2}, {-128, 5});
  auto b = from_doubles(ScalarType::Bool, {2}, {1, 0});
  auto out = empty(ScalarType::Char, {2});
  EXPECT_EQ(call_kernel("aten::floor_divide.out", {*a, *b, *out, *out}),
            Error::InvalidArgument);
  // INT8_MIN // -1 wraps like PyTorch instead of trapping.
  auto m1 = tensor<int8_t>(ScalarType::Char, {2}, {-1, -1});
  ASSERT_EQ(call_kernel("aten::floor_divide.out", {*a, *m1, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int8_t>(), (std::vector<int8_t>{-128, -5}));
  ASSERT_EQ(call_kernel("aten::remainder.Tensor_out", {*a, *m1, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int8_t>(), (std::vector<int8_t>{0, 0}));
}

// PyTorch's own trunc kernel traps on INT_MIN / -1 (so no generated case
// can hold it); here it wraps like the floor mode does.
TEST(IntegerDivision, TruncIntMinByMinusOneWraps) {
  auto a = tensor<int32_t>(ScalarType::Int, {2}, {std::numeric_limits<int32_t>::min(), 9});
  auto b = tensor<int32_t>(ScalarType::Int, {2}, {-1, -1});
  auto out = empty(ScalarType::Int, {2});
  for (const char* mode : {"trunc", "floor"}) {
    ASSERT_EQ(call_raw("aten::div.out_mode",
                       {EValue(a->tensor()), EValue(b->tensor()), str(mode),
                        EValue(out->tensor()), EValue(out->tensor())}),
              Error::Ok)
        << mode;
    EXPECT_EQ(out->values<int32_t>(),
              (std::vector<int32_t>{std::numeric_limits<int32_t>::min(), -9}));
  }
  ASSERT_EQ(call_kernel("aten::fmod.Tensor_out", {*a, *b, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int32_t>(), (std::vector<int32_t>{0, 0}));
}

TEST(IntegerDivision, FloatDivisionByZeroIsIeee) {
  auto a = tensor<float>(ScalarType::Float, {3}, {1, -1, 0});
  auto b = tensor<float>(ScalarType::Float, {3}, {0, 0, 0});
  auto out = empty(ScalarType::Float, {3});
  ASSERT_EQ(call_kernel("aten::floor_divide.out", {*a, *b, *out, *out}), Error::Ok);
  const std::vector<float> got = out->values<float>();
  EXPECT_EQ(got[0], std::numeric_limits<float>::infinity());
  EXPECT_EQ(got[1], -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(got[2]));
}

TEST(ElementwiseErrors, RefusedDtypes) {
  auto b = from_doubles(ScalarType::Bool, {2}, {1, 0});
  auto f = tensor<float>(ScalarType::Float, {2}, {1.5f, -2});
  auto i = tensor<int32_t>(ScalarType::Int, {2}, {3, -4});
  auto out_b = empty(ScalarType::Bool, {2});
  auto out_f = empty(ScalarType::Float, {2});
  auto out_i = empty(ScalarType::Int, {2});
  for (const char* op : {"aten::neg.out", "aten::abs.out", "aten::floor.out",
                         "aten::round.out"}) {
    EXPECT_EQ(call_kernel(op, {*b, *out_b, *out_b}), Error::InvalidArgument) << op;
  }
  EXPECT_EQ(call_kernel("aten::bitwise_not.out", {*f, *out_f, *out_f}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::bitwise_and.Tensor_out", {*f, *i, *out_f, *out_f}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::bitwise_or.Scalar_out", {*i, 1.5, *out_f, *out_f}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::remainder.Tensor_out", {*b, *b, *out_b, *out_b}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::pow.Tensor_Tensor_out", {*b, *b, *out_b, *out_b}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::rsub.Scalar_out", {*b, 1, 1, *out_i, *out_i}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::clamp.Tensor_out", {*b, *b, *b, *out_b, *out_b}),
            Error::InvalidArgument);
  EXPECT_EQ(call_raw("aten::gelu.out", {EValue(i->tensor()), str("none"),
                                        EValue(out_f->tensor()), EValue(out_f->tensor())}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::leaky_relu.out", {*i, 0.1, *out_i, *out_i}),
            Error::InvalidArgument);
  // A float result cannot be written into an integer out tensor.
  EXPECT_EQ(call_kernel("aten::exp.out", {*i, *out_i, *out_i}), Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::maximum.out", {*i, *f, *out_i, *out_i}),
            Error::InvalidArgument);
}

TEST(ElementwiseErrors, BadArgumentValues) {
  auto i = tensor<int32_t>(ScalarType::Int, {2}, {3, -4});
  auto f = tensor<float>(ScalarType::Float, {2}, {0.5f, -2});
  auto out_i = empty(ScalarType::Int, {2});
  auto out_f = empty(ScalarType::Float, {2});
  // PyTorch: "Integers to negative integer powers are not allowed."
  EXPECT_EQ(call_kernel("aten::pow.Tensor_Scalar_out", {*i, -1, *out_i, *out_i}),
            Error::InvalidArgument);
  ASSERT_EQ(call_kernel("aten::pow.Tensor_Scalar_out", {*i, 0, *out_i, *out_i}), Error::Ok);
  EXPECT_EQ(out_i->values<int32_t>(), (std::vector<int32_t>{1, 1}));
  // clamp needs a bound.
  EXPECT_EQ(call_kernel("aten::clamp.out", {*f, Arg::none(), Arg::none(), *out_f, *out_f}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::clamp.Tensor_out",
                        {*f, Arg::none(), Arg::none(), *out_f, *out_f}),
            Error::InvalidArgument);
  // Unknown string options.
  EXPECT_EQ(call_raw("aten::gelu.out", {EValue(f->tensor()), str("erf"),
                                        EValue(out_f->tensor()), EValue(out_f->tensor())}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("'erf'")) << last_error_message();
  EXPECT_EQ(call_raw("aten::div.out_mode",
                     {EValue(f->tensor()), EValue(f->tensor()), str("round"),
                      EValue(out_f->tensor()), EValue(out_f->tensor())}),
            Error::InvalidArgument);
  // masked_fill: the mask must be Bool; the value must fit the dtype.
  auto u8 = tensor<uint8_t>(ScalarType::Byte, {2}, {1, 0});
  auto mask = from_doubles(ScalarType::Bool, {2}, {1, 0});
  auto out_u8 = empty(ScalarType::Byte, {2});
  EXPECT_EQ(call_kernel("aten::masked_fill.Scalar_out", {*f, *u8, 1.0, *out_f, *out_f}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::masked_fill.Scalar_out", {*u8, *mask, 300, *out_u8, *out_u8}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::masked_fill.Scalar_out", {*i, *mask, 1e20, *out_i, *out_i}),
            Error::InvalidArgument);
  // A Scalar bound outside an integral result's range is refused.
  EXPECT_EQ(call_kernel("aten::clamp.out", {*u8, -1, 100, *out_u8, *out_u8}),
            Error::InvalidArgument);
}

TEST(ElementwiseErrors, WrongArgumentTypesAndCounts) {
  auto f = tensor<float>(ScalarType::Float, {2}, {0.5f, -2});
  auto out = empty(ScalarType::Float, {2});
  // A tensor where the Scalar exponent goes.
  EXPECT_EQ(call_kernel("aten::pow.Tensor_Scalar_out", {*f, *f, *out, *out}),
            Error::InvalidType);
  EXPECT_TRUE(message_has("argument 1 should be Scalar")) << last_error_message();
  // An Int where the rounding mode string goes.
  EXPECT_EQ(call_kernel("aten::div.out_mode", {*f, *f, 1, *out, *out}), Error::InvalidType);
  // Missing return value.
  EXPECT_EQ(call_kernel("aten::exp.out", {*f, *out}), Error::InvalidProgram);
  EXPECT_EQ(call_kernel("aten::clamp.out", {*f, *f, 1.0, *out, *out}), Error::InvalidType);
}

// NHWC-ordered operands: the plan walks the output's dim order.
TEST(ElementwiseDimOrder, ChannelsLastUnaryAndBinary) {
  const std::vector<SizesType> sizes = {1, 2, 2, 3};
  const std::vector<DimOrderType> nhwc = {0, 2, 3, 1};
  auto a = std::make_unique<OwnedTensor>(ScalarType::Float, sizes, nhwc);
  auto b = std::make_unique<OwnedTensor>(ScalarType::Float, sizes);  // contiguous
  // Element (n, c, h, w) of a lives at ((h * 3 + w) * 2 + c) in memory.
  for (int c = 0; c < 2; ++c) {
    for (int h = 0; h < 2; ++h) {
      for (int w = 0; w < 3; ++w) {
        a->data<float>()[(h * 3 + w) * 2 + c] = float(c * 100 + h * 10 + w);
        b->data<float>()[(c * 2 + h) * 3 + w] = 7.0f;
      }
    }
  }
  auto out = std::make_unique<OwnedTensor>(ScalarType::Float, sizes, nhwc);
  ASSERT_EQ(call_kernel("aten::maximum.out", {*a, *b, *out, *out}), Error::Ok);
  auto out_c = empty(ScalarType::Float, sizes);
  ASSERT_EQ(call_kernel("aten::floor_divide.out", {*a, *b, *out_c, *out_c}), Error::Ok)
      << last_error_message();
  for (int c = 0; c < 2; ++c) {
    for (int h = 0; h < 2; ++h) {
      for (int w = 0; w < 3; ++w) {
        const float v = float(c * 100 + h * 10 + w);
        EXPECT_EQ(out->data<float>()[(h * 3 + w) * 2 + c], v > 7 ? v : 7.0f);
        EXPECT_EQ(out_c->data<float>()[(c * 2 + h) * 3 + w], std::floor(v / 7.0f));
      }
    }
  }
  auto out_neg = std::make_unique<OwnedTensor>(ScalarType::Float, sizes, nhwc);
  ASSERT_EQ(call_kernel("aten::neg.out", {*a, *out_neg, *out_neg}), Error::Ok);
  for (size_t k = 0; k < 12; ++k) EXPECT_EQ(out_neg->data<float>()[k], -a->data<float>()[k]);
}

// Every registered overload of this group is present (names as upstream).
TEST(ElementwiseRegistry, UpstreamNames) {
  const char* names[] = {
      "div.out", "div.out_mode", "div.Scalar_out", "div.Scalar_mode_out",
      "rsub.Scalar_out", "pow.Tensor_Tensor_out", "pow.Tensor_Scalar_out",
      "pow.Scalar_out", "remainder.Tensor_out", "remainder.Scalar_out",
      "fmod.Tensor_out", "fmod.Scalar_out", "floor_divide.out", "maximum.out",
      "minimum.out", "clamp.out", "clamp.Tensor_out", "masked_fill.Scalar_out",
      "neg.out", "abs.out", "sign.out", "reciprocal.out", "sqrt.out", "rsqrt.out",
      "exp.out", "expm1.out", "log.out", "log1p.out", "log2.out", "sin.out",
      "cos.out", "tanh.out", "sigmoid.out", "erf.out", "floor.out", "ceil.out",
      "round.out", "trunc.out", "gelu.out", "hardtanh.out", "leaky_relu.out",
      "elu.out", "logit.out", "logical_xor.out", "bitwise_and.Tensor_out",
      "bitwise_and.Scalar_out", "bitwise_or.Tensor_out", "bitwise_or.Scalar_out",
      "bitwise_xor.Tensor_out", "bitwise_xor.Scalar_out", "bitwise_not.out",
      "isnan.out", "isinf.out"};
  for (const char* n : names) {
    const std::string s(n);
    const size_t dot = s.find('.');
    EXPECT_NE(find_kernel(("aten::" + s.substr(0, dot)).c_str(), s.substr(dot + 1).c_str()),
              nullptr)
        << n;
  }
}

}  // namespace
}  // namespace ember::testing
