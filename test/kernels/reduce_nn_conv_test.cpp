// What the generated operator suite cannot express for the reduction,
// normalization, pooling, convolution and matrix kernels: threaded results
// equal single-threaded ones bit for bit, logsumexp (the exporter
// decomposes it), temp-memory behaviour, and hostile arguments.
#include <cstring>

#include "runtime/platform/threadpool.h"
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

std::vector<double> wave(size_t n, double scale) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(double(i) * 0.37 + 0.1) * scale;
  return v;
}

// Runs `fn` with 1 and then 2 threads; returns both outputs.
template <typename F>
std::pair<std::vector<double>, std::vector<double>> one_and_two_threads(F fn) {
  EXPECT_EQ(set_num_threads(1), Error::Ok);
  std::vector<double> one = fn();
  EXPECT_EQ(set_num_threads(2), Error::Ok);
  std::vector<double> two = fn();
  EXPECT_EQ(set_num_threads(1), Error::Ok);
  return {one, two};
}

void expect_bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0);
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

TEST(Threading, ConvolutionIsIdenticalWithTwoThreads) {
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

TEST(Threading, MatrixProductsAreIdenticalWithTwoThreads) {
  for (int shape = 0; shape < 2; ++shape) {
    // Many rows (row split) and few rows with many columns (column split).
    const int m = shape == 0 ? 67 : 3, k = 45, n = shape == 0 ? 70 : 900;
    auto result = one_and_two_threads([&] {
      auto a = from_doubles(ScalarType::Float, {m, k}, wave(size_t(m * k), 1));
      auto b = from_doubles(ScalarType::Float, {k, n}, wave(size_t(k * n), 2));
      auto out = empty(ScalarType::Float, {m, n});
      EXPECT_EQ(call_kernel("aten::mm.out", {*a, *b, *out, *out}), Error::Ok);
      return to_doubles(*out);
    });
    expect_bitwise_equal(result.first, result.second);
  }
}

TEST(TransposedConvolution, MatchesScatterReference) {
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

TEST(Logsumexp, StableAndEdgeValues) {
  auto in = tensor<float>(ScalarType::Float, {4, 2},
                          {1000.f, 1000.f, -INFINITY, -INFINITY, INFINITY, 1.f, NAN, 2.f});
  auto out = empty(ScalarType::Float, {4});
  ASSERT_EQ(call_kernel("aten::logsumexp.out", {*in, Arg::ints({1}), false, *out, *out}),
            Error::Ok)
      << last_error_message();
  const std::vector<double> got = to_doubles(*out);
  EXPECT_NEAR(got[0], 1000.0 + std::log(2.0), 1e-3);
  EXPECT_TRUE(std::isinf(got[1]) && got[1] < 0);
  EXPECT_TRUE(std::isinf(got[2]) && got[2] > 0);
  EXPECT_TRUE(std::isnan(got[3]));
  // Reducing dim 0 (non-innermost: the scratch path) with keepdim.
  auto in2 = from_doubles(ScalarType::Double, {3, 2}, {0, 1, 2, 3, 4, 5});
  auto out2 = empty(ScalarType::Double, {1, 2});
  ASSERT_EQ(call_kernel("aten::logsumexp.out", {*in2, Arg::ints({0}), true, *out2, *out2}),
            Error::Ok);
  expect_near_vec(to_doubles(*out2),
                  {std::log(std::exp(0.0) + std::exp(2.0) + std::exp(4.0)),
                   std::log(std::exp(1.0) + std::exp(3.0) + std::exp(5.0))},
                  1e-12);
}

TEST(Reductions, NonInnermostDimsUseScratchAndMatchReference) {
  // [4, 3, 5] summed over dims 0 and 2 (two reduced loops, kept middle).
  std::vector<double> v = wave(60, 3);
  auto in = from_doubles(ScalarType::Double, {4, 3, 5}, v);
  auto out = empty(ScalarType::Double, {3});
  ASSERT_EQ(call_kernel("aten::sum.IntList_out",
                        {*in, Arg::ints({0, -1}), false, Arg::none(), *out, *out}),
            Error::Ok);
  std::vector<double> want(3, 0.0);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 5; ++k) want[size_t(j)] += v[size_t((i * 3 + j) * 5 + k)];
  expect_near_vec(to_doubles(*out), want, 1e-12);
}

// Bool bytes other than 0 or 1 (a hostile memory plan can alias anything
// into a Bool tensor) read as true, never as an invalid bool (UBSan: found
// by the bundled-program fuzzer in any.dims).
TEST(Reductions, BoolBytesOtherThanOneAreTrue) {
  auto b = empty(ScalarType::Bool, {2, 3});
  uint8_t* bytes = static_cast<uint8_t*>(b->tensor().mutable_data_ptr());
  const uint8_t raw[6] = {0, 128, 0, 0, 0, 255};
  std::copy(raw, raw + 6, bytes);
  auto rows = empty(ScalarType::Bool, {2});
  ASSERT_EQ(call_kernel("aten::any.dims_out", {*b, Arg::ints({1}), false, *rows, *rows}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*rows), (std::vector<double>{1, 1}));
  auto cols = empty(ScalarType::Long, {3});
  ASSERT_EQ(call_kernel("aten::sum.IntList_out",
                        {*b, Arg::ints({0}), false, int64_t(ScalarType::Long), *cols, *cols}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*cols), (std::vector<double>{0, 1, 1}));
  auto running = empty(ScalarType::Long, {2, 3});
  ASSERT_EQ(call_kernel("aten::cumsum.out",
                        {*b, int64_t(1), int64_t(ScalarType::Long), *running, *running}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*running), (std::vector<double>{0, 1, 1, 0, 0, 1}));
  auto where = empty(ScalarType::Long, {2, 2});
  ASSERT_EQ(call_kernel("aten::nonzero.out", {*b, *where, *where}), Error::Ok);
  EXPECT_EQ(to_doubles(*where), (std::vector<double>{0, 1, 1, 2}));
  // Index reductions (argmax/argmin, max.dim/min.dim) and sorting.
  auto first = empty(ScalarType::Long, {2});
  ASSERT_EQ(call_kernel("aten::argmax.out", {*b, int64_t(1), false, *first, *first}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*first), (std::vector<double>{1, 2}));
  auto sorted = empty(ScalarType::Bool, {2, 3});
  auto order = empty(ScalarType::Long, {2, 3});
  ASSERT_EQ(call_kernel("aten::sort.values",
                        {*b, int64_t(1), true, *sorted, *order, *sorted, *order}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*sorted), (std::vector<double>{1, 0, 0, 1, 0, 0}));
  EXPECT_EQ(to_doubles(*order), (std::vector<double>{1, 0, 2, 2, 0, 1}));
  const uint8_t* out_bytes = static_cast<const uint8_t*>(sorted->tensor().const_data_ptr());
  EXPECT_EQ(out_bytes[0], 1) << "a sorted Bool is stored as 0 or 1";
}

// No element, no work: a shape such as [2^31 - 1, 0, 2^31 - 1] (a hostile
// program's; the bundled-program fuzzer found [117440514, 0, 9] taking
// seconds in cumsum) must not walk the outer positions. With the old code
// this test runs for hours.
TEST(Reductions, EmptyTensorsWithHugeDimsDoNoWork) {
  const SizesType big = 2147483647;
  auto x = empty(ScalarType::Float, {big, 0, big});
  auto y = empty(ScalarType::Float, {big, 0, big});
  ASSERT_EQ(call_kernel("aten::cumsum.out", {*x, int64_t(1), Arg::none(), *y, *y}), Error::Ok)
      << last_error_message();
  ASSERT_EQ(call_kernel("aten::_softmax.out", {*x, int64_t(1), false, *y, *y}), Error::Ok)
      << last_error_message();
  ASSERT_EQ(call_kernel("aten::_log_softmax.out", {*x, int64_t(1), false, *y, *y}), Error::Ok)
      << last_error_message();
  auto idx = empty(ScalarType::Long, {big, 0});
  ASSERT_EQ(call_kernel("aten::argmax.out", {*x, int64_t(2), false, *idx, *idx}), Error::Ok)
      << last_error_message();
}

TEST(Reductions, OverloadsTheExporterDecomposes) {
  // var.out (the exporter emits var.correction_out) and all.* (it emits
  // logical_not + any); upstream registers var.out, PyTorch all three.
  auto in = from_doubles(ScalarType::Float, {2, 3}, {1, 2, 4, 0, 0, 6});
  auto v = empty(ScalarType::Float, {2});
  ASSERT_EQ(call_kernel("aten::var.out", {*in, Arg::ints({1}), false, false, *v, *v}),
            Error::Ok);
  expect_near_vec(to_doubles(*v), {14.0 / 9.0, 8.0}, 1e-6);
  ASSERT_EQ(call_kernel("aten::var.out", {*in, Arg::ints({1}), true, false, *v, *v}),
            Error::Ok);
  expect_near_vec(to_doubles(*v), {7.0 / 3.0, 12.0}, 1e-6);
  auto b = empty(ScalarType::Bool, {3});
  ASSERT_EQ(call_kernel("aten::all.out", {*in, int64_t(0), false, *b, *b}), Error::Ok);
  EXPECT_EQ(to_doubles(*b), (std::vector<double>{0, 0, 1}));
  auto b2 = empty(ScalarType::Bool, {2, 1});
  ASSERT_EQ(call_kernel("aten::all.dims_out", {*in, Arg::ints({-1}), true, *b2, *b2}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*b2), (std::vector<double>{1, 0}));
  // dims = [] reduces nothing for any/all (unlike sum): elementwise truth.
  auto b3 = empty(ScalarType::Bool, {2, 3});
  ASSERT_EQ(call_kernel("aten::all.dims_out", {*in, Arg::ints({}), false, *b3, *b3}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*b3), (std::vector<double>{1, 1, 1, 0, 0, 1}));
  auto s = empty(ScalarType::Bool, {});
  ASSERT_EQ(call_kernel("aten::all.all_out", {*in, *s, *s}), Error::Ok);
  EXPECT_EQ(to_doubles(*s), (std::vector<double>{0}));
}

TEST(PixelShuffle, MatchesIndexFormulaAndRoundTrips) {
  // The exporter lowers pixel_(un)shuffle to view + permute, so the kernels
  // are checked here: [1, 2 * 3 * 3, 2, 2] -> [1, 2, 6, 6] and back.
  const int c = 2, r = 3, h = 2, w = 2;
  std::vector<double> v(size_t(c * r * r * h * w));
  for (size_t i = 0; i < v.size(); ++i) v[i] = double(i);
  auto in = from_doubles(ScalarType::Int, {1, c * r * r, h, w}, v);
  auto out = empty(ScalarType::Int, {1, c, h * r, w * r});
  ASSERT_EQ(call_kernel("aten::pixel_shuffle.out", {*in, int64_t(r), *out, *out}), Error::Ok)
      << last_error_message();
  const std::vector<double> got = to_doubles(*out);
  for (int ch = 0; ch < c; ++ch)
    for (int y = 0; y < h * r; ++y)
      for (int x = 0; x < w * r; ++x)
        EXPECT_EQ(got[size_t((ch * h * r + y) * w * r + x)],
                  v[size_t(((ch * r * r + (y % r) * r + x % r) * h + y / r) * w + x / r)]);
  auto back = empty(ScalarType::Int, {1, c * r * r, h, w});
  ASSERT_EQ(call_kernel("aten::pixel_unshuffle.out", {*out, int64_t(r), *back, *back}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*back), v);
  auto bad = empty(ScalarType::Int, {1, 1, 1, 1});
  EXPECT_EQ(call_kernel("aten::pixel_unshuffle.out", {*in, int64_t(4), *bad, *bad}),
            Error::InvalidArgument);
}

TEST(HostileArguments, AreRefused) {
  auto in = from_doubles(ScalarType::Float, {1, 1, 4, 4}, wave(16, 1));
  auto out = empty(ScalarType::Float, {1, 1, 2, 2}, ShapeDynamism::DynamicBound);
  // Negative and huge kernel sizes, zero divisor.
  EXPECT_EQ(call_kernel("aten::avg_pool2d.out",
                        {*in, Arg::ints({-2, 2}), Arg::ints({}), Arg::ints({0}), false, true,
                         Arg::none(), *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::avg_pool2d.out",
                        {*in, Arg::ints({int64_t(1) << 40}), Arg::ints({}), Arg::ints({0}),
                         false, true, Arg::none(), *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::avg_pool2d.out",
                        {*in, Arg::ints({2}), Arg::ints({}), Arg::ints({0}), false, true,
                         int64_t(0), *out, *out}),
            Error::InvalidArgument);
  // An output size past int32.
  EXPECT_EQ(call_kernel("aten::_adaptive_avg_pool2d.out",
                        {*in, Arg::ints({int64_t(1) << 33, 2}), *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::upsample_nearest2d.vec_out",
                        {*in, Arg::ints({int64_t(1) << 20, int64_t(1) << 20}), Arg::none(),
                         *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::pixel_shuffle.out", {*in, int64_t(-1), *out, *out}),
            Error::InvalidArgument);
  // Reduction dims out of range, repeated; argmax of an empty tensor.
  auto s = empty(ScalarType::Float, {1});
  EXPECT_EQ(call_kernel("aten::amax.out", {*in, Arg::ints({4}), false, *s, *s}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::sum.IntList_out",
                        {*in, Arg::ints({1, -3}), false, Arg::none(), *s, *s}),
            Error::InvalidArgument);
  auto e = empty(ScalarType::Float, {0});
  auto idx = empty(ScalarType::Long, {});
  EXPECT_EQ(call_kernel("aten::argmax.out", {*e, Arg::none(), false, *idx, *idx}),
            Error::InvalidArgument);
  // group norm whose N, C, HxW do not describe the input.
  auto m = empty(ScalarType::Float, {1, 1});
  EXPECT_EQ(call_kernel("aten::native_group_norm.out",
                        {*in, Arg::none(), Arg::none(), int64_t(1), int64_t(1), int64_t(99),
                         int64_t(1), 1e-5, *out, *m, *m, *out}),
            Error::InvalidArgument);
}

// Output sizes whose product with N * C overflows int64: refused.
TEST(Pooling, AdaptiveOutputSizeProductOverflowRefused) {
  auto in = tensor<float>(ScalarType::Float, {3, 1, 1, 1}, {1, 2, 3});
  auto out = empty(ScalarType::Float, {3, 1, 1, 1});
  const int64_t big = INT32_MAX;
  EXPECT_EQ(call_kernel("aten::_adaptive_avg_pool2d.out",
                        {*in, Arg::ints({big, big}), *out, *out}),
            Error::InvalidArgument);
}

TEST(Upsample, OutputSizeProductOverflowRefused) {
  auto in = tensor<float>(ScalarType::Float, {3, 1, 1, 1}, {1, 2, 3});
  auto out = empty(ScalarType::Float, {3, 1, 1, 1});
  const int64_t big = INT32_MAX;
  EXPECT_EQ(call_kernel("aten::upsample_nearest2d.vec_out",
                        {*in, Arg::ints({big, big}), Arg::none(), *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::upsample_bilinear2d.vec_out",
                        {*in, Arg::ints({big, big}), false, Arg::none(), *out, *out}),
            Error::InvalidArgument);
}

// With C = 0 every group count divides C; a count past int32 used to
// size out1/out2 truncated and then be written past their end.
TEST(GroupNorm, HugeGroupCountRefused) {
  auto in = empty(ScalarType::Float, {1, 0, 2});
  auto out = empty(ScalarType::Float, {1, 0, 2});
  auto stat = empty(ScalarType::Float, {1, 1});
  EXPECT_EQ(call_kernel("aten::native_group_norm.out",
                        {*in, Arg::none(), Arg::none(), int64_t(1), int64_t(0), int64_t(2),
                         (int64_t(1) << 32) + 1, 1e-5, *out, *stat, *stat, *out, *stat,
                         *stat}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
