// aten::grid_sampler_2d.out (kernels/portable/op_grid_sampler_2d.cpp).
// Values for every mode and padding are in the op suite
// (grid_sampler_2d__*); here: a few hand-checked points (PyTorch's), the
// argument checks, and grids a program would not hold (non-finite).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

Error sample(OwnedTensor& in, OwnedTensor& grid, int64_t mode, int64_t padding, bool align,
             OwnedTensor& out) {
  return call_kernel("aten::grid_sampler_2d.out", {in, grid, mode, padding, align, out, out});
}

// input 0..5 as [1, 1, 2, 3]; corners, the centre and (0.5, -0.25) with
// align_corners (PyTorch: the nearest tie at y = 0.5 rounds to even).
TEST(GridSampler2d, ModesAtKnownPoints) {
  auto in = from_doubles(ScalarType::Float, {1, 1, 2, 3}, {0, 1, 2, 3, 4, 5});
  auto grid = from_doubles(ScalarType::Float, {1, 1, 4, 2}, {-1, -1, 1, 1, 0, 0, 0.5, -0.25});
  auto out = empty(ScalarType::Float, {1, 1, 1, 4});
  const std::vector<std::vector<double>> want = {
      {0.0, 5.0, 2.5, 2.625}, {0.0, 5.0, 1.0, 2.0}, {0.0, 5.0, 2.96875, 3.4930572509765625}};
  for (int64_t mode = 0; mode < 3; ++mode) {
    ASSERT_EQ(sample(*in, *grid, mode, 0, true, *out), Error::Ok) << last_error_message();
    expect_near_vec(to_doubles(*out), want[size_t(mode)], 1e-5);
  }
}

// NaN and infinite grid values sample nothing under zeros padding; border
// padding clips infinities to the edge (PyTorch's bilinear gives 3 and 3
// there too); every mode stays defined (no out-of-range cast).
TEST(GridSampler2d, NonFiniteGridIsSafe) {
  const double inf = INFINITY;
  auto in = from_doubles(ScalarType::Float, {1, 1, 2, 2}, {1, 2, 3, 4});
  auto grid = from_doubles(ScalarType::Float, {1, 1, 3, 2}, {NAN, 0, inf, 0, -inf, 1e30});
  auto out = empty(ScalarType::Float, {1, 1, 1, 3});
  for (int64_t mode = 0; mode < 3; ++mode) {
    ASSERT_EQ(sample(*in, *grid, mode, 0, false, *out), Error::Ok);
    for (double v : to_doubles(*out)) EXPECT_EQ(v, 0.0) << "mode " << mode;
    for (int64_t padding = 1; padding < 3; ++padding) {
      EXPECT_EQ(sample(*in, *grid, mode, padding, false, *out), Error::Ok);
    }
  }
  ASSERT_EQ(sample(*in, *grid, 0, 1, false, *out), Error::Ok);
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{0, 3, 3}));
}

TEST(GridSampler2d, BadModesRefused) {
  auto in = empty(ScalarType::Float, {1, 1, 2, 2});
  auto grid = empty(ScalarType::Float, {1, 1, 1, 2});
  auto out = empty(ScalarType::Float, {1, 1, 1, 1});
  EXPECT_EQ(sample(*in, *grid, 3, 0, false, *out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("interpolation_mode 3"));
  EXPECT_EQ(sample(*in, *grid, 0, -1, false, *out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("padding_mode -1"));
}

TEST(GridSampler2d, ShapesAndDtypesChecked) {
  auto in = empty(ScalarType::Float, {2, 3, 4, 4});
  auto out = dynamic_out(ScalarType::Float, {2, 3, 8, 8});
  auto grid_n1 = empty(ScalarType::Float, {1, 2, 2, 2});
  EXPECT_EQ(sample(*in, *grid_n1, 0, 0, false, *out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("grid must be [N = 2, OH, OW, 2]"));
  auto grid_3 = empty(ScalarType::Float, {2, 2, 2, 3});
  EXPECT_EQ(sample(*in, *grid_3, 0, 0, false, *out), Error::InvalidArgument);
  auto grid_3d = empty(ScalarType::Float, {2, 2, 2});
  EXPECT_EQ(sample(*in, *grid_3d, 0, 0, false, *out), Error::InvalidArgument);
  auto grid_double = empty(ScalarType::Double, {2, 2, 2, 2});
  EXPECT_EQ(sample(*in, *grid_double, 0, 0, false, *out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("grid has dtype Double"));
  auto in_int = empty(ScalarType::Int, {2, 3, 4, 4});
  auto grid_int = empty(ScalarType::Int, {2, 2, 2, 2});
  auto out_int = dynamic_out(ScalarType::Int, {2, 3, 8, 8});
  EXPECT_EQ(sample(*in_int, *grid_int, 0, 0, false, *out_int), Error::InvalidArgument);
  auto in_empty = empty(ScalarType::Float, {2, 3, 0, 4});
  auto grid = empty(ScalarType::Float, {2, 2, 2, 2});
  EXPECT_EQ(sample(*in_empty, *grid, 0, 0, false, *out), Error::InvalidArgument);
  // Output [2, 3, 2, 2]; an empty grid gives an empty output.
  ASSERT_EQ(sample(*in, *grid, 1, 1, true, *out), Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 3, 2, 2}));
  auto grid_empty = empty(ScalarType::Float, {2, 0, 2, 2});
  ASSERT_EQ(sample(*in, *grid_empty, 0, 0, false, *out), Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 3, 0, 2}));
}

// Half and BFloat16 compute in float.
TEST(GridSampler2d, HalfAndBFloat16) {
  for (ScalarType type : {ScalarType::Half, ScalarType::BFloat16}) {
    auto in = from_doubles(type, {1, 1, 2, 3}, {0, 1, 2, 3, 4, 5});
    auto grid = from_doubles(type, {1, 1, 4, 2}, {-1, -1, 1, 1, 0, 0, 0.5, -0.25});
    auto out = empty(type, {1, 1, 1, 4});
    ASSERT_EQ(sample(*in, *grid, 0, 0, true, *out), Error::Ok);
    expect_near_vec(to_doubles(*out), {0.0, 5.0, 2.5, 2.625}, 2e-2);
  }
}

}  // namespace
}  // namespace ember::testing
