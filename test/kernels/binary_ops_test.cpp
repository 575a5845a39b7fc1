// add / sub / mul / div: broadcasting, type promotion, dtype sweep, errors.
#include <algorithm>

#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

constexpr ScalarType kAllTypes[] = {
    ScalarType::Bool,  ScalarType::Byte, ScalarType::Char,  ScalarType::Short,
    ScalarType::Int,   ScalarType::Long, ScalarType::Half,  ScalarType::BFloat16,
    ScalarType::Float, ScalarType::Double};

TEST(Add, FloatSameShape) {
  auto a = tensor<float>(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
  auto b = tensor<float>(ScalarType::Float, {2, 2}, {10, 20, 30, 40});
  auto out = empty(ScalarType::Float, {2, 2});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *b, 1, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{11, 22, 33, 44}));
}

TEST(Add, AlphaAndIntAlpha) {
  auto a = tensor<float>(ScalarType::Float, {3}, {1, 2, 3});
  auto b = tensor<float>(ScalarType::Float, {3}, {1, 1, 1});
  auto out = empty(ScalarType::Float, {3});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *b, 2.5, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{3.5f, 4.5f, 5.5f}));
  ASSERT_EQ(call_kernel("aten::sub.out", {*a, *b, 2, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{-1, 0, 1}));
}

// Broadcast shape pairs checked against the reference loop, for each op.
TEST(Binary, BroadcastingMatchesReference) {
  const std::vector<std::pair<std::vector<SizesType>, std::vector<SizesType>>>
      shapes = {{{2, 3}, {3}},          {{2, 1}, {1, 3}},
                {{4, 1, 5}, {3, 1}},    {{}, {2, 3}},
                {{3, 1, 1, 2}, {2, 1}}, {{1}, {1}},
                {{2, 3, 4}, {2, 3, 4}}, {{5, 300}, {300}},
                {{300, 1}, {1, 7}}};
  struct Op {
    const char* name;
    int nargs;
    double (*f)(double, double);
  };
  const Op ops[] = {{"aten::add.out", 5, [](double x, double y) { return x + 2 * y; }},
                    {"aten::sub.out", 5, [](double x, double y) { return x - 2 * y; }},
                    {"aten::mul.out", 4, [](double x, double y) { return x * y; }},
                    {"aten::div.out", 4, [](double x, double y) { return x / y; }}};
  for (const auto& [as, bs] : shapes) {
    size_t na = 1, nb = 1;
    for (auto s : as) na *= size_t(s);
    for (auto s : bs) nb *= size_t(s);
    std::vector<double> av(na), bv(nb);
    for (size_t i = 0; i < na; ++i) av[i] = double(int(i % 11) - 5);
    for (size_t i = 0; i < nb; ++i) bv[i] = double(int(i % 7) + 1);
    for (const Op& op : ops) {
      std::vector<SizesType> os;
      const std::vector<double> want = broadcast_ref(as, av, bs, bv, &os, op.f);
      auto a = from_doubles(ScalarType::Float, as, av);
      auto b = from_doubles(ScalarType::Float, bs, bv);
      auto out = empty(ScalarType::Float, os);
      std::vector<Arg> args = {*a, *b};
      if (op.nargs == 5) args.push_back(2);
      args.push_back(*out);
      args.push_back(*out);
      ASSERT_EQ(call_kernel(op.name, args), Error::Ok)
          << op.name << ": " << last_error_message();
      expect_near_vec(to_doubles(*out), want, 1e-5);
    }
  }
}

// Same-dtype add and mul over every dtype: the result stays in that dtype.
TEST(Binary, DtypeSweepSameType) {
  const std::vector<double> av = {0, 1, 2, 3, 5, 7};
  const std::vector<double> bv = {1, 1, 0, 2, 3, 1};
  for (ScalarType t : kAllTypes) {
    auto a = from_doubles(t, {2, 3}, av);
    auto b = from_doubles(t, {2, 3}, bv);
    auto out = empty(t, {2, 3});
    ASSERT_EQ(call_kernel("aten::add.out", {*a, *b, 1, *out, *out}), Error::Ok)
        << scalar_type_name(t) << ": " << last_error_message();
    std::vector<double> want(6);
    for (size_t i = 0; i < 6; ++i) {
      want[i] = t == ScalarType::Bool ? double((av[i] != 0) || (bv[i] != 0))
                                      : av[i] + bv[i];
    }
    expect_near_vec(to_doubles(*out), want, 0);
    ASSERT_EQ(call_kernel("aten::mul.out", {*a, *b, *out, *out}), Error::Ok)
        << scalar_type_name(t);
    for (size_t i = 0; i < 6; ++i) {
      want[i] = t == ScalarType::Bool ? double((av[i] != 0) && (bv[i] != 0))
                                      : av[i] * bv[i];
    }
    expect_near_vec(to_doubles(*out), want, 0);
  }
}

