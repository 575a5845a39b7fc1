// Data layout operators, each one or a few strided copies
// (ops/vk_op_copy.h): permute_copy / permute / transpose_copy / t_copy,
// slice_copy (PyTorch's clamping of start and end), select_copy (negative
// index), cat (one copy per input, written at its offset), expand_copy,
// split_with_sizes_copy / split_copy (one copy per output), repeat, flip,
// unfold_copy, pixel_shuffle / pixel_unshuffle, and constant_pad_nd (a fill,
// then the input copied into the interior).
#include <cstring>
#include <vector>

#include "backends/vulkan/ops/vk_op_copy.h"
#include "backends/vulkan/ops/vk_op_util.h"
#include "backends/vulkan/ops/vk_ops.h"

namespace ember::vulkan {
namespace {

bool same_sizes(const TensorDesc& t, const int64_t* sizes, uint32_t rank) {
  if (t.rank != rank) return false;
  for (uint32_t d = 0; d < rank; ++d) {
    if (t.sizes[d] != sizes[d]) return false;
  }
  return true;
}

bool same_kind(const TensorDesc& a, const TensorDesc& b) {
  return device_float(a.dtype) == device_float(b.dtype);
}

// The input (arg 0) and output (last arg), which must hold the same kind of
// element (float32 or int32 on the device).
Error in_out(Builder& b, size_t min_args, const TensorDesc** in, const TensorDesc** out) {
  EMBER_RETURN_IF_ERROR(b.expect_args(min_args));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, in));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, out));
  if (!same_kind(**in, **out)) return b.unsupported("a copy between float and integer types");
  return Error::Ok;
}

// A copy over `out`'s shape (written contiguously) reading `in` with the
// given per-dim strides (two's complement for negative ones) and base.
CopyPush over_output(const TensorDesc& out, const int64_t* in_strides, int64_t in_base) {
  CopyPush p{};
  int64_t oc[kMaxRank];
  contiguous_strides(out, oc);
  p.total = uint32_t(out.numel);
  p.rank = out.rank;
  p.in_base = uint32_t(in_base);
  p.out_base = 0;
  for (uint32_t d = 0; d < out.rank; ++d) {
    p.sizes[d] = uint32_t(out.sizes[d]);
    p.in_strides[d] = uint32_t(in_strides[d]);
    p.out_strides[d] = uint32_t(oc[d]);
  }
  return p;
}

// ------------------------------------------------------------ permute

Error permute_with(Builder& b, const TensorDesc& in, const TensorDesc& out,
                   const std::vector<int64_t>& dims) {
  if (dims.size() != in.rank) return b.invalid("a permutation of another rank");
  int64_t ic[kMaxRank];
  contiguous_strides(in, ic);
  int64_t strides[kMaxRank] = {};
  int64_t sizes[kMaxRank] = {};
  bool seen[kMaxRank] = {};
  for (uint32_t d = 0; d < in.rank; ++d) {
    uint32_t src = 0;
    EMBER_RETURN_IF_ERROR(normalize_dim(b, dims[d], in.rank, &src));
    if (seen[src]) return b.invalid("a permutation that repeats a dim");
    seen[src] = true;
    strides[d] = ic[src];
    sizes[d] = in.sizes[src];
  }
  if (!same_sizes(out, sizes, in.rank)) return b.invalid("an output of another shape");
  return add_copy(b, b.arg_id(0), b.arg_id(b.num_args() - 1), over_output(out, strides, 0));
}

Error build_permute(Builder& b) {
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(in_out(b, 3, &in, &out));
  std::vector<int64_t> dims;
  EMBER_RETURN_IF_ERROR(b.int_list_arg(1, &dims));
  return permute_with(b, *in, *out, dims);
}

// transpose_copy.int(in, dim0, dim1, out)
Error build_transpose(Builder& b) {
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(in_out(b, 4, &in, &out));
  int64_t d0 = 0, d1 = 0;
  EMBER_RETURN_IF_ERROR(b.int_arg(1, &d0));
  EMBER_RETURN_IF_ERROR(b.int_arg(2, &d1));
  uint32_t a = 0, c = 0;
  EMBER_RETURN_IF_ERROR(normalize_dim(b, d0, in->rank, &a));
  EMBER_RETURN_IF_ERROR(normalize_dim(b, d1, in->rank, &c));
  std::vector<int64_t> dims(in->rank);
  for (uint32_t d = 0; d < in->rank; ++d) dims[d] = d;
  if (in->rank > 0) std::swap(dims[a], dims[c]);
  return permute_with(b, *in, *out, dims);
}

