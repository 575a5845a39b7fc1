// aten::sum.IntList_out (kernels/portable/op_sum.cpp): dims with and
// without keepdim, all dims, integer input into Long, refused dtypes and
// dims, and non-innermost reduced dims against a reference loop.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

TEST(Sum, DimsKeepdimAndDtypes) {
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
}

TEST(Sum, NonInnermostDimsUseScratchAndMatchReference) {
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

// Dims that name the same dim twice (1 and -3 of a 4-D input).
TEST(Sum, RepeatedDimRefused) {
  auto in = from_doubles(ScalarType::Float, {1, 1, 4, 4}, wave(16, 1));
  auto s = empty(ScalarType::Float, {1});
  EXPECT_EQ(call_kernel("aten::sum.IntList_out",
                        {*in, Arg::ints({1, -3}), false, Arg::none(), *s, *s}),
            Error::InvalidArgument);
}

// Prepared (kernel prepare at load): the same bytes as a plain call, in an
// integral and a floating accumulation; dims and keepdim are read at every
// call. A Prepare that fails (self does not cast to out) fails at run.
TEST(Sum, PreparedLikeRun) {
  const char* op = "aten::sum.IntList_out";
  auto i = from_doubles(ScalarType::Int, {2, 3, 4}, pattern(24, 9, 1));
  auto f = from_doubles(ScalarType::Half, {2, 3, 4}, wave(24, 3));
  auto lo = empty(ScalarType::Long, {2, 4});
  auto fo = empty(ScalarType::Float, {2, 4});
  EXPECT_TRUE(expect_prepared_like_run(op, {*i, Arg::ints({1}), false, Arg::none(), *lo, *lo})
                  .stopped);
  EXPECT_TRUE(expect_prepared_like_run(op, {*f, Arg::ints({1}), false, Arg::none(), *fo, *fo})
                  .stopped);
  expect_prepared_on_changed_args(op, {*f, Arg::ints({1}), false, Arg::none(), *fo, *fo},
                                  {*f, Arg::ints({-2}), false, Arg::none(), *fo, *fo});
  expect_prepared_on_changed_args(op, {*f, Arg::ints({1}), false, Arg::none(), *fo, *fo},
                                  {*f, Arg::ints({0, 1}), false, Arg::none(), *fo, *fo});
  expect_prepared_on_changed_args(op, {*f, Arg::ints({1}), false, Arg::none(), *fo, *fo},
                                  {*f, Arg::ints({1, 1}), false, Arg::none(), *fo, *fo});
  auto bo = empty(ScalarType::Bool, {2, 4});
  EXPECT_EQ(expect_prepared_like_run(op, {*f, Arg::ints({1}), false, Arg::none(), *bo, *bo})
                .error,
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
