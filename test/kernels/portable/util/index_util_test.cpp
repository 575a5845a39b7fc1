// Helpers of the indexing and data-movement kernels
// (kernels/portable/util/index_util.h), through every operator that uses
// them: out-of-range indices fail cleanly, and an index tensor placed in
// the output's memory is refused before the kernel writes.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

TEST(IndexUtil, OutOfRangeIndicesFailCleanly) {
  auto a = tensor<float>(ScalarType::Float, {2, 3}, iota(6));
  auto bad = tensor<int64_t>(ScalarType::Long, {2}, {0, 3});
  auto out = empty(ScalarType::Float, {2, 2});
  EXPECT_EQ(call_kernel("aten::index_select.out", {*a, 1, *bad, *out, *out}),
            Error::InvalidArgument);
  auto neg = tensor<int64_t>(ScalarType::Long, {2}, {0, -1});
  EXPECT_EQ(call_kernel("aten::index_select.out", {*a, 1, *neg, *out, *out}),
            Error::InvalidArgument);
  auto g_index = tensor<int64_t>(ScalarType::Long, {2, 1}, {0, 7});
  auto g_out = empty(ScalarType::Float, {2, 1});
  EXPECT_EQ(call_kernel("aten::gather.out", {*a, 1, *g_index, false, *g_out, *g_out}),
            Error::InvalidArgument);
  auto s_out = empty(ScalarType::Float, {2, 3});
  EXPECT_EQ(call_kernel("aten::scatter.value_out", {*a, 1, *g_index, 1.0, *s_out, *s_out}),
            Error::InvalidArgument);
  auto sel_out = empty(ScalarType::Float, {2});
  EXPECT_EQ(call_kernel("aten::select_copy.int_out", {*a, 1, -4, *sel_out, *sel_out}),
            Error::InvalidArgument);
  ASSERT_EQ(call_kernel("aten::select_copy.int_out", {*a, 1, -3, *sel_out, *sel_out}),
            Error::Ok);
  EXPECT_EQ(sel_out->values<float>(), (std::vector<float>{0, 3}));
  auto weight = tensor<float>(ScalarType::Float, {3, 2}, iota(6));
  auto e_idx = tensor<int64_t>(ScalarType::Long, {2}, {2, 3});
  auto e_out = empty(ScalarType::Float, {2, 2});
  EXPECT_EQ(call_kernel("aten::embedding.out", {*weight, *e_idx, -1, false, false, *e_out, *e_out}),
            Error::InvalidArgument);
}

// A hostile memory plan can place an index tensor in the output's memory:
// the indices pass the check, then the kernel's first writes change them
// (found by the bundled_program fuzzer in scatter.value). Each kernel must
// refuse the overlap before it writes.
struct Aliased {
  alignas(16) unsigned char bytes[256] = {};
  SizesType out_sizes[2] = {3, 4};
  SizesType index_sizes[2] = {3, 4};
  DimOrderType order[2] = {0, 1};
  StridesType out_strides[2] = {};
  StridesType index_strides[2] = {};
  TensorImpl out_impl{ScalarType::Float, 2, out_sizes, bytes, order, out_strides};
  TensorImpl index_impl{ScalarType::Long, 2, index_sizes, bytes, order, index_strides};
  Tensor out{&out_impl};
  Tensor index{&index_impl};
  Aliased() {
    int64_t* ix = reinterpret_cast<int64_t*>(bytes);
    for (int i = 0; i < 12; ++i) ix[i] = i % 3;  // valid for dim 0 of [3, 4]
  }
};

TEST(IndexUtil, IndexSharingTheOutputIsCaught) {
  // self: large floats, whose bytes read as int64 are far out of range.
  auto self = from_doubles(ScalarType::Float, {3, 4}, std::vector<double>(12, 1.0e30));
  {
    Aliased al;
    EXPECT_EQ(call_kernel("aten::scatter.value_out",
                          {*self, 0, al.index, 2.0, al.out, al.out}),
              Error::InvalidArgument);
    EXPECT_NE(std::string(last_error_message()).find("shares memory with the output"),
              std::string::npos)
        << last_error_message();
  }
  {
    Aliased al;
    EXPECT_EQ(call_kernel("aten::scatter.src_out",
                          {*self, 0, al.index, *self, al.out, al.out}),
              Error::InvalidArgument);
  }
  {
    Aliased al;
    EXPECT_EQ(call_kernel("aten::scatter_add.out",
                          {*self, 0, al.index, *self, al.out, al.out}),
              Error::InvalidArgument);
  }
  {
    Aliased al;
    EXPECT_EQ(call_kernel("aten::gather.out", {*self, 0, al.index, false, al.out, al.out}),
              Error::InvalidArgument);
  }
}

TEST(IndexUtil, IndexSelectEmbeddingAndIndexSharingTheOutput) {
  alignas(16) unsigned char bytes[256] = {};
  SizesType out_sizes[2] = {4, 4};
  SizesType index_sizes[1] = {4};
  DimOrderType order[2] = {0, 1};
  StridesType out_strides[2];
  StridesType index_strides[1];
  TensorImpl out_impl(ScalarType::Float, 2, out_sizes, bytes, order, out_strides);
  TensorImpl index_impl(ScalarType::Long, 1, index_sizes, bytes, order, index_strides);
  Tensor out(&out_impl), index(&index_impl);
  auto self = from_doubles(ScalarType::Float, {3, 4}, std::vector<double>(12, 1.0e30));
  auto fill = [&] {
    int64_t* ix = reinterpret_cast<int64_t*>(bytes);
    for (int i = 0; i < 4; ++i) ix[i] = i % 3;
  };
  fill();
  EXPECT_EQ(call_kernel("aten::index_select.out", {*self, 0, index, out, out}),
            Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("shares memory with the output"),
            std::string::npos)
      << last_error_message();
  fill();
  EXPECT_EQ(call_kernel("aten::embedding.out", {*self, index, -1, false, false, out, out}),
            Error::InvalidArgument);
  fill();
  // index.Tensor takes a list of optional tensors.
  EXPECT_EQ(call_kernel("aten::index.Tensor_out",
                        {*self, Arg::optional_tensors({index}), out, out}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
