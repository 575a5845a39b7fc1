// aten::index_put.out and aten::index_put_ (kernels/portable/op_index_put.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

// Accumulating into integers wraps like PyTorch's int64 add, never signed
// overflow (found by the bundled-program fuzzer under UBSan).
TEST(IndexPut, AccumulatedIntegerSumsWrap) {
  auto self = tensor<int64_t>(ScalarType::Long, {2}, {INT64_MAX, INT64_MIN});
  auto src = tensor<int64_t>(ScalarType::Long, {2}, {1, -1});
  auto index = tensor<int64_t>(ScalarType::Long, {2}, {0, 1});
  auto put = empty(ScalarType::Long, {2});
  ASSERT_EQ(call_kernel("aten::index_put.out",
                        {*self, Arg::optional_tensors({*index}), *src, true, *put, *put}),
            Error::Ok);
  EXPECT_EQ(put->values<int64_t>(), (std::vector<int64_t>{INT64_MIN, INT64_MAX}));
}

// In place, x[rows] = values: a Long index (negative counts from the end)
// picks whole rows; values has the indexed shape [2, 2].
TEST(IndexPut, InPlaceRowsByIndex) {
  auto self = tensor<float>(ScalarType::Float, {3, 2}, {1, 2, 3, 4, 5, 6});
  auto rows = tensor<int64_t>(ScalarType::Long, {2}, {2, -3});
  auto values = tensor<float>(ScalarType::Float, {2, 2}, {10, 20, 30, 40});
  ASSERT_EQ(call_kernel("aten::index_put_",
                        {*self, Arg::optional_tensors({*rows}), *values, false, *self}),
            Error::Ok)
      << last_error_message();
  // self[2] = [10, 20], self[-3] = self[0] = [30, 40]; row 1 untouched.
  EXPECT_EQ(self->values<float>(), (std::vector<float>{30, 40, 3, 4, 10, 20}));
}

// x.index_put_((idx,), v, accumulate=True): repeated indices add up.
TEST(IndexPut, InPlaceAccumulateSumsRepeatedIndices) {
  auto self = tensor<int32_t>(ScalarType::Int, {4}, {1, 1, 1, 1});
  auto idx = tensor<int64_t>(ScalarType::Long, {4}, {0, 3, 0, 0});
  auto values = tensor<int32_t>(ScalarType::Int, {4}, {5, 7, 10, 100});
  ASSERT_EQ(call_kernel("aten::index_put_",
                        {*self, Arg::optional_tensors({*idx}), *values, true, *self}),
            Error::Ok)
      << last_error_message();
  // self[0] = 1 + 5 + 10 + 100, self[3] = 1 + 7.
  EXPECT_EQ(self->values<int32_t>(), (std::vector<int32_t>{116, 1, 1, 8}));
}

// x[mask] = v: a Bool mask selects elements; a one-element v broadcasts.
TEST(IndexPut, InPlaceBoolMaskBroadcastsValues) {
  auto self = tensor<float>(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
  auto mask = from_doubles(ScalarType::Bool, {2, 2}, {1, 0, 0, 1});
  auto value = tensor<float>(ScalarType::Float, {1}, {-1});
  ASSERT_EQ(call_kernel("aten::index_put_",
                        {*self, Arg::optional_tensors({*mask}), *value, false, *self}),
            Error::Ok)
      << last_error_message();
  EXPECT_EQ(self->values<float>(), (std::vector<float>{-1, 2, 3, -1}));
}

// As in PyTorch: values of another dtype, values that do not broadcast to
// the indexed shape and an index out of range are errors, and self keeps
// its values.
TEST(IndexPut, InPlaceErrorsLeaveSelfUnchanged) {
  auto self = tensor<float>(ScalarType::Float, {3}, {1, 2, 3});
  auto idx = tensor<int64_t>(ScalarType::Long, {2}, {0, 2});
  auto doubles = tensor<double>(ScalarType::Double, {2}, {7, 8});
  EXPECT_EQ(call_kernel("aten::index_put_",
                        {*self, Arg::optional_tensors({*idx}), *doubles, false, *self}),
            Error::InvalidArgument);
  auto three = tensor<float>(ScalarType::Float, {3}, {7, 8, 9});
  EXPECT_EQ(call_kernel("aten::index_put_",
                        {*self, Arg::optional_tensors({*idx}), *three, false, *self}),
            Error::InvalidArgument);
  auto past_end = tensor<int64_t>(ScalarType::Long, {1}, {3});
  auto one = tensor<float>(ScalarType::Float, {1}, {7});
  EXPECT_EQ(call_kernel("aten::index_put_",
                        {*self, Arg::optional_tensors({*past_end}), *one, false, *self}),
            Error::InvalidArgument);
  EXPECT_EQ(self->values<float>(), (std::vector<float>{1, 2, 3}));
}

}  // namespace
}  // namespace ember::testing
