// kernels/portable/util/pad_util: the checks and index maths shared by
// reflection_pad{1,2,3}d and replication_pad{1,2,3}d, through those
// operators. Values against PyTorch are in the op suite
// (reflection_pad*, replication_pad*); these are what a program cannot
// express.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

Error pad(const char* op, OwnedTensor& in, std::vector<int64_t> padding, OwnedTensor& out) {
  return call_kernel(op, {in, Arg::ints(padding), out, out});
}

// Reflection mirrors without repeating the edge; replication repeats it;
// negative pads crop (PyTorch: [0..4] padded (-1, 2) reflects to
// 1 2 3 4 3 2).
TEST(PadUtil, ReflectAndReplicateIndexMaths) {
  auto in = from_doubles(ScalarType::Float, {1, 5}, {0, 1, 2, 3, 4});
  auto out = dynamic_out(ScalarType::Float, {1, 16});
  ASSERT_EQ(pad("aten::reflection_pad1d.out", *in, {4, 4}, *out), Error::Ok);
  EXPECT_EQ(to_doubles(*out),
            (std::vector<double>{4, 3, 2, 1, 0, 1, 2, 3, 4, 3, 2, 1, 0}));
  ASSERT_EQ(pad("aten::reflection_pad1d.out", *in, {-1, 2}, *out), Error::Ok);
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{1, 2, 3, 4, 3, 2}));
  ASSERT_EQ(pad("aten::replication_pad1d.out", *in, {7, -2}, *out), Error::Ok);
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{0, 0, 0, 0, 0, 0, 0, 0, 1, 2}));
}

// PyTorch: "Padding size should be less than the corresponding input
// dimension". Replication has no such limit.
TEST(PadUtil, ReflectionPadMustBeSmallerThanDim) {
  auto in1 = from_doubles(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto out = dynamic_out(ScalarType::Float, {2, 64});
  EXPECT_EQ(pad("aten::reflection_pad1d.out", *in1, {3, 0}, *out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("must be smaller than dim 1 (size 3)"));
  EXPECT_EQ(pad("aten::replication_pad1d.out", *in1, {3, 9}, *out), Error::Ok);
  auto in2 = empty(ScalarType::Float, {1, 2, 4});
  auto out2 = dynamic_out(ScalarType::Float, {1, 64, 64});
  EXPECT_EQ(pad("aten::reflection_pad2d.out", *in2, {1, 1, 0, 2}, *out2),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("dim 1 (size 2)"));
  auto in3 = empty(ScalarType::Float, {1, 1, 2, 2});
  auto out3 = dynamic_out(ScalarType::Float, {1, 16, 16, 16});
  EXPECT_EQ(pad("aten::reflection_pad3d.out", *in3, {0, 0, 0, 0, 1, 1}, *out3),
            Error::InvalidArgument);
  EXPECT_EQ(pad("aten::replication_pad3d.out", *in3, {0, 0, 0, 0, 5, 5}, *out3), Error::Ok);
  EXPECT_EQ(sizes_of(*out3), (std::vector<SizesType>{1, 11, 2, 2}));
}

TEST(PadUtil, PaddingLengthAndRankChecked) {
  auto in = empty(ScalarType::Float, {1, 2, 3, 4});
  auto out = dynamic_out(ScalarType::Float, {4, 8, 8, 8});
  EXPECT_EQ(pad("aten::replication_pad2d.out", *in, {1, 1}, *out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("padding must have 4 entries, has 2"));
  EXPECT_EQ(pad("aten::replication_pad1d.out", *in, {1, 1}, *out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("self must have 2 or 3 dims, has 4"));
  auto in5 = empty(ScalarType::Float, {1, 1, 1, 2, 2, 2});
  EXPECT_EQ(pad("aten::reflection_pad3d.out", *in5, {1, 1, 1, 1, 1, 1}, *out),
            Error::InvalidArgument);
}

// Only dim 0 may be empty; padded sizes must stay at least 1.
TEST(PadUtil, EmptyDimsAndCroppingToNothing) {
  auto empty_batch = empty(ScalarType::Float, {0, 3, 4});
  auto out = dynamic_out(ScalarType::Float, {4, 8, 8});
  ASSERT_EQ(pad("aten::reflection_pad1d.out", *empty_batch, {1, 2}, *out), Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{0, 3, 7}));
  auto empty_channel = empty(ScalarType::Float, {2, 0, 4});
  EXPECT_EQ(pad("aten::replication_pad1d.out", *empty_channel, {1, 2}, *out),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("dim 1 of self is empty"));
  auto in = empty(ScalarType::Float, {1, 5});
  EXPECT_EQ(pad("aten::replication_pad1d.out", *in, {-3, -2}, *out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("padded size 0"));
}

TEST(PadUtil, HugePaddingAndDtypeMismatchRefused) {
  auto in = empty(ScalarType::Float, {1, 2, 2});
  auto out = dynamic_out(ScalarType::Float, {1, 8, 8});
  EXPECT_EQ(pad("aten::replication_pad2d.out", *in, {int64_t(1) << 40, 0, 0, 0}, *out),
            Error::InvalidArgument);
  EXPECT_EQ(pad("aten::replication_pad2d.out", *in, {INT32_MAX / 2, 0, INT32_MAX / 2, 0},
                *out),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("too large"));
  auto out_int = dynamic_out(ScalarType::Int, {1, 8, 8});
  EXPECT_EQ(pad("aten::reflection_pad2d.out", *in, {1, 1, 1, 1}, *out_int),
            Error::InvalidArgument);
}

// Any dtype is a copy: Bool and Long through the 1- and 8-byte paths.
TEST(PadUtil, AnyDtypeCopies) {
  auto in = from_doubles(ScalarType::Bool, {1, 1, 1, 3}, {1, 0, 1});
  auto out = dynamic_out(ScalarType::Bool, {1, 1, 3, 5});
  ASSERT_EQ(pad("aten::replication_pad2d.out", *in, {1, 1, 1, 1}, *out), Error::Ok);
  EXPECT_EQ(to_doubles(*out),
            (std::vector<double>{1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1}));
  auto in64 = from_doubles(ScalarType::Long, {1, 3}, {7, 8, 9});
  auto out64 = dynamic_out(ScalarType::Long, {1, 7});
  ASSERT_EQ(pad("aten::reflection_pad1d.out", *in64, {2, 2}, *out64), Error::Ok);
  EXPECT_EQ(to_doubles(*out64), (std::vector<double>{9, 8, 7, 8, 9, 8, 7}));
}

}  // namespace
}  // namespace ember::testing
