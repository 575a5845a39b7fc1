// Splitting along one dim (kernels/portable/util/split_util.h), through
// split_copy and split_with_sizes_copy: sizes must sum to the dim and
// match the number of outs, and huge sizes do not overflow.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

TEST(SplitUtil, SizesMustSumAndMatchOutCount) {
  auto a = tensor<float>(ScalarType::Float, {2, 5}, iota(10));
  auto o1 = empty(ScalarType::Float, {2, 2});
  auto o2 = empty(ScalarType::Float, {2, 3});
  auto outs = Arg::tensors({o1->tensor(), o2->tensor()});
  ASSERT_EQ(call_kernel("aten::split_with_sizes_copy.out",
                        {*a, Arg::ints({2, 3}), -1, outs, outs}),
            Error::Ok);
  EXPECT_EQ(o2->values<float>(), (std::vector<float>{2, 3, 4, 7, 8, 9}));
  EXPECT_EQ(call_kernel("aten::split_with_sizes_copy.out",
                        {*a, Arg::ints({2, 2}), 1, outs, outs}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::split_copy.Tensor_out", {*a, 2, 1, outs, outs}),
            Error::InvalidArgument);  // makes 3 pieces, out has 2
}

// split_size near INT64_MAX (ceil division used to overflow), and split
// sizes whose running sum would overflow.
TEST(SplitUtil, HugeSplitSizes) {
  auto a = tensor<float>(ScalarType::Float, {2, 5}, iota(10));
  auto whole = empty(ScalarType::Float, {2, 5});
  auto one = Arg::tensors({whole->tensor()});
  ASSERT_EQ(call_kernel("aten::split_copy.Tensor_out", {*a, INT64_MAX, 1, one, one}),
            Error::Ok);
  EXPECT_EQ(whole->values<float>(), iota(10));
  auto o1 = empty(ScalarType::Float, {2, 1});
  auto o2 = empty(ScalarType::Float, {2, 4});
  auto two = Arg::tensors({o1->tensor(), o2->tensor()});
  EXPECT_EQ(call_kernel("aten::split_with_sizes_copy.out",
                        {*a, Arg::ints({1, INT64_MAX}), 1, two, two}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
