// TensorImpl::resize: upstream's rules for bounded-dynamic tensors, and
// shapes whose sizes multiply past any real tensor (a zero size must not
// hide an overflowing product of the others, which the strides multiply).
#include <gtest/gtest.h>

#include <cstdint>

#include "runtime/core/error_message.h"
#include "runtime/core/tensor.h"

namespace ember {
namespace {

struct Bounded {
  SizesType sizes[4] = {2, 3, 4, 5};
  DimOrderType order[4] = {0, 1, 2, 3};
  StridesType strides[4] = {};
  float data[120] = {};
  TensorImpl impl{ScalarType::Float, 4, sizes, data, order, strides,
                  ShapeDynamism::DynamicBound};
};

TEST(TensorResize, ShrinkAndZeroSizes) {
  Bounded t;
  const SizesType smaller[4] = {1, 3, 2, 5};
  ASSERT_EQ(t.impl.resize({smaller, 4}), Error::Ok);
  EXPECT_EQ(t.impl.numel(), 30);
  EXPECT_EQ(t.strides[0], 30);
  EXPECT_EQ(t.strides[2], 5);
  // A zero size makes any other (reasonable) size fit, as upstream allows.
  const SizesType empty[4] = {0, 300, 4, 5};
  ASSERT_EQ(t.impl.resize({empty, 4}), Error::Ok);
  EXPECT_EQ(t.impl.numel(), 0);
  EXPECT_EQ(t.strides[1], 20);
}

TEST(TensorResize, GrowingPastCapacityRefused) {
  Bounded t;
  const SizesType bigger[4] = {2, 3, 4, 6};
  EXPECT_EQ(t.impl.resize({bigger, 4}), Error::NotSupported);
  EXPECT_NE(std::string(last_error_message()).find("capacity of 480 bytes"),
            std::string::npos)
      << last_error_message();
  EXPECT_EQ(t.impl.numel(), 120);  // unchanged
}

TEST(TensorResize, ZeroSizeHidingAnOverflowIsRefused) {
  Bounded t;
  const SizesType huge[4] = {0, INT32_MAX, INT32_MAX, INT32_MAX};
  EXPECT_EQ(t.impl.resize({huge, 4}), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("multiply past 2^48"),
            std::string::npos)
      << last_error_message();
  EXPECT_EQ(t.sizes[1], 3);  // unchanged
}

TEST(TensorResize, StaticShapeRefused) {
  SizesType sizes[2] = {2, 3};
  DimOrderType order[2] = {0, 1};
  StridesType strides[2];
  float data[6];
  TensorImpl impl(ScalarType::Float, 2, sizes, data, order, strides);
  const SizesType other[2] = {3, 2};
  EXPECT_EQ(impl.resize({other, 2}), Error::NotSupported);
}

}  // namespace
}  // namespace ember
