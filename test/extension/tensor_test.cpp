// extension/tensor: TensorPtr factories (from_blob, make_tensor_ptr, zeros,
// ones, full, clone_tensor_ptr): metadata, values, ownership, errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "extension/tensor/tensor_ptr.h"
#include "runtime/core/error_message.h"

namespace ember::testing {
namespace {

std::vector<SizesType> sizes_of(const TensorPtr& t) {
  return {t->sizes().begin(), t->sizes().end()};
}
std::vector<StridesType> strides_of(const TensorPtr& t) {
  return {t->strides().begin(), t->strides().end()};
}
std::vector<DimOrderType> dim_order_of(const TensorPtr& t) {
  return {t->dim_order().begin(), t->dim_order().end()};
}

TEST(TensorPtr, FromBlobViewsTheCallersMemory) {
  float data[6] = {1, 2, 3, 4, 5, 6};
  Result<TensorPtr> t = from_blob(data, {2, 3});
  ASSERT_TRUE(t.ok()) << last_error_message();
  EXPECT_EQ((*t)->const_data_ptr(), data);
  EXPECT_EQ((*t)->scalar_type(), ScalarType::Float);
  EXPECT_EQ(sizes_of(*t), (std::vector<SizesType>{2, 3}));
  EXPECT_EQ(dim_order_of(*t), (std::vector<DimOrderType>{0, 1}));
  EXPECT_EQ(strides_of(*t), (std::vector<StridesType>{3, 1}));
  EXPECT_EQ((*t)->numel(), 6);
  EXPECT_EQ((*t)->nbytes(), sizeof(data));
  EXPECT_EQ((*t)->shape_dynamism(), ShapeDynamism::DynamicBound);
  data[4] = 50;  // a view, not a copy
  EXPECT_EQ((*t)->const_data_ptr<float>()[4], 50.0f);
  // The runtime's EValue sees the same TensorImpl.
  const EValue v(**t);
  EXPECT_EQ(v.to_tensor().impl(), (*t)->impl());
}

TEST(TensorPtr, FromBlobCallsTheDeleterExactlyOnce) {
  int calls = 0;
  void* seen = nullptr;
  int64_t* data = static_cast<int64_t*>(std::malloc(4 * sizeof(int64_t)));
  {
    Result<TensorPtr> t = from_blob(data, {4}, ScalarType::Long, [&](void* p) {
      ++calls;
      seen = p;
      std::free(p);
    });
    ASSERT_TRUE(t.ok()) << last_error_message();
    TensorPtr copy = *t;  // copies share the tensor and its data
    EXPECT_EQ(copy->const_data_ptr(), data);
    TensorPtr another = copy;
    copy.reset();
    EXPECT_EQ(calls, 0);
    another.reset();
    EXPECT_EQ(calls, 0);  // *t still holds it
  }
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(seen, data);
}

TEST(TensorPtr, FromBlobThatFailsTakesNothing) {
  int calls = 0;
  float data[4] = {};
  Result<TensorPtr> t = from_blob(data, {2, -2}, ScalarType::Float, [&](void*) { ++calls; });
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("dimension 1 is negative"),
            std::string::npos)
      << last_error_message();
  EXPECT_EQ(calls, 0);
}

TEST(TensorPtr, FromBlobChecksItsArguments) {
  float data[4] = {};
  Result<TensorPtr> null_data = from_blob(nullptr, {2, 2});
  EXPECT_EQ(null_data.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("data is null"), std::string::npos);

  Result<TensorPtr> empty = from_blob(nullptr, {0, 3});  // no elements: no data needed
  ASSERT_TRUE(empty.ok()) << last_error_message();
  EXPECT_EQ((*empty)->numel(), 0);

  std::vector<SizesType> too_many(kMaxTensorDim + 1, 1);
  EXPECT_EQ(from_blob(data, too_many).error(), Error::InvalidArgument);
  EXPECT_EQ(from_blob(data, {2, 2}, {0, 0}, ScalarType::Float).error(), Error::InvalidArgument);
  EXPECT_EQ(from_blob(data, {2, 2}, {0}, ScalarType::Float).error(), Error::InvalidArgument);
  EXPECT_EQ(from_blob(data, {2}, static_cast<ScalarType>(99)).error(), Error::InvalidArgument);
}

TEST(TensorPtr, FromBlobWithADimOrder) {
  float data[24] = {};
  // N, C, H, W = 1, 2, 3, 4 stored channels-last.
  Result<TensorPtr> t = from_blob(data, {1, 2, 3, 4}, {0, 2, 3, 1}, ScalarType::Float);
  ASSERT_TRUE(t.ok()) << last_error_message();
  EXPECT_EQ(strides_of(*t), (std::vector<StridesType>{24, 1, 8, 2}));
  EXPECT_FALSE((*t)->is_contiguous());
}

TEST(TensorPtr, MakeTensorPtrOwnsTypedValues) {
  Result<TensorPtr> f = make_tensor_ptr({2, 2}, {1.5f, 2.5f, 3.5f, 4.5f});
  ASSERT_TRUE(f.ok()) << last_error_message();
  EXPECT_EQ((*f)->scalar_type(), ScalarType::Float);
  EXPECT_EQ(sizes_of(*f), (std::vector<SizesType>{2, 2}));
  EXPECT_EQ((*f)->const_data_ptr<float>()[3], 4.5f);

  Result<TensorPtr> l = make_tensor_ptr(std::vector<int64_t>{7, -8, 9});
  ASSERT_TRUE(l.ok());
  EXPECT_EQ((*l)->scalar_type(), ScalarType::Long);
  EXPECT_EQ(sizes_of(*l), (std::vector<SizesType>{3}));
  EXPECT_EQ((*l)->const_data_ptr<int64_t>()[1], -8);

  Result<TensorPtr> b = make_tensor_ptr({3}, std::vector<bool>{true, false, true});
  ASSERT_TRUE(b.ok()) << last_error_message();
  EXPECT_EQ((*b)->scalar_type(), ScalarType::Bool);
  const bool* bv = (*b)->const_data_ptr<bool>();
  EXPECT_TRUE(bv[0]);
  EXPECT_FALSE(bv[1]);
  EXPECT_TRUE(bv[2]);

  Result<TensorPtr> scalar = make_tensor_ptr({}, {3.0});  // 0-d, one value
  ASSERT_TRUE(scalar.ok());
  EXPECT_EQ((*scalar)->dim(), 0u);
  EXPECT_EQ((*scalar)->numel(), 1);
  EXPECT_EQ((*scalar)->scalar_type(), ScalarType::Double);
}

TEST(TensorPtr, MakeTensorPtrRejectsAValueCountThatDoesNotFillTheSizes) {
  Result<TensorPtr> t = make_tensor_ptr({2, 3}, {1.f, 2.f});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("2 values for sizes of 6 elements"),
            std::string::npos)
      << last_error_message();
  EXPECT_EQ(make_tensor_ptr({2}, std::vector<bool>{true}).error(), Error::InvalidArgument);
}

