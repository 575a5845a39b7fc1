// executorch_prim::et_select.default (kernels/prim_ops/et_select.cpp):
// aliases one slot along dim 0, errors.
#include <cstdint>
#include <vector>

#include "test/kernels/prim_ops/prim_test_util.h"
#include "test/utils/tensor_factory.h"

namespace ember::testing {
namespace {

constexpr char kSelect[] = "executorch_prim::et_select.default";

TEST(EtSelect, Registered) { EXPECT_NE(lookup(kSelect), nullptr); }

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
