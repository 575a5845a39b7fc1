// aten:: prim ops on tensors: sym_size, sym_stride, sym_numel,
// _local_scalar_dense.
#include <cstdint>

#include "test/kernels/prim_ops/prim_test_util.h"
#include "test/utils/tensor_factory.h"

namespace ember::testing {
namespace {

TEST(PrimTensorOps, AllRegistered) {
  for (const char* op : {"aten::sym_size.int", "aten::sym_numel",
                         "aten::sym_stride.int", "aten::_local_scalar_dense"}) {
    EXPECT_NE(lookup(op), nullptr) << op;
  }
}

TEST(PrimTensorOps, SymSize) {
  OwnedTensor t(ScalarType::Int, {3, 5});
  for (auto [dim, expected] :
       {std::pair<int64_t, int64_t>{0, 3}, {1, 5}, {-1, 5}, {-2, 3}}) {
    Stack s{EValue(t.tensor()), I(dim), EValue()};
    ASSERT_EQ(call("aten::sym_size.int", s), Error::Ok);
    ASSERT_TRUE(s.back().is_int());
    EXPECT_EQ(s.back().to_int(), expected) << dim;
  }
}

TEST(PrimTensorOps, SymSizeZeroSizedDim) {
  OwnedTensor t(ScalarType::Float, {4, 0});
  Stack s{EValue(t.tensor()), I(1), EValue()};
  ASSERT_EQ(call("aten::sym_size.int", s), Error::Ok);
  EXPECT_EQ(s.back().to_int(), 0);
}

TEST(PrimTensorOps, SymSizeBadDim) {
  OwnedTensor t(ScalarType::Int, {3, 5});
  for (int64_t dim : {int64_t(2), int64_t(-3), int64_t(100), INT64_MIN}) {
    Stack s{EValue(t.tensor()), I(dim), I(-7)};
    EXPECT_EQ(call("aten::sym_size.int", s), Error::InvalidArgument) << dim;
    EXPECT_EQ(s.back().to_int(), -7);
    EXPECT_TRUE(message_has("out of range"));
  }
  OwnedTensor scalar(ScalarType::Int, {});
  Stack s{EValue(scalar.tensor()), I(0), EValue()};
  EXPECT_EQ(call("aten::sym_size.int", s), Error::InvalidArgument);
}

TEST(PrimTensorOps, SymSizeWrongTypes) {
  OwnedTensor t(ScalarType::Int, {3, 5});
  Stack s1{I(3), I(0), EValue()};
  EXPECT_EQ(call("aten::sym_size.int", s1), Error::InvalidType);
  Stack s2{EValue(t.tensor()), D(0.0), EValue()};
  EXPECT_EQ(call("aten::sym_size.int", s2), Error::InvalidType);
  Stack s3{EValue(t.tensor()), I(1)};
  EXPECT_EQ(call("aten::sym_size.int", s3), Error::InvalidProgram);
}

TEST(PrimTensorOps, SymStride) {
  OwnedTensor t(ScalarType::Int, {2, 3, 4});
  const int64_t expected[] = {12, 4, 1};
  for (int64_t d = 0; d < 3; ++d) {
    Stack s{EValue(t.tensor()), I(d), EValue()};
    ASSERT_EQ(call("aten::sym_stride.int", s), Error::Ok);
    EXPECT_EQ(s.back().to_int(), expected[d]);
  }
  OwnedTensor cl(ScalarType::Float, {1, 3, 2, 2}, {0, 2, 3, 1});  // channels last
  Stack s{EValue(cl.tensor()), I(1), EValue()};
  ASSERT_EQ(call("aten::sym_stride.int", s), Error::Ok);
  EXPECT_EQ(s.back().to_int(), 1);
  Stack bad{EValue(t.tensor()), I(3), EValue()};
  EXPECT_EQ(call("aten::sym_stride.int", bad), Error::InvalidArgument);
}

TEST(PrimTensorOps, SymNumel) {
  OwnedTensor t(ScalarType::Int, {3, 5});
  Stack s{EValue(t.tensor()), EValue()};
  ASSERT_EQ(call("aten::sym_numel", s), Error::Ok);
  EXPECT_EQ(s.back().to_int(), 15);
  OwnedTensor empty(ScalarType::Int, {3, 0});
  Stack s0{EValue(empty.tensor()), EValue()};
  ASSERT_EQ(call("aten::sym_numel", s0), Error::Ok);
  EXPECT_EQ(s0.back().to_int(), 0);
  OwnedTensor scalar(ScalarType::Int, {});
  Stack s1{EValue(scalar.tensor()), EValue()};
  ASSERT_EQ(call("aten::sym_numel", s1), Error::Ok);
  EXPECT_EQ(s1.back().to_int(), 1);
  Stack bad{I(1), EValue()};
  EXPECT_EQ(call("aten::sym_numel", bad), Error::InvalidType);
  Stack short_stack{EValue(t.tensor())};
  EXPECT_EQ(call("aten::sym_numel", short_stack), Error::InvalidProgram);
}

template <typename T>
EValue local_scalar(ScalarType type, T value) {
  auto t = make_tensor<T>(type, {2}, {value, T(0)});
  Stack s{EValue(t->tensor()), EValue()};
  EXPECT_EQ(call("aten::_local_scalar_dense", s), Error::Ok)
      << last_error_message();
  return s.back();
}

TEST(PrimTensorOps, LocalScalarDense) {
  EValue v = local_scalar<int32_t>(ScalarType::Int, -42);
  ASSERT_TRUE(v.is_int());
  EXPECT_EQ(v.to_int(), -42);
  v = local_scalar<int64_t>(ScalarType::Long, INT64_MIN);
  ASSERT_TRUE(v.is_int());
  EXPECT_EQ(v.to_int(), INT64_MIN);
  v = local_scalar<uint8_t>(ScalarType::Byte, 200);
  EXPECT_EQ(v.to_int(), 200);
  v = local_scalar<int8_t>(ScalarType::Char, -3);
  EXPECT_EQ(v.to_int(), -3);
  v = local_scalar<int16_t>(ScalarType::Short, -300);
  EXPECT_EQ(v.to_int(), -300);
  v = local_scalar<float>(ScalarType::Float, 1.5f);
  ASSERT_TRUE(v.is_double());
  EXPECT_DOUBLE_EQ(v.to_double(), 1.5);
  v = local_scalar<double>(ScalarType::Double, -0.25);
  EXPECT_DOUBLE_EQ(v.to_double(), -0.25);
  v = local_scalar<uint8_t>(ScalarType::Bool, 1);
  ASSERT_TRUE(v.is_bool());
  EXPECT_TRUE(v.to_bool());
  v = local_scalar<uint16_t>(ScalarType::Half, Half(2.5f).bits);
  ASSERT_TRUE(v.is_double());
  EXPECT_DOUBLE_EQ(v.to_double(), 2.5);
}

TEST(PrimTensorOps, LocalScalarDenseErrors) {
  OwnedTensor empty(ScalarType::Float, {0});
  Stack s1{EValue(empty.tensor()), I(9)};
  EXPECT_EQ(call("aten::_local_scalar_dense", s1), Error::InvalidArgument);
  EXPECT_EQ(s1.back().to_int(), 9);
  OwnedTensor q(ScalarType::QInt8, {1});
  Stack s2{EValue(q.tensor()), I(9)};
  EXPECT_EQ(call("aten::_local_scalar_dense", s2), Error::InvalidArgument);
  EXPECT_TRUE(message_has("dtype"));
  Stack s3{D(1.0), EValue()};
  EXPECT_EQ(call("aten::_local_scalar_dense", s3), Error::InvalidType);
  OwnedTensor one(ScalarType::Float, {1});
  Stack s4{EValue(one.tensor())};
  EXPECT_EQ(call("aten::_local_scalar_dense", s4), Error::InvalidProgram);
}

}  // namespace
}  // namespace ember::testing
