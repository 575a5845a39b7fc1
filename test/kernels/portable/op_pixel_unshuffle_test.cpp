// aten::pixel_unshuffle.out (kernels/portable/op_pixel_unshuffle.cpp; the
// exporter lowers it to view + permute, so the kernel is checked here).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

// [1, 2, 6, 6] -> [1, 2 * 3 * 3, 2, 2]: the inverse of pixel_shuffle's
// index formula, so unshuffling the shuffled ramp gives the ramp back.
TEST(PixelUnshuffle, InvertsPixelShuffle) {
  const int c = 2, r = 3, h = 2, w = 2;
  std::vector<double> v(size_t(c * r * r * h * w));
  for (size_t i = 0; i < v.size(); ++i) v[i] = double(i);
  std::vector<double> shuffled(v.size());
  for (int ch = 0; ch < c; ++ch)
    for (int y = 0; y < h * r; ++y)
      for (int x = 0; x < w * r; ++x)
        shuffled[size_t((ch * h * r + y) * w * r + x)] =
            v[size_t(((ch * r * r + (y % r) * r + x % r) * h + y / r) * w + x / r)];
  auto in = from_doubles(ScalarType::Int, {1, c * r * r, h, w}, v);
  auto out = from_doubles(ScalarType::Int, {1, c, h * r, w * r}, shuffled);
  auto back = empty(ScalarType::Int, {1, c * r * r, h, w});
  ASSERT_EQ(call_kernel("aten::pixel_unshuffle.out", {*out, int64_t(r), *back, *back}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*back), v);
  auto bad = empty(ScalarType::Int, {1, 1, 1, 1});
  EXPECT_EQ(call_kernel("aten::pixel_unshuffle.out", {*in, int64_t(4), *bad, *bad}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
