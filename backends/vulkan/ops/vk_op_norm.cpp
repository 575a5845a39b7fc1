// Normalizations and softmax, one invocation per normalized row:
//   aten.native_layer_norm.default(input, normalized_shape, weight?, bias?,
//     eps, (out, mean, rstd)): the outputs come as a ValueList (or as three
//     trailing tensors); mean and rstd are [outer..., 1, ...] with one
//     element per row (shaders/norm.comp);
//   aten.native_group_norm.default(input [N, C, *], weight?, bias?, N, C,
//     HxW, group, eps, (out, mean, rstd)): each (sample, group) block of
//     C / group channels normalized, weight and bias per channel
//     (shaders/norm.comp);
//   et_vk.rms_norm.default(x, weight [N], eps, out): over the last dim
//     (shaders/norm.comp);
//   aten._softmax.default / aten._log_softmax.default(x, dim, half_to_float,
//     out): along any dim (shaders/softmax.comp). half_to_float changes only
//     the output's dtype, which is float32 on the device either way.
// Float tensors only.
#include <cmath>
#include <vector>

#include "backends/vulkan/ops/vk_ops.h"
#include "backends/vulkan/ops/vk_op_util.h"

namespace ember::vulkan {
namespace {

struct NormPush {
  uint32_t rows;
  uint32_t len;
  float eps;
  uint32_t flags;
  uint32_t groups;  // group norm only
  uint32_t hw;      // group norm only
};
static_assert(sizeof(NormPush) <= kMaxPush, "push constants");

enum NormFlags : uint32_t {
  kWeight = 1, kBias = 2, kWriteMean = 4, kWriteRstd = 8, kRms = 16, kGroup = 32,
};

struct SoftmaxPush {
  uint32_t rows;
  uint32_t len;
  uint32_t inner;
  uint32_t log_softmax;
};
static_assert(sizeof(SoftmaxPush) <= kMaxPush, "push constants");

constexpr int64_t kMaxElems = int64_t(1) << 31;

Error check_float(const Builder& b, const TensorDesc* t) {
  if (t == nullptr) return Error::Ok;
  if (!device_float(t->dtype)) return b.unsupported("a non-float tensor");
  if (t->numel >= kMaxElems) return b.unsupported("a tensor of 2^31 or more elements");
  return Error::Ok;
}

bool same_shape(const TensorDesc& a, const TensorDesc& b) {
  if (a.rank != b.rank) return false;
  for (uint32_t d = 0; d < a.rank; ++d) {
    if (a.sizes[d] != b.sizes[d]) return false;
  }
  return true;
}

Error check_eps(const Builder& b, double eps) {
  if (!std::isfinite(eps) || eps < 0) return b.invalid("eps that is negative or not finite");
  return Error::Ok;
}

// The outputs of layer / group norm from argument `first` on: a ValueList
// of (out, mean?, rstd?) or trailing tensors; -1 for a null mean or rstd.
Error norm_outputs(const Builder& b, size_t first, std::vector<int32_t>* outs) {
  outs->clear();
  if (b.value(b.arg_id(first)).kind == ValueKind::ValueList) {
    for (int32_t id : b.value(b.arg_id(first)).items) {
      const ValueKind k = b.value(id).kind;
      if (k == ValueKind::Tensor) {
        EMBER_RETURN_IF_ERROR(check_tensor_extent(b, b.value(id).tensor));
        outs->push_back(id);
      } else if (k == ValueKind::Null) {
        outs->push_back(-1);
      } else {
        return b.invalid("an output list with a value that is not a tensor");
      }
    }
  } else {
    for (size_t i = first; i < b.num_args(); ++i) {
      const TensorDesc* t = nullptr;
      EMBER_RETURN_IF_ERROR(b.tensor_arg(i, &t));
      outs->push_back(b.arg_id(i));
    }
  }
  if (outs->empty() || (*outs)[0] < 0 || outs->size() > 3) {
    return b.invalid("outputs other than (out, mean?, rstd?)");
  }
  return Error::Ok;
}

// Binds the mean and rstd outputs (one element per row) that are present.
Error bind_stats(const Builder& b, const std::vector<int32_t>& outs, NormPush* p,
                 int32_t* ids) {
  for (size_t k = 1; k < outs.size(); ++k) {
    if (outs[k] < 0) continue;
    const TensorDesc& t = b.value(outs[k]).tensor;
    EMBER_RETURN_IF_ERROR(check_float(b, &t));
    if (t.numel != int64_t(p->rows)) return b.invalid("a mean or rstd output of another size");
    ids[3 + k] = outs[k];
    p->flags |= k == 1 ? kWriteMean : kWriteRstd;
  }
  return Error::Ok;
}

// aten.native_layer_norm.default(input, normalized_shape, weight?, bias?,
// eps, outputs)
Error build_layer_norm(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(6));
  const TensorDesc* in = nullptr;
  std::vector<int64_t> shape;
  const TensorDesc* w = nullptr;
  const TensorDesc* bias = nullptr;
  double eps = 0;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &in));
  EMBER_RETURN_IF_ERROR(b.int_list_arg(1, &shape));
  if (!b.is_null(2)) EMBER_RETURN_IF_ERROR(b.tensor_arg(2, &w));
  if (!b.is_null(3)) EMBER_RETURN_IF_ERROR(b.tensor_arg(3, &bias));
  EMBER_RETURN_IF_ERROR(b.double_arg(4, &eps));
  EMBER_RETURN_IF_ERROR(check_eps(b, eps));
  std::vector<int32_t> outs;
  EMBER_RETURN_IF_ERROR(norm_outputs(b, 5, &outs));
  const TensorDesc& out = b.value(outs[0]).tensor;
  for (const TensorDesc* t : {in, w, bias, &out}) EMBER_RETURN_IF_ERROR(check_float(b, t));
  if (!same_shape(*in, out)) return b.invalid("an output of another shape than the input");
  if (shape.empty() || shape.size() > in->rank) {
    return b.invalid("a normalized_shape longer than the input's shape, or empty");
  }
  int64_t len = 1;
  const uint32_t lead = in->rank - uint32_t(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] != in->sizes[lead + i]) {
      return b.invalid("a normalized_shape other than the input's trailing dims");
    }
  }
  EMBER_RETURN_IF_ERROR(checked_product(b, in->sizes + lead, shape.size(),
                                        "a normalized_shape too large", &len));
  if (len == 0) return b.unsupported("an empty normalized shape");
  for (const TensorDesc* t : {w, bias}) {
    if (t != nullptr && t->numel != len) return b.invalid("a weight or bias of another size");
  }
  NormPush p{};
  p.rows = uint32_t(in->numel / len);
  p.len = uint32_t(len);
  p.eps = to_float(eps);
  p.flags = (w != nullptr ? kWeight : 0u) | (bias != nullptr ? kBias : 0u);
  int32_t ids[6] = {b.arg_id(0), b.arg_id(0), b.arg_id(0), outs[0], outs[0], outs[0]};
  if (w != nullptr) ids[1] = b.arg_id(2);
  if (bias != nullptr) ids[2] = b.arg_id(3);
  EMBER_RETURN_IF_ERROR(bind_stats(b, outs, &p, ids));
  return b.dispatch("norm", std::vector<int32_t>(ids, ids + 6), &p, sizeof(p), p.rows);
}

