// aten::ge.Scalar_out (kernels/portable/op_ge.cpp). The Tensor overload
// and the rules every comparison shares (promotion, broadcasting, NaN)
// are in util/comparison_test.cpp.
#include <cmath>

#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Ge, ScalarOverload) {
  auto i = tensor<int32_t>(ScalarType::Int, {4}, {1, 2, 3, 4});
  auto out = empty(ScalarType::Bool, {4});
  // Equal counts: 2 >= 2.
  ASSERT_EQ(call_kernel("aten::ge.Scalar_out", {*i, 2, *out, *out}), Error::Ok)
      << last_error_message();
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{0, 1, 1, 1}));
  // Int tensor and float scalar compare as float: 2 >= 2.5 is false.
  ASSERT_EQ(call_kernel("aten::ge.Scalar_out", {*i, 2.5, *out, *out}), Error::Ok);
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{0, 0, 1, 1}));
  // A non-Bool out receives 0 and 1.
  auto lout = empty(ScalarType::Long, {4});
  ASSERT_EQ(call_kernel("aten::ge.Scalar_out", {*i, 4, *lout, *lout}), Error::Ok);
  EXPECT_EQ(lout->values<int64_t>(), (std::vector<int64_t>{0, 0, 0, 1}));
  // NaN is not >= anything, even -inf; -inf >= -inf.
  auto f = tensor<float>(ScalarType::Float, {3}, {NAN, -INFINITY, 0.0f});
  auto fout = empty(ScalarType::Bool, {3});
  ASSERT_EQ(call_kernel("aten::ge.Scalar_out", {*f, -double(INFINITY), *fout, *fout}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*fout), (std::vector<double>{0, 1, 1}));
}

}  // namespace
}  // namespace ember::testing
