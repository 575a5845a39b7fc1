// executorch_prim::et_copy_index.tensor (kernels/prim_ops/et_copy_index.cpp):
// grows a dynamic accumulator, replaces a slot of a static one, errors.
#include <cstdint>
#include <vector>

#include "test/kernels/prim_ops/prim_test_util.h"
#include "test/utils/tensor_factory.h"

namespace ember::testing {
namespace {

constexpr char kCopyIndex[] = "executorch_prim::et_copy_index.tensor";

TEST(EtCopyIndex, Registered) { EXPECT_NE(lookup(kCopyIndex), nullptr); }

TEST(EtCopyIndex, GrowsDynamicAccumulator) {
  OwnedTensor copy_to(ScalarType::Int, {2, 2}, {}, ShapeDynamism::DynamicBound);
  const SizesType zero[] = {0, 2};
  ASSERT_EQ(resize_tensor(copy_to.tensor(), {zero, 2}), Error::Ok);
  auto a = make_tensor<int32_t>(ScalarType::Int, {2}, {3, 4});
  auto b = make_tensor<int32_t>(ScalarType::Int, {2}, {5, 6});

  Stack s{EValue(copy_to.tensor()), EValue(a->tensor()), I(0)};
  ASSERT_EQ(call(kCopyIndex, s), Error::Ok) << last_error_message();
  EXPECT_EQ(sizes_of(copy_to.tensor()), (std::vector<SizesType>{1, 2}));
  EXPECT_EQ(copy_to.values<int32_t>(), (std::vector<int32_t>{3, 4}));

  s[1] = EValue(b->tensor());
  s[2] = I(1);
  ASSERT_EQ(call(kCopyIndex, s), Error::Ok) << last_error_message();
  EXPECT_EQ(sizes_of(copy_to.tensor()), (std::vector<SizesType>{2, 2}));
  EXPECT_EQ(copy_to.values<int32_t>(), (std::vector<int32_t>{3, 4, 5, 6}));

  // Past the capacity: the resize error is reported, nothing is written.
  s[2] = I(2);
  EXPECT_EQ(call(kCopyIndex, s), Error::NotSupported);
  EXPECT_TRUE(message_has(kCopyIndex)) << last_error_message();
  EXPECT_TRUE(message_has("capacity")) << last_error_message();
  EXPECT_EQ(sizes_of(copy_to.tensor()), (std::vector<SizesType>{2, 2}));
}

TEST(EtCopyIndex, StaticShapeReplacesSlot) {
  auto copy_to = make_tensor<int32_t>(ScalarType::Int, {2, 2}, {1, 2, 3, 4});
  auto from = make_tensor<int32_t>(ScalarType::Int, {2}, {5, 6});
  Stack s{EValue(copy_to->tensor()), EValue(from->tensor()), I(1)};
  ASSERT_EQ(call(kCopyIndex, s), Error::Ok) << last_error_message();
  EXPECT_EQ(copy_to->values<int32_t>(), (std::vector<int32_t>{1, 2, 5, 6}));
  s[2] = I(0);
  ASSERT_EQ(call(kCopyIndex, s), Error::Ok);
  EXPECT_EQ(copy_to->values<int32_t>(), (std::vector<int32_t>{5, 6, 5, 6}));
  // Index 2 would need a resize of a static tensor.
  s[2] = I(2);
  EXPECT_EQ(call(kCopyIndex, s), Error::NotSupported);
  EXPECT_EQ(copy_to->values<int32_t>(), (std::vector<int32_t>{5, 6, 5, 6}));
}

TEST(EtCopyIndex, Errors) {
  auto copy_to = make_tensor<int32_t>(ScalarType::Int, {2, 3}, {1, 2, 3, 4, 5, 6});
  const std::vector<int32_t> original = copy_to->values<int32_t>();
  auto mismatch = make_tensor<int32_t>(ScalarType::Int, {2}, {1, 2});
  auto same_rank = make_tensor<int32_t>(ScalarType::Int, {1, 3}, {1, 2, 3});
  auto wrong_type = make_tensor<float>(ScalarType::Float, {3}, {1, 2, 3});
  auto good = make_tensor<int32_t>(ScalarType::Int, {3}, {7, 8, 9});
  struct Case {
    EValue from;
    EValue index;
    Error expected;
  };
  const Case cases[] = {
      {EValue(mismatch->tensor()), I(1), Error::InvalidArgument},
      {EValue(mismatch->tensor()), I(0), Error::InvalidArgument},
      {EValue(same_rank->tensor()), I(0), Error::InvalidArgument},
      {EValue(wrong_type->tensor()), I(0), Error::InvalidArgument},
      {EValue(good->tensor()), I(-1), Error::InvalidArgument},
      {EValue(good->tensor()), I(INT64_MAX), Error::InvalidArgument},
      {EValue(good->tensor()), D(1.0), Error::InvalidType},
      {I(3), I(0), Error::InvalidType},
  };
  for (const Case& c : cases) {
    Stack s{EValue(copy_to->tensor()), c.from, c.index};
    EXPECT_EQ(call(kCopyIndex, s), c.expected) << last_error_message();
    EXPECT_EQ(copy_to->values<int32_t>(), original);
  }
  Stack short_stack{EValue(copy_to->tensor()), EValue(good->tensor())};
  EXPECT_EQ(call(kCopyIndex, short_stack), Error::InvalidProgram);
}

}  // namespace
}  // namespace ember::testing