// t_copy(in, out): a 2-d transpose; 0-d and 1-d tensors are copied.
Error build_t(Builder& b) {
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(in_out(b, 2, &in, &out));
  if (in->rank > 2) return b.invalid("t of a tensor of more than 2 dims");
  std::vector<int64_t> dims;
  for (uint32_t d = 0; d < in->rank; ++d) dims.push_back(int64_t(in->rank - 1 - d));
  return permute_with(b, *in, *out, dims);
}

// ------------------------------------------------------------ slice, select

// PyTorch's slice bounds: negative values count from the end, then both
// are clamped into [0, size] and end is at least start.
void clamp_slice(int64_t size, bool has_start, int64_t start, bool has_end, int64_t end,
                 int64_t* s, int64_t* e) {
  int64_t a = has_start ? start : 0;
  int64_t z = has_end ? end : size;
  if (a < 0) a += size;
  if (z < 0) z += size;
  if (a < 0) a = 0;
  if (a > size) a = size;
  if (z < a) z = a;
  if (z > size) z = size;
  *s = a;
  *e = z;
}

// slice_copy.Tensor(in, dim, start?, end?, step, out)
Error build_slice(Builder& b) {
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(in_out(b, 3, &in, &out));
  int64_t dim = 0;
  if (!b.is_null(1)) EMBER_RETURN_IF_ERROR(b.int_arg(1, &dim));
  if (in->rank == 0) return b.invalid("a slice of a 0-d tensor");
  uint32_t d = 0;
  EMBER_RETURN_IF_ERROR(normalize_dim(b, dim, in->rank, &d));
  const size_t n = b.num_args();
  int64_t start = 0, end = 0, step = 1;
  const bool has_start = n > 3 && !b.is_null(2);
  const bool has_end = n > 4 && !b.is_null(3);
  if (has_start) EMBER_RETURN_IF_ERROR(b.int_arg(2, &start));
  if (has_end) EMBER_RETURN_IF_ERROR(b.int_arg(3, &end));
  if (n > 5 && !b.is_null(4)) EMBER_RETURN_IF_ERROR(b.int_arg(4, &step));
  if (step <= 0) return b.invalid("a slice step that is not positive");
  int64_t s = 0, e = 0;
  clamp_slice(in->sizes[d], has_start, start, has_end, end, &s, &e);
  // A step past the dim's size picks at most one element, as the size does.
  if (step > in->sizes[d]) step = in->sizes[d] > 0 ? in->sizes[d] : 1;
  int64_t sizes[kMaxRank];
  std::memcpy(sizes, in->sizes, sizeof(sizes));
  sizes[d] = e == s ? 0 : (e - s - 1) / step + 1;
  if (!same_sizes(*out, sizes, in->rank)) return b.invalid("an output of another shape");
  int64_t strides[kMaxRank];
  contiguous_strides(*in, strides);
  const int64_t base = s * strides[d];
  EMBER_RETURN_IF_ERROR(mul_or_fail(b, strides[d], step, "a slice step too large", &strides[d]));
  return add_copy(b, b.arg_id(0), b.arg_id(n - 1), over_output(*out, strides, base));
}

