// Shared bodies of the comparison kernels
// (kernels/portable/util/comparison.h), through eq, ne, lt, le, gt, ge:
// the Tensor overloads against a broadcasting reference, the Scalar
// overloads, promotion before comparing, non-Bool outs, NaN, shape errors.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Comparison, TensorOverloadsAllOps) {
  auto a = tensor<float>(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto b = tensor<float>(ScalarType::Float, {3}, {2, 2, 7});
  struct Case {
    const char* op;
    bool (*f)(double, double);
  };
  const Case cases[] = {
      {"aten::gt.Tensor_out", [](double x, double y) { return x > y; }},
      {"aten::lt.Tensor_out", [](double x, double y) { return x < y; }},
      {"aten::ge.Tensor_out", [](double x, double y) { return x >= y; }},
      {"aten::le.Tensor_out", [](double x, double y) { return x <= y; }},
      {"aten::eq.Tensor_out", [](double x, double y) { return x == y; }},
      {"aten::ne.Tensor_out", [](double x, double y) { return x != y; }}};
  for (const Case& c : cases) {
    std::vector<SizesType> os;
    const auto want = broadcast_ref({2, 3}, {1, 2, 3, 4, 5, 6}, {3}, {2, 2, 7},
                                    &os, [&](double x, double y) {
                                      return double(c.f(x, y));
                                    });
    auto out = empty(ScalarType::Bool, {2, 3});
    ASSERT_EQ(call_kernel(c.op, {*a, *b, *out, *out}), Error::Ok) << c.op;
    EXPECT_EQ(to_doubles(*out), want) << c.op;
  }
}

TEST(Comparison, ScalarOverloadsAndPromotion) {
  auto i = tensor<int32_t>(ScalarType::Int, {4}, {1, 2, 3, 4});
  auto out = empty(ScalarType::Bool, {4});
  // Compared as float: 2 > 2.5 is false, 3 > 2.5 is true.
  ASSERT_EQ(call_kernel("aten::gt.Scalar_out", {*i, 2.5, *out, *out}), Error::Ok);
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{0, 0, 1, 1}));
  ASSERT_EQ(call_kernel("aten::eq.Scalar_out", {*i, 3, *out, *out}), Error::Ok);
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{0, 0, 1, 0}));
  ASSERT_EQ(call_kernel("aten::le.Scalar_out", {*i, 2, *out, *out}), Error::Ok);
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{1, 1, 0, 0}));
  // Non-bool out receives 0/1.
  auto fout = empty(ScalarType::Float, {4});
  ASSERT_EQ(call_kernel("aten::ne.Scalar_out", {*i, 1, *fout, *fout}), Error::Ok);
  EXPECT_EQ(fout->values<float>(), (std::vector<float>{0, 1, 1, 1}));
  // Mixed dtypes: int vs double tensor.
  auto d = tensor<double>(ScalarType::Double, {4}, {1.5, 1.5, 3, 5});
  ASSERT_EQ(call_kernel("aten::lt.Tensor_out", {*i, *d, *out, *out}), Error::Ok);
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{1, 0, 0, 1}));
  // NaN compares unequal.
  auto n = tensor<float>(ScalarType::Float, {1}, {NAN});
  auto one = empty(ScalarType::Bool, {1});
  ASSERT_EQ(call_kernel("aten::ne.Tensor_out", {*n, *n, *one, *one}), Error::Ok);
  EXPECT_EQ(to_doubles(*one)[0], 1);
  // Shape mismatch.
  auto bad = tensor<int32_t>(ScalarType::Int, {3}, {1, 2, 3});
  EXPECT_EQ(call_kernel("aten::ge.Tensor_out", {*i, *bad, *out, *out}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