// Mixed dtypes: every pair of dtypes, out in the promoted type, computed as
// PyTorch's promotion table says (hand-written for the pairs below).
TEST(Binary, PromotionTable) {
  struct Case {
    ScalarType a, b, result;
  };
  const Case cases[] = {
      {ScalarType::Int, ScalarType::Float, ScalarType::Float},
      {ScalarType::Byte, ScalarType::Char, ScalarType::Short},
      {ScalarType::Bool, ScalarType::Int, ScalarType::Int},
      {ScalarType::Short, ScalarType::Long, ScalarType::Long},
      {ScalarType::Half, ScalarType::BFloat16, ScalarType::Float},
      {ScalarType::Half, ScalarType::Float, ScalarType::Float},
      {ScalarType::Long, ScalarType::Half, ScalarType::Half},
      {ScalarType::Float, ScalarType::Double, ScalarType::Double},
      {ScalarType::Byte, ScalarType::Int, ScalarType::Int},
  };
  for (const Case& c : cases) {
    auto a = from_doubles(c.a, {3}, {1, 2, 3});
    auto b = from_doubles(c.b, {3}, {1, 0, 4});
    // The promoted type works...
    auto out = empty(c.result, {3});
    ASSERT_EQ(call_kernel("aten::mul.out", {*a, *b, *out, *out}), Error::Ok)
        << scalar_type_name(c.a) << "*" << scalar_type_name(c.b);
    const std::vector<double> av = to_doubles(*a), bv = to_doubles(*b);
    EXPECT_EQ(to_doubles(*out),
              (std::vector<double>{av[0] * bv[0], av[1] * bv[1], av[2] * bv[2]}));
    // ...and a floating result refuses an integral out.
    if (is_floating_type(c.result)) {
      auto bad = empty(ScalarType::Int, {3});
      EXPECT_EQ(call_kernel("aten::mul.out", {*a, *b, *bad, *bad}),
                Error::InvalidArgument);
    }
  }
}

TEST(Binary, IntPlusIntStaysIntAndWraps) {
  auto a = tensor<int8_t>(ScalarType::Char, {2}, {100, -100});
  auto b = tensor<int8_t>(ScalarType::Char, {2}, {100, -100});
  auto out = empty(ScalarType::Char, {2});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *b, 1, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int8_t>(), (std::vector<int8_t>{-56, 56}));
  auto big = tensor<int64_t>(ScalarType::Long, {1}, {INT64_MAX});
  auto out64 = empty(ScalarType::Long, {1});
  ASSERT_EQ(call_kernel("aten::add.out", {*big, *big, 1, *out64, *out64}), Error::Ok);
  EXPECT_EQ(out64->values<int64_t>()[0], -2);
}

TEST(Binary, IntOutFromLongIsAllowedCast) {
  // Long result written into an Int out (integral narrowing is allowed).
  auto a = tensor<int64_t>(ScalarType::Long, {2}, {1, 2});
  auto b = tensor<int32_t>(ScalarType::Int, {2}, {3, 4});
  auto out = empty(ScalarType::Int, {2});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *b, 1, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int32_t>(), (std::vector<int32_t>{4, 6}));
}

TEST(Binary, ZeroDimTensorDoesNotPromoteSameCategory) {
  // int32 [3] + int64 0-dim -> int32; float [2] * double 0-dim -> float.
  auto a = tensor<int32_t>(ScalarType::Int, {3}, {1, 2, 3});
  auto s = tensor<int64_t>(ScalarType::Long, {}, {5});
  auto out = empty(ScalarType::Int, {3});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *s, 1, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int32_t>(), (std::vector<int32_t>{6, 7, 8}));
  // A 0-dim float with an int tensor still promotes to float.
  auto f = tensor<float>(ScalarType::Float, {}, {0.5f});
  auto fout = empty(ScalarType::Float, {3});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *f, 1, *fout, *fout}), Error::Ok);
  EXPECT_EQ(fout->values<float>(), (std::vector<float>{1.5f, 2.5f, 3.5f}));
}