TEST(TensorPtr, ZerosOnesFull) {
  Result<TensorPtr> z = zeros({2, 3});
  ASSERT_TRUE(z.ok());
  for (int i = 0; i < 6; ++i) EXPECT_EQ((*z)->const_data_ptr<float>()[i], 0.0f);

  Result<TensorPtr> o = ones({4}, ScalarType::Long);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ((*o)->scalar_type(), ScalarType::Long);
  for (int i = 0; i < 4; ++i) EXPECT_EQ((*o)->const_data_ptr<int64_t>()[i], 1);

  Result<TensorPtr> h = full({3}, 2.5, ScalarType::Half);
  ASSERT_TRUE(h.ok());
  for (int i = 0; i < 3; ++i) EXPECT_EQ(float((*h)->const_data_ptr<Half>()[i]), 2.5f);

  Result<TensorPtr> bf = full({2}, -1.25, ScalarType::BFloat16);
  ASSERT_TRUE(bf.ok());
  EXPECT_EQ(float((*bf)->const_data_ptr<BFloat16>()[1]), -1.25f);

  Result<TensorPtr> d = full({2, 2}, 0.1, ScalarType::Double);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ((*d)->const_data_ptr<double>()[3], 0.1);

  Result<TensorPtr> i = full({2}, -7.9, ScalarType::Int);  // toward zero
  ASSERT_TRUE(i.ok());
  EXPECT_EQ((*i)->const_data_ptr<int32_t>()[0], -7);

  Result<TensorPtr> b = full({2}, 3.0, ScalarType::Bool);
  ASSERT_TRUE(b.ok());
  EXPECT_TRUE((*b)->const_data_ptr<bool>()[1]);

  Result<TensorPtr> u = full({1}, 255.0, ScalarType::Byte);
  ASSERT_TRUE(u.ok());
  EXPECT_EQ((*u)->const_data_ptr<uint8_t>()[0], 255);

  Result<TensorPtr> empty = zeros({0});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ((*empty)->numel(), 0);
}

