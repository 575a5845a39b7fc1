// mm / addmm / bmm, convolution, max_pool2d_with_indices, sum, mean:
// checked against naive reference loops written here.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

std::vector<double> pattern(size_t n, int mod, double scale) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = double(int((i * 7 + 3) % mod) - mod / 2) * scale;
  return v;
}

std::vector<double> ref_mm(int m, int k, int n, const std::vector<double>& a,
                           const std::vector<double>& b) {
  std::vector<double> c(size_t(m * n), 0);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int p = 0; p < k; ++p) c[i * n + j] += a[i * k + p] * b[p * n + j];
  return c;
}

TEST(Mm, SizesAroundBlocking) {
  // Odd sizes exercise the 4-row tail and the column block edge.
  const int dims[][3] = {{1, 1, 1}, {3, 5, 2}, {7, 9, 13}, {9, 17, 600}, {4, 3, 513}};
  for (auto& d : dims) {
    const int m = d[0], k = d[1], n = d[2];
    const auto av = pattern(size_t(m * k), 11, 0.5), bv = pattern(size_t(k * n), 13, 0.25);
    for (ScalarType t : {ScalarType::Float, ScalarType::Double}) {
      auto a = from_doubles(t, {m, k}, av);
      auto b = from_doubles(t, {k, n}, bv);
      auto out = empty(t, {m, n});
      ASSERT_EQ(call_kernel("aten::mm.out", {*a, *b, *out, *out}), Error::Ok);
      expect_near_vec(to_doubles(*out), ref_mm(m, k, n, av, bv), 1e-4);
    }
  }
  auto a = from_doubles(ScalarType::Float, {2, 3}, pattern(6, 5, 1));
  auto b = from_doubles(ScalarType::Float, {2, 3}, pattern(6, 5, 1));
  auto out = empty(ScalarType::Float, {2, 3});
  EXPECT_EQ(call_kernel("aten::mm.out", {*a, *b, *out, *out}), Error::InvalidArgument);
  auto ia = from_doubles(ScalarType::Int, {2, 2}, {1, 2, 3, 4});
  auto iout = empty(ScalarType::Int, {2, 2});
  EXPECT_EQ(call_kernel("aten::mm.out", {*ia, *ia, *iout, *iout}), Error::NotSupported);
}

TEST(Addmm, BetaAlphaAndBiasBroadcast) {
  const int m = 5, k = 4, n = 6;
  const auto av = pattern(m * k, 9, 1), bv = pattern(k * n, 7, 0.5), biasv = pattern(n, 5, 2);
  auto a = from_doubles(ScalarType::Float, {m, k}, av);
  auto b = from_doubles(ScalarType::Float, {k, n}, bv);
  auto bias = from_doubles(ScalarType::Float, {n}, biasv);
  auto out = empty(ScalarType::Float, {m, n});
  ASSERT_EQ(call_kernel("aten::addmm.out", {*bias, *a, *b, 0.5, 2, *out, *out}), Error::Ok);
  auto want = ref_mm(m, k, n, av, bv);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) want[i * n + j] = 0.5 * biasv[j] + 2 * want[i * n + j];
  expect_near_vec(to_doubles(*out), want, 1e-4);
  // beta = 0 ignores NaN in self.
  auto nan_bias = tensor<float>(ScalarType::Float, {1}, {NAN});
  ASSERT_EQ(call_kernel("aten::addmm.out", {*nan_bias, *a, *b, 0, 1, *out, *out}), Error::Ok);
  expect_near_vec(to_doubles(*out), ref_mm(m, k, n, av, bv), 1e-4);
  auto bad_bias = from_doubles(ScalarType::Float, {4}, {1, 2, 3, 4});
  EXPECT_EQ(call_kernel("aten::addmm.out", {*bad_bias, *a, *b, 1, 1, *out, *out}),
            Error::InvalidArgument);
}