TEST(Binary, HalfAndBFloat16ComputeInFloat) {
  auto a = from_doubles(ScalarType::Half, {3}, {1.5, -2.25, 1024});
  auto b = from_doubles(ScalarType::Half, {3}, {0.25, 0.5, 1});
  auto out = empty(ScalarType::Half, {3});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *b, 1, *out, *out}), Error::Ok);
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{1.75, -1.75, 1025}));
  auto c = from_doubles(ScalarType::BFloat16, {2}, {3, 8});
  auto d = from_doubles(ScalarType::BFloat16, {2}, {2, 4});
  auto bout = empty(ScalarType::BFloat16, {2});
  ASSERT_EQ(call_kernel("aten::div.out", {*c, *d, *bout, *bout}), Error::Ok);
  EXPECT_EQ(to_doubles(*bout), (std::vector<double>{1.5, 2}));
}

TEST(Binary, BoolRules) {
  auto a = from_doubles(ScalarType::Bool, {4}, {0, 1, 0, 1});
  auto b = from_doubles(ScalarType::Bool, {4}, {0, 0, 1, 1});
  auto out = empty(ScalarType::Bool, {4});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *b, true, *out, *out}), Error::Ok);
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{0, 1, 1, 1}));
  // Bool alpha with a non-bool result, float alpha with an integral one: error.
  auto i = tensor<int32_t>(ScalarType::Int, {4}, {1, 2, 3, 4});
  auto iout = empty(ScalarType::Int, {4});
  EXPECT_EQ(call_kernel("aten::add.out", {*i, *i, true, *iout, *iout}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::add.out", {*i, *i, 1.5, *iout, *iout}),
            Error::InvalidArgument);
  // Subtraction with bool is refused.
  EXPECT_EQ(call_kernel("aten::sub.out", {*a, *b, 1, *out, *out}),
            Error::InvalidArgument);
  // Bool + Int promotes to Int.
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *i, 1, *iout, *iout}), Error::Ok);
  EXPECT_EQ(iout->values<int32_t>(), (std::vector<int32_t>{1, 3, 3, 5}));
}

TEST(Binary, DivIsTrueDivision) {
  auto a = tensor<int32_t>(ScalarType::Int, {4}, {7, -7, 1, 0});
  auto b = tensor<int32_t>(ScalarType::Int, {4}, {2, 2, 0, 0});
  auto out = empty(ScalarType::Float, {4});
  ASSERT_EQ(call_kernel("aten::div.out", {*a, *b, *out, *out}), Error::Ok);
  auto v = out->values<float>();
  EXPECT_EQ(v[0], 3.5f);
  EXPECT_EQ(v[1], -3.5f);
  EXPECT_TRUE(std::isinf(v[2]));
  EXPECT_TRUE(std::isnan(v[3]));
  auto iout = empty(ScalarType::Int, {4});
  EXPECT_EQ(call_kernel("aten::div.out", {*a, *b, *iout, *iout}),
            Error::InvalidArgument);
}

TEST(ScalarOverloads, AddSubMulWithScalars) {
  auto i = tensor<int32_t>(ScalarType::Int, {3}, {1, 2, 3});
  // int tensor + int scalar -> int
  auto iout = empty(ScalarType::Int, {3});
  ASSERT_EQ(call_kernel("aten::add.Scalar_out", {*i, 10, 2, *iout, *iout}), Error::Ok);
  EXPECT_EQ(iout->values<int32_t>(), (std::vector<int32_t>{21, 22, 23}));
  // int tensor + float scalar -> float
  auto fout = empty(ScalarType::Float, {3});
  ASSERT_EQ(call_kernel("aten::add.Scalar_out", {*i, 0.5, 1, *fout, *fout}), Error::Ok);
  EXPECT_EQ(fout->values<float>(), (std::vector<float>{1.5f, 2.5f, 3.5f}));
  EXPECT_EQ(call_kernel("aten::add.Scalar_out", {*i, 0.5, 1, *iout, *iout}),
            Error::InvalidArgument);
  ASSERT_EQ(call_kernel("aten::sub.Scalar_out", {*i, 1, 3, *iout, *iout}), Error::Ok);
  EXPECT_EQ(iout->values<int32_t>(), (std::vector<int32_t>{-2, -1, 0}));
  ASSERT_EQ(call_kernel("aten::mul.Scalar_out", {*i, 1.5, *fout, *fout}), Error::Ok);
  EXPECT_EQ(fout->values<float>(), (std::vector<float>{1.5f, 3, 4.5f}));
  // Half tensor * float scalar stays Half.
  auto h = from_doubles(ScalarType::Half, {2}, {2, 3});
  auto hout = empty(ScalarType::Half, {2});
  ASSERT_EQ(call_kernel("aten::mul.Scalar_out", {*h, 0.5, *hout, *hout}), Error::Ok);
  EXPECT_EQ(to_doubles(*hout), (std::vector<double>{1, 1.5}));
  // Bool tensor * int scalar -> Long.
  auto bt = from_doubles(ScalarType::Bool, {2}, {1, 0});
  auto lout = empty(ScalarType::Long, {2});
  ASSERT_EQ(call_kernel("aten::mul.Scalar_out", {*bt, 7, *lout, *lout}), Error::Ok);
  EXPECT_EQ(lout->values<int64_t>(), (std::vector<int64_t>{7, 0}));
  // A scalar out of the int8 range is refused rather than wrapped.
  auto c = tensor<int8_t>(ScalarType::Char, {1}, {1});
  auto cout = empty(ScalarType::Char, {1});
  EXPECT_EQ(call_kernel("aten::add.Scalar_out", {*c, 1000, 1, *cout, *cout}),
            Error::InvalidArgument);
}

