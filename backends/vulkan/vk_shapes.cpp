#include "backends/vulkan/vk_shapes.h"

#include <cstring>
#include <vector>

#include "backends/vulkan/ops/vk_op_util.h"
#include "backends/vulkan/vk_builder.h"
#include "runtime/platform/error_message.h"

namespace ember::vulkan {
namespace {

using Dims = std::vector<int64_t>;

// What a rule sees: the working graph, the stored one (bounds), the host
// inputs, and the operator; arguments are read with the builders' typed
// readers (vk_builder.h) over the working graph, so a rule reads the
// shapes and SymInt values propagated so far.
struct Env {
  Env(const Graph& b, Graph& g, const ShapeInputs& in, size_t i)
      : bounds(b), graph(g), inputs(in), index(i), reader(g) {
    reader.begin_op(i);
  }
  const Graph& bounds;
  Graph& graph;
  const ShapeInputs& inputs;
  size_t index;  // of the operator in the chain
  Builder reader;

  const OpCall& op() const { return graph.chain[index]; }
  size_t args() const { return op().args.size(); }
  int32_t id(size_t arg) const { return op().args[arg]; }
  const Value& value(size_t arg) const { return graph.values[size_t(id(arg))]; }
};

Error fail(const Env& e, const char* what) { return e.reader.invalid(what); }

Error need(const Env& e, size_t n) { return e.reader.expect_args(n); }

Error dims_of(const Env& e, size_t arg, Dims* out) {
  const TensorDesc* t = nullptr;
  EMBER_RETURN_IF_ERROR(e.reader.tensor_arg(arg, &t));
  out->assign(t->sizes, t->sizes + t->rank);
  return Error::Ok;
}

Error int_of(const Env& e, size_t arg, int64_t* out) { return e.reader.int_arg(arg, out); }

Error list_of(const Env& e, size_t arg, Dims* out) { return e.reader.int_list_arg(arg, out); }

// Gives value `id` the shape `d`: its stored rank, and no more elements
// than the memory planned for the stored shape.
Error set_dims(const Env& e, int32_t id, const Dims& d) {
  const Value& bound = e.bounds.values[size_t(id)];
  if (bound.kind != ValueKind::Tensor) return fail(e, "an output that is not a tensor");
  if (d.size() != bound.tensor.rank) return fail(e, "an output shape of another rank");
  int64_t numel = 1;
  int64_t nonzero = 1;  // the product of the non-zero dims: strides stay bounded
  for (int64_t s : d) {
    if (s < 0 || s > (int64_t(1) << 31)) return fail(e, "an output dim out of range");
    if (s != 0 && !checked_mul(nonzero, s, &nonzero)) return fail(e, "an output too large");
    numel = s == 0 ? 0 : (numel == 0 ? 0 : nonzero);
    if (numel > bound.tensor.numel) {
      set_error_message("VulkanBackend operator %zu (%s): a shape larger than the program's "
                        "bound for value %d", e.index,
                        PrintableName(e.op().name.c_str()).c_str(), int(id));
      return Error::InvalidArgument;
    }
  }
  TensorDesc& t = e.graph.values[size_t(id)].tensor;
  for (size_t k = 0; k < d.size(); ++k) t.sizes[k] = d[k];
  t.numel = numel;
  return Error::Ok;
}

Error set_out(const Env& e, const Dims& d) { return set_dims(e, e.id(e.args() - 1), d); }

// The ids of the outputs: the last argument, or the items of a final list.
std::vector<int32_t> outputs(const Env& e) {
  const Value& last = e.value(e.args() - 1);
  if (last.kind == ValueKind::ValueList) return last.items;
  return {e.id(e.args() - 1)};
}

// A dim in [-rank, rank) made non-negative. A 0-d tensor has no dim to
// index (its rules would read past its empty shape).
Error norm_dim(const Env& e, int64_t dim, size_t rank, size_t* out) {
  if (rank == 0) return fail(e, "a dim of a 0-d tensor");
  const int64_t r = int64_t(rank);
  if (dim < -r || dim >= r) return fail(e, "a dim outside the rank");
  *out = size_t(dim < 0 ? dim + r : dim);
  return Error::Ok;
}

// ---- rules

// Every output takes the first input's shape.
Error same_as_first(Env& e) {
  Dims d;
  EMBER_RETURN_IF_ERROR(need(e, 2));
  EMBER_RETURN_IF_ERROR(dims_of(e, 0, &d));
  for (int32_t id : outputs(e)) {
    if (e.graph.values[size_t(id)].tensor.rank == d.size()) {
      EMBER_RETURN_IF_ERROR(set_dims(e, id, d));
    }
  }
  return Error::Ok;
}

Error broadcast_into(const Env& e, const Dims& a, Dims* out) {
  Dims r(std::max(a.size(), out->size()), 1);
  for (size_t k = 0; k < r.size(); ++k) {
    const int64_t x = k < r.size() - a.size() ? 1 : a[k - (r.size() - a.size())];
    const int64_t y = k < r.size() - out->size() ? 1 : (*out)[k - (r.size() - out->size())];
    if (x != y && x != 1 && y != 1) return fail(e, "shapes that do not broadcast");
    r[k] = x == 1 ? y : x;
  }
  *out = r;
  return Error::Ok;
}

// Elementwise over broadcast tensor arguments (scalars skipped).
Error broadcast(Env& e) {
  EMBER_RETURN_IF_ERROR(need(e, 2));
  Dims r;
  for (size_t a = 0; a + 1 < e.args(); ++a) {
    if (e.value(a).kind != ValueKind::Tensor) continue;
    Dims d;
    EMBER_RETURN_IF_ERROR(dims_of(e, a, &d));
    EMBER_RETURN_IF_ERROR(broadcast_into(e, d, &r));
  }
  return set_out(e, r);
}

// view_copy / _unsafe_view / expand_copy style: a size list with -1.
Error view(Env& e) {
  EMBER_RETURN_IF_ERROR(need(e, 3));
  Dims in, size;
  EMBER_RETURN_IF_ERROR(dims_of(e, 0, &in));
  EMBER_RETURN_IF_ERROR(list_of(e, 1, &size));
  int64_t numel = 1, known = 1;
  int infer = -1;
  for (int64_t s : in) {
    if (!checked_mul(numel, s, &numel)) return fail(e, "a view of a tensor too large");
  }
  for (size_t k = 0; k < size.size(); ++k) {
    if (size[k] == -1 && infer < 0) {
      infer = int(k);
    } else if (size[k] < 0) {
      return fail(e, "a view size below -1");
    } else if (!checked_mul(known, size[k], &known)) {
      return fail(e, "a view size too large");
    }
  }
  if (infer >= 0) size[size_t(infer)] = known == 0 ? 0 : numel / known;
  return set_out(e, size);
}

Error expand(Env& e) {
  EMBER_RETURN_IF_ERROR(need(e, 3));
  Dims in, size;
  EMBER_RETURN_IF_ERROR(dims_of(e, 0, &in));
  EMBER_RETURN_IF_ERROR(list_of(e, 1, &size));
  if (size.size() < in.size()) return fail(e, "an expand to fewer dims");
  for (size_t k = 0; k < in.size(); ++k) {
    int64_t& s = size[size.size() - in.size() + k];
    if (s == -1) s = in[k];
  }
  return set_out(e, size);
}

Error squeeze(Env& e) {
  Dims in;
  EMBER_RETURN_IF_ERROR(dims_of(e, 0, &in));
  Dims dims;
  const bool all = e.args() == 2;
  if (!all) {
    if (e.value(1).kind == ValueKind::Int) {
      dims.assign(1, e.value(1).int_value);
    } else {
      EMBER_RETURN_IF_ERROR(list_of(e, 1, &dims));
    }
  }
  std::vector<bool> drop(in.size(), false);
  for (int64_t d : dims) {
    size_t k = 0;
    EMBER_RETURN_IF_ERROR(norm_dim(e, d, in.size(), &k));
    drop[k] = in[k] == 1;
  }
  Dims out;
  for (size_t k = 0; k < in.size(); ++k) {
    if (!(all ? in[k] == 1 : drop[k])) out.push_back(in[k]);
  }
  return set_out(e, out);
}

Error unsqueeze(Env& e) {
  EMBER_RETURN_IF_ERROR(need(e, 3));
  Dims in;
  int64_t dim = 0;
  EMBER_RETURN_IF_ERROR(dims_of(e, 0, &in));
  EMBER_RETURN_IF_ERROR(int_of(e, 1, &dim));
  size_t k = 0;
  EMBER_RETURN_IF_ERROR(norm_dim(e, dim, in.size() + 1, &k));
  in.insert(in.begin() + long(k), 1);
  return set_out(e, in);
}

Error permute(Env& e) {
  EMBER_RETURN_IF_ERROR(need(e, 3));
  Dims in, perm;
  EMBER_RETURN_IF_ERROR(dims_of(e, 0, &in));
  EMBER_RETURN_IF_ERROR(list_of(e, 1, &perm));
  if (perm.size() != in.size()) return fail(e, "a permutation of another rank");
  Dims out(in.size());
  for (size_t k = 0; k < perm.size(); ++k) {
    size_t src = 0;
    EMBER_RETURN_IF_ERROR(norm_dim(e, perm[k], in.size(), &src));
    out[k] = in[src];
  }
  return set_out(e, out);
}

Error transpose(Env& e) {
  EMBER_RETURN_IF_ERROR(need(e, 4));
  Dims in;
  int64_t a = 0, b = 0;
  EMBER_RETURN_IF_ERROR(dims_of(e, 0, &in));
  EMBER_RETURN_IF_ERROR(int_of(e, 1, &a));
  EMBER_RETURN_IF_ERROR(int_of(e, 2, &b));
  size_t i = 0, j = 0;
  EMBER_RETURN_IF_ERROR(norm_dim(e, a, in.size(), &i));
  EMBER_RETURN_IF_ERROR(norm_dim(e, b, in.size(), &j));
  std::swap(in[i], in[j]);
  return set_out(e, in);
}

// slice_copy.Tensor(x, dim, start, end, step): PyTorch's clamping.
Error slice(Env& e) {
  EMBER_RETURN_IF_ERROR(need(e, 6));
  Dims in;
  int64_t dim = 0, start = 0, end = 0, step = 1;
  EMBER_RETURN_IF_ERROR(dims_of(e, 0, &in));
  EMBER_RETURN_IF_ERROR(int_of(e, 1, &dim));
  if (e.value(2).kind != ValueKind::Null) EMBER_RETURN_IF_ERROR(int_of(e, 2, &start));
  size_t k = 0;
  EMBER_RETURN_IF_ERROR(norm_dim(e, dim, in.size(), &k));
  end = in[k];
  if (e.value(3).kind != ValueKind::Null) EMBER_RETURN_IF_ERROR(int_of(e, 3, &end));
  EMBER_RETURN_IF_ERROR(int_of(e, 4, &step));
  if (step <= 0) return fail(e, "a slice step that is not positive");
  const int64_t n = in[k];
  if (step > n + 1) step = n + 1;  // the same result, no overflow below
  if (start < -n) start = 0;
  if (end < -n) end = 0;
  if (start < 0) start += n;
  if (end < 0) end += n;
  start = start < 0 ? 0 : (start > n ? n : start);
  end = end < start ? start : (end > n ? n : end);
  in[k] = (end - start + step - 1) / step;
  return set_out(e, in);
}

Error select(Env& e) {
  EMBER_RETURN_IF_ERROR(need(e, 4));
  Dims in;
  int64_t dim = 0;
  EMBER_RETURN_IF_ERROR(dims_of(e, 0, &in));
  EMBER_RETURN_IF_ERROR(int_of(e, 1, &dim));
  size_t k = 0;
  EMBER_RETURN_IF_ERROR(norm_dim(e, dim, in.size(), &k));
  in.erase(in.begin() + long(k));
  return set_out(e, in);
}

Error cat(Env& e) {
  EMBER_RETURN_IF_ERROR(need(e, 3));
  const Value& list = e.value(0);
  if (list.kind != ValueKind::ValueList || list.items.empty()) return fail(e, "no tensors to join");
  int64_t dim = 0;
  EMBER_RETURN_IF_ERROR(int_of(e, 1, &dim));
  Dims out;
  size_t k = 0;
  for (int32_t id : list.items) {
    const Value& v = e.graph.values[size_t(id)];
    if (v.kind != ValueKind::Tensor) return fail(e, "a joined value that is not a tensor");
    Dims d(v.tensor.sizes, v.tensor.sizes + v.tensor.rank);
    if (d.empty()) return fail(e, "a 0-d tensor to join");
    if (out.empty()) {
      out = d;
      EMBER_RETURN_IF_ERROR(norm_dim(e, dim, d.size(), &k));
      out[k] = 0;
    }
    if (d.size() != out.size()) return fail(e, "joined tensors of different ranks");
    out[k] += d[k];
  }
  return set_out(e, out);
}

// linear(x [..., K], w [N, K], bias, out) -> [..., N]; mm, bmm, addmm.
Error linear(Env& e) {
  Dims x, w;
  EMBER_RETURN_IF_ERROR(dims_of(e, 0, &x));
  EMBER_RETURN_IF_ERROR(dims_of(e, 1, &w));
  if (x.empty() || w.empty()) return fail(e, "a 0-d operand");
  x.back() = w[0];
  return set_out(e, x);
}

Error matmul(Env& e) {
  const size_t first = std::strcmp(e.op().name.c_str(), "aten.addmm.default") == 0 ? 1 : 0;
  Dims a, b;
  EMBER_RETURN_IF_ERROR(dims_of(e, first, &a));
  EMBER_RETURN_IF_ERROR(dims_of(e, first + 1, &b));
  if (a.size() < 2 || b.size() < 2) return fail(e, "an operand below rank 2");
  a.back() = b.back();
  return set_out(e, a);
}

// Reductions: (x, dims | dim, keepdim, ..., out).
Error reduce(Env& e) {
  EMBER_RETURN_IF_ERROR(need(e, 3));
  Dims in, dims;
  EMBER_RETURN_IF_ERROR(dims_of(e, 0, &in));
  const Value& d = e.value(1);
  if (d.kind == ValueKind::Int) {
    dims.assign(1, d.int_value);
  } else if (d.kind != ValueKind::Null) {
    EMBER_RETURN_IF_ERROR(list_of(e, 1, &dims));
  }
  bool keep = false;
  if (e.args() > 3 && e.value(2).kind == ValueKind::Bool) keep = e.value(2).int_value != 0;
  std::vector<bool> reduced(in.size(), dims.empty());
  for (int64_t x : dims) {
    size_t k = 0;
    EMBER_RETURN_IF_ERROR(norm_dim(e, x, in.size(), &k));
    reduced[k] = true;
  }
  Dims out;
  for (size_t k = 0; k < in.size(); ++k) {
    if (!reduced[k]) {
      out.push_back(in[k]);
    } else if (keep) {
      out.push_back(1);
    }
  }
  return set_out(e, out);
}

// native_layer_norm: out like x, mean and rstd with the normalized dims 1.
Error layer_norm(Env& e) {
  EMBER_RETURN_IF_ERROR(need(e, 6));
  Dims in, norm;
  EMBER_RETURN_IF_ERROR(dims_of(e, 0, &in));
  EMBER_RETURN_IF_ERROR(list_of(e, 1, &norm));
  const std::vector<int32_t> outs = outputs(e);
  if (norm.size() > in.size()) return fail(e, "more normalized dims than the input has");
  Dims stats = in;
  for (size_t k = in.size() - norm.size(); k < in.size(); ++k) stats[k] = 1;
  for (size_t o = 0; o < outs.size(); ++o) {
    const Dims& d = o == 0 ? in : stats;
    if (e.graph.values[size_t(outs[o])].tensor.rank == d.size()) {
      EMBER_RETURN_IF_ERROR(set_dims(e, outs[o], d));
    }
  }
  return Error::Ok;
}

// embedding(weight [V, D...], idx, ...) -> idx.shape + [D...].
Error embedding(Env& e) {
  Dims w, idx;
  EMBER_RETURN_IF_ERROR(dims_of(e, 0, &w));
  EMBER_RETURN_IF_ERROR(dims_of(e, 1, &idx));
  if (w.empty()) return fail(e, "a 0-d embedding table");
  idx.insert(idx.end(), w.begin() + 1, w.end());
  return set_out(e, idx);
}

// index.Tensor(x [R, ...], [idx], out) -> idx.shape + x.shape[1:].
Error index_tensor(Env& e) {
  Dims x;
  EMBER_RETURN_IF_ERROR(dims_of(e, 0, &x));
  if (x.empty()) return fail(e, "indexing a 0-d tensor");
  const Value& list = e.value(1);
  if (list.kind != ValueKind::ValueList || list.items.size() != 1) {
    return fail(e, "an index list other than one tensor");
  }
  const Value& index = e.graph.values[size_t(list.items[0])];
  if (index.kind != ValueKind::Tensor) return fail(e, "an index that is not a tensor");
  const TensorDesc& i = index.tensor;
  Dims out(i.sizes, i.sizes + i.rank);
  out.insert(out.end(), x.begin() + 1, x.end());
  return set_out(e, out);
}

// The Llama operators.
Error rotary(Env& e) {
  EMBER_RETURN_IF_ERROR(need(e, 5));
  Dims q, k;
  EMBER_RETURN_IF_ERROR(dims_of(e, 0, &q));
  EMBER_RETURN_IF_ERROR(dims_of(e, 1, &k));
  const std::vector<int32_t> outs = outputs(e);
  if (outs.size() != 2) return fail(e, "rotary embedding without two outputs");
  EMBER_RETURN_IF_ERROR(set_dims(e, outs[0], q));
  return set_dims(e, outs[1], k);
}

Error sym_size(Env& e) {
  EMBER_RETURN_IF_ERROR(need(e, 3));
  Dims in;
  int64_t dim = 0;
  EMBER_RETURN_IF_ERROR(dims_of(e, 0, &in));
  EMBER_RETURN_IF_ERROR(int_of(e, 1, &dim));
  if (in.empty()) return fail(e, "the size of a 0-d tensor");
  size_t k = 0;
  EMBER_RETURN_IF_ERROR(norm_dim(e, dim, in.size(), &k));
  Value& out = e.graph.values[size_t(e.id(2))];
  if (out.kind != ValueKind::SymInt) return fail(e, "a result that is not a SymInt");
  out.symint_value = int32_t(in[k]);
  return Error::Ok;
}

// add / sub / mul / floordiv of SymInts and ints.
Error symint_arith(Env& e) {
  EMBER_RETURN_IF_ERROR(need(e, 3));
  int64_t a = 0, b = 0;
  EMBER_RETURN_IF_ERROR(int_of(e, 0, &a));
  EMBER_RETURN_IF_ERROR(int_of(e, 1, &b));
  const char* name = e.op().name.c_str();
  int64_t r = 0;
  bool ok = true;
  if (std::strcmp(name, "add") == 0) {
    ok = checked_add(a, b, &r);
  } else if (std::strcmp(name, "sub") == 0) {
    ok = b != INT64_MIN && checked_add(a, -b, &r);
  } else if (std::strcmp(name, "mul") == 0) {
    ok = checked_mul(a, b, &r);
  } else {
    if (b == -1 && a == INT64_MIN) return fail(e, "a SymInt outside int32");
    if (b == 0) return fail(e, "a division by zero");
    r = a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
  }
  if (!ok || r < INT32_MIN || r > INT32_MAX) return fail(e, "a SymInt outside int32");
  Value& out = e.graph.values[size_t(e.id(2))];
  if (out.kind != ValueKind::SymInt) return fail(e, "a result that is not a SymInt");
  out.symint_value = int32_t(r);
  return Error::Ok;
}

// select_as_symint(x, dim, index): from the host copy of a graph input.
Error select_as_symint(Env& e) {
  EMBER_RETURN_IF_ERROR(need(e, 4));
  int64_t index = 0;
  EMBER_RETURN_IF_ERROR(int_of(e, 2, &index));
  Value& out = e.graph.values[size_t(e.id(3))];
  if (out.kind != ValueKind::SymInt) return fail(e, "a result that is not a SymInt");
  Tensor host;
  if (e.inputs.tensor == nullptr || !e.inputs.tensor(e.inputs.context, uint32_t(e.id(0)), &host)) {
    return Error::Ok;  // not known here: the device slot has it
  }
  const Tensor* t = &host;
  if (t->dim() != 1) return fail(e, "a SymInt source that is not 1-d");
  if (index < -t->numel() || index >= t->numel()) return fail(e, "an index outside the SymInt source");
  if (index < 0) index += t->numel();
  if (index < 0 || index >= t->numel()) return fail(e, "an index outside the SymInt source");
  int64_t v = 0;
  if (t->scalar_type() == ScalarType::Long) {
    v = t->const_data_ptr<int64_t>()[index];
  } else if (t->scalar_type() == ScalarType::Int) {
    v = t->const_data_ptr<int32_t>()[index];
  } else {
    return fail(e, "a SymInt source that is not int32 or int64");
  }
  if (v < INT32_MIN || v > INT32_MAX) return fail(e, "a SymInt outside int32");
  out.symint_value = int32_t(v);
  return Error::Ok;
}

using Rule = Error (*)(Env& e);

struct RuleRow {
  const char* name;
  Rule rule;
};

// Operators whose every output has the first input's shape.
const char* const kSameAsFirst[] = {
    "et_vk.prepack.default", "aten.clone.default", "aten.alias_copy.default",
    "aten._to_copy.default", "dim_order_ops._to_dim_order_copy.default",
    "aten._softmax.default", "aten._log_softmax.default", "et_vk.rms_norm.default",
    "aten.relu.default", "aten.hardtanh.default", "aten.clamp.default", "aten.sigmoid.default",
    "aten.tanh.default", "aten.gelu.default", "aten.silu.default", "aten.hardswish.default",
    "aten.hardsigmoid.default", "aten.leaky_relu.default", "aten.elu.default",
    "aten.exp.default", "aten.log.default", "aten.sqrt.default", "aten.rsqrt.default",
    "aten.neg.default", "aten.abs.default", "aten.sin.default", "aten.cos.default",
    "aten.round.default", "aten.reciprocal.default", "aten.square.default",
    "aten.logical_not.default", "aten.full_like.default", "aten.zeros_like.default",
    "aten.ones_like.default", "sdpa_with_kv_cache.default",
    "llama.sdpa_with_kv_cache.default",
};

const RuleRow kRules[] = {
    {"aten.view_copy.default", view},       {"aten._unsafe_view.default", view},
    {"aten.expand_copy.default", expand},   {"aten.squeeze_copy.dims", squeeze},
    {"aten.squeeze_copy.dim", squeeze},     {"aten.squeeze_copy.default", squeeze},
    {"aten.unsqueeze_copy.default", unsqueeze},
    {"aten.permute_copy.default", permute}, {"aten.permute.default", permute},
    {"aten.transpose_copy.int", transpose}, {"aten.slice_copy.Tensor", slice},
    {"aten.select_copy.int", select},       {"aten.cat.default", cat},
    {"aten.linear.default", linear},        {"aten.mm.default", matmul},
    {"aten.bmm.default", matmul},           {"aten.addmm.default", matmul},
    {"aten.mean.dim", reduce},              {"aten.sum.dim_IntList", reduce},
    {"aten.amax.default", reduce},          {"aten.amin.default", reduce},
    {"aten.argmax.default", reduce},        {"aten.argmin.default", reduce},
    {"aten.native_layer_norm.default", layer_norm},
    {"aten.embedding.default", embedding},  {"aten.index.Tensor", index_tensor},
    {"et_vk.apply_rotary_emb.default", rotary},
    {"sym_size.int", sym_size},             {"add", symint_arith},
    {"sub", symint_arith},                  {"mul", symint_arith},
    {"floordiv", symint_arith},             {"et_vk.select_as_symint.default", select_as_symint},
};

// Binary elementwise and where: broadcast their tensor arguments.
const char* const kBroadcastPrefixes[] = {
    "aten.add.", "aten.sub.", "aten.rsub.", "aten.mul.", "aten.div.", "aten.minimum.",
    "aten.maximum.", "aten.pow.", "aten.eq.", "aten.ne.", "aten.lt.", "aten.le.", "aten.gt.",
    "aten.ge.", "aten.floor_divide.", "aten.logical_and.", "aten.logical_or.", "aten.where.",
};

Rule find_rule(const char* name) {
  for (const RuleRow& r : kRules) {
    if (std::strcmp(r.name, name) == 0) return r.rule;
  }
  for (const char* n : kSameAsFirst) {
    if (std::strcmp(n, name) == 0) return same_as_first;
  }
  for (const char* p : kBroadcastPrefixes) {
    if (std::strncmp(p, name, std::strlen(p)) == 0) return broadcast;
  }
  return nullptr;
}

// No rule: right only while every tensor argument keeps its stored shape.
Error keep_stored(Env& e) {
  for (size_t a = 0; a < e.args(); ++a) {
    const Value& v = e.value(a);
    if (v.kind != ValueKind::Tensor) continue;
    const TensorDesc& b = e.bounds.values[size_t(e.id(a))].tensor;
    if (v.tensor.numel != b.numel ||
        std::memcmp(v.tensor.sizes, b.sizes, sizeof(int64_t) * b.rank) != 0) {
      set_error_message("VulkanBackend operator %zu (%s) has no rule for shapes that change "
                        "at run time", e.index, PrintableName(e.op().name.c_str()).c_str());
      return Error::NotSupported;
    }
  }
  return Error::Ok;
}

}  // namespace

bool has_runtime_shapes(const Graph& graph) {
  for (const Value& v : graph.values) {
    if (v.kind == ValueKind::SymInt) return true;
  }
  return false;
}

Error propagate_shapes(const Graph& bounds, const ShapeInputs& inputs, Graph* graph) {
  for (size_t i = 0; i < graph->chain.size(); ++i) {
    Env e(bounds, *graph, inputs, i);
    if (e.args() == 0) continue;
    const Rule rule = find_rule(e.op().name.c_str());
    EMBER_RETURN_IF_ERROR(rule != nullptr ? rule(e) : keep_stored(e));
  }
  return Error::Ok;
}

}  // namespace ember::vulkan