// select_copy.int(in, dim, index, out)
Error build_select(Builder& b) {
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(in_out(b, 4, &in, &out));
  int64_t dim = 0, index = 0;
  EMBER_RETURN_IF_ERROR(b.int_arg(1, &dim));
  EMBER_RETURN_IF_ERROR(b.int_arg(2, &index));
  if (in->rank == 0) return b.invalid("a select from a 0-d tensor");
  uint32_t d = 0;
  EMBER_RETURN_IF_ERROR(normalize_dim(b, dim, in->rank, &d));
  const int64_t size = in->sizes[d];
  if (index < -size || index >= size) return b.invalid("an index outside the dim");
  if (index < 0) index += size;
  int64_t ic[kMaxRank];
  contiguous_strides(*in, ic);
  int64_t sizes[kMaxRank] = {};
  int64_t strides[kMaxRank] = {};
  uint32_t k = 0;
  for (uint32_t i = 0; i < in->rank; ++i) {
    if (i == d) continue;
    sizes[k] = in->sizes[i];
    strides[k] = ic[i];
    ++k;
  }
  if (!same_sizes(*out, sizes, in->rank - 1)) return b.invalid("an output of another shape");
  return add_copy(b, b.arg_id(0), b.arg_id(b.num_args() - 1),
                  over_output(*out, strides, index * ic[d]));
}

// ------------------------------------------------------------ cat, split

// cat(tensors, dim, out): each input copied into its place along dim.
Error build_cat(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(3));
  std::vector<int32_t> ids;
  EMBER_RETURN_IF_ERROR(b.tensor_list_arg(0, &ids));
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, &out));
  int64_t dim = 0;
  if (b.num_args() >= 3 && !b.is_null(1)) EMBER_RETURN_IF_ERROR(b.int_arg(1, &dim));
  if (out->rank == 0) return b.invalid("a 0-d output");
  uint32_t d = 0;
  EMBER_RETURN_IF_ERROR(normalize_dim(b, dim, out->rank, &d));
  int64_t oc[kMaxRank];
  contiguous_strides(*out, oc);
  int64_t offset = 0;
  for (int32_t id : ids) {
    const TensorDesc& t = b.value(id).tensor;
    // PyTorch skips legacy empty 1-d inputs of any other shape.
    if (t.numel == 0 && t.rank == 1) continue;
    if (!same_kind(t, *out)) return b.unsupported("a cat between float and integer types");
    if (t.rank != out->rank) return b.invalid("an input of another rank");
    for (uint32_t k = 0; k < out->rank; ++k) {
      if (k != d && t.sizes[k] != out->sizes[k]) return b.invalid("inputs of unequal shapes");
    }
    if (offset + t.sizes[d] > out->sizes[d]) return b.invalid("inputs larger than the output");
    CopyPush p = contiguous_copy(t);
    p.rank = t.rank;
    int64_t ic[kMaxRank];
    contiguous_strides(t, ic);
    for (uint32_t k = 0; k < t.rank; ++k) {
      p.sizes[k] = uint32_t(t.sizes[k]);
      p.in_strides[k] = uint32_t(ic[k]);
      p.out_strides[k] = uint32_t(oc[k]);
    }
    p.out_base = uint32_t(offset * oc[d]);
    offset += t.sizes[d];
    if (t.numel > 0) EMBER_RETURN_IF_ERROR(add_copy(b, id, b.arg_id(b.num_args() - 1), p));
  }
  if (offset != out->sizes[d]) return b.invalid("inputs that do not fill the output");
  return Error::Ok;
}

