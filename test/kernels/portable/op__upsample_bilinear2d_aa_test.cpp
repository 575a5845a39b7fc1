// aten::_upsample_bilinear2d_aa.out
// (kernels/portable/op__upsample_bilinear2d_aa.cpp). Values against
// F.interpolate(..., antialias=True) are in the op suite
// (upsample_bilinear2d_aa__*); here: explicit scales_h / scales_w (which
// F.interpolate only passes with recompute_scale_factor off), Half and
// BFloat16, and the argument checks.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

Error resize(OwnedTensor& in, std::vector<int64_t> size, bool align, Arg sh, Arg sw,
             OwnedTensor& out) {
  return call_kernel("aten::_upsample_bilinear2d_aa.out",
                     {in, Arg::ints(size), align, sh, sw, out, out});
}

std::vector<double> iota12() {
  std::vector<double> v(12);
  for (size_t i = 0; i < v.size(); ++i) v[i] = double(i);
  return v;
}

// [1, 1, 3, 4] of 0..11 to [2, 2]; PyTorch's values without and with
// scales (0.5, 0.25), which set the filter's scale instead of in / out.
TEST(UpsampleBilinear2dAa, ScalesOverrideSizeRatio) {
  auto in = from_doubles(ScalarType::Float, {1, 1, 3, 4}, iota12());
  auto out = empty(ScalarType::Float, {1, 1, 2, 2});
  ASSERT_EQ(resize(*in, {2, 2}, false, Arg::none(), Arg::none(), *out), Error::Ok)
      << last_error_message();
  expect_near_vec(to_doubles(*out), {2.2142858505, 3.7857146263, 7.2142858505, 8.7857141495},
                  1e-5);
  ASSERT_EQ(resize(*in, {2, 2}, false, 0.5, 0.25, *out), Error::Ok);
  expect_near_vec(to_doubles(*out), {4.3571429253, 5.6071429253, 8.5, 9.75}, 1e-5);
}

TEST(UpsampleBilinear2dAa, HalfAndBFloat16) {
  for (ScalarType type : {ScalarType::Half, ScalarType::BFloat16}) {
    auto in = from_doubles(type, {1, 1, 3, 4}, iota12());
    auto out = empty(type, {1, 1, 2, 2});
    ASSERT_EQ(resize(*in, {2, 2}, false, Arg::none(), Arg::none(), *out), Error::Ok);
    expect_near_vec(to_doubles(*out), {2.2142858505, 3.7857146263, 7.2142858505, 8.7857141495},
                    5e-2);
  }
}

TEST(UpsampleBilinear2dAa, BadArgumentsRefused) {
  auto in = empty(ScalarType::Float, {1, 2, 4, 4});
  auto out = dynamic_out(ScalarType::Float, {1, 2, 8, 8});
  EXPECT_EQ(resize(*in, {2}, false, Arg::none(), Arg::none(), *out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("output_size must have 2 entries"));
  EXPECT_EQ(resize(*in, {0, 2}, false, Arg::none(), Arg::none(), *out),
            Error::InvalidArgument);
  auto in3 = empty(ScalarType::Float, {2, 4, 4});
  EXPECT_EQ(resize(*in3, {2, 2}, false, Arg::none(), Arg::none(), *out),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("4 dims"));
  auto in_int = empty(ScalarType::Int, {1, 2, 4, 4});
  auto out_int = dynamic_out(ScalarType::Int, {1, 2, 8, 8});
  EXPECT_EQ(resize(*in_int, {2, 2}, false, Arg::none(), Arg::none(), *out_int),
            Error::InvalidArgument);
  auto out_double = dynamic_out(ScalarType::Double, {1, 2, 8, 8});
  EXPECT_EQ(resize(*in, {2, 2}, false, Arg::none(), Arg::none(), *out_double),
            Error::InvalidArgument);
  // Output larger than out's capacity.
  EXPECT_NE(resize(*in, {16, 16}, false, Arg::none(), Arg::none(), *out), Error::Ok);
}

// A strong downscale reads every input row: one output of a 1000-row
// column is the (triangle-weighted) mean of all of it, within temp memory.
TEST(UpsampleBilinear2dAa, LargeRatioUsesEveryInput) {
  std::vector<double> v(1000, 3.0);
  auto in = from_doubles(ScalarType::Float, {1, 1, 1000, 1}, v);
  auto out = empty(ScalarType::Float, {1, 1, 1, 1});
  ASSERT_EQ(resize(*in, {1, 1}, false, Arg::none(), Arg::none(), *out), Error::Ok);
  expect_near_vec(to_doubles(*out), {3.0}, 1e-5);
}

// Scales below in / out: windows run past the input's end. PyTorch's
// values; an output whose window holds no input is 0.
TEST(UpsampleBilinear2dAa, WindowsPastTheEnd) {
  auto in = from_doubles(ScalarType::Float, {1, 1, 3, 4}, iota12());
  auto out = empty(ScalarType::Float, {1, 1, 2, 2});
  ASSERT_EQ(resize(*in, {2, 2}, false, 0.3, 0.3, *out), Error::Ok) << last_error_message();
  expect_near_vec(to_doubles(*out), {5.5274, 6.8577, 9.3571, 10.6875}, 1e-4);
  ASSERT_EQ(resize(*in, {2, 2}, false, 0.1, 0.1, *out), Error::Ok) << last_error_message();
  expect_near_vec(to_doubles(*out), {6.0888, 0, 0, 0}, 1e-4);
}

// A scale near zero (a fuzz finding: its reciprocal overflowed the window
// arithmetic) is refused, not cast to int64.
TEST(UpsampleBilinear2dAa, ScaleNearZeroRefused) {
  auto in = from_doubles(ScalarType::Float, {1, 1, 3, 4}, iota12());
  auto out = empty(ScalarType::Float, {1, 1, 2, 2});
  for (double s : {1e-310, 1e-300, 1e-20}) {
    EXPECT_EQ(resize(*in, {2, 2}, false, s, 0.5, *out), Error::InvalidArgument) << s;
    EXPECT_TRUE(message_has("out of range"));
    EXPECT_EQ(resize(*in, {2, 2}, false, 0.5, s, *out), Error::InvalidArgument) << s;
  }
}

}  // namespace
}  // namespace ember::testing
