// Broadcasting elementwise loops (kernels/portable/util/elementwise.h):
// broadcast shapes against a reference loop for add, sub, mul and div,
// and NHWC operands walked in the output's dim order.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

// Broadcast shape pairs checked against the reference loop, for each op.
TEST(Elementwise, BroadcastingMatchesReference) {
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

// NHWC-ordered operands: the plan walks the output's dim order.
TEST(Elementwise, ChannelsLastUnaryAndBinary) {
  const std::vector<SizesType> sizes = {1, 2, 2, 3};
  const std::vector<DimOrderType> nhwc = {0, 2, 3, 1};
  auto a = std::make_unique<OwnedTensor>(ScalarType::Float, sizes, nhwc);
  auto b = std::make_unique<OwnedTensor>(ScalarType::Float, sizes);  // contiguous
  // Element (n, c, h, w) of a lives at ((h * 3 + w) * 2 + c) in memory.
  for (int c = 0; c < 2; ++c) {
    for (int h = 0; h < 2; ++h) {
      for (int w = 0; w < 3; ++w) {
        a->data<float>()[(h * 3 + w) * 2 + c] = float(c * 100 + h * 10 + w);
        b->data<float>()[(c * 2 + h) * 3 + w] = 7.0f;
      }
    }
  }
  auto out = std::make_unique<OwnedTensor>(ScalarType::Float, sizes, nhwc);
  ASSERT_EQ(call_kernel("aten::maximum.out", {*a, *b, *out, *out}), Error::Ok);
  auto out_c = empty(ScalarType::Float, sizes);
  ASSERT_EQ(call_kernel("aten::floor_divide.out", {*a, *b, *out_c, *out_c}), Error::Ok)
      << last_error_message();
  for (int c = 0; c < 2; ++c) {
    for (int h = 0; h < 2; ++h) {
      for (int w = 0; w < 3; ++w) {
        const float v = float(c * 100 + h * 10 + w);
        EXPECT_EQ(out->data<float>()[(h * 3 + w) * 2 + c], v > 7 ? v : 7.0f);
        EXPECT_EQ(out_c->data<float>()[(c * 2 + h) * 3 + w], std::floor(v / 7.0f));
      }
    }
  }
  auto out_neg = std::make_unique<OwnedTensor>(ScalarType::Float, sizes, nhwc);
  ASSERT_EQ(call_kernel("aten::neg.out", {*a, *out_neg, *out_neg}), Error::Ok);
  for (size_t k = 0; k < 12; ++k) EXPECT_EQ(out_neg->data<float>()[k], -a->data<float>()[k]);
}

}  // namespace
}  // namespace ember::testing