// split_with_sizes_copy(in, sizes, dim, outs) and split_copy.Tensor(in,
// split_size, dim, outs): each output copied out of its place along dim.
Error build_split(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(4));
  const TensorDesc* in = nullptr;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &in));
  std::vector<int32_t> outs;
  EMBER_RETURN_IF_ERROR(b.tensor_list_arg(b.num_args() - 1, &outs));
  int64_t dim = 0;
  if (!b.is_null(2)) EMBER_RETURN_IF_ERROR(b.int_arg(2, &dim));
  if (in->rank == 0) return b.invalid("a split of a 0-d tensor");
  uint32_t d = 0;
  EMBER_RETURN_IF_ERROR(normalize_dim(b, dim, in->rank, &d));
  // The pieces' lengths: as listed, or split_size each with a shorter last.
  std::vector<int64_t> lengths;
  const Value& sizes_arg = b.value(b.arg_id(1));
  if (sizes_arg.kind == ValueKind::Int || sizes_arg.kind == ValueKind::SymInt) {
    int64_t step = 0;
    EMBER_RETURN_IF_ERROR(b.int_arg(1, &step));
    const int64_t size = in->sizes[d];
    if (step <= 0 && size > 0) return b.invalid("a split size that is not positive");
    // ceil(size / step) pieces (one empty one for an empty dim), counted
    // before any is listed: a small step over a long dim is many pieces.
    const int64_t pieces = size == 0 ? 1 : (size - 1) / step + 1;
    if (pieces != int64_t(outs.size())) return b.invalid("a piece count other than the outputs'");
    for (int64_t at = 0, k = 0; k < pieces; ++k, at += step) {
      lengths.push_back(size - at < step ? size - at : step);
    }
    if (size == 0) lengths.assign(1, 0);
  } else {
    EMBER_RETURN_IF_ERROR(b.int_list_arg(1, &lengths));
  }
  if (lengths.size() != outs.size()) return b.invalid("a piece count other than the outputs'");
  int64_t ic[kMaxRank];
  contiguous_strides(*in, ic);
  int64_t offset = 0;
  for (size_t k = 0; k < outs.size(); ++k) {
    const TensorDesc& t = b.value(outs[k]).tensor;
    if (!same_kind(*in, t)) return b.unsupported("a split between float and integer types");
    if (lengths[k] < 0) return b.invalid("a negative split size");
    int64_t sizes[kMaxRank];
    std::memcpy(sizes, in->sizes, sizeof(sizes));
    sizes[d] = lengths[k];
    if (!same_sizes(t, sizes, in->rank)) return b.invalid("an output of another shape");
    if (lengths[k] > in->sizes[d] - offset) return b.invalid("pieces larger than the input");
    EMBER_RETURN_IF_ERROR(add_copy(b, b.arg_id(0), outs[k], over_output(t, ic, offset * ic[d])));
    offset += lengths[k];
  }
  if (offset != in->sizes[d]) return b.invalid("pieces that do not cover the input");
  return Error::Ok;
}

// ------------------------------------------------------------ expand, repeat

// expand_copy(in, sizes, implicit, out): the input broadcast to the output.
Error build_expand(Builder& b) {
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(in_out(b, 3, &in, &out));
  std::vector<int64_t> sizes;
  EMBER_RETURN_IF_ERROR(b.int_list_arg(1, &sizes));
  if (sizes.size() != out->rank || sizes.size() < in->rank) {
    return b.invalid("a size list of another rank than the output");
  }
  const size_t lead = sizes.size() - in->rank;
  for (size_t d = 0; d < sizes.size(); ++d) {
    const int64_t want = sizes[d] == -1 && d >= lead ? in->sizes[d - lead] : sizes[d];
    if (want != out->sizes[d]) return b.invalid("an output other than the expanded shape");
  }
  uint32_t strides32[kMaxRank] = {};
  EMBER_RETURN_IF_ERROR(broadcast_strides(b, *in, *out, strides32));
  int64_t strides[kMaxRank] = {};
  for (uint32_t d = 0; d < out->rank; ++d) strides[d] = strides32[d];
  return add_copy(b, b.arg_id(0), b.arg_id(b.num_args() - 1), over_output(*out, strides, 0));
}

// repeat(in, repeats, out): each output dim with a repeat over 1 is split
// into (repeat, size) with the repeat read at stride 0; this needs up to
// twice the rank, at most kMaxRank dims in all.
Error build_repeat(Builder& b) {
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(in_out(b, 3, &in, &out));
  std::vector<int64_t> reps;
  EMBER_RETURN_IF_ERROR(b.int_list_arg(1, &reps));
  if (reps.size() < in->rank || reps.size() != out->rank) {
    return b.invalid("repeats of another rank than the output");
  }
  const size_t lead = reps.size() - in->rank;
  int64_t ic[kMaxRank];
  contiguous_strides(*in, ic);
  CopyPush p{};
  uint32_t rank = 0;
  for (size_t d = 0; d < reps.size(); ++d) {
    const int64_t size = d >= lead ? in->sizes[d - lead] : 1;
    const int64_t stride = d >= lead ? ic[d - lead] : 0;
    if (reps[d] < 0) return b.invalid("a negative repeat");
    int64_t repeated = 0;
    EMBER_RETURN_IF_ERROR(mul_or_fail(b, size, reps[d], "a repeat too large", &repeated));
    if (repeated != out->sizes[d]) return b.invalid("an output other than the repeated shape");
    if (reps[d] != 1) {
      if (rank == kMaxRank) return b.unsupported("a repeat over this many dims");
      p.sizes[rank] = uint32_t(reps[d]);
      p.in_strides[rank] = 0;
      ++rank;
    }
    if (size != 1 || reps[d] == 1) {
      if (rank == kMaxRank) return b.unsupported("a repeat over this many dims");
      p.sizes[rank] = uint32_t(size);
      p.in_strides[rank] = uint32_t(stride);
      ++rank;
    }
  }
  // Output strides: contiguous over the split shape.
  uint32_t stride = 1;
  for (uint32_t k = rank; k-- > 0;) {
    p.out_strides[k] = stride;
    stride *= p.sizes[k];
  }
  p.rank = rank;
  p.total = uint32_t(out->numel);
  return add_copy(b, b.arg_id(0), b.arg_id(b.num_args() - 1), p);
}

