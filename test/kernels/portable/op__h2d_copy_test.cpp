// et_copy::_h2d_copy.out (kernels/portable/op__h2d_copy.cpp): a host
// copy on Ember: values of any dtype, out resized to self's shape and kept
// in its own dim order, and the refusals (another dtype, a static out of
// another shape).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "et_copy::_h2d_copy.out";

TEST(H2dCopy, CopiesValuesIntoOutsDimOrder) {
  auto self = tensor<float>(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto out = dynamic_out(ScalarType::Float, {3, 3});
  ASSERT_EQ(call_kernel(kOp, {*self, *out, *out}), Error::Ok) << last_error_message();
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 3}));
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  auto column_major = empty(ScalarType::Float, {2, 3}, ShapeDynamism::Static, {1, 0});
  ASSERT_EQ(call_kernel(kOp, {*self, *column_major, *column_major}), Error::Ok);
  EXPECT_EQ(column_major->values<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  auto bytes = tensor<uint8_t>(ScalarType::Byte, {3}, {0, 7, 255});
  auto bytes_out = empty(ScalarType::Byte, {3});
  ASSERT_EQ(call_kernel(kOp, {*bytes, *bytes_out, *bytes_out}), Error::Ok);
  EXPECT_EQ(bytes_out->values<uint8_t>(), (std::vector<uint8_t>{0, 7, 255}));
}

TEST(H2dCopy, Refusals) {
  auto self = tensor<float>(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto wide = empty(ScalarType::Double, {2, 3});
  EXPECT_EQ(call_kernel(kOp, {*self, *wide, *wide}), Error::InvalidArgument);
  EXPECT_TRUE(message_has(kOp)) << last_error_message();
  auto wrong = empty(ScalarType::Float, {3, 2});
  EXPECT_EQ(call_kernel(kOp, {*self, *wrong, *wrong}), Error::NotSupported);
}

}  // namespace
}  // namespace ember::testing
