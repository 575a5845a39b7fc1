// Data-movement and indexing kernels: what exported programs cannot
// express (out-of-range indices, bad split lists, bounded-dynamic outs,
// training-mode dropout) and the ops the exporter never emits directly.
#include <numeric>

#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

std::vector<float> iota(size_t n) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), 0.0f);
  return v;
}

TEST(IndexErrors, OutOfRangeIndicesFailCleanly) {
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

TEST(IndexAliasing, IndexSharingTheOutputIsCaught) {
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

TEST(IndexAliasing, IndexSelectAndEmbeddingSharingTheOutput) {
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
  // index.Tensor takes a list of optional tensors; built by hand as in
  // IndexTensor below.
  EValue idx_value(index);
  EValue* boxed[1] = {&idx_value};
  Optional<Tensor> scratch[1];
  std::vector<EValue> values = {EValue(self->tensor()),
                                EValue(BoxedList<Optional<Tensor>>(boxed, scratch, 1)),
                                EValue(out), EValue(out)};
  std::vector<EValue*> ptrs;
  for (EValue& v : values) ptrs.push_back(&v);
  OpFunction fn = find_kernel("aten::index", "Tensor_out");
  ASSERT_NE(fn, nullptr);
  std::vector<unsigned char> temp(4096);
  MemoryAllocator temp_allocator(temp.data(), temp.size());
  KernelContext ctx(&temp_allocator);
  fn(ctx, Span<EValue*>(ptrs.data(), ptrs.size()));
  EXPECT_EQ(ctx.failure(), Error::InvalidArgument);
}

TEST(IndexTensor, NegativeIndicesAndErrors) {
  auto a = tensor<float>(ScalarType::Float, {3, 2}, iota(6));
  auto idx = tensor<int64_t>(ScalarType::Long, {2}, {-1, 0});
  EValue idx_value(idx->tensor());
  EValue* boxed[1] = {&idx_value};
  Optional<Tensor> scratch[1];
  const EValue list(BoxedList<Optional<Tensor>>(boxed, scratch, 1));
  auto out = empty(ScalarType::Float, {2, 2});
  std::vector<EValue> values = {EValue(a->tensor()), list, EValue(out->tensor()),
                                EValue(out->tensor())};
  std::vector<EValue*> ptrs;
  for (EValue& v : values) ptrs.push_back(&v);
  OpFunction fn = find_kernel("aten::index", "Tensor_out");
  ASSERT_NE(fn, nullptr);
  std::vector<unsigned char> temp(4096);
  MemoryAllocator temp_allocator(temp.data(), temp.size());
  KernelContext ctx(&temp_allocator);
  fn(ctx, Span<EValue*>(ptrs.data(), ptrs.size()));
  ASSERT_EQ(ctx.failure(), Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{4, 5, 0, 1}));
  idx->data<int64_t>()[0] = 3;  // out of range
  KernelContext ctx2(&temp_allocator);
  fn(ctx2, Span<EValue*>(ptrs.data(), ptrs.size()));
  EXPECT_EQ(ctx2.failure(), Error::InvalidArgument);
}

TEST(Split, SizesMustSumAndMatchOutCount) {
  auto a = tensor<float>(ScalarType::Float, {2, 5}, iota(10));
  auto o1 = empty(ScalarType::Float, {2, 2});
  auto o2 = empty(ScalarType::Float, {2, 3});
  auto outs = Arg::tensors({o1->tensor(), o2->tensor()});
  ASSERT_EQ(call_kernel("aten::split_with_sizes_copy.out",
                        {*a, Arg::ints({2, 3}), -1, outs, outs}),
            Error::Ok);
  EXPECT_EQ(o2->values<float>(), (std::vector<float>{2, 3, 4, 7, 8, 9}));
  EXPECT_EQ(call_kernel("aten::split_with_sizes_copy.out",
                        {*a, Arg::ints({2, 2}), 1, outs, outs}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::split_copy.Tensor_out", {*a, 2, 1, outs, outs}),
            Error::InvalidArgument);  // makes 3 pieces, out has 2
}

TEST(Nonzero, ResizesWithinBoundAndFailsPastIt) {
  auto a = tensor<int32_t>(ScalarType::Int, {2, 2}, {0, 5, 7, 0});
  auto out = dynamic_out(ScalarType::Long, {4, 2});
  ASSERT_EQ(call_kernel("aten::nonzero.out", {*a, *out, *out}), Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 2}));
  EXPECT_EQ(out->values<int64_t>(), (std::vector<int64_t>{0, 1, 1, 0}));
  auto small = dynamic_out(ScalarType::Long, {1, 2});
  EXPECT_NE(call_kernel("aten::nonzero.out", {*a, *small, *small}), Error::Ok);
}

