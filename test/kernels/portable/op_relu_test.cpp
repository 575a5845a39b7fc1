// aten::relu.out (kernels/portable/op_relu.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Relu, Dtypes) {
  for (ScalarType t : {ScalarType::Float, ScalarType::Double, ScalarType::Half,
                       ScalarType::BFloat16, ScalarType::Int, ScalarType::Long,
                       ScalarType::Char, ScalarType::Short}) {
    auto a = from_doubles(t, {5}, {-2, -0.0, 0, 3, -1});
    auto out = empty(t, {5});
    ASSERT_EQ(call_kernel("aten::relu.out", {*a, *out, *out}), Error::Ok)
        << scalar_type_name(t);
    EXPECT_EQ(to_doubles(*out), (std::vector<double>{0, 0, 0, 3, 0}));
  }
  auto u = from_doubles(ScalarType::Byte, {2}, {0, 200});
  auto uout = empty(ScalarType::Byte, {2});
  ASSERT_EQ(call_kernel("aten::relu.out", {*u, *uout, *uout}), Error::Ok);
  EXPECT_EQ(to_doubles(*uout), (std::vector<double>{0, 200}));
  auto n = tensor<float>(ScalarType::Float, {1}, {NAN});
  auto nout = empty(ScalarType::Float, {1});
  ASSERT_EQ(call_kernel("aten::relu.out", {*n, *nout, *nout}), Error::Ok);
  EXPECT_TRUE(std::isnan(nout->values<float>()[0]));
  auto wrong = empty(ScalarType::Double, {1});
  EXPECT_EQ(call_kernel("aten::relu.out", {*n, *wrong, *wrong}), Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
