// Reductions over any set of dims (shaders/reduce.comp, one invocation per
// output element):
//   aten.mean.dim(x, dims?, keepdim, dtype?, out)
//   aten.sum.dim_IntList(x, dims?, keepdim, dtype?, out)
//   aten.amax.default(x, dims, keepdim, out)
//   aten.amin.default(x, dims, keepdim, out)
//   aten.argmax.default / aten.argmin.default(x, dim?, keepdim, out): the
//     first index of the extreme along dim (of the flattened input when dim
//     is null), an int output.
// A null or empty dim list reduces every dim (as PyTorch does). Float
// inputs only (dtype, when given, must leave the output float).
#include <vector>

#include "backends/vulkan/ops/vk_ops.h"
#include "backends/vulkan/ops/vk_op_util.h"

namespace ember::vulkan {
namespace {

enum ReduceCode : uint32_t {
  kSum = 0, kMean = 1, kAmax = 2, kAmin = 3, kArgmax = 4, kArgmin = 5,
};

struct ReducePush {
  uint32_t total;
  uint32_t rank;
  uint32_t count;
  uint32_t code;
  uint32_t mask;
  uint32_t sizes[kMaxRank];
};
static_assert(sizeof(ReducePush) <= kMaxPush, "push constants");

constexpr int64_t kMaxElems = int64_t(1) << 31;

// The dispatch reducing `in` over `dims` (every dim when empty) into `out`.
Error add_reduce(Builder& b, ReduceCode code, const std::vector<int64_t>& dims, bool keepdim) {
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &in));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, &out));
  const bool index_out = code == kArgmax || code == kArgmin;
  if (!device_float(in->dtype)) return b.unsupported("a non-float input");
  if (device_float(out->dtype) == index_out) {
    return b.unsupported(index_out ? "a float index output" : "a non-float output");
  }
  for (const TensorDesc* t : {in, out}) {
    if (t->numel >= kMaxElems) return b.unsupported("a tensor of 2^31 or more elements");
  }
  uint32_t mask = 0;
  for (int64_t dim : dims) {
    uint32_t d = 0;
    EMBER_RETURN_IF_ERROR(normalize_dim(b, dim, in->rank, &d));
    if (in->rank == 0) continue;
    if ((mask >> d) & 1u) return b.invalid("a dim listed twice");
    mask |= 1u << d;
  }
  if (dims.empty()) mask = in->rank == 0 ? 0u : (1u << in->rank) - 1u;
  ReducePush p{};
  p.rank = in->rank;
  p.code = code;
  p.mask = mask;
  int64_t count = 1;
  int64_t total = 1;
  std::vector<int64_t> expect;  // the output's shape
  for (uint32_t d = 0; d < in->rank; ++d) {
    p.sizes[d] = uint32_t(in->sizes[d]);
    if ((mask >> d) & 1u) {
      count *= in->sizes[d];
      if (keepdim) expect.push_back(1);
    } else {
      total *= in->sizes[d];
      expect.push_back(in->sizes[d]);
    }
  }
  bool shape_ok = out->rank == expect.size();
  for (uint32_t d = 0; shape_ok && d < out->rank; ++d) shape_ok = out->sizes[d] == expect[d];
  if (!shape_ok) return b.invalid("an output shape that does not match the reduction");
  if (count == 0 && total > 0 && code >= kAmax) {
    return b.invalid("amax/amin/argmax/argmin over an empty dim");
  }
  p.total = uint32_t(total);
  p.count = uint32_t(count);
  return b.dispatch("reduce", {b.arg_id(0), b.arg_id(b.num_args() - 1)}, &p, sizeof(p),
                    uint64_t(total));
}

// mean / sum (x, dims?, keepdim, dtype?, out) and amax / amin (x, dims,
// keepdim, out). A dtype, when given, is checked through the output's.
Error build_dims_reduce(Builder& b, ReduceCode code, bool has_dtype) {
  EMBER_RETURN_IF_ERROR(b.expect_args(has_dtype ? 5 : 4));
  std::vector<int64_t> dims;
  bool keepdim = false;
  if (!b.is_null(1)) EMBER_RETURN_IF_ERROR(b.int_list_arg(1, &dims));
  EMBER_RETURN_IF_ERROR(b.bool_arg(2, &keepdim));
  return add_reduce(b, code, dims, keepdim);
}

// argmax / argmin (x, dim?, keepdim, out)
Error build_arg_reduce(Builder& b, ReduceCode code) {
  EMBER_RETURN_IF_ERROR(b.expect_args(4));
  std::vector<int64_t> dims;
  bool keepdim = false;
  if (!b.is_null(1)) {
    int64_t dim = 0;
    EMBER_RETURN_IF_ERROR(b.int_arg(1, &dim));
    dims.push_back(dim);
  }
  EMBER_RETURN_IF_ERROR(b.bool_arg(2, &keepdim));
  return add_reduce(b, code, dims, keepdim);
}

Error build_mean(Builder& b) { return build_dims_reduce(b, kMean, true); }
Error build_sum(Builder& b) { return build_dims_reduce(b, kSum, true); }
Error build_amax(Builder& b) { return build_dims_reduce(b, kAmax, false); }
Error build_amin(Builder& b) { return build_dims_reduce(b, kAmin, false); }
Error build_argmax(Builder& b) { return build_arg_reduce(b, kArgmax); }
Error build_argmin(Builder& b) { return build_arg_reduce(b, kArgmin); }

const OpEntry kRows[] = {
    {"aten.mean.dim", build_mean},
    {"aten.sum.dim_IntList", build_sum},
    {"aten.amax.default", build_amax},
    {"aten.amin.default", build_amin},
    {"aten.argmax.default", build_argmax},
    {"aten.argmin.default", build_argmin},
};

}  // namespace

OpFamily reduce_ops() { return {kRows, sizeof(kRows) / sizeof(kRows[0])}; }

}  // namespace ember::vulkan
