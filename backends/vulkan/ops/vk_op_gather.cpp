// Gathers, fills and selection: embedding, index_select and a single 1-d
// index.Tensor (shaders/embedding.comp: rows picked by an index tensor),
// gather (shaders/gather.comp), full / full_like / zeros / ones /
// zeros_like / ones_like / scalar_tensor and arange.start_step
// (shaders/fill.comp), and where.self with broadcasting
// (shaders/where.comp).
#include <cmath>
#include <cstring>
#include <vector>

#include "backends/vulkan/ops/vk_op_util.h"
#include "backends/vulkan/ops/vk_ops.h"

namespace ember::vulkan {
namespace {

// ------------------------------------------------------------ row gathers

struct RowsPush {
  uint32_t total;
  uint32_t inner;
  uint32_t n;
  uint32_t rows;
  uint32_t flags;  // 1: negative indices count from the end
};
static_assert(sizeof(RowsPush) <= kMaxPush, "push constants");

// out viewed as [outer, n, inner] from src viewed as [outer, rows, inner].
Error gather_rows(Builder& b, int32_t src_id, int32_t idx_id, const TensorDesc& src,
                  const TensorDesc& idx, const TensorDesc& out, uint32_t dim, bool wrap) {
  if (device_float(idx.dtype)) return b.invalid("a floating index tensor");
  if (device_float(src.dtype) != device_float(out.dtype)) {
    return b.unsupported("an output of another element kind than the source");
  }
  const char* wrong_out = "an output of another size";
  int64_t inner = 0, outer = 0, count = 0;
  EMBER_RETURN_IF_ERROR(checked_product(b, src.sizes + dim + 1, src.rank - dim - 1, wrong_out,
                                        &inner));
  EMBER_RETURN_IF_ERROR(checked_product(b, src.sizes, dim, wrong_out, &outer));
  const int64_t factors[3] = {inner, idx.numel, outer};
  EMBER_RETURN_IF_ERROR(checked_product(b, factors, 3, wrong_out, &count));
  if (count != out.numel) return b.invalid(wrong_out);
  if (inner == 0 || idx.numel == 0) return Error::Ok;  // an empty output
  RowsPush p{};
  p.total = uint32_t(out.numel);
  p.inner = uint32_t(inner);
  p.n = uint32_t(idx.numel);
  p.rows = uint32_t(src.sizes[dim]);
  p.flags = wrap ? 1u : 0u;
  return b.dispatch("embedding", {src_id, idx_id, b.arg_id(b.num_args() - 1)}, &p, sizeof(p),
                    uint64_t(out.numel));
}

// embedding(weight [V, D], indices (any shape), padding_idx, scale_grad,
// sparse, out [..., D])
Error build_embedding(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(3));
  const TensorDesc* weight = nullptr;
  const TensorDesc* idx = nullptr;
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &weight));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(1, &idx));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, &out));
  if (weight->rank != 2) return b.invalid("a weight that is not 2-d");
  if (out->rank != idx->rank + 1 || out->sizes[out->rank - 1] != weight->sizes[1]) {
    return b.invalid("an output other than the indices' shape plus the embedding size");
  }
  for (uint32_t d = 0; d < idx->rank; ++d) {
    if (out->sizes[d] != idx->sizes[d]) return b.invalid("an output of another shape");
  }
  return gather_rows(b, b.arg_id(0), b.arg_id(1), *weight, *idx, *out, 0, false);
}

// index_select(in, dim, index (1-d), out)
Error build_index_select(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(4));
  const TensorDesc* in = nullptr;
  const TensorDesc* idx = nullptr;
  const TensorDesc* out = nullptr;
  int64_t dim = 0;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &in));
  EMBER_RETURN_IF_ERROR(b.int_arg(1, &dim));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(2, &idx));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, &out));
  if (idx->rank > 1) return b.invalid("an index of more than 1 dim");
  if (in->rank == 0) return b.unsupported("index_select of a 0-d tensor");
  uint32_t d = 0;
  EMBER_RETURN_IF_ERROR(normalize_dim(b, dim, in->rank, &d));
  bool ok = out->rank == in->rank;
  for (uint32_t k = 0; ok && k < in->rank; ++k) {
    ok = out->sizes[k] == (k == d ? idx->numel : in->sizes[k]);
  }
  if (!ok) return b.invalid("an output of another shape");
  return gather_rows(b, b.arg_id(0), b.arg_id(2), *in, *idx, *out, d, false);
}