TEST(Binary, Errors) {
  auto a = tensor<float>(ScalarType::Float, {2, 3}, std::vector<float>(6, 1));
  auto b = tensor<float>(ScalarType::Float, {4}, std::vector<float>(4, 1));
  auto out = empty(ScalarType::Float, {2, 3});
  EXPECT_EQ(call_kernel("aten::add.out", {*a, *b, 1, *out, *out}),
            Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("aten::add.out"),
            std::string::npos);
  // Static out of the wrong shape cannot be resized.
  auto c = tensor<float>(ScalarType::Float, {2, 3}, std::vector<float>(6, 1));
  auto wrong = empty(ScalarType::Float, {3, 2});
  EXPECT_NE(call_kernel("aten::mul.out", {*a, *c, *wrong, *wrong}), Error::Ok);
  // Wrong argument count and wrong tag.
  EXPECT_EQ(call_kernel("aten::mul.out", {*a, *c, *out}), Error::InvalidProgram);
  EXPECT_EQ(call_kernel("aten::mul.out", {*a, 3, *out, *out}), Error::InvalidType);
}

TEST(Binary, DynamicOutIsResized) {
  auto a = tensor<float>(ScalarType::Float, {2, 1}, {1, 2});
  auto b = tensor<float>(ScalarType::Float, {1, 3}, {10, 20, 30});
  auto out = dynamic_out(ScalarType::Float, {4, 4});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *b, 1, *out, *out}), Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 3}));
  EXPECT_EQ(out->values<float>(), (std::vector<float>{11, 21, 31, 12, 22, 32}));
  // Too large for the bound.
  auto big = tensor<float>(ScalarType::Float, {1, 17}, std::vector<float>(17, 0));
  EXPECT_NE(call_kernel("aten::add.out", {*a, *big, 1, *out, *out}), Error::Ok);
}

TEST(Binary, ChannelsLastOperands) {
  // [1, 2, 2, 2] in dim order (0, 2, 3, 1) for self, other and out.
  const std::vector<DimOrderType> cl = {0, 2, 3, 1};
  auto a = std::make_unique<OwnedTensor>(ScalarType::Float,
                                         std::vector<SizesType>{1, 2, 2, 2}, cl);
  auto b = std::make_unique<OwnedTensor>(ScalarType::Float,
                                         std::vector<SizesType>{1, 2, 2, 2}, cl);
  auto out = std::make_unique<OwnedTensor>(ScalarType::Float,
                                           std::vector<SizesType>{1, 2, 2, 2}, cl);
  for (int i = 0; i < 8; ++i) {
    a->data<float>()[i] = float(i);
    b->data<float>()[i] = float(10 * i);
  }
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *b, 1, *out, *out}), Error::Ok);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(out->data<float>()[i], float(11 * i));
  }
  // Contiguous `other` broadcast against channels-last `self`: logical
  // element (c, h, w) of self sits at memory h*4 + w*2 + c.
  auto bias = tensor<float>(ScalarType::Float, {2, 1, 1}, {100, 200});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *bias, 1, *out, *out}), Error::Ok);
  for (int i = 0; i < 8; ++i) {
    const int c = i % 2;
    EXPECT_EQ(out->data<float>()[i], float(i) + (c == 0 ? 100 : 200));
  }
}

}  // namespace
}  // namespace ember::testing
