// executorch_prim:: tensor ops: et_view, et_copy_index, et_select.
#include <cstdint>
#include <vector>

#include "test/prim_ops/prim_test_util.h"
#include "test/utils/tensor_factory.h"

namespace ember::testing {
namespace {

constexpr char kView[] = "executorch_prim::et_view.default";
constexpr char kCopyIndex[] = "executorch_prim::et_copy_index.tensor";
constexpr char kSelect[] = "executorch_prim::et_select.default";

// A boxed int list as the runtime builds it (each element its own EValue).
class IntList {
 public:
  explicit IntList(std::vector<int64_t> values)
      : items_(values.size()), unboxed_(values.size()) {
    for (size_t i = 0; i < values.size(); ++i) {
      items_[i] = EValue(values[i]);
      ptrs_.push_back(&items_[i]);
    }
  }
  EValue value() {
    return EValue(BoxedList<int64_t>(ptrs_.data(), unboxed_.data(), ptrs_.size()));
  }

 private:
  std::vector<EValue> items_;
  std::vector<EValue*> ptrs_;
  std::vector<int64_t> unboxed_;
};

std::vector<SizesType> sizes_of(Tensor t) {
  return std::vector<SizesType>(t.sizes().begin(), t.sizes().end());
}

TEST(EtOps, AllRegistered) {
  EXPECT_NE(lookup(kView), nullptr);
  EXPECT_NE(lookup(kCopyIndex), nullptr);
  EXPECT_NE(lookup(kSelect), nullptr);
}

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

TEST(EtSelect, AliasesSlotAlongDim0) {
  auto self = make_tensor<int32_t>(ScalarType::Int, {3, 2}, {1, 2, 3, 4, 5, 6});
  OwnedTensor out(ScalarType::Int, {2});
  Stack s{EValue(self->tensor()), I(0), I(1), EValue(out.tensor())};
  ASSERT_EQ(call(kSelect, s), Error::Ok) << last_error_message();
  EXPECT_EQ(out.tensor().const_data_ptr<int32_t>(),
            self->tensor().const_data_ptr<int32_t>() + 2);
  s[2] = I(-1);  // negative index counts from the end
  ASSERT_EQ(call(kSelect, s), Error::Ok);
  EXPECT_EQ(out.tensor().const_data_ptr<int32_t>()[0], 5);
}

TEST(EtSelect, DimAfterUnitDims) {
  auto self = make_tensor<int32_t>(ScalarType::Int, {1, 3, 2}, {1, 2, 3, 4, 5, 6});
  OwnedTensor out(ScalarType::Int, {1, 2});
  Stack s{EValue(self->tensor()), I(1), I(2), EValue(out.tensor())};
  ASSERT_EQ(call(kSelect, s), Error::Ok) << last_error_message();
  EXPECT_EQ(out.tensor().const_data_ptr<int32_t>()[0], 5);
}

TEST(EtSelect, Errors) {
  auto self = make_tensor<int32_t>(ScalarType::Int, {3, 2}, {1, 2, 3, 4, 5, 6});
  OwnedTensor out2(ScalarType::Int, {2});
  OwnedTensor out3(ScalarType::Int, {3});
  OwnedTensor outf(ScalarType::Float, {2});
  OwnedTensor out_rank(ScalarType::Int, {1, 2});
  struct Case {
    int64_t dim, index;
    Tensor out;
    Error expected;
  };
  const Case cases[] = {
      {0, 3, out2.tensor(), Error::InvalidArgument},
      {0, -4, out2.tensor(), Error::InvalidArgument},
      {2, 0, out2.tensor(), Error::InvalidArgument},
      {-1, 0, out2.tensor(), Error::InvalidArgument},
      {0, 0, outf.tensor(), Error::InvalidArgument},
      {0, 0, out_rank.tensor(), Error::InvalidArgument},
      {1, 0, out3.tensor(), Error::NotSupported},  // strided selection
  };
  for (const Case& c : cases) {
    void* before = c.out.mutable_data_ptr();
    Stack s{EValue(self->tensor()), I(c.dim), I(c.index), EValue(c.out)};
    EXPECT_EQ(call(kSelect, s), c.expected)
        << c.dim << "," << c.index << ": " << last_error_message();
    EXPECT_EQ(c.out.mutable_data_ptr(), before);
  }
  Stack short_stack{EValue(self->tensor()), I(0), I(0)};
  EXPECT_EQ(call(kSelect, short_stack), Error::InvalidProgram);
}

}  // namespace
}  // namespace ember::testing