// index.Tensor(in, [None.., index, None..], out): one 1-d index tensor.
Error build_index_tensor(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(3));
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &in));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, &out));
  const Value& list = b.value(b.arg_id(1));
  if (list.kind != ValueKind::ValueList) return b.invalid("indices that are not a list");
  int32_t idx_id = -1;
  uint32_t dim = 0;
  for (size_t k = 0; k < list.items.size(); ++k) {
    const Value& v = b.value(list.items[k]);
    if (v.kind == ValueKind::Null) continue;
    if (v.kind != ValueKind::Tensor) return b.invalid("an index that is not a tensor");
    if (idx_id >= 0) return b.unsupported("more than one index tensor");
    idx_id = list.items[k];
    dim = uint32_t(k);
  }
  if (idx_id < 0) return b.unsupported("an index list without a tensor");
  if (dim >= in->rank) return b.invalid("more indices than dims");
  const TensorDesc& idx = b.value(idx_id).tensor;
  EMBER_RETURN_IF_ERROR(check_tensor_extent(b, idx));
  if (idx.rank != 1) return b.unsupported("an index tensor of other than 1 dim");
  if (idx.dtype == DType::Bool || idx.dtype == DType::UInt8) {
    return b.unsupported("a boolean mask index");
  }
  bool ok = out->rank == in->rank;
  for (uint32_t k = 0; ok && k < in->rank; ++k) {
    ok = out->sizes[k] == (k == dim ? idx.numel : in->sizes[k]);
  }
  if (!ok) return b.invalid("an output of another shape");
  return gather_rows(b, b.arg_id(0), idx_id, *in, idx, *out, dim, true);
}

// gather(in, dim, index, sparse_grad, out)
struct GatherPush {
  uint32_t total;
  uint32_t rank;
  uint32_t dim;
  uint32_t dim_size;
  uint32_t sizes[kMaxRank];
  uint32_t src_strides[kMaxRank];
};
static_assert(sizeof(GatherPush) <= kMaxPush, "push constants");

Error build_gather(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(4));
  const TensorDesc* in = nullptr;
  const TensorDesc* idx = nullptr;
  const TensorDesc* out = nullptr;
  int64_t dim = 0;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &in));
  EMBER_RETURN_IF_ERROR(b.int_arg(1, &dim));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(2, &idx));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, &out));
  if (device_float(idx->dtype)) return b.invalid("a floating index tensor");
  if (device_float(in->dtype) != device_float(out->dtype)) {
    return b.unsupported("an output of another element kind than the source");
  }
  const uint32_t rank = in->rank == 0 ? 1 : in->rank;
  uint32_t d = 0;
  EMBER_RETURN_IF_ERROR(normalize_dim(b, dim, in->rank, &d));
  if (idx->rank != in->rank || out->rank != in->rank) {
    return b.invalid("an index or output of another rank than the input");
  }
  GatherPush p{};
  int64_t ic[kMaxRank];
  contiguous_strides(*in, ic);
  for (uint32_t k = 0; k < in->rank; ++k) {
    if (out->sizes[k] != idx->sizes[k]) return b.invalid("an output unlike the index");
    if (k != d && idx->sizes[k] > in->sizes[k]) return b.invalid("an index larger than the input");
    p.sizes[k] = uint32_t(idx->sizes[k]);
    p.src_strides[k] = uint32_t(ic[k]);
  }
  if (in->rank == 0) {
    p.sizes[0] = 1;
    p.src_strides[0] = 1;
  }
  p.total = uint32_t(out->numel);
  p.rank = rank;
  p.dim = d;
  p.dim_size = uint32_t(in->rank == 0 ? 1 : in->sizes[d]);
  return b.dispatch("gather", {b.arg_id(0), b.arg_id(2), b.arg_id(b.num_args() - 1)}, &p,
                    sizeof(p), uint64_t(out->numel));
}

// ------------------------------------------------------------ fills

