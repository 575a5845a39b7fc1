// aten::max_pool2d_with_indices_backward.grad_input
// (kernels/portable/op_max_pool2d_with_indices_backward.cpp): gradients
// summed where windows share their maximum, Half, and the refused
// arguments (an index outside its plane writes nothing). PyTorch's values
// with the forward's indices are in the op suite (max_pool2d_backward__*).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "aten::max_pool2d_with_indices_backward.grad_input";

TEST(MaxPool2dWithIndicesBackward, SumsSharedMaxima) {
  // 3 x 3 plane, kernel 2, stride 1: four windows, three choose the centre.
  for (ScalarType type : {ScalarType::Float, ScalarType::Half, ScalarType::Double}) {
    auto self = from_doubles(type, {1, 1, 3, 3}, {0, 0, 0, 0, 9, 0, 0, 0, 0});
    auto grad = from_doubles(type, {1, 1, 2, 2}, {1, 2, 3, 4});
    auto idx = tensor<int64_t>(ScalarType::Long, {1, 1, 2, 2}, {4, 4, 6, 4});
    auto gi = empty(type, {1, 1, 3, 3});
    ASSERT_EQ(call_kernel(kOp, {*grad, *self, Arg::ints({2, 2}), Arg::ints({1, 1}),
                                Arg::ints({0, 0}), Arg::ints({1, 1}), false, *idx, *gi, *gi}),
              Error::Ok)
        << last_error_message();
    EXPECT_EQ(to_doubles(*gi), (std::vector<double>{0, 0, 0, 0, 7, 0, 3, 0, 0}))
        << scalar_type_name(type);
  }
}

TEST(MaxPool2dWithIndicesBackward, Refused) {
  auto self = tensor<float>(ScalarType::Float, {1, 3, 3}, std::vector<float>(9, 1.0f));
  auto grad = tensor<float>(ScalarType::Float, {1, 2, 2}, {1, 2, 3, 4});
  auto gi = tensor<float>(ScalarType::Float, {1, 3, 3}, std::vector<float>(9, 5.0f));
  auto args = [&](const OwnedTensor& g, const OwnedTensor& idx) {
    return std::vector<Arg>{g, *self, Arg::ints({2}), Arg::ints({1}), Arg::ints({0}),
                            Arg::ints({1}), false, idx, *gi, *gi};
  };
  auto outside = tensor<int64_t>(ScalarType::Long, {1, 2, 2}, {0, 1, 9, 2});
  EXPECT_EQ(call_kernel(kOp, args(*grad, *outside)), Error::InvalidArgument);
  EXPECT_TRUE(message_has("outside"));
  EXPECT_EQ(gi->values<float>(), std::vector<float>(9, 5.0f));
  auto negative = tensor<int64_t>(ScalarType::Long, {1, 2, 2}, {0, -1, 0, 0});
  EXPECT_EQ(call_kernel(kOp, args(*grad, *negative)), Error::InvalidArgument);
  auto int_idx = tensor<int32_t>(ScalarType::Int, {1, 2, 2}, {0, 0, 0, 0});
  EXPECT_EQ(call_kernel(kOp, args(*grad, *int_idx)), Error::InvalidArgument);
  // grad_output of the wrong pooled size.
  auto big = tensor<float>(ScalarType::Float, {1, 3, 3}, std::vector<float>(9, 1.0f));
  auto big_idx = tensor<int64_t>(ScalarType::Long, {1, 3, 3}, std::vector<int64_t>(9, 0));
  EXPECT_EQ(call_kernel(kOp, args(*big, *big_idx)), Error::InvalidArgument);
  EXPECT_TRUE(message_has("pooled size"));
  auto idx = tensor<int64_t>(ScalarType::Long, {1, 2, 2}, {0, 0, 0, 0});
  auto ints = empty(ScalarType::Int, {1, 3, 3});
  EXPECT_EQ(call_kernel(kOp, {*grad, *ints, Arg::ints({2}), Arg::ints({1}), Arg::ints({0}),
                              Arg::ints({1}), false, *idx, *ints, *ints}),
            Error::NotSupported);
}

}  // namespace
}  // namespace ember::testing
