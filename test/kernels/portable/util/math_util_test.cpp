// Element functions with PyTorch's semantics
// (kernels/portable/util/math_util.h): the integer division helpers give
// INT_MIN / -1 and INT_MIN % -1 the wrapped result instead of trapping,
// in every rounding mode and for fmod and remainder.
#include <limits>

#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

// INT8_MIN // -1 wraps like PyTorch instead of trapping.
TEST(MathUtil, Int8MinByMinusOneWraps) {
  auto a = tensor<int8_t>(ScalarType::Char, {2}, {-128, 5});
  auto out = empty(ScalarType::Char, {2});
  auto m1 = tensor<int8_t>(ScalarType::Char, {2}, {-1, -1});
  ASSERT_EQ(call_kernel("aten::floor_divide.out", {*a, *m1, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int8_t>(), (std::vector<int8_t>{-128, -5}));
  ASSERT_EQ(call_kernel("aten::remainder.Tensor_out", {*a, *m1, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int8_t>(), (std::vector<int8_t>{0, 0}));
}

// PyTorch's own trunc kernel traps on INT_MIN / -1 (so no generated case
// can hold it); here it wraps like the floor mode does.
TEST(MathUtil, TruncIntMinByMinusOneWraps) {
  auto a = tensor<int32_t>(ScalarType::Int, {2}, {std::numeric_limits<int32_t>::min(), 9});
  auto b = tensor<int32_t>(ScalarType::Int, {2}, {-1, -1});
  auto out = empty(ScalarType::Int, {2});
  for (const char* mode : {"trunc", "floor"}) {
    ASSERT_EQ(call_kernel("aten::div.out_mode", {*a, *b, Arg::string(mode), *out, *out}),
              Error::Ok)
        << mode;
    EXPECT_EQ(out->values<int32_t>(),
              (std::vector<int32_t>{std::numeric_limits<int32_t>::min(), -9}));
  }
  ASSERT_EQ(call_kernel("aten::fmod.Tensor_out", {*a, *b, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int32_t>(), (std::vector<int32_t>{0, 0}));
}

}  // namespace
}  // namespace ember::testing