// ------------------------------------------------------------ flip, unfold

// flip(in, dims, out): the flipped dims read backwards (negative strides).
Error build_flip(Builder& b) {
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(in_out(b, 3, &in, &out));
  std::vector<int64_t> dims;
  EMBER_RETURN_IF_ERROR(b.int_list_arg(1, &dims));
  if (!same_sizes(*out, in->sizes, in->rank)) return b.invalid("an output of another shape");
  int64_t strides[kMaxRank];
  contiguous_strides(*in, strides);
  bool flipped[kMaxRank] = {};
  int64_t base = 0;
  for (int64_t dim : dims) {
    uint32_t d = 0;
    EMBER_RETURN_IF_ERROR(normalize_dim(b, dim, in->rank, &d));
    if (in->rank == 0) break;
    if (flipped[d]) return b.invalid("a dim flipped twice");
    flipped[d] = true;
    base += (in->sizes[d] - 1) * strides[d];
    strides[d] = -strides[d];
  }
  return add_copy(b, b.arg_id(0), b.arg_id(b.num_args() - 1), over_output(*out, strides, base));
}

// unfold_copy(in, dim, size, step, out): windows along dim as a new last dim.
Error build_unfold(Builder& b) {
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(in_out(b, 5, &in, &out));
  int64_t dim = 0, size = 0, step = 0;
  EMBER_RETURN_IF_ERROR(b.int_arg(1, &dim));
  EMBER_RETURN_IF_ERROR(b.int_arg(2, &size));
  EMBER_RETURN_IF_ERROR(b.int_arg(3, &step));
  if (in->rank == 0 || in->rank >= kMaxRank) return b.unsupported("unfold of this rank");
  uint32_t d = 0;
  EMBER_RETURN_IF_ERROR(normalize_dim(b, dim, in->rank, &d));
  if (step <= 0 || size < 0 || size > in->sizes[d]) return b.invalid("a bad window or step");
  // A step past the last window's start gives one window, as a step of 1 would.
  if (step > in->sizes[d] - size) step = in->sizes[d] - size > 0 ? in->sizes[d] - size : 1;
  int64_t ic[kMaxRank];
  contiguous_strides(*in, ic);
  int64_t sizes[kMaxRank];
  int64_t strides[kMaxRank];
  for (uint32_t k = 0; k < in->rank; ++k) {
    sizes[k] = in->sizes[k];
    strides[k] = ic[k];
  }
  sizes[d] = (in->sizes[d] - size) / step + 1;
  EMBER_RETURN_IF_ERROR(mul_or_fail(b, ic[d], step, "an unfold step too large", &strides[d]));
  sizes[in->rank] = size;
  strides[in->rank] = ic[d];
  if (!same_sizes(*out, sizes, in->rank + 1)) return b.invalid("an output of another shape");
  return add_copy(b, b.arg_id(0), b.arg_id(b.num_args() - 1), over_output(*out, strides, 0));
}

// ------------------------------------------------------------ pixel shuffle

