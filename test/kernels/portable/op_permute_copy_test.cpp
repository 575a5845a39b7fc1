// aten::permute_copy.out (kernels/portable/op_permute_copy.cpp).
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

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

}  // namespace
}  // namespace ember::testing
