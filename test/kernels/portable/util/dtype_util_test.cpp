// Element-type plumbing (kernels/portable/util/dtype_util.h): Half and
// BFloat16 compute in float (compute_type_for), and Bool storage is read
// as bytes, any non-zero byte true (through the reductions, cumsum,
// nonzero, argmax and sort that read it).
#include <algorithm>

#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(DtypeUtil, HalfAndBFloat16ComputeInFloat) {
  auto a = from_doubles(ScalarType::Half, {3}, {1.5, -2.25, 1024});
  auto b = from_doubles(ScalarType::Half, {3}, {0.25, 0.5, 1});
  auto out = empty(ScalarType::Half, {3});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *b, 1, *out, *out}), Error::Ok);
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{1.75, -1.75, 1025}));
  auto c = from_doubles(ScalarType::BFloat16, {2}, {3, 8});
  auto d = from_doubles(ScalarType::BFloat16, {2}, {2, 4});
  auto bout = empty(ScalarType::BFloat16, {2});
  ASSERT_EQ(call_kernel("aten::div.out", {*c, *d, *bout, *bout}), Error::Ok);
  EXPECT_EQ(to_doubles(*bout), (std::vector<double>{1.5, 2}));
}

// Bool bytes other than 0 or 1 (a hostile memory plan can alias anything
// into a Bool tensor) read as true, never as an invalid bool (UBSan: found
// by the bundled-program fuzzer in any.dims).
TEST(DtypeUtil, BoolBytesOtherThanOneAreTrue) {
  auto b = empty(ScalarType::Bool, {2, 3});
  uint8_t* bytes = static_cast<uint8_t*>(b->tensor().mutable_data_ptr());
  const uint8_t raw[6] = {0, 128, 0, 0, 0, 255};
  std::copy(raw, raw + 6, bytes);
  auto rows = empty(ScalarType::Bool, {2});
  ASSERT_EQ(call_kernel("aten::any.dims_out", {*b, Arg::ints({1}), false, *rows, *rows}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*rows), (std::vector<double>{1, 1}));
  auto cols = empty(ScalarType::Long, {3});
  ASSERT_EQ(call_kernel("aten::sum.IntList_out",
                        {*b, Arg::ints({0}), false, int64_t(ScalarType::Long), *cols, *cols}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*cols), (std::vector<double>{0, 1, 1}));
  auto running = empty(ScalarType::Long, {2, 3});
  ASSERT_EQ(call_kernel("aten::cumsum.out",
                        {*b, int64_t(1), int64_t(ScalarType::Long), *running, *running}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*running), (std::vector<double>{0, 1, 1, 0, 0, 1}));
  auto where = empty(ScalarType::Long, {2, 2});
  ASSERT_EQ(call_kernel("aten::nonzero.out", {*b, *where, *where}), Error::Ok);
  EXPECT_EQ(to_doubles(*where), (std::vector<double>{0, 1, 1, 2}));
  // Index reductions (argmax/argmin, max.dim/min.dim) and sorting.
  auto first = empty(ScalarType::Long, {2});
  ASSERT_EQ(call_kernel("aten::argmax.out", {*b, int64_t(1), false, *first, *first}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*first), (std::vector<double>{1, 2}));
  auto sorted = empty(ScalarType::Bool, {2, 3});
  auto order = empty(ScalarType::Long, {2, 3});
  ASSERT_EQ(call_kernel("aten::sort.values",
                        {*b, int64_t(1), true, *sorted, *order, *sorted, *order}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*sorted), (std::vector<double>{1, 0, 0, 1, 0, 0}));
  EXPECT_EQ(to_doubles(*order), (std::vector<double>{1, 0, 2, 2, 0, 1}));
  const uint8_t* out_bytes = static_cast<const uint8_t*>(sorted->tensor().const_data_ptr());
  EXPECT_EQ(out_bytes[0], 1) << "a sorted Bool is stored as 0 or 1";
}

}  // namespace
}  // namespace ember::testing
