// aten::mm.out (kernels/portable/op_mm.cpp): sizes around the GEMM's
// blocking against a reference loop, refused shapes and dtypes, and
// results that do not change with the thread count.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

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

TEST(Mm, IdenticalWithTwoThreads) {
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

// Prepared (kernel prepare at load): the same bytes as a plain call; a
// Prepare that fails (shapes, an unsupported dtype) fails the same at run;
// the operands are read at their current data pointers.
TEST(Mm, PreparedLikeRun) {
  auto a = from_doubles(ScalarType::Float, {3, 5}, pattern(15, 11, 0.5));
  auto b = from_doubles(ScalarType::Float, {5, 4}, pattern(20, 13, 0.25));
  auto out = empty(ScalarType::Float, {3, 4});
  EXPECT_TRUE(expect_prepared_like_run("aten::mm.out", {*a, *b, *out, *out}).stopped);
  expect_near_vec(to_doubles(*out), ref_mm(3, 5, 4, pattern(15, 11, 0.5), pattern(20, 13, 0.25)),
                  1e-4);
  EXPECT_EQ(expect_prepared_like_run("aten::mm.out", {*a, *a, *out, *out}).error,
            Error::InvalidArgument);
  auto ia = from_doubles(ScalarType::Int, {2, 2}, {1, 2, 3, 4});
  auto iout = empty(ScalarType::Int, {2, 2});
  EXPECT_EQ(expect_prepared_like_run("aten::mm.out", {*ia, *ia, *iout, *iout}).error,
            Error::NotSupported);
  auto a2 = from_doubles(ScalarType::Float, {3, 5}, pattern(15, 7, 1.5));
  expect_prepared_on_changed_args("aten::mm.out", {*a, *b, *out, *out}, {*a2, *b, *out, *out});
}

}  // namespace
}  // namespace ember::testing