TEST(Bmm, Batched) {
  const int batch = 3, m = 2, k = 5, n = 3;
  const auto av = pattern(batch * m * k, 9, 1), bv = pattern(batch * k * n, 7, 1);
  auto a = from_doubles(ScalarType::Double, {batch, m, k}, av);
  auto b = from_doubles(ScalarType::Double, {batch, k, n}, bv);
  auto out = empty(ScalarType::Double, {batch, m, n});
  ASSERT_EQ(call_kernel("aten::bmm.out", {*a, *b, *out, *out}), Error::Ok);
  std::vector<double> want;
  for (int i = 0; i < batch; ++i) {
    std::vector<double> ai(av.begin() + i * m * k, av.begin() + (i + 1) * m * k);
    std::vector<double> bi(bv.begin() + i * k * n, bv.begin() + (i + 1) * k * n);
    auto ci = ref_mm(m, k, n, ai, bi);
    want.insert(want.end(), ci.begin(), ci.end());
  }
  expect_near_vec(to_doubles(*out), want, 1e-9);
}

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

TEST(MaxPool2d, ValuesIndicesPaddingCeil) {
  // 1 x 1 x 4 x 5 input, kernel 2, stride 2, ceil_mode: output 2 x 3.
  auto in = tensor<float>(ScalarType::Float, {1, 1, 4, 5},
                          {1, 5, 2, 0, 3,  //
                           4, 2, 8, 1, 9,  //
                           0, 1, 2, 3, 4,  //
                           7, 6, 5, 4, 3});
  auto out = empty(ScalarType::Float, {1, 1, 2, 3});
  auto idx = empty(ScalarType::Long, {1, 1, 2, 3});
  ASSERT_EQ(call_kernel("aten::max_pool2d_with_indices.out",
                        {*in, Arg::ints({2, 2}), Arg::ints({2, 2}), Arg::ints({0, 0}),
                         Arg::ints({1, 1}), true, *out, *idx, *out, *idx}),
            Error::Ok)
      << last_error_message();
  EXPECT_EQ(out->values<float>(), (std::vector<float>{5, 8, 9, 7, 5, 4}));
  EXPECT_EQ(idx->values<int64_t>(), (std::vector<int64_t>{1, 7, 9, 15, 17, 14}));
  // Padding 1, kernel 3, stride 1 (3-D input), empty stride = kernel.
  auto in3 = tensor<float>(ScalarType::Float, {1, 2, 2}, {1, 2, 3, 4});
  auto o3 = empty(ScalarType::Float, {1, 2, 2});
  auto i3 = empty(ScalarType::Long, {1, 2, 2});
  ASSERT_EQ(call_kernel("aten::max_pool2d_with_indices.out",
                        {*in3, Arg::ints({3}), Arg::ints({1}), Arg::ints({1}),
                         Arg::ints({1}), false, *o3, *i3, *o3, *i3}),
            Error::Ok);
  EXPECT_EQ(o3->values<float>(), (std::vector<float>{4, 4, 4, 4}));
  EXPECT_EQ(i3->values<int64_t>(), (std::vector<int64_t>{3, 3, 3, 3}));
  auto o1 = empty(ScalarType::Float, {1, 1, 1});
  auto i1 = empty(ScalarType::Long, {1, 1, 1});
  ASSERT_EQ(call_kernel("aten::max_pool2d_with_indices.out",
                        {*in3, Arg::ints({2}), Arg::ints({}), Arg::ints({0}),
                         Arg::ints({1}), false, *o1, *i1, *o1, *i1}),
            Error::Ok);
  EXPECT_EQ(o1->values<float>()[0], 4);
  // Padding larger than half the kernel.
  EXPECT_EQ(call_kernel("aten::max_pool2d_with_indices.out",
                        {*in3, Arg::ints({2}), Arg::ints({1}), Arg::ints({2}),
                         Arg::ints({1}), false, *o3, *i3, *o3, *i3}),
            Error::InvalidArgument);
  auto bad_idx = empty(ScalarType::Int, {1, 2, 2});
  EXPECT_EQ(call_kernel("aten::max_pool2d_with_indices.out",
                        {*in3, Arg::ints({3}), Arg::ints({1}), Arg::ints({1}),
                         Arg::ints({1}), false, *o3, *bad_idx, *o3, *bad_idx}),
            Error::InvalidArgument);
}