// pixel_shuffle(in [.., C*r*r, H, W], r) -> [.., C, H*r, W*r] and its
// inverse, as a 5-d copy over (lead, C, H, r, W, r) views.
Error pixel_shuffle(Builder& b, bool shuffle) {
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(in_out(b, 3, &in, &out));
  int64_t r = 0;
  EMBER_RETURN_IF_ERROR(b.int_arg(1, &r));
  if (r <= 0) return b.invalid("a factor that is not positive");
  if (in->rank < 3 || in->rank != out->rank) return b.invalid("a tensor of under 3 dims");
  const uint32_t n = in->rank;
  int64_t lead = 1;
  for (uint32_t d = 0; d + 3 < n; ++d) {
    if (in->sizes[d] != out->sizes[d]) return b.invalid("an output of another shape");
  }
  EMBER_RETURN_IF_ERROR(checked_product(b, in->sizes, n - 3, "leading dims too large", &lead));
  // The small tensor (channels C*r*r) and the large one (C).
  const TensorDesc& deep = shuffle ? *in : *out;
  const TensorDesc& wide = shuffle ? *out : *in;
  const char* mismatch = "shapes that do not match the factor";
  int64_t rr = 0, hr = 0, wr = 0;
  EMBER_RETURN_IF_ERROR(mul_or_fail(b, r, r, mismatch, &rr));
  const int64_t c = deep.sizes[n - 3] / rr;
  const int64_t h = deep.sizes[n - 2];
  const int64_t w = deep.sizes[n - 1];
  EMBER_RETURN_IF_ERROR(mul_or_fail(b, h, r, mismatch, &hr));
  EMBER_RETURN_IF_ERROR(mul_or_fail(b, w, r, mismatch, &wr));
  if (c * rr != deep.sizes[n - 3] || wide.sizes[n - 3] != c || wide.sizes[n - 2] != hr ||
      wide.sizes[n - 1] != wr) {
    return b.invalid(mismatch);
  }
  // Coordinates (l, c, h, i, w, j): the deep tensor at
  // [l, c*r*r + i*r + j, h, w], the wide one at [l, c, h*r + i, w*r + j].
  // Each stride is a product of dims of one of the tensors (checked all
  // the same: with an empty dim the others are not bounded together).
  const int64_t deep_f[6][4] = {{c, rr, h, w}, {rr, h, w, 1}, {w, 1, 1, 1},
                                {r, h, w, 1},  {1, 1, 1, 1},  {h, w, 1, 1}};
  const int64_t wide_f[6][4] = {{c, hr, wr, 1}, {hr, wr, 1, 1}, {r, wr, 1, 1},
                                {wr, 1, 1, 1},  {r, 1, 1, 1},   {1, 1, 1, 1}};
  int64_t deep_s[6];
  int64_t wide_s[6];
  for (int k = 0; k < 6; ++k) {
    EMBER_RETURN_IF_ERROR(checked_product(b, deep_f[k], 4, mismatch, &deep_s[k]));
    EMBER_RETURN_IF_ERROR(checked_product(b, wide_f[k], 4, mismatch, &wide_s[k]));
  }
  const int64_t sizes[6] = {lead, c, h, r, w, r};
  CopyPush p{};
  p.rank = 6;
  p.total = uint32_t(out->numel);
  for (int k = 0; k < 6; ++k) {
    p.sizes[k] = uint32_t(sizes[k]);
    p.in_strides[k] = uint32_t(shuffle ? deep_s[k] : wide_s[k]);
    p.out_strides[k] = uint32_t(shuffle ? wide_s[k] : deep_s[k]);
  }
  return add_copy(b, b.arg_id(0), b.arg_id(b.num_args() - 1), p);
}

Error build_pixel_shuffle(Builder& b) { return pixel_shuffle(b, true); }
Error build_pixel_unshuffle(Builder& b) { return pixel_shuffle(b, false); }

// ------------------------------------------------------------ pad

struct FillPush {
  uint32_t total;
  uint32_t mode;  // as shaders/fill.comp: 0 the value's bits
  uint32_t value;
  uint32_t step;
};
static_assert(sizeof(FillPush) <= kMaxPush, "push constants");

