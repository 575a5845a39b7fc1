// executorch_prim::et_view.default (kernels/prim_ops/et_view.cpp): aliases
// its input with an inferred dim, resizes a dynamic out, refuses what it
// cannot alias.
#include <cstdint>
#include <vector>

#include "test/kernels/prim_ops/prim_test_util.h"
#include "test/utils/tensor_factory.h"

namespace ember::testing {
namespace {

constexpr char kView[] = "executorch_prim::et_view.default";

TEST(EtView, Registered) { EXPECT_NE(lookup(kView), nullptr); }

TEST(EtView, AliasesWithInferredDim) {
  auto self = make_tensor<int32_t>(ScalarType::Int, {3, 2}, {1, 2, 3, 4, 5, 6});
  OwnedTensor out(ScalarType::Int, {1, 3, 2});
  out.tensor().impl()->set_data(nullptr);
  IntList size({1, 3, -1});
  Stack s{EValue(self->tensor()), size.value(), EValue(out.tensor())};
  ASSERT_EQ(call(kView, s), Error::Ok) << last_error_message();
  EXPECT_EQ(out.tensor().const_data_ptr(), self->tensor().const_data_ptr());
  EXPECT_EQ(sizes_of(out.tensor()), (std::vector<SizesType>{1, 3, 2}));
}

TEST(EtView, ResizesDynamicOut) {
  auto self = make_tensor<int32_t>(ScalarType::Int, {3, 1}, {1, 2, 3});
  OwnedTensor out(ScalarType::Int, {3, 2, 1}, {}, ShapeDynamism::DynamicBound);
  IntList size({1, 3, -1});
  Stack s{EValue(self->tensor()), size.value(), EValue(out.tensor())};
  ASSERT_EQ(call(kView, s), Error::Ok) << last_error_message();
  EXPECT_EQ(sizes_of(out.tensor()), (std::vector<SizesType>{1, 3, 1}));
  EXPECT_EQ(out.tensor().const_data_ptr<int32_t>()[2], 3);
}

TEST(EtView, EmptyTensor) {
  OwnedTensor self(ScalarType::Int, {3, 1, 0});
  self.tensor().impl()->set_data(nullptr);
  OwnedTensor out(ScalarType::Int, {3, 1, 0});
  IntList good({3, 1, -1});
  Stack s{EValue(self.tensor()), good.value(), EValue(out.tensor())};
  ASSERT_EQ(call(kView, s), Error::Ok) << last_error_message();
  EXPECT_EQ(out.tensor().const_data_ptr(), nullptr);
  IntList bad({0, 1, -1});  // cannot infer next to a zero
  Stack b{EValue(self.tensor()), bad.value(), EValue(out.tensor())};
  EXPECT_EQ(call(kView, b), Error::InvalidArgument);
}

TEST(EtView, Errors) {
  auto self = make_tensor<int32_t>(ScalarType::Int, {3, 2}, {1, 2, 3, 4, 5, 6});
  IntList size({1, 3, -1});
  struct Case {
    std::vector<SizesType> out_sizes;
    ScalarType out_type;
    std::vector<int64_t> size;
    Error expected;
  };
  const Case cases[] = {
      {{1, 3, 2, 1}, ScalarType::Int, {1, 3, -1}, Error::InvalidArgument},  // rank
      {{1, 3, 3}, ScalarType::Int, {1, 3, -1}, Error::NotSupported},  // static out
      {{1, 3, 2}, ScalarType::Float, {1, 3, -1}, Error::InvalidArgument},  // dtype
      {{1, 3, 2}, ScalarType::Int, {-1, 3, -1}, Error::InvalidArgument},  // two -1
      {{1, 3, 2}, ScalarType::Int, {-2, -3, 1}, Error::InvalidArgument},  // negative
      {{1, 3, 2}, ScalarType::Int, {1, 3, 3}, Error::InvalidArgument},  // numel
      {{1, 3, 2}, ScalarType::Int, {4, 1, -1}, Error::InvalidArgument},  // 6 % 4
      {{1, 3, 2}, ScalarType::Int, {1LL << 40, 1, 1}, Error::InvalidArgument},
  };
  for (const Case& c : cases) {
    OwnedTensor out(c.out_type, c.out_sizes);
    void* before = out.tensor().mutable_data_ptr();
    IntList l(c.size);
    Stack s{EValue(self->tensor()), l.value(), EValue(out.tensor())};
    EXPECT_EQ(call(kView, s), c.expected) << last_error_message();
    EXPECT_EQ(out.tensor().mutable_data_ptr(), before);
    EXPECT_TRUE(message_has(kView)) << last_error_message();
  }
  // Wrong tags and count.
  OwnedTensor out(ScalarType::Int, {1, 3, 2});
  Stack s1{EValue(self->tensor()), I(3), EValue(out.tensor())};
  EXPECT_EQ(call(kView, s1), Error::InvalidType);
  Stack s2{EValue(self->tensor()), size.value()};
  EXPECT_EQ(call(kView, s2), Error::InvalidProgram);
  // Non row-major dim order cannot alias.
  OwnedTensor cl(ScalarType::Int, {1, 2, 3, 1}, {0, 2, 3, 1});
  OwnedTensor out4(ScalarType::Int, {6});
  IntList flat({6});
  Stack s3{EValue(cl.tensor()), flat.value(), EValue(out4.tensor())};
  EXPECT_EQ(call(kView, s3), Error::NotSupported);
}

}  // namespace
}  // namespace ember::testing
