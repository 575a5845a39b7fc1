// aten::all.out, all.dims_out, all.all_out (kernels/portable/op_all.cpp;
// the exporter emits logical_not + any, PyTorch registers all three).
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"

namespace ember::testing {
namespace {

TEST(All, OverloadsTheExporterDecomposes) {
  auto in = from_doubles(ScalarType::Float, {2, 3}, {1, 2, 4, 0, 0, 6});
  auto b = empty(ScalarType::Bool, {3});
  ASSERT_EQ(call_kernel("aten::all.out", {*in, int64_t(0), false, *b, *b}), Error::Ok);
  EXPECT_EQ(to_doubles(*b), (std::vector<double>{0, 0, 1}));
  auto b2 = empty(ScalarType::Bool, {2, 1});
  ASSERT_EQ(call_kernel("aten::all.dims_out", {*in, Arg::ints({-1}), true, *b2, *b2}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*b2), (std::vector<double>{1, 0}));
  // dims = [] reduces nothing for any/all (unlike sum): elementwise truth.
  auto b3 = empty(ScalarType::Bool, {2, 3});
  ASSERT_EQ(call_kernel("aten::all.dims_out", {*in, Arg::ints({}), false, *b3, *b3}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*b3), (std::vector<double>{1, 1, 1, 0, 0, 1}));
  auto s = empty(ScalarType::Bool, {});
  ASSERT_EQ(call_kernel("aten::all.all_out", {*in, *s, *s}), Error::Ok);
  EXPECT_EQ(to_doubles(*s), (std::vector<double>{0}));
}

// Prepared (kernel prepare at load): the same bytes as a plain call in
// every overload; dim, dims and keepdim are read at every call.
TEST(All, PreparedLikeRun) {
  auto in = from_doubles(ScalarType::Float, {2, 3}, {1, 2, 4, 0, 0, 6});
  auto b = empty(ScalarType::Bool, {3});
  EXPECT_TRUE(expect_prepared_like_run("aten::all.out", {*in, int64_t(0), false, *b, *b}).stopped);
  expect_prepared_on_changed_args("aten::all.out", {*in, int64_t(0), false, *b, *b},
                                  {*in, int64_t(-2), false, *b, *b});
  expect_prepared_on_changed_args("aten::all.out", {*in, int64_t(0), false, *b, *b},
                                  {*in, int64_t(1), false, *b, *b});
  auto b3 = empty(ScalarType::Byte, {2, 3});
  EXPECT_TRUE(
      expect_prepared_like_run("aten::all.dims_out", {*in, Arg::ints({}), false, *b3, *b3})
          .stopped);
  auto s = empty(ScalarType::Bool, {});
  EXPECT_TRUE(expect_prepared_like_run("aten::all.all_out", {*in, *s, *s}).stopped);
  auto f = empty(ScalarType::Float, {});
  EXPECT_EQ(expect_prepared_like_run("aten::all.all_out", {*in, *f, *f}).error,
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