// constant_pad_nd(in, pad, value, out): pad lists (before, after) pairs from
// the last dim backwards; negative entries crop.
Error build_constant_pad(Builder& b) {
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(in_out(b, 3, &in, &out));
  std::vector<int64_t> pad;
  EMBER_RETURN_IF_ERROR(b.int_list_arg(1, &pad));
  double value = 0;
  if (b.num_args() >= 4 && !b.is_null(2)) EMBER_RETURN_IF_ERROR(b.double_arg(2, &value));
  if (pad.size() % 2 != 0 || pad.size() / 2 > in->rank) return b.invalid("a bad pad list");
  if (in->rank != out->rank) return b.invalid("an output of another rank");
  for (int64_t v : pad) {
    EMBER_RETURN_IF_ERROR(check_range(b, v, -kMaxExtent, kMaxExtent, "a pad too large"));
  }
  int64_t before[kMaxRank] = {};
  int64_t after[kMaxRank] = {};
  for (size_t k = 0; k < pad.size() / 2; ++k) {
    const uint32_t d = in->rank - 1 - uint32_t(k);
    before[d] = pad[2 * k];
    after[d] = pad[2 * k + 1];
  }
  int64_t ic[kMaxRank];
  int64_t oc[kMaxRank];
  contiguous_strides(*in, ic);
  contiguous_strides(*out, oc);
  CopyPush p{};
  p.rank = in->rank;
  int64_t total = 1;
  int64_t in_base = 0;
  int64_t out_base = 0;
  for (uint32_t d = 0; d < in->rank; ++d) {
    if (in->sizes[d] + before[d] + after[d] != out->sizes[d]) {
      return b.invalid("an output other than the padded shape");
    }
    // A crop past the input's end (the output padded back up) starts
    // nowhere: the copy is empty along d, its base clamped inside.
    int64_t in_start = before[d] < 0 ? -before[d] : 0;
    int64_t out_start = before[d] > 0 ? before[d] : 0;
    if (in_start > in->sizes[d]) in_start = in->sizes[d];
    if (out_start > out->sizes[d]) out_start = out->sizes[d];
    int64_t len = in->sizes[d] - in_start;
    if (out->sizes[d] - out_start < len) len = out->sizes[d] - out_start;
    if (len < 0) len = 0;
    p.sizes[d] = uint32_t(len);
    p.in_strides[d] = uint32_t(ic[d]);
    p.out_strides[d] = uint32_t(oc[d]);
    in_base += in_start * ic[d];
    out_base += out_start * oc[d];
    total *= len;
  }
  p.total = uint32_t(total);
  p.in_base = uint32_t(in_base);
  p.out_base = uint32_t(out_base);
  FillPush f{};
  f.total = uint32_t(out->numel);
  f.mode = 0;
  if (device_float(out->dtype)) {
    const float v = to_float(value);
    std::memcpy(&f.value, &v, 4);
  } else {
    int32_t v = int32_t(value != 0);
    if (out->dtype != DType::Bool) {
      EMBER_RETURN_IF_ERROR(to_int32(b, value, "a pad value outside int32", &v));
    }
    std::memcpy(&f.value, &v, 4);
  }
  EMBER_RETURN_IF_ERROR(b.dispatch("fill", {b.arg_id(b.num_args() - 1)}, &f, sizeof(f),
                                   uint64_t(out->numel)));
  if (total == 0) return Error::Ok;
  return add_copy(b, b.arg_id(0), b.arg_id(b.num_args() - 1), p);
}

const OpEntry kRows[] = {
    {"aten.permute_copy.default", build_permute},
    {"aten.permute.default", build_permute},
    {"aten.transpose_copy.int", build_transpose},
    {"aten.t_copy.default", build_t},
    {"aten.slice_copy.Tensor", build_slice},
    {"aten.select_copy.int", build_select},
    {"aten.cat.default", build_cat},
    {"aten.split_with_sizes_copy.default", build_split},
    {"aten.split_copy.Tensor", build_split},
    {"aten.expand_copy.default", build_expand},
    {"aten.repeat.default", build_repeat},
    {"aten.flip.default", build_flip},
    {"aten.unfold_copy.default", build_unfold},
    {"aten.pixel_shuffle.default", build_pixel_shuffle},
    {"aten.pixel_unshuffle.default", build_pixel_unshuffle},
    {"aten.constant_pad_nd.default", build_constant_pad},
};

}  // namespace

OpFamily layout_ops() { return {kRows, sizeof(kRows) / sizeof(kRows[0])}; }

}  // namespace ember::vulkan
