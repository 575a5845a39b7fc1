// llama::update_cache.out (kernels/llm/op_update_cache.cpp, checks in
// kernels/llm/kv_cache.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "llama::update_cache.out";

TEST(UpdateCache, WritesRowsOfEveryBatch) {
  // value [2, 1, 1, 2] into cache [2, 3, 1, 2] at position 2.
  auto value = tensor<int64_t>(ScalarType::Long, {2, 1, 1, 2}, {1, 2, 3, 4});
  auto cache = tensor<int64_t>(ScalarType::Long, {2, 3, 1, 2}, std::vector<int64_t>(12, 0));
  auto out = tensor<int64_t>(ScalarType::Long, {1}, {77});
  ASSERT_EQ(call_kernel(kOp, {*value, *cache, int64_t(2), *out, *out}), Error::Ok)
      << last_error_message();
  EXPECT_EQ(cache->values<int64_t>(),
            (std::vector<int64_t>{0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 3, 4}));
  EXPECT_EQ(out->values<int64_t>(), (std::vector<int64_t>{77}));  // placeholder untouched
}

TEST(UpdateCache, RefusesBadArguments) {
  auto value = empty(ScalarType::Float, {1, 2, 2, 4});
  auto cache = empty(ScalarType::Float, {1, 4, 2, 4});
  auto out = empty(ScalarType::Float, {1});
  EXPECT_EQ(call_kernel(kOp, {*value, *cache, int64_t(3), *out, *out}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("does not fit cache"));
  EXPECT_EQ(call_kernel(kOp, {*value, *cache, int64_t(-1), *out, *out}),
            Error::InvalidArgument);
  auto half_cache = empty(ScalarType::Half, {1, 4, 2, 4});
  EXPECT_EQ(call_kernel(kOp, {*value, *half_cache, int64_t(0), *out, *out}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("dtype"));
  auto other_heads = empty(ScalarType::Float, {1, 4, 1, 4});
  EXPECT_EQ(call_kernel(kOp, {*value, *other_heads, int64_t(0), *out, *out}),
            Error::InvalidArgument);
  auto flat = empty(ScalarType::Float, {8, 4});
  EXPECT_EQ(call_kernel(kOp, {*value, *flat, int64_t(0), *out, *out}), Error::InvalidArgument);
  auto strided = empty(ScalarType::Float, {1, 4, 2, 4}, ShapeDynamism::Static, {0, 2, 1, 3});
  EXPECT_EQ(call_kernel(kOp, {*value, *strided, int64_t(0), *out, *out}),
            Error::NotSupported);  // non-contiguous layouts, like every portable kernel
  EXPECT_EQ(call_kernel(kOp, {*value, *cache, int64_t(0), *out}), Error::InvalidProgram);
}

}  // namespace
}  // namespace ember::testing
