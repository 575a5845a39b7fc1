// aten::convolution_backward.out
// (kernels/portable/op_convolution_backward.cpp): every gradient checked
// against the forward convolution through adjointness (the convolution is
// linear in its input and in its weight, so <g, conv(x, w)> = <grad_input,
// x> for every x and = <grad_weight, w> for every w), for plain, strided,
// grouped, 1-D and transposed geometries in Double and Float; the mask;
// the refused arguments. PyTorch's values are in the op suite
// (convolution_backward__*).
#include <random>

#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "aten::convolution_backward.out";

struct Geometry {
  std::vector<SizesType> x, w;
  std::vector<int64_t> stride, padding, dilation, output_padding;
  bool transposed;
  int64_t groups;
};

std::vector<double> random_values(size_t n, std::mt19937* rng) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> v(n);
  for (double& x : v) {
    x = dist(*rng);
  }
  return v;
}

size_t count(const std::vector<SizesType>& s) {
  size_t n = 1;
  for (SizesType d : s) n *= size_t(d);
  return n;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// conv(x, w) through convolution.out, as doubles; out shaped `y`.
std::vector<double> forward(ScalarType type, const Geometry& g, const std::vector<double>& x,
                            const std::vector<double>& w, const std::vector<SizesType>& y) {
  auto xt = from_doubles(type, g.x, x);
  auto wt = from_doubles(type, g.w, w);
  auto out = empty(type, y);
  EXPECT_EQ(call_kernel("aten::convolution.out",
                        {*xt, *wt, Arg::none(), Arg::ints(g.stride), Arg::ints(g.padding),
                         Arg::ints(g.dilation), g.transposed, Arg::ints(g.output_padding),
                         g.groups, *out, *out}),
            Error::Ok)
      << last_error_message();
  return to_doubles(*out);
}

void check_adjoint(ScalarType type, const Geometry& g, const std::vector<SizesType>& y,
                   double tol) {
  std::mt19937 rng(7);
  const int64_t oc = y[1];
  auto go = from_doubles(type, y, random_values(count(y), &rng));
  auto x0 = from_doubles(type, g.x, random_values(count(g.x), &rng));
  auto w0 = from_doubles(type, g.w, random_values(count(g.w), &rng));
  auto gi = empty(type, g.x);
  auto gw = empty(type, g.w);
  auto gb = empty(type, {SizesType(oc)});
  ASSERT_EQ(call_kernel(kOp, {*go, *x0, *w0, Arg::ints({oc}), Arg::ints(g.stride),
                              Arg::ints(g.padding), Arg::ints(g.dilation), g.transposed,
                              Arg::ints(g.output_padding), g.groups,
                              Arg::bools({true, true, true}), *gi, *gw, *gb, *gi, *gw, *gb}),
            Error::Ok)
      << last_error_message();
  const std::vector<double> gv = to_doubles(*go);
  const std::vector<double> w0v = to_doubles(*w0), x0v = to_doubles(*x0);
  for (int k = 0; k < 3; ++k) {
    const std::vector<double> x = to_doubles(*from_doubles(type, g.x, random_values(count(g.x), &rng)));
    EXPECT_NEAR(dot(gv, forward(type, g, x, w0v, y)), dot(to_doubles(*gi), x), tol) << "input";
    const std::vector<double> w = to_doubles(*from_doubles(type, g.w, random_values(count(g.w), &rng)));
    EXPECT_NEAR(dot(gv, forward(type, g, x0v, w, y)), dot(to_doubles(*gw), w), tol) << "weight";
  }
  // The bias gradient: grad_output summed per channel.
  const size_t per = gv.size() / size_t(y[0] * oc);
  const std::vector<double> gbv = to_doubles(*gb);
  for (int64_t c = 0; c < oc; ++c) {
    double s = 0;
    for (int64_t n = 0; n < y[0]; ++n)
      for (size_t i = 0; i < per; ++i) s += gv[(size_t(n * oc + c)) * per + i];
    EXPECT_NEAR(gbv[size_t(c)], s, tol) << "bias " << c;
  }
}

TEST(ConvolutionBackward, AdjointOfTheForward) {
  struct Case {
    Geometry g;
    std::vector<SizesType> y;
  };
  const std::vector<Case> cases = {
      {{{2, 3, 6, 5}, {4, 3, 3, 3}, {1, 1}, {0, 0}, {1, 1}, {0, 0}, false, 1}, {2, 4, 4, 3}},
      {{{1, 2, 9, 8}, {3, 2, 3, 2}, {2, 3}, {1, 2}, {2, 1}, {0, 0}, false, 1}, {1, 3, 4, 4}},
      {{{2, 4, 5, 5}, {6, 2, 3, 3}, {1}, {1}, {1}, {0}, false, 2}, {2, 6, 5, 5}},
      {{{1, 3, 6, 6}, {3, 1, 3, 3}, {2, 2}, {1, 1}, {1, 1}, {0, 0}, false, 3}, {1, 3, 3, 3}},
      {{{1, 4, 4, 4}, {5, 4, 1, 1}, {1, 1}, {0, 0}, {1, 1}, {0, 0}, false, 1}, {1, 5, 4, 4}},
      {{{2, 3, 10}, {4, 3, 3}, {2}, {1}, {1}, {0}, false, 1}, {2, 4, 5}},
      {{{1, 4, 4, 5}, {4, 3, 3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 0}, true, 1}, {1, 3, 8, 9}},
      {{{2, 4, 3, 3}, {4, 1, 2, 3}, {1, 2}, {0, 1}, {2, 1}, {0, 0}, true, 2}, {2, 2, 5, 5}},
      {{{1, 2, 5}, {2, 3, 2}, {3}, {0}, {1}, {2}, true, 1}, {1, 3, 16}},
      // Column tiles too large for the tests' 1 MiB of temp memory: the
      // weight gradient retries with smaller tiles.
      {{{1, 128, 16, 16}, {2, 128, 3, 3}, {1, 1}, {1, 1}, {1, 1}, {0, 0}, false, 1},
       {1, 2, 16, 16}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "x[1]=" << c.g.x[1] << " transposed=" << c.g.transposed
                                    << " groups=" << c.g.groups);
    check_adjoint(ScalarType::Double, c.g, c.y, 1e-9);
    check_adjoint(ScalarType::Float, c.g, c.y, 1e-3);
  }
}

TEST(ConvolutionBackward, MaskLeavesOthersUntouched) {
  auto go = tensor<float>(ScalarType::Float, {1, 1, 2, 2}, {1, 2, 3, 4});
  auto x = tensor<float>(ScalarType::Float, {1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  auto w = tensor<float>(ScalarType::Float, {1, 1, 2, 2}, {1, 0, 0, 1});
  auto gi = tensor<float>(ScalarType::Float, {1, 1, 3, 3}, std::vector<float>(9, -7.0f));
  auto gw = tensor<float>(ScalarType::Float, {1, 1, 2, 2}, std::vector<float>(4, -7.0f));
  // A masked-off out is neither checked nor written: a wrong dtype is fine.
  auto gb = empty(ScalarType::Int, {5});
  ASSERT_EQ(call_kernel(kOp, {*go, *x, *w, Arg::none(), Arg::ints({1, 1}), Arg::ints({0, 0}),
                              Arg::ints({1, 1}), false, Arg::ints({0, 0}), 1,
                              Arg::bools({false, true, false}), *gi, *gw, *gb, *gi, *gw, *gb}),
            Error::Ok)
      << last_error_message();
  EXPECT_EQ(gi->values<float>(), std::vector<float>(9, -7.0f));
  // gw[kh][kw] = sum g[oh][ow] x[oh + kh][ow + kw].
  EXPECT_EQ(gw->values<float>(), (std::vector<float>{37, 47, 67, 77}));
  ASSERT_EQ(call_kernel(kOp, {*go, *x, *w, Arg::none(), Arg::ints({1, 1}), Arg::ints({0, 0}),
                              Arg::ints({1, 1}), false, Arg::ints({0, 0}), 1,
                              Arg::bools({true, false, false}), *gi, *gw, *gb, *gi, *gw, *gb}),
            Error::Ok);
  EXPECT_EQ(gi->values<float>(), (std::vector<float>{1, 2, 0, 3, 5, 2, 0, 3, 4}));
}

TEST(ConvolutionBackward, Refused) {
  auto go = empty(ScalarType::Float, {1, 2, 2, 2});
  auto x = empty(ScalarType::Float, {1, 1, 3, 3});
  auto w = empty(ScalarType::Float, {2, 1, 2, 2});
  auto gi = empty(ScalarType::Float, {1, 1, 3, 3});
  auto gw = empty(ScalarType::Float, {2, 1, 2, 2});
  auto gb = empty(ScalarType::Float, {2});
  auto call = [&](const OwnedTensor& g, const OwnedTensor& in, const OwnedTensor& wt,
                  Arg bias_sizes, Arg mask) {
    return call_kernel(kOp, {g, in, wt, bias_sizes, Arg::ints({1}), Arg::ints({0}),
                             Arg::ints({1}), false, Arg::ints({0}), 1, mask, *gi, *gw, *gb,
                             *gi, *gw, *gb});
  };
  const auto all = [] { return Arg::bools({true, true, true}); };
  EXPECT_EQ(call(*go, *x, *w, Arg::ints({2}), all()), Error::Ok) << last_error_message();
  EXPECT_EQ(call(*go, *x, *w, Arg::ints({3}), all()), Error::InvalidArgument);
  EXPECT_TRUE(message_has("bias_sizes"));
  EXPECT_EQ(call(*go, *x, *w, Arg::ints({2}), Arg::bools({true, true})),
            Error::InvalidArgument);
  auto wrong = empty(ScalarType::Float, {1, 2, 3, 2});
  EXPECT_EQ(call(*wrong, *x, *w, Arg::ints({2}), all()), Error::InvalidArgument);
  EXPECT_TRUE(message_has("grad_output"));
  auto xd = empty(ScalarType::Double, {1, 1, 3, 3});
  EXPECT_EQ(call(*go, *xd, *w, Arg::ints({2}), all()), Error::InvalidArgument);
  auto h = empty(ScalarType::Half, {1, 1, 3, 3});
  EXPECT_EQ(call(*go, *h, *w, Arg::ints({2}), all()), Error::NotSupported);
  // A weight whose channels do not fit the input.
  auto w3 = empty(ScalarType::Float, {2, 3, 2, 2});
  EXPECT_EQ(call(*go, *x, *w3, Arg::ints({2}), all()), Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