TEST(Reduce, SumAndMean) {
  std::vector<double> v(24);
  for (size_t i = 0; i < 24; ++i) v[i] = double(i);
  auto a = from_doubles(ScalarType::Float, {2, 3, 4}, v);
  // sum over dims (0, 2), keepdim.
  auto out = empty(ScalarType::Float, {1, 3, 1});
  ASSERT_EQ(call_kernel("aten::sum.IntList_out",
                        {*a, Arg::ints({0, -1}), true, Arg::none(), *out, *out}),
            Error::Ok);
  std::vector<double> want(3, 0);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) want[j] += v[i * 12 + j * 4 + k];
  EXPECT_EQ(to_doubles(*out), want);
  // sum over everything (None), no keepdim -> 0-dim.
  auto all = empty(ScalarType::Float, {});
  ASSERT_EQ(call_kernel("aten::sum.IntList_out", {*a, Arg::none(), false, Arg::none(), *all, *all}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*all)[0], 276);
  // Integer input into a Long out (as sum's default dtype does).
  auto ia = from_doubles(ScalarType::Int, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto lout = empty(ScalarType::Long, {3});
  ASSERT_EQ(call_kernel("aten::sum.IntList_out",
                        {*ia, Arg::ints({0}), false, int64_t(ScalarType::Long), *lout, *lout}),
            Error::Ok);
  EXPECT_EQ(lout->values<int64_t>(), (std::vector<int64_t>{5, 7, 9}));
  EXPECT_EQ(call_kernel("aten::sum.IntList_out",
                        {*ia, Arg::ints({0}), false, int64_t(ScalarType::Float), *lout, *lout}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::sum.IntList_out",
                        {*ia, Arg::ints({0, 0}), false, Arg::none(), *lout, *lout}),
            Error::InvalidArgument);
  auto fin = from_doubles(ScalarType::Float, {2}, {1.5, 2});
  auto iout = empty(ScalarType::Int, {});
  EXPECT_EQ(call_kernel("aten::sum.IntList_out", {*fin, Arg::none(), false, Arg::none(), *iout, *iout}),
            Error::InvalidArgument);

  // mean over H, W of an NCHW tensor (global average pool).
  auto m = empty(ScalarType::Float, {2, 3});
  ASSERT_EQ(call_kernel("aten::mean.out", {*a, Arg::ints({2}), false, Arg::none(), *m, *m}),
            Error::Ok);
  std::vector<double> mw(6, 0);
  for (int i = 0; i < 6; ++i) {
    for (int k = 0; k < 4; ++k) mw[i] += v[i * 4 + k];
    mw[i] /= 4;
  }
  EXPECT_EQ(to_doubles(*m), mw);
  auto m1 = empty(ScalarType::Double, {4});
  ASSERT_EQ(call_kernel("aten::mean.out", {*a, Arg::ints({0, 1}), false, Arg::none(), *m1, *m1}),
            Error::Ok);
  std::vector<double> mw1(4, 0);
  for (int i = 0; i < 24; ++i) mw1[i % 4] += v[i] / 6;
  expect_near_vec(to_doubles(*m1), mw1, 1e-12);
  auto mi = empty(ScalarType::Int, {2, 3});
  EXPECT_EQ(call_kernel("aten::mean.out", {*a, Arg::ints({2}), false, Arg::none(), *mi, *mi}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::mean.out", {*a, Arg::ints({3}), false, Arg::none(), *m, *m}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