struct FillPush {
  uint32_t total;
  uint32_t mode;  // as shaders/fill.comp: 0 constant, 1 float range, 2 int range
  uint32_t value;
  uint32_t step;
};
static_assert(sizeof(FillPush) <= kMaxPush, "push constants");

// The bits of `v` as an element of `t` on the device: a float (beyond
// float's range, an infinity), or an int32 truncated toward zero
// (InvalidProgram for NaN or outside int32), or a bool (v != 0).
Error element_bits(const Builder& b, const TensorDesc& t, double v, uint32_t* bits) {
  if (device_float(t.dtype)) {
    const float f = to_float(v);
    std::memcpy(bits, &f, 4);
    return Error::Ok;
  }
  int32_t i = int32_t(v != 0);
  if (t.dtype != DType::Bool) {
    EMBER_RETURN_IF_ERROR(to_int32(b, v, "an integer value that is NaN or outside int32", &i));
  }
  std::memcpy(bits, &i, 4);
  return Error::Ok;
}

Error fill_with(Builder& b, const TensorDesc& out, double value) {
  if (!device_float(out.dtype) && (value < -2147483648.0 || value > 2147483647.0)) {
    return b.unsupported("an integer fill value outside int32");
  }
  FillPush p{};
  p.total = uint32_t(out.numel);
  p.mode = 0;
  EMBER_RETURN_IF_ERROR(element_bits(b, out, value, &p.value));
  return b.dispatch("fill", {b.arg_id(b.num_args() - 1)}, &p, sizeof(p), uint64_t(out.numel));
}

// The output must have the shape in the size list (arg 0).
Error check_size_list(Builder& b, const TensorDesc& out) {
  std::vector<int64_t> sizes;
  EMBER_RETURN_IF_ERROR(b.int_list_arg(0, &sizes));
  bool ok = sizes.size() == out.rank;
  for (uint32_t d = 0; ok && d < out.rank; ++d) ok = sizes[d] == out.sizes[d];
  return ok ? Error::Ok : b.invalid("an output other than the size list");
}

// The output must have the shape of the input (arg 0).
Error check_like(Builder& b, const TensorDesc& out) {
  const TensorDesc* in = nullptr;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &in));
  bool ok = in->rank == out.rank;
  for (uint32_t d = 0; ok && d < out.rank; ++d) ok = in->sizes[d] == out.sizes[d];
  return ok ? Error::Ok : b.invalid("an output other than the input's shape");
}

// full(size, value, ...) and full_like(in, value, ...).
Error build_full(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(3));
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, &out));
  const bool like = std::strcmp(b.op().name.c_str(), "aten.full_like.default") == 0;
  EMBER_RETURN_IF_ERROR(like ? check_like(b, *out) : check_size_list(b, *out));
  double value = 0;
  EMBER_RETURN_IF_ERROR(b.double_arg(1, &value));
  return fill_with(b, *out, value);
}

// zeros / ones (size, ...) and zeros_like / ones_like (in, ...).
Error build_zeros_ones(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(2));
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, &out));
  const std::string& name = b.op().name;
  const bool like = name.find("_like") != std::string::npos;
  EMBER_RETURN_IF_ERROR(like ? check_like(b, *out) : check_size_list(b, *out));
  return fill_with(b, *out, name.rfind("aten.ones", 0) == 0 ? 1.0 : 0.0);
}

// scalar_tensor(value, ...): a 0-d (or one-element) tensor.
Error build_scalar_tensor(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(2));
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, &out));
  if (out->numel != 1) return b.invalid("an output of more than one element");
  double value = 0;
  EMBER_RETURN_IF_ERROR(b.double_arg(0, &value));
  return fill_with(b, *out, value);
}

