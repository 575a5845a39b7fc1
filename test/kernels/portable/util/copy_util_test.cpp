// kernels/portable/util/copy_util.h: identity_copy, the body of the
// operators whose out-variant is a plain copy. Run through
// et_copy::_h2d_copy.out and _d2h_copy.out (kernels/portable/op__h2d_copy.cpp,
// op__d2h_copy.cpp; host copies on Ember), which have no other C++ test:
// values of any dtype, out resized to self's shape and kept in its own dim
// order, and the refusals (another dtype, a static out of another shape).
// alias_copy, detach_copy and lift_fresh_copy have their own tests.
#include "kernels/portable/util/copy_util.h"

#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kDeviceCopies[] = {"et_copy::_h2d_copy.out", "et_copy::_d2h_copy.out"};

TEST(IdentityCopy, CopiesValuesIntoOutsDimOrder) {
  for (const char* op : kDeviceCopies) {
    SCOPED_TRACE(op);
    auto self = tensor<float>(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
    auto out = dynamic_out(ScalarType::Float, {3, 3});
    ASSERT_EQ(call_kernel(op, {*self, *out, *out}), Error::Ok) << last_error_message();
    EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 3}));
    EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
    auto column_major = empty(ScalarType::Float, {2, 3}, ShapeDynamism::Static, {1, 0});
    ASSERT_EQ(call_kernel(op, {*self, *column_major, *column_major}), Error::Ok);
    EXPECT_EQ(column_major->values<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
    auto bytes = tensor<uint8_t>(ScalarType::Byte, {3}, {0, 7, 255});
    auto bytes_out = empty(ScalarType::Byte, {3});
    ASSERT_EQ(call_kernel(op, {*bytes, *bytes_out, *bytes_out}), Error::Ok);
    EXPECT_EQ(bytes_out->values<uint8_t>(), (std::vector<uint8_t>{0, 7, 255}));
  }
}

TEST(IdentityCopy, RefusalsNameTheOperator) {
  for (const char* op : kDeviceCopies) {
    SCOPED_TRACE(op);
    auto self = tensor<float>(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
    auto wide = empty(ScalarType::Double, {2, 3});
    EXPECT_EQ(call_kernel(op, {*self, *wide, *wide}), Error::InvalidArgument);
    EXPECT_TRUE(message_has(op)) << last_error_message();
    auto wrong = empty(ScalarType::Float, {3, 2});
    EXPECT_EQ(call_kernel(op, {*self, *wrong, *wrong}), Error::NotSupported);
  }
}

// Every name the kernels report is one the registry holds.
TEST(IdentityCopy, NamesAreRegistered) {
  for (const char* full : kIdentityCopyNames) {
    const std::string s(full);
    const size_t dot = s.find('.');
    EXPECT_NE(find_kernel(s.substr(0, dot).c_str(), s.substr(dot + 1).c_str()), nullptr) << s;
  }
}

}  // namespace
}  // namespace ember::testing
