// Comparisons, logical ops, where, relu, full / full_like.
#include "runtime/kernel/kernel_args.h"
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Compare, TensorOverloadsAllOps) {
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

TEST(Compare, ScalarOverloadsAndPromotion) {
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

TEST(Logical, AndOrNot) {
  auto a = tensor<float>(ScalarType::Float, {4}, {0, 1, 0, NAN});
  auto b = tensor<int32_t>(ScalarType::Int, {4}, {0, 0, 5, 2});
  auto out = empty(ScalarType::Bool, {4});
  ASSERT_EQ(call_kernel("aten::logical_and.out", {*a, *b, *out, *out}), Error::Ok);
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{0, 0, 0, 1}));
  ASSERT_EQ(call_kernel("aten::logical_or.out", {*a, *b, *out, *out}), Error::Ok);
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{0, 1, 1, 1}));
  ASSERT_EQ(call_kernel("aten::logical_not.out", {*b, *out, *out}), Error::Ok);
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{1, 1, 0, 0}));
  auto fout = empty(ScalarType::Float, {4});
  ASSERT_EQ(call_kernel("aten::logical_not.out", {*a, *fout, *fout}), Error::Ok);
  EXPECT_EQ(fout->values<float>(), (std::vector<float>{1, 0, 1, 0}));
  auto wrong = empty(ScalarType::Bool, {5});
  EXPECT_NE(call_kernel("aten::logical_not.out", {*a, *wrong, *wrong}), Error::Ok);
}

TEST(Where, BroadcastAndPromote) {
  auto cond = from_doubles(ScalarType::Bool, {2, 1}, {1, 0});
  auto x = tensor<int32_t>(ScalarType::Int, {3}, {1, 2, 3});
  auto y = tensor<float>(ScalarType::Float, {2, 3}, {10, 20, 30, 40, 50, 60});
  auto out = empty(ScalarType::Float, {2, 3});
  ASSERT_EQ(call_kernel("aten::where.self_out", {*cond, *x, *y, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 2, 3, 40, 50, 60}));
  auto fcond = tensor<float>(ScalarType::Float, {2, 1}, {1, 0});
  EXPECT_EQ(call_kernel("aten::where.self_out", {*fcond, *x, *y, *out, *out}),
            Error::InvalidArgument);
  auto iout = empty(ScalarType::Int, {2, 3});
  EXPECT_EQ(call_kernel("aten::where.self_out", {*cond, *x, *y, *iout, *iout}),
            Error::InvalidArgument);
}

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

TEST(Full, FullAndFullLike) {
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
  auto self = tensor<int32_t>(ScalarType::Int, {2, 2}, {1, 2, 3, 4});
  auto like = empty(ScalarType::Int, {2, 2});
  ASSERT_EQ(call_kernel("aten::full_like.out", {*self, -3, Arg::none(), *like, *like}),
            Error::Ok);
  EXPECT_EQ(like->values<int32_t>(), std::vector<int32_t>(4, -3));
  auto c = empty(ScalarType::Char, {2, 2});
  EXPECT_EQ(call_kernel("aten::full_like.out", {*self, 300, Arg::none(), *c, *c}),
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

// Scalar::to_int of a Double saturates (and gives 0 for NaN) instead of an
// undefined out-of-range cast.
TEST(ScalarArg, DoubleToIntSaturates) {
  Scalar s;
  s.kind = Scalar::Kind::Double;
  s.d = 1e300;
  EXPECT_EQ(s.to_int(), INT64_MAX);
  s.d = -1e300;
  EXPECT_EQ(s.to_int(), INT64_MIN);
  s.d = std::nan("");
  EXPECT_EQ(s.to_int(), 0);
  s.d = -2.9;
  EXPECT_EQ(s.to_int(), -2);
}

}  // namespace
}  // namespace ember::testing