// aten.native_group_norm.default(input [N, C, *], weight [C]?, bias [C]?, N,
// C, HxW, group, eps, (out, mean [N, group], rstd [N, group]))
Error build_group_norm(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(9));
  const TensorDesc* in = nullptr;
  const TensorDesc* w = nullptr;
  const TensorDesc* bias = nullptr;
  int64_t n = 0, c = 0, hw = 0, groups = 0;
  double eps = 0;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &in));
  if (!b.is_null(1)) EMBER_RETURN_IF_ERROR(b.tensor_arg(1, &w));
  if (!b.is_null(2)) EMBER_RETURN_IF_ERROR(b.tensor_arg(2, &bias));
  EMBER_RETURN_IF_ERROR(b.int_arg(3, &n));
  EMBER_RETURN_IF_ERROR(b.int_arg(4, &c));
  EMBER_RETURN_IF_ERROR(b.int_arg(5, &hw));
  EMBER_RETURN_IF_ERROR(b.int_arg(6, &groups));
  EMBER_RETURN_IF_ERROR(b.double_arg(7, &eps));
  EMBER_RETURN_IF_ERROR(check_eps(b, eps));
  std::vector<int32_t> outs;
  EMBER_RETURN_IF_ERROR(norm_outputs(b, 8, &outs));
  const TensorDesc& out = b.value(outs[0]).tensor;
  for (const TensorDesc* t : {in, w, bias, &out}) EMBER_RETURN_IF_ERROR(check_float(b, t));
  if (!same_shape(*in, out)) return b.invalid("an output of another shape than the input");
  const char* mismatch = "N, C and HxW that do not match the input";
  if (in->rank < 2 || in->sizes[0] != n || in->sizes[1] != c) return b.invalid(mismatch);
  // HxW alone is bounded too: with N == 0 the product does not bound it.
  EMBER_RETURN_IF_ERROR(check_range(b, hw, 0, kMaxExtent, mismatch));
  const int64_t nchw[3] = {n, c, hw};
  int64_t numel = 0;
  EMBER_RETURN_IF_ERROR(checked_product(b, nchw, 3, mismatch, &numel));
  if (numel != in->numel) return b.invalid(mismatch);
  if (groups <= 0 || c % groups != 0) return b.invalid("channels not divisible by the groups");
  if (hw == 0 || c == 0) return b.unsupported("an empty group");
  for (const TensorDesc* t : {w, bias}) {
    if (t != nullptr && t->numel != c) return b.invalid("a weight or bias that is not [C]");
  }
  NormPush p{};
  int64_t len = 0;  // bounded by the check above only when N > 0
  EMBER_RETURN_IF_ERROR(mul_or_fail(b, c / groups, hw, mismatch, &len));
  p.rows = uint32_t(n * groups);
  p.len = uint32_t(len);
  p.eps = to_float(eps);
  p.flags = kGroup | (w != nullptr ? kWeight : 0u) | (bias != nullptr ? kBias : 0u);
  p.groups = uint32_t(groups);
  p.hw = uint32_t(hw);
  int32_t ids[6] = {b.arg_id(0), b.arg_id(0), b.arg_id(0), outs[0], outs[0], outs[0]};
  if (w != nullptr) ids[1] = b.arg_id(1);
  if (bias != nullptr) ids[2] = b.arg_id(2);
  EMBER_RETURN_IF_ERROR(bind_stats(b, outs, &p, ids));
  return b.dispatch("norm", std::vector<int32_t>(ids, ids + 6), &p, sizeof(p), p.rows);
}

