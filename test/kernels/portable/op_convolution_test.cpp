// aten::convolution.out (kernels/portable/op_convolution.cpp and its
// engines in util/conv_gemm.h): 2-D variants (grouped, depthwise, dilated,
// strided, padded) and 1-D against a reference loop, transposed
// convolution against a scatter reference, refused geometries, and
// results that do not change with the thread count.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

struct ConvCase {
  int n, c, h, w, oc, kh, kw, sh, sw, ph, pw, dh, dw, groups;
  bool bias;
};

std::vector<double> ref_conv(const ConvCase& p, int oh, int ow,
                             const std::vector<double>& in,
                             const std::vector<double>& wt,
                             const std::vector<double>& bias) {
  const int icg = p.c / p.groups, ocg = p.oc / p.groups;
  std::vector<double> out(size_t(p.n * p.oc * oh * ow));
  for (int n = 0; n < p.n; ++n)
    for (int o = 0; o < p.oc; ++o)
      for (int y = 0; y < oh; ++y)
        for (int x = 0; x < ow; ++x) {
          double s = p.bias ? bias[o] : 0;
          const int g = o / ocg;
          for (int ic = 0; ic < icg; ++ic)
            for (int ky = 0; ky < p.kh; ++ky)
              for (int kx = 0; kx < p.kw; ++kx) {
                const int iy = y * p.sh - p.ph + ky * p.dh, ix = x * p.sw - p.pw + kx * p.dw;
                if (iy < 0 || iy >= p.h || ix < 0 || ix >= p.w) continue;
                s += in[((n * p.c + g * icg + ic) * p.h + iy) * p.w + ix] *
                     wt[((o * icg + ic) * p.kh + ky) * p.kw + kx];
              }
          out[((n * p.oc + o) * oh + y) * ow + x] = s;
        }
  return out;
}

TEST(Convolution, TwoDVariants) {
  const ConvCase cases[] = {
      {1, 1, 5, 5, 1, 3, 3, 1, 1, 0, 0, 1, 1, 1, false},
      {2, 3, 7, 6, 4, 3, 2, 1, 1, 1, 1, 1, 1, 1, true},
      {1, 4, 9, 8, 6, 3, 3, 2, 3, 1, 2, 1, 1, 2, true},
      {1, 2, 10, 10, 2, 3, 3, 1, 1, 2, 2, 2, 2, 2, true},
      {1, 4, 6, 6, 4, 3, 3, 1, 1, 1, 1, 1, 1, 4, false},  // depthwise
  };
  for (const ConvCase& p : cases) {
    const int oh = (p.h + 2 * p.ph - p.dh * (p.kh - 1) - 1) / p.sh + 1;
    const int ow = (p.w + 2 * p.pw - p.dw * (p.kw - 1) - 1) / p.sw + 1;
    const auto inv = pattern(size_t(p.n * p.c * p.h * p.w), 17, 0.25);
    const auto wv = pattern(size_t(p.oc * (p.c / p.groups) * p.kh * p.kw), 7, 0.5);
    const auto bv = pattern(size_t(p.oc), 5, 1);
    auto in = from_doubles(ScalarType::Float, {p.n, p.c, p.h, p.w}, inv);
    auto wt = from_doubles(ScalarType::Float, {p.oc, p.c / p.groups, p.kh, p.kw}, wv);
    auto bias = from_doubles(ScalarType::Float, {p.oc}, bv);
    auto out = empty(ScalarType::Float, {p.n, p.oc, oh, ow});
    ASSERT_EQ(call_kernel("aten::convolution.out",
                          {*in, *wt, p.bias ? Arg(*bias) : Arg::none(),
                           Arg::ints({p.sh, p.sw}), Arg::ints({p.ph, p.pw}),
                           Arg::ints({p.dh, p.dw}), false, Arg::ints({0, 0}),
                           int64_t(p.groups), *out, *out}),
              Error::Ok)
        << last_error_message();
    expect_near_vec(to_doubles(*out), ref_conv(p, oh, ow, inv, wv, bv), 1e-4);
  }
}

