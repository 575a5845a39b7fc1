// aten::embedding.out (kernels/portable/op_embedding.cpp): kernel prepare.
// The quantized forms are in op_embedding_{byte,2bit,4bit}_test.cpp.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

// Prepared (kernel prepare at load): the same bytes as a plain call. The
// indices are data, checked at every call and never at Prepare: indices
// that change after Prepare, in range or not, give what a plain call
// gives. A Prepare that fails (weight rank, out dtype) fails the same at
// run.
TEST(Embedding, PreparedLikeRun) {
  const char* op = "aten::embedding.out";
  auto w = from_doubles(ScalarType::Float, {5, 3}, wave(15, 2));
  auto idx = tensor<int64_t>(ScalarType::Long, {2, 2}, {0, 4, 2, 1});
  auto idx2 = tensor<int64_t>(ScalarType::Long, {2, 2}, {3, 3, 0, 2});
  auto bad = tensor<int64_t>(ScalarType::Long, {2, 2}, {3, 5, 0, 2});
  auto out = empty(ScalarType::Float, {2, 2, 3});
  const auto args = [&](const OwnedTensor& indices) {
    return std::vector<Arg>{*w, indices, int64_t(-1), false, false, *out, *out};
  };
  EXPECT_TRUE(expect_prepared_like_run(op, args(*idx)).stopped);
  // Prepare does not read the indices: it stops on out-of-range ones, and
  // the call refuses them when it runs.
  EXPECT_TRUE(expect_prepared_like_run(op, args(*bad)).stopped);
  expect_prepared_on_changed_args(op, args(*idx), args(*idx2));
  expect_prepared_on_changed_args(op, args(*idx), args(*bad));
  auto w3 = from_doubles(ScalarType::Float, {5, 3, 1}, wave(15, 2));
  auto out3 = empty(ScalarType::Float, {2, 2, 3});
  EXPECT_EQ(expect_prepared_like_run(
                op, {*w3, *idx, int64_t(-1), false, false, *out3, *out3})
                .error,
            Error::InvalidArgument);
  auto dout = empty(ScalarType::Double, {2, 2, 3});
  EXPECT_EQ(expect_prepared_like_run(op, {*w, *idx, int64_t(-1), false, false, *dout, *dout})
                .error,
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
