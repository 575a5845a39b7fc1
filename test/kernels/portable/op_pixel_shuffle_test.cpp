// aten::pixel_shuffle.out (kernels/portable/op_pixel_shuffle.cpp; the
// exporter lowers it to view + permute, so the kernel is checked here).
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

// [1, 2 * 3 * 3, 2, 2] -> [1, 2, 6, 6], against PyTorch's index formula.
TEST(PixelShuffle, MatchesIndexFormula) {
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
}

TEST(PixelShuffle, NegativeFactorRefused) {
  auto in = from_doubles(ScalarType::Float, {1, 1, 4, 4}, wave(16, 1));
  auto out = empty(ScalarType::Float, {1, 1, 2, 2}, ShapeDynamism::DynamicBound);
  EXPECT_EQ(call_kernel("aten::pixel_shuffle.out", {*in, int64_t(-1), *out, *out}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