TEST(Convolution, OneDAndErrors) {
  // 1-D: [N, C, L] with stride 2, padding 1 (single-value lists).
  const ConvCase p = {1, 2, 1, 9, 3, 1, 3, 1, 2, 0, 1, 1, 1, 1, true};
  const int ow = (9 + 2 - 2 - 1) / 2 + 1;
  const auto inv = pattern(18, 11, 1), wv = pattern(18, 5, 1), bv = pattern(3, 3, 1);
  auto in = from_doubles(ScalarType::Double, {1, 2, 9}, inv);
  auto wt = from_doubles(ScalarType::Double, {3, 2, 3}, wv);
  auto bias = from_doubles(ScalarType::Double, {3}, bv);
  auto out = empty(ScalarType::Double, {1, 3, ow});
  ASSERT_EQ(call_kernel("aten::convolution.out",
                        {*in, *wt, *bias, Arg::ints({2}), Arg::ints({1}), Arg::ints({1}),
                         false, Arg::ints({0}), int64_t(1), *out, *out}),
            Error::Ok)
      << last_error_message();
  expect_near_vec(to_doubles(*out), ref_conv(p, 1, ow, inv, wv, bv), 1e-9);
  // Channel mismatch, a transposed weight that does not fit ([in, out/g, k]
  // needs dim 0 = 2 input channels), and a kernel larger than the input.
  auto wbad = from_doubles(ScalarType::Double, {3, 3, 3}, pattern(27, 5, 1));
  EXPECT_EQ(call_kernel("aten::convolution.out",
                        {*in, *wbad, *bias, Arg::ints({1}), Arg::ints({0}), Arg::ints({1}),
                         false, Arg::ints({0}), int64_t(1), *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::convolution.out",
                        {*in, *wt, *bias, Arg::ints({1}), Arg::ints({0}), Arg::ints({1}),
                         true, Arg::ints({0}), int64_t(1), *out, *out}),
            Error::InvalidArgument);
  auto wbig = from_doubles(ScalarType::Double, {3, 2, 20}, pattern(120, 5, 1));
  EXPECT_EQ(call_kernel("aten::convolution.out",
                        {*in, *wbig, *bias, Arg::ints({1}), Arg::ints({0}), Arg::ints({1}),
                         false, Arg::ints({0}), int64_t(1), *out, *out}),
            Error::InvalidArgument);
}

TEST(Convolution, TransposedMatchesScatterReference) {
  // 1 x 2 x 3 x 3 input, weight [2, 2, 2, 2] (in, out / groups, kh, kw),
  // groups 2, stride 2, padding 0, output_padding 1: output 1 x 2 x 7 x 7.
  const int n = 1, c = 2, h = 3, w = 3, k = 2, s = 2, op = 1, g = 2;
  const int oh = (h - 1) * s + k + op, ow = oh;
  const auto inv = wave(size_t(n * c * h * w), 1), wv = wave(size_t(c * 1 * k * k), 0.5);
  auto in = from_doubles(ScalarType::Double, {n, c, h, w}, inv);
  auto wt = from_doubles(ScalarType::Double, {c, 1, k, k}, wv);
  auto out = empty(ScalarType::Double, {n, c, oh, ow});
  ASSERT_EQ(call_kernel("aten::convolution.out",
                        {*in, *wt, Arg::none(), Arg::ints({s, s}), Arg::ints({0, 0}),
                         Arg::ints({1, 1}), true, Arg::ints({op, op}), int64_t(g), *out,
                         *out}),
            Error::Ok)
      << last_error_message();
  std::vector<double> want(size_t(n * c * oh * ow), 0.0);
  for (int ch = 0; ch < c; ++ch)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        for (int ky = 0; ky < k; ++ky)
          for (int kx = 0; kx < k; ++kx)
            want[size_t((ch * oh + y * s + ky) * ow + x * s + kx)] +=
                inv[size_t((ch * h + y) * w + x)] * wv[size_t(ch * k * k + ky * k + kx)];
  expect_near_vec(to_doubles(*out), want, 1e-12);
  // output_padding must stay below stride (or dilation).
  EXPECT_EQ(call_kernel("aten::convolution.out",
                        {*in, *wt, Arg::none(), Arg::ints({s, s}), Arg::ints({0, 0}),
                         Arg::ints({1, 1}), true, Arg::ints({2, 2}), int64_t(g), *out,
                         *out}),
            Error::InvalidArgument);
}

std::vector<double> run_conv(bool transposed, int groups, std::vector<SizesType> in_shape,
                             std::vector<SizesType> w_shape, std::vector<SizesType> out_shape,
                             std::vector<int64_t> stride, std::vector<int64_t> pad,
                             std::vector<int64_t> out_pad) {
  size_t in_n = 1, w_n = 1;
  for (auto s : in_shape) in_n *= size_t(s);
  for (auto s : w_shape) w_n *= size_t(s);
  auto in = from_doubles(ScalarType::Float, in_shape, wave(in_n, 1.0));
  auto w = from_doubles(ScalarType::Float, w_shape, wave(w_n, 0.3));
  auto out = empty(ScalarType::Float, out_shape);
  EXPECT_EQ(call_kernel("aten::convolution.out",
                        {*in, *w, Arg::none(), Arg::ints(stride), Arg::ints(pad),
                         Arg::ints({1, 1}), transposed, Arg::ints(out_pad),
                         int64_t(groups), *out, *out}),
            Error::Ok)
      << last_error_message();
  return to_doubles(*out);
}

TEST(Convolution, IdenticalWithTwoThreads) {
  // im2col + GEMM (several column tiles), pointwise, depthwise, transposed.
  auto gemm = one_and_two_threads([] {
    return run_conv(false, 1, {2, 32, 30, 30}, {24, 32, 3, 3}, {2, 24, 30, 30}, {1, 1},
                    {1, 1}, {0, 0});
  });
  expect_bitwise_equal(gemm.first, gemm.second);
  auto pointwise = one_and_two_threads([] {
    return run_conv(false, 2, {1, 16, 20, 20}, {32, 8, 1, 1}, {1, 32, 20, 20}, {1, 1},
                    {0, 0}, {0, 0});
  });
  expect_bitwise_equal(pointwise.first, pointwise.second);
  auto depthwise = one_and_two_threads([] {
    return run_conv(false, 8, {1, 8, 17, 17}, {8, 1, 3, 3}, {1, 8, 9, 9}, {2, 2}, {1, 1},
                    {0, 0});
  });
  expect_bitwise_equal(depthwise.first, depthwise.second);
  auto transposed = one_and_two_threads([] {
    return run_conv(true, 1, {1, 16, 12, 12}, {16, 12, 3, 3}, {1, 12, 24, 24}, {2, 2},
                    {1, 1}, {1, 1});
  });
  expect_bitwise_equal(transposed.first, transposed.second);
}

}  // namespace
}  // namespace ember::testing
