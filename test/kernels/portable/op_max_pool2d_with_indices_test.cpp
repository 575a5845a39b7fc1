// aten::max_pool2d_with_indices.out
// (kernels/portable/op_max_pool2d_with_indices.cpp): values and indices
// with padding and ceil_mode, 3-D input, default stride, refused
// arguments.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(MaxPool2dWithIndices, ValuesIndicesPaddingCeil) {
  // 1 x 1 x 4 x 5 input, kernel 2, stride 2, ceil_mode: output 2 x 3.
  auto in = tensor<float>(ScalarType::Float, {1, 1, 4, 5},
                          {1, 5, 2, 0, 3,  //
                           4, 2, 8, 1, 9,  //
                           0, 1, 2, 3, 4,  //
                           7, 6, 5, 4, 3});
  auto out = empty(ScalarType::Float, {1, 1, 2, 3});
  auto idx = empty(ScalarType::Long, {1, 1, 2, 3});
  ASSERT_EQ(call_kernel("aten::max_pool2d_with_indices.out",
                        {*in, Arg::ints({2, 2}), Arg::ints({2, 2}), Arg::ints({0, 0}),
                         Arg::ints({1, 1}), true, *out, *idx, *out, *idx}),
            Error::Ok)
      << last_error_message();
  EXPECT_EQ(out->values<float>(), (std::vector<float>{5, 8, 9, 7, 5, 4}));
  EXPECT_EQ(idx->values<int64_t>(), (std::vector<int64_t>{1, 7, 9, 15, 17, 14}));
  // Padding 1, kernel 3, stride 1 (3-D input), empty stride = kernel.
  auto in3 = tensor<float>(ScalarType::Float, {1, 2, 2}, {1, 2, 3, 4});
  auto o3 = empty(ScalarType::Float, {1, 2, 2});
  auto i3 = empty(ScalarType::Long, {1, 2, 2});
  ASSERT_EQ(call_kernel("aten::max_pool2d_with_indices.out",
                        {*in3, Arg::ints({3}), Arg::ints({1}), Arg::ints({1}),
                         Arg::ints({1}), false, *o3, *i3, *o3, *i3}),
            Error::Ok);
  EXPECT_EQ(o3->values<float>(), (std::vector<float>{4, 4, 4, 4}));
  EXPECT_EQ(i3->values<int64_t>(), (std::vector<int64_t>{3, 3, 3, 3}));
  auto o1 = empty(ScalarType::Float, {1, 1, 1});
  auto i1 = empty(ScalarType::Long, {1, 1, 1});
  ASSERT_EQ(call_kernel("aten::max_pool2d_with_indices.out",
                        {*in3, Arg::ints({2}), Arg::ints({}), Arg::ints({0}),
                         Arg::ints({1}), false, *o1, *i1, *o1, *i1}),
            Error::Ok);
  EXPECT_EQ(o1->values<float>()[0], 4);
  // Padding larger than half the kernel.
  EXPECT_EQ(call_kernel("aten::max_pool2d_with_indices.out",
                        {*in3, Arg::ints({2}), Arg::ints({1}), Arg::ints({2}),
                         Arg::ints({1}), false, *o3, *i3, *o3, *i3}),
            Error::InvalidArgument);
  auto bad_idx = empty(ScalarType::Int, {1, 2, 2});
  EXPECT_EQ(call_kernel("aten::max_pool2d_with_indices.out",
                        {*in3, Arg::ints({3}), Arg::ints({1}), Arg::ints({1}),
                         Arg::ints({1}), false, *o3, *bad_idx, *o3, *bad_idx}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
