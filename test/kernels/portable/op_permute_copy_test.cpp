// aten::permute_copy.out (kernels/portable/op_permute_copy.cpp).
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"
#include "test/kernels/portable/fft_test_util.h"

namespace ember::testing {
namespace {

TEST(PermuteCopy, MatchesReference) {
  auto a = tensor<float>(ScalarType::Float, {2, 3, 4}, iota(24));
  auto out = empty(ScalarType::Float, {4, 2, 3});
  ASSERT_EQ(call_kernel("aten::permute_copy.out", {*a, Arg::ints({2, 0, -2}), *out, *out}),
            Error::Ok);
  std::vector<float> want;
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) want.push_back(float(i * 12 + j * 4 + k));
  EXPECT_EQ(out->values<float>(), want);
  EXPECT_EQ(call_kernel("aten::permute_copy.out", {*a, Arg::ints({0, 0, 1}), *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::permute_copy.out", {*a, Arg::ints({0, 1}), *out, *out}),
            Error::InvalidArgument);
}

// Complex elements move whole, through the transpose (contiguous out) and
// through the element loop (an out in another dim order); out's dtype must
// be self's.
TEST(PermuteCopy, ComplexElements) {
  for (ScalarType type : {ScalarType::ComplexFloat, ScalarType::ComplexDouble}) {
    std::vector<double> values(2 * 24);
    for (size_t i = 0; i < values.size(); ++i) values[i] = double(i) * (i % 2 ? -1 : 1);
    auto a = fft_tensor(type, {2, 3, 4}, values);
    std::vector<double> want;
    for (int k = 0; k < 4; ++k)
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) {
          const size_t at = size_t(i * 12 + j * 4 + k);
          want.push_back(values[2 * at]);
          want.push_back(values[2 * at + 1]);
        }
    for (const std::vector<DimOrderType>& order :
         {std::vector<DimOrderType>{}, std::vector<DimOrderType>{2, 0, 1}}) {
      auto out = fft_out(type, {4, 2, 3}, order);
      ASSERT_EQ(call_kernel("aten::permute_copy.out", {*a, Arg::ints({2, 0, 1}), *out, *out}),
                Error::Ok)
          << last_error_message();
      EXPECT_EQ(fft_values(*out), want);
    }
  }
  auto a = empty(ScalarType::ComplexFloat, {2, 3});
  auto other = empty(ScalarType::ComplexDouble, {3, 2});
  EXPECT_EQ(call_kernel("aten::permute_copy.out", {*a, Arg::ints({1, 0}), *other, *other}),
            Error::InvalidArgument);
  auto real = empty(ScalarType::Float, {3, 2});
  EXPECT_EQ(call_kernel("aten::permute_copy.out", {*a, Arg::ints({1, 0}), *real, *real}),
            Error::InvalidArgument);
}

// Prepared (kernel prepare at load): the same bytes as a plain call; a
// Prepare that fails (repeated dim, out dtype) fails the same at run.
TEST(PermuteCopy, PreparedLikeRun) {
  auto a = tensor<float>(ScalarType::Float, {2, 3, 4}, iota(24));
  auto out = empty(ScalarType::Float, {4, 2, 3});
  EXPECT_TRUE(expect_prepared_like_run("aten::permute_copy.out",
                                       {*a, Arg::ints({2, 0, -2}), *out, *out})
                  .stopped);
  EXPECT_EQ(expect_prepared_like_run("aten::permute_copy.out",
                                     {*a, Arg::ints({0, 0, 1}), *out, *out})
                .error,
            Error::InvalidArgument);
  auto iout = empty(ScalarType::Int, {4, 2, 3});
  EXPECT_EQ(expect_prepared_like_run("aten::permute_copy.out",
                                     {*a, Arg::ints({2, 0, 1}), *iout, *iout})
                .error,
            Error::InvalidArgument);
  // dims are read at every call: dims giving another shape fail as they
  // would without prepare.
  expect_prepared_on_changed_args("aten::permute_copy.out",
                                  {*a, Arg::ints({2, 0, 1}), *out, *out},
                                  {*a, Arg::ints({0, 1, 2}), *out, *out});
}

}  // namespace
}  // namespace ember::testing