// et_vk.rms_norm.default(x, weight, eps, out)
Error build_rms_norm(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(4));
  const TensorDesc* in = nullptr;
  const TensorDesc* w = nullptr;
  const TensorDesc* out = nullptr;
  double eps = 0;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &in));
  if (!b.is_null(1)) EMBER_RETURN_IF_ERROR(b.tensor_arg(1, &w));
  EMBER_RETURN_IF_ERROR(b.double_arg(2, &eps));
  EMBER_RETURN_IF_ERROR(check_eps(b, eps));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, &out));
  for (const TensorDesc* t : {in, w, out}) EMBER_RETURN_IF_ERROR(check_float(b, t));
  if (in->rank < 1) return b.invalid("a 0-d input");
  if (!same_shape(*in, *out)) return b.invalid("an output of another shape than the input");
  const int64_t len = in->sizes[in->rank - 1];
  if (len == 0) return b.unsupported("an empty last dim");
  if (w != nullptr && w->numel != len) return b.invalid("a weight that is not [N]");
  NormPush p{};
  p.rows = uint32_t(in->numel / len);
  p.len = uint32_t(len);
  p.eps = to_float(eps);
  p.flags = kRms | (w != nullptr ? kWeight : 0u);
  const int32_t o = b.arg_id(b.num_args() - 1);
  const int32_t wid = w != nullptr ? b.arg_id(1) : b.arg_id(0);
  return b.dispatch("norm", std::vector<int32_t>{b.arg_id(0), wid, b.arg_id(0), o, o, o}, &p,
                    sizeof(p), p.rows);
}

// aten._softmax.default / aten._log_softmax.default(x, dim, half_to_float, out)
Error build_softmax_kind(Builder& b, bool log) {
  EMBER_RETURN_IF_ERROR(b.expect_args(3));
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  int64_t dim = 0;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &in));
  EMBER_RETURN_IF_ERROR(b.int_arg(1, &dim));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, &out));
  for (const TensorDesc* t : {in, out}) EMBER_RETURN_IF_ERROR(check_float(b, t));
  if (!same_shape(*in, *out)) return b.invalid("an output of another shape than the input");
  uint32_t d = 0;
  EMBER_RETURN_IF_ERROR(normalize_dim(b, dim, in->rank, &d));
  SoftmaxPush p{};
  const int64_t len = in->rank == 0 ? 1 : in->sizes[d];
  int64_t inner = 1;
  if (in->rank > 0) {
    EMBER_RETURN_IF_ERROR(checked_product(b, in->sizes + d + 1, in->rank - d - 1,
                                          "a tensor too large", &inner));
  }
  if (len == 0 || inner == 0) return Error::Ok;  // an empty tensor: nothing to do
  p.rows = uint32_t(in->numel / len);
  p.len = uint32_t(len);
  p.inner = uint32_t(inner);
  p.log_softmax = log ? 1u : 0u;
  return b.dispatch("softmax", {b.arg_id(0), b.arg_id(b.num_args() - 1)}, &p, sizeof(p), p.rows);
}

Error build_softmax(Builder& b) { return build_softmax_kind(b, false); }
Error build_log_softmax(Builder& b) { return build_softmax_kind(b, true); }

const OpEntry kRows[] = {
    {"aten.native_layer_norm.default", build_layer_norm},
    {"aten.native_group_norm.default", build_group_norm},
    {"et_vk.rms_norm.default", build_rms_norm},
    {"aten._softmax.default", build_softmax},
    {"aten._log_softmax.default", build_log_softmax},
};

}  // namespace

OpFamily norm_ops() { return {kRows, sizeof(kRows) / sizeof(kRows[0])}; }

}  // namespace ember::vulkan
