// aten::lt.Scalar_out (kernels/portable/op_lt.cpp). The Tensor overload
// and the rules every comparison shares (promotion, broadcasting, NaN)
// are in util/comparison_test.cpp.
#include <cmath>

#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Lt, ScalarOverload) {
  auto i = tensor<int32_t>(ScalarType::Int, {4}, {1, 2, 3, 4});
  auto out = empty(ScalarType::Bool, {4});
  // Equal is not less: 3 < 3 is false.
  ASSERT_EQ(call_kernel("aten::lt.Scalar_out", {*i, 3, *out, *out}), Error::Ok)
      << last_error_message();
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{1, 1, 0, 0}));
  // Int tensor and float scalar compare as float: 1 < 1.5, 2 < 1.5 is false.
  ASSERT_EQ(call_kernel("aten::lt.Scalar_out", {*i, 1.5, *out, *out}), Error::Ok);
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{1, 0, 0, 0}));
  // A non-Bool out receives 0 and 1.
  auto fout = empty(ScalarType::Float, {4});
  ASSERT_EQ(call_kernel("aten::lt.Scalar_out", {*i, 0, *fout, *fout}), Error::Ok);
  EXPECT_EQ(fout->values<float>(), (std::vector<float>{0, 0, 0, 0}));
  // NaN is not < anything, even +inf; -inf < 0; 0 < 0 is false.
  auto f = tensor<float>(ScalarType::Float, {3}, {NAN, -INFINITY, 0.0f});
  auto bout = empty(ScalarType::Bool, {3});
  ASSERT_EQ(call_kernel("aten::lt.Scalar_out", {*f, 0.0, *bout, *bout}), Error::Ok);
  EXPECT_EQ(to_doubles(*bout), (std::vector<double>{0, 1, 0}));
  auto nan = tensor<float>(ScalarType::Float, {1}, {NAN});
  auto one = empty(ScalarType::Bool, {1});
  ASSERT_EQ(call_kernel("aten::lt.Scalar_out", {*nan, double(INFINITY), *one, *one}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*one), (std::vector<double>{0}));
  // A Bool tensor against an int scalar compares as integers: False < 1.
  auto b = from_doubles(ScalarType::Bool, {2}, {1, 0});
  auto bb = empty(ScalarType::Bool, {2});
  ASSERT_EQ(call_kernel("aten::lt.Scalar_out", {*b, 1, *bb, *bb}), Error::Ok);
  EXPECT_EQ(to_doubles(*bb), (std::vector<double>{0, 1}));
}

}  // namespace
}  // namespace ember::testing
