// Small helpers the operator builders share, and the checked arithmetic
// every builder uses on what a blob controls.
//
// Tensor dims are bounded at parse (vk_graph.cpp: each at most 2^31, the
// product of the non-zero dims at most 2^40, so products of a tensor's own
// dims and its contiguous strides fit int64). Int, IntList and Double
// arguments are not bounded at all (INT64_MIN, NaN, infinities): a builder
// combines them with dims only through these helpers, which fail with a
// message (Builder::invalid) where plain arithmetic or a conversion would
// overflow.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backends/vulkan/vk_builder.h"

namespace ember::vulkan {

// Strides (elements) to read `in` at each index of `out`, `in` aligned to
// `out`'s trailing dims and broadcast (stride 0) where its size is 1.
// InvalidProgram when the shapes do not broadcast.
Error broadcast_strides(const Builder& b, const TensorDesc& in, const TensorDesc& out,
                        uint32_t* strides);

// A dim argument in [-rank, rank) made non-negative; InvalidProgram outside.
Error normalize_dim(const Builder& b, int64_t dim, uint32_t rank, uint32_t* out);

// The bound on every count, offset and stride a builder computes: far over
// any tensor a device holds (vk_graph.cpp bounds numel to 2^40 too), far
// under int64's range, so that sums and products of two bounded values
// never overflow.
constexpr int64_t kMaxExtent = int64_t(1) << 40;

// a * b and a + b into *out; false (and *out untouched) when the exact
// result leaves [-kMaxExtent, kMaxExtent]. Any int64 operands are fine.
bool checked_mul(int64_t a, int64_t b, int64_t* out);
bool checked_add(int64_t a, int64_t b, int64_t* out);

// The same, failing with InvalidProgram naming `what`.
Error mul_or_fail(const Builder& b, int64_t x, int64_t y, const char* what, int64_t* out);
Error add_or_fail(const Builder& b, int64_t x, int64_t y, const char* what, int64_t* out);

// The product of v[0..n) (1 when n is 0); InvalidProgram naming `what` when
// a partial product leaves [-kMaxExtent, kMaxExtent]. A zero anywhere makes
// the product 0 even if the other factors are huge.
Error checked_product(const Builder& b, const int64_t* v, size_t n, const char* what,
                      int64_t* out);

// InvalidProgram unless `t` keeps the bounds parse_graph sets (each dim in
// [0, 2^31], the product of the non-zero dims at most kMaxExtent). Shapes
// propagated at run time (vk_shapes.h) must keep them too; the tensor
// readers of Builder check every tensor they hand out with this.
Error check_tensor_extent(const Builder& b, const TensorDesc& t);

// InvalidProgram naming `what` unless lo <= v <= hi.
Error check_range(const Builder& b, int64_t v, int64_t lo, int64_t hi, const char* what);

// `d` as a float: values beyond float's range become +-infinity (rather
// than an undefined conversion), NaN stays NaN.
float to_float(double d);

// `d` truncated toward zero to an int32; InvalidProgram naming `what` when
// it is NaN or the result is outside int32.
Error to_int32(const Builder& b, double d, const char* what, int32_t* out);

}  // namespace ember::vulkan