// arange.start_step(start, end, step, ...): ceil((end - start) / step)
// values start + i * step.
Error build_arange(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(4));
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, &out));
  double start = 0, end = 0, step = 1;
  EMBER_RETURN_IF_ERROR(b.double_arg(0, &start));
  EMBER_RETURN_IF_ERROR(b.double_arg(1, &end));
  if (!b.is_null(2)) EMBER_RETURN_IF_ERROR(b.double_arg(2, &step));
  if (step == 0 || !std::isfinite(start) || !std::isfinite(end) || !std::isfinite(step)) {
    return b.invalid("a zero or non-finite range");
  }
  const double count = std::ceil((end - start) / step);
  if (out->rank != 1 || double(out->numel) != (count < 0 ? 0 : count)) {
    return b.invalid("an output other than the range's length");
  }
  FillPush p{};
  p.total = uint32_t(out->numel);
  if (device_float(out->dtype)) {
    p.mode = 1;
  } else {
    if (start != std::floor(start) || step != std::floor(step)) {
      return b.unsupported("an integer range with fractional start or step");
    }
    const double last = start + step * (count - 1);
    if (std::fabs(start) > 2147483647.0 || std::fabs(last) > 2147483647.0) {
      return b.unsupported("an integer range outside int32");
    }
    p.mode = 2;
  }
  EMBER_RETURN_IF_ERROR(element_bits(b, *out, start, &p.value));
  EMBER_RETURN_IF_ERROR(element_bits(b, *out, step, &p.step));
  return b.dispatch("fill", {b.arg_id(b.num_args() - 1)}, &p, sizeof(p), uint64_t(out->numel));
}

// ------------------------------------------------------------ where

struct WherePush {
  uint32_t total;
  uint32_t rank;
  uint32_t flags;  // 1: a is int, 2: b is int, 4: out is int, 8: cond is float
  uint32_t pad;
  uint32_t sizes[6];
  uint32_t c_strides[6];
  uint32_t a_strides[6];
  uint32_t b_strides[6];
};
static_assert(sizeof(WherePush) <= kMaxPush, "push constants");

// where.self(cond, a, b, out)
Error build_where(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(4));
  const TensorDesc* t[3] = {};
  const TensorDesc* out = nullptr;
  for (size_t k = 0; k < 3; ++k) EMBER_RETURN_IF_ERROR(b.tensor_arg(k, &t[k]));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, &out));
  uint32_t strides[3][kMaxRank] = {};
  for (size_t k = 0; k < 3; ++k) {
    EMBER_RETURN_IF_ERROR(broadcast_strides(b, *t[k], *out, strides[k]));
  }
  // Leading dims of size 1 carry no coordinate: drop them.
  uint32_t first = 0;
  while (first < out->rank && out->sizes[first] == 1) ++first;
  if (out->rank - first > 6) return b.unsupported("where over more than 6 dims");
  WherePush p{};
  p.total = uint32_t(out->numel);
  p.rank = out->rank - first;
  for (uint32_t d = first; d < out->rank; ++d) {
    p.sizes[d - first] = uint32_t(out->sizes[d]);
    p.c_strides[d - first] = strides[0][d];
    p.a_strides[d - first] = strides[1][d];
    p.b_strides[d - first] = strides[2][d];
  }
  if (device_float(t[0]->dtype)) p.flags |= 8u;
  if (!device_float(t[1]->dtype)) p.flags |= 1u;
  if (!device_float(t[2]->dtype)) p.flags |= 2u;
  if (!device_float(out->dtype)) p.flags |= 4u;
  if (out->dtype == DType::Bool && (device_float(t[1]->dtype) || device_float(t[2]->dtype))) {
    return b.unsupported("a bool result from floating operands");
  }
  return b.dispatch("where", {b.arg_id(0), b.arg_id(1), b.arg_id(2), b.arg_id(b.num_args() - 1)},
                    &p, sizeof(p), uint64_t(out->numel));
}

const OpEntry kRows[] = {
    {"aten.embedding.default", build_embedding},
    {"aten.index_select.default", build_index_select},
    {"aten.index.Tensor", build_index_tensor},
    {"aten.gather.default", build_gather},
    {"aten.full.default", build_full},
    {"aten.full_like.default", build_full},
    {"aten.zeros.default", build_zeros_ones},
    {"aten.ones.default", build_zeros_ones},
    {"aten.zeros_like.default", build_zeros_ones},
    {"aten.ones_like.default", build_zeros_ones},
    {"aten.scalar_tensor.default", build_scalar_tensor},
    {"aten.arange.start_step", build_arange},
    {"aten.where.self", build_where},
};

}  // namespace

OpFamily gather_ops() { return {kRows, sizeof(kRows) / sizeof(kRows[0])}; }

}  // namespace ember::vulkan
