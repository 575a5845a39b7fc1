// aten::full.out (kernels/portable/op_full.cpp): dtypes, resizing, and
// fill values that do not fit the out dtype.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Full, DtypesAndShapes) {
  auto out = dynamic_out(ScalarType::Float, {4, 4});
  ASSERT_EQ(call_kernel("aten::full.out", {Arg::ints({2, 3}), 1.5, *out, *out}), Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 3}));
  EXPECT_EQ(out->values<float>(), std::vector<float>(6, 1.5f));
  auto iout = empty(ScalarType::Long, {3});
  ASSERT_EQ(call_kernel("aten::full.out", {Arg::ints({3}), 7, *iout, *iout}), Error::Ok);
  EXPECT_EQ(iout->values<int64_t>(), std::vector<int64_t>(3, 7));
  auto hout = empty(ScalarType::Half, {2});
  ASSERT_EQ(call_kernel("aten::full.out", {Arg::ints({2}), 0.25, *hout, *hout}), Error::Ok);
  EXPECT_EQ(to_doubles(*hout), (std::vector<double>{0.25, 0.25}));
  auto bout = empty(ScalarType::Bool, {2});
  ASSERT_EQ(call_kernel("aten::full.out", {Arg::ints({2}), true, *bout, *bout}), Error::Ok);
  EXPECT_EQ(to_doubles(*bout), (std::vector<double>{1, 1}));
  // Static out of another shape.
  auto fixed = empty(ScalarType::Float, {2});
  EXPECT_NE(call_kernel("aten::full.out", {Arg::ints({3}), 1.0, *fixed, *fixed}), Error::Ok);
  EXPECT_EQ(call_kernel("aten::full.out", {Arg::ints({-1}), 1.0, *fixed, *fixed}),
            Error::InvalidArgument);
}

// A float fill value of 2^63 does not fit Long (double(INT64_MAX) rounds
// up to it, so an inclusive bound let it through to an undefined cast).
TEST(Full, FloatValuePastInt64Refused) {
  auto out = empty(ScalarType::Long, {2});
  EXPECT_EQ(call_kernel("aten::full.out", {Arg::ints({2}), 9223372036854775808.0, *out, *out}),
            Error::InvalidArgument);
  ASSERT_EQ(call_kernel("aten::full.out", {Arg::ints({2}), -9223372036854775808.0, *out, *out}),
            Error::Ok);
  EXPECT_EQ(out->values<int64_t>(), std::vector<int64_t>(2, INT64_MIN));
  auto iout = empty(ScalarType::Int, {1});
  EXPECT_EQ(call_kernel("aten::full.out", {Arg::ints({1}), 2147483648.0, *iout, *iout}),
            Error::InvalidArgument);
  ASSERT_EQ(call_kernel("aten::full.out", {Arg::ints({1}), 2147483647.5, *iout, *iout}),
            Error::Ok);
  EXPECT_EQ(iout->values<int32_t>(), std::vector<int32_t>(1, INT32_MAX));
}

}  // namespace
}  // namespace ember::testing
