// aten::abs.out (kernels/portable/op_abs.cpp) on complex self: the
// magnitude into a real out, which the op suite cannot carry (upstream's
// runtime takes no complex inputs). Expected values are PyTorch's
// (torch 2.13: abs of complex64 [3+4j, -1e30+1e30j, inf+nanj, nan+1j,
// -0-0j] is [5, 1.4142135e30, inf, nan, 0]). Real dtypes: the op suite
// (abs__*).
#include <cmath>
#include <limits>

#include "test/kernels/portable/fft_test_util.h"

namespace ember::testing {
namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNan = std::numeric_limits<double>::quiet_NaN();

const std::vector<double> kPairs = {3, 4, -1e30, 1e30, kInf, kNan, kNan, 1, -0.0, -0.0};

TEST(Abs, ComplexMagnitudeIsReal) {
  for (ScalarType type : {ScalarType::ComplexFloat, ScalarType::ComplexDouble}) {
    const ScalarType real =
        type == ScalarType::ComplexFloat ? ScalarType::Float : ScalarType::Double;
    auto self = fft_tensor(type, {5}, kPairs);
    auto out = fft_out(real, {5});
    ASSERT_EQ(call_kernel("aten::abs.out", {*self, *out, *out}), Error::Ok)
        << last_error_message();
    const std::vector<double> got = fft_values(*out);
    EXPECT_DOUBLE_EQ(got[0], 5.0);
    EXPECT_NEAR(got[1], 1.4142135623730951e30, 1e24);  // no overflow in float
    EXPECT_EQ(got[2], kInf);                            // inf beside a NaN
    EXPECT_TRUE(std::isnan(got[3]));
    EXPECT_EQ(got[4], 0.0);
    EXPECT_FALSE(std::signbit(got[4]));
  }
}

TEST(Abs, ComplexIntoOtherFloatOutsAndDimOrders) {
  auto self = fft_tensor(ScalarType::ComplexDouble, {2, 3},
                         {3, 4, 0, 1, -5, 12, 8, -6, 0, 0, 1, 1}, {1, 0});
  auto out = fft_out(ScalarType::Float, {2, 3}, {1, 0});
  ASSERT_EQ(call_kernel("aten::abs.out", {*self, *out, *out}), Error::Ok) << last_error_message();
  expect_fft_near(fft_values(*out), {5, 1, 13, 10, 0, std::sqrt(2.0)}, false, "Double -> Float");
  auto half = empty(ScalarType::Half, {2, 3});
  ASSERT_EQ(call_kernel("aten::abs.out", {*self, *half, *half}), Error::Ok);
  EXPECT_EQ(float(half->data<Half>()[2]), 13.0f);
  auto dynamic = dynamic_out(ScalarType::Double, {4, 4});
  ASSERT_EQ(call_kernel("aten::abs.out", {*self, *dynamic, *dynamic}), Error::Ok);
  EXPECT_EQ(sizes_of(*dynamic), (std::vector<SizesType>{2, 3}));
}

TEST(Abs, ComplexRefusals) {
  auto self = fft_tensor(ScalarType::ComplexFloat, {2}, {3, 4, 1, 0});
  auto ints = empty(ScalarType::Int, {2});
  EXPECT_EQ(call_kernel("aten::abs.out", {*self, *ints, *ints}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("must be a real floating type"));
  auto complex_out = empty(ScalarType::ComplexFloat, {2});
  EXPECT_EQ(call_kernel("aten::abs.out", {*self, *complex_out, *complex_out}),
            Error::InvalidArgument);
  auto complex_half = empty(ScalarType::ComplexHalf, {2});
  auto out = empty(ScalarType::Float, {2});
  EXPECT_EQ(call_kernel("aten::abs.out", {*complex_half, *out, *out}), Error::InvalidArgument);
  auto wrong_shape = empty(ScalarType::Float, {3});
  EXPECT_EQ(call_kernel("aten::abs.out", {*self, *wrong_shape, *wrong_shape}),
            Error::NotSupported);
}

}  // namespace
}  // namespace ember::testing
