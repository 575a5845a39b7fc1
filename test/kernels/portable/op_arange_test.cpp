// aten::arange.out and arange.start_out (kernels/portable/op_arange.cpp):
// float steps, refused steps, and integer ranges wider than int64.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Arange, FloatStepAndRefusedSteps) {
  auto r = empty(ScalarType::Float, {4});
  ASSERT_EQ(call_kernel("aten::arange.start_out", {0.5, 2.5, 0.5, *r, *r}), Error::Ok);
  EXPECT_EQ(r->values<float>(), (std::vector<float>{0.5f, 1.0f, 1.5f, 2.0f}));
  EXPECT_EQ(call_kernel("aten::arange.start_out", {0, 5, 0, *r, *r}), Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::arange.start_out", {5, 0, 1, *r, *r}), Error::InvalidArgument);
}

// Integer arange whose end - start overflows int64 (and so does i * step):
// computed exactly, not with signed overflow.
TEST(Arange, IntegralRangeWiderThanInt64) {
  auto r = empty(ScalarType::Long, {3});
  ASSERT_EQ(call_kernel("aten::arange.start_out",
                        {INT64_MIN, INT64_MAX, INT64_MAX, *r, *r}),
            Error::Ok);
  EXPECT_EQ(r->values<int64_t>(), (std::vector<int64_t>{INT64_MIN, -1, INT64_MAX - 1}));
  auto one = empty(ScalarType::Long, {1});
  ASSERT_EQ(call_kernel("aten::arange.start_out", {0, -1, INT64_MIN, *one, *one}),
            Error::Ok);
  EXPECT_EQ(one->values<int64_t>(), (std::vector<int64_t>{0}));
  EXPECT_EQ(call_kernel("aten::arange.start_out", {INT64_MAX, INT64_MIN, 1, *r, *r}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
