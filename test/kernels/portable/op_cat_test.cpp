// aten::cat.out (kernels/portable/op_cat.cpp): dims, mixed dtypes, legacy
// empty inputs and errors.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"

namespace ember::testing {
namespace {

TEST(Cat, DimsDtypesAndErrors) {
  auto a = tensor<float>(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
  auto b = tensor<int32_t>(ScalarType::Int, {2, 1}, {5, 6});
  auto legacy = empty(ScalarType::Float, {0});
  auto out = empty(ScalarType::Float, {2, 3});
  ASSERT_EQ(call_kernel("aten::cat.out",
                        {Arg::tensors({*a, *legacy, *b}), -1, *out, *out}),
            Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 2, 5, 3, 4, 6}));
  auto out0 = empty(ScalarType::Float, {4, 2});
  ASSERT_EQ(call_kernel("aten::cat.out", {Arg::tensors({*a, *a}), 0, *out0, *out0}), Error::Ok);
  EXPECT_EQ(out0->values<float>(), (std::vector<float>{1, 2, 3, 4, 1, 2, 3, 4}));
  EXPECT_EQ(call_kernel("aten::cat.out", {Arg::tensors({*a, *b}), 0, *out0, *out0}),
            Error::InvalidArgument);
  auto iout = empty(ScalarType::Int, {2, 3});
  EXPECT_EQ(call_kernel("aten::cat.out", {Arg::tensors({*a, *b}), 1, *iout, *iout}),
            Error::InvalidArgument);
}

// Empty inputs may have any size along the cat dim; the sum must not
// overflow int32 (here it would wrap to a valid-looking 2^31 - 3).
TEST(Cat, SummedSizePastInt32Refused) {
  auto e = empty(ScalarType::Float, {INT32_MAX, 0});
  auto out = empty(ScalarType::Float, {INT32_MAX - 2, 0});
  EXPECT_EQ(call_kernel("aten::cat.out", {Arg::tensors({*e, *e, *e}), 0, *out, *out}),
            Error::InvalidArgument);
}

// Prepared (kernel prepare at load): the same bytes as a plain call
// (mixed dtypes, a legacy empty input); a Prepare that fails (shapes
// outside dim, out dtype) fails the same at run. Each input is read at its
// current data pointer, and dim at every call.
TEST(Cat, PreparedLikeRun) {
  auto a = tensor<float>(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
  auto b = tensor<int32_t>(ScalarType::Int, {2, 1}, {5, 6});
  auto legacy = empty(ScalarType::Float, {0});
  auto out = empty(ScalarType::Float, {2, 3});
  EXPECT_TRUE(expect_prepared_like_run("aten::cat.out",
                                       {Arg::tensors({*a, *legacy, *b}), -1, *out, *out})
                  .stopped);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 2, 5, 3, 4, 6}));
  auto out0 = empty(ScalarType::Float, {4, 2});
  EXPECT_EQ(
      expect_prepared_like_run("aten::cat.out", {Arg::tensors({*a, *b}), 0, *out0, *out0}).error,
      Error::InvalidArgument);
  auto iout = empty(ScalarType::Int, {2, 3});
  EXPECT_EQ(
      expect_prepared_like_run("aten::cat.out", {Arg::tensors({*a, *b}), 1, *iout, *iout}).error,
      Error::InvalidArgument);
  auto a2 = tensor<float>(ScalarType::Float, {2, 2}, {7, 8, 9, 10});
  expect_prepared_on_changed_args("aten::cat.out", {Arg::tensors({*a, *b}), 1, *out, *out},
                                  {Arg::tensors({*a2, *b}), 1, *out, *out});
  EXPECT_EQ(out->values<float>(), (std::vector<float>{7, 8, 5, 9, 10, 6}));
  expect_prepared_on_changed_args("aten::cat.out", {Arg::tensors({*a, *b}), 1, *out, *out},
                                  {Arg::tensors({*a, *b}), 0, *out, *out});
  // Only legacy empty inputs: nothing to compute, Prepare still stops.
  auto none = empty(ScalarType::Float, {0});
  EXPECT_TRUE(expect_prepared_like_run("aten::cat.out",
                                       {Arg::tensors({*legacy, *legacy}), 0, *none, *none})
                  .stopped);
}

}  // namespace
}  // namespace ember::testing