TEST(Dropout, TrainingModeIsRefused) {
  auto a = tensor<float>(ScalarType::Float, {2}, {1, 2});
  auto out = empty(ScalarType::Float, {2});
  auto mask = empty(ScalarType::Bool, {2});
  EXPECT_EQ(call_kernel("aten::native_dropout.out", {*a, 0.5, true, *out, *mask, *out, *mask}),
            Error::NotSupported);
  ASSERT_EQ(call_kernel("aten::native_dropout.out", {*a, 0.5, false, *out, *mask, *out, *mask}),
            Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 2}));
}

TEST(Creation, ZerosOnesEmptyArange) {
  auto z = empty(ScalarType::Int, {2, 2});
  ASSERT_EQ(call_kernel("aten::ones.out", {Arg::ints({2, 2}), *z, *z}), Error::Ok);
  EXPECT_EQ(z->values<int32_t>(), (std::vector<int32_t>{1, 1, 1, 1}));
  ASSERT_EQ(call_kernel("aten::zeros.out", {Arg::ints({2, 2}), *z, *z}), Error::Ok);
  EXPECT_EQ(z->values<int32_t>(), (std::vector<int32_t>{0, 0, 0, 0}));
  EXPECT_EQ(call_kernel("aten::empty.out", {Arg::ints({2, 2}), Arg::none(), *z, *z}), Error::Ok);
  auto r = empty(ScalarType::Float, {4});
  ASSERT_EQ(call_kernel("aten::arange.start_out", {0.5, 2.5, 0.5, *r, *r}), Error::Ok);
  EXPECT_EQ(r->values<float>(), (std::vector<float>{0.5f, 1.0f, 1.5f, 2.0f}));
  EXPECT_EQ(call_kernel("aten::arange.start_out", {0, 5, 0, *r, *r}), Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::arange.start_out", {5, 0, 1, *r, *r}), Error::InvalidArgument);
}

TEST(Quantize, RoundHalfEvenAndClamp) {
  auto x = tensor<float>(ScalarType::Float, {4}, {0.25f, 0.75f, 1000.0f, -1000.0f});
  auto q = empty(ScalarType::Char, {4});
  ASSERT_EQ(call_kernel("quantized_decomposed::quantize_per_tensor.out",
                        {*x, 0.5, 0, -128, 127, int64_t(ScalarType::Char), *q, *q}),
            Error::Ok);
  EXPECT_EQ(q->values<int8_t>(), (std::vector<int8_t>{0, 2, 127, -128}));
  // dtype argument must match out.
  EXPECT_EQ(call_kernel("quantized_decomposed::quantize_per_tensor.out",
                        {*x, 0.5, 0, 0, 255, int64_t(ScalarType::Byte), *q, *q}),
            Error::InvalidArgument);
}

// Accumulating into integers wraps like PyTorch's int64 add, never signed
// overflow (found by the bundled-program fuzzer under UBSan).
TEST(IndexAccumulate, IntegerSumsWrap) {
  auto self = tensor<int64_t>(ScalarType::Long, {2}, {INT64_MAX, INT64_MIN});
  auto src = tensor<int64_t>(ScalarType::Long, {2}, {1, -1});
  auto index = tensor<int64_t>(ScalarType::Long, {2}, {0, 1});
  auto out = empty(ScalarType::Long, {2});
  ASSERT_EQ(call_kernel("aten::scatter_add.out", {*self, 0, *index, *src, *out, *out}),
            Error::Ok);
  EXPECT_EQ(out->values<int64_t>(), (std::vector<int64_t>{INT64_MIN, INT64_MAX}));
  auto put = empty(ScalarType::Long, {2});
  ASSERT_EQ(call_kernel("aten::index_put.out",
                        {*self, Arg::optional_tensors({*index}), *src, true, *put, *put}),
            Error::Ok);
  EXPECT_EQ(put->values<int64_t>(), (std::vector<int64_t>{INT64_MIN, INT64_MAX}));
  auto small = tensor<int8_t>(ScalarType::Char, {1}, {127});
  auto one = tensor<int8_t>(ScalarType::Char, {1}, {1});
  auto zero = tensor<int64_t>(ScalarType::Long, {1}, {0});
  auto out8 = empty(ScalarType::Char, {1});
  ASSERT_EQ(call_kernel("aten::scatter_add.out", {*small, 0, *zero, *one, *out8, *out8}),
            Error::Ok);
  EXPECT_EQ(out8->values<int8_t>(), (std::vector<int8_t>{-128}));
}

// Integer arange whose end - start overflows int64 (and so does i * step):
// computed exactly, not with signed overflow.
TEST(Creation, ArangeIntegralRangeWiderThanInt64) {
  auto r = empty(ScalarType::Long, {3});
  ASSERT_EQ(call_kernel("aten::arange.start_out",
                        {INT64_MIN, INT64_MAX, INT64_MAX, *r, *r}),
            Error::Ok);
  EXPECT_EQ(r->values<int64_t>(), (std::vector<int64_t>{INT64_MIN, -1, INT64_MAX - 1}));
  auto one = empty(ScalarType::Long, {1});
  ASSERT_EQ(call_kernel("aten::arange.start_out", {0, -1, INT64_MIN, *one, *one}),
            Error::Ok);
  EXPECT_EQ(one->values<int64_t>(), (std::vector<int64_t>{0}));
  EXPECT_EQ(call_kernel("aten::arange.start_out", {INT64_MAX, INT64_MIN, 1, *r, *r}),
            Error::InvalidArgument);
}

// split_size near INT64_MAX (ceil division used to overflow), and split
// sizes whose running sum would overflow.
TEST(Split, HugeSplitSizes) {
  auto a = tensor<float>(ScalarType::Float, {2, 5}, iota(10));
  auto whole = empty(ScalarType::Float, {2, 5});
  auto one = Arg::tensors({whole->tensor()});
  ASSERT_EQ(call_kernel("aten::split_copy.Tensor_out", {*a, INT64_MAX, 1, one, one}),
            Error::Ok);
  EXPECT_EQ(whole->values<float>(), iota(10));
  auto o1 = empty(ScalarType::Float, {2, 1});
  auto o2 = empty(ScalarType::Float, {2, 4});
  auto two = Arg::tensors({o1->tensor(), o2->tensor()});
  EXPECT_EQ(call_kernel("aten::split_with_sizes_copy.out",
                        {*a, Arg::ints({1, INT64_MAX}), 1, two, two}),
            Error::InvalidArgument);
}

// A zero point at INT64_MIN: q - zp wraps like PyTorch's int64 subtraction
// instead of overflowing.
TEST(Quantize, DequantizePerChannelExtremeZeroPoint) {
  auto q = tensor<int8_t>(ScalarType::Char, {2}, {1, -1});
  auto scales = tensor<float>(ScalarType::Float, {2}, {1.0f, 2.0f});
  auto zps = tensor<int64_t>(ScalarType::Long, {2}, {INT64_MIN, 0});
  auto out = empty(ScalarType::Float, {2});
  ASSERT_EQ(call_kernel("quantized_decomposed::dequantize_per_channel.out",
                        {*q, *scales, *zps, 0, -128, 127, int64_t(ScalarType::Char),
                         Arg::none(), *out, *out}),
            Error::Ok);
  EXPECT_EQ(out->values<float>(),
            (std::vector<float>{float(INT64_MIN + 1), -2.0f}));
}

}  // namespace
}  // namespace ember::testing