TEST(TensorPtr, FullRefusesValuesTheDtypeCannotHold) {
  Result<TensorPtr> byte = full({2}, 256.0, ScalarType::Byte);
  EXPECT_EQ(byte.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("Byte cannot hold the value 256"),
            std::string::npos)
      << last_error_message();
  EXPECT_EQ(full({2}, -1.0, ScalarType::UInt32).error(), Error::InvalidArgument);
  EXPECT_EQ(full({2}, NAN, ScalarType::Long).error(), Error::InvalidArgument);
  EXPECT_EQ(full({2}, 9.3e18, ScalarType::Long).error(), Error::InvalidArgument);
  EXPECT_EQ(full({2}, 1.0, ScalarType::ComplexFloat).error(), Error::NotSupported);
  // zeros takes every storable dtype.
  Result<TensorPtr> complex_zeros = zeros({2}, ScalarType::ComplexFloat);
  ASSERT_TRUE(complex_zeros.ok());
  EXPECT_EQ((*complex_zeros)->nbytes(), 2 * element_size(ScalarType::ComplexFloat));
}

TEST(TensorPtr, CloneIsAnIndependentCopy) {
  Result<TensorPtr> src = make_tensor_ptr({2, 2}, {1.f, 2.f, 3.f, 4.f},
                                          ShapeDynamism::Static);
  ASSERT_TRUE(src.ok());
  Result<TensorPtr> copy = clone_tensor_ptr(*src);
  ASSERT_TRUE(copy.ok()) << last_error_message();
  EXPECT_NE((*copy)->const_data_ptr(), (*src)->const_data_ptr());
  EXPECT_NE((*copy)->impl(), (*src)->impl());
  EXPECT_EQ(sizes_of(*copy), sizes_of(*src));
  EXPECT_EQ(dim_order_of(*copy), dim_order_of(*src));
  EXPECT_EQ((*copy)->scalar_type(), ScalarType::Float);
  EXPECT_EQ((*copy)->shape_dynamism(), ShapeDynamism::Static);
  (*src)->mutable_data_ptr<float>()[0] = 100.f;
  EXPECT_EQ((*copy)->const_data_ptr<float>()[0], 1.f);
  EXPECT_EQ((*copy)->const_data_ptr<float>()[3], 4.f);

  // A clone outlives the source, and keeps a channels-last order.
  float data[24];
  for (int i = 0; i < 24; ++i) data[i] = float(i);
  TensorPtr cl;
  {
    Result<TensorPtr> view = from_blob(data, {1, 2, 3, 4}, {0, 2, 3, 1}, ScalarType::Float);
    ASSERT_TRUE(view.ok());
    Result<TensorPtr> c = clone_tensor_ptr(**view);
    ASSERT_TRUE(c.ok());
    cl = *c;
  }
  EXPECT_EQ(dim_order_of(cl), (std::vector<DimOrderType>{0, 2, 3, 1}));
  EXPECT_EQ(std::memcmp(cl->const_data_ptr(), data, sizeof(data)), 0);

  EXPECT_EQ(clone_tensor_ptr(TensorPtr()).error(), Error::InvalidArgument);
}

TEST(TensorPtr, ResizeWithinTheBytesItWasMadeWith) {
  Result<TensorPtr> t = zeros({4, 3});
  ASSERT_TRUE(t.ok());
  const SizesType smaller[] = {2, 3};
  EXPECT_EQ(resize_tensor(**t, {smaller, 2}), Error::Ok);
  EXPECT_EQ(sizes_of(*t), (std::vector<SizesType>{2, 3}));
  const SizesType larger[] = {5, 3};
  EXPECT_NE(resize_tensor(**t, {larger, 2}), Error::Ok);
}

}  // namespace
}  // namespace ember::testing
