#include "backends/xnnpack/xnn_graph.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "backends/xnnpack/xnn_window_check.h"
#include "schema/xnnpack_graph_generated.h"

namespace ember::xnnpack {
namespace fb = ::ember_xnn_fb;
namespace {

// Bound on serialized value ids (upstream numbers them 0..n-1).
constexpr uint32_t kMaxValueId = 1u << 24;

// The serialized datatype numbering is upstream's schema's, not XNNPACK's
// enum (qbint4 is 10 there, 12 here).
Error map_datatype(fb::XNNDatatype t, size_t value, Value* v) {
  v->nibbles = false;
  switch (t) {
    case fb::XNNDatatype::xnn_datatype_fp32: v->dtype = xnn_datatype_fp32; v->element_size = 4; break;
    case fb::XNNDatatype::xnn_datatype_fp16: v->dtype = xnn_datatype_fp16; v->element_size = 2; break;
    case fb::XNNDatatype::xnn_datatype_qint8: v->dtype = xnn_datatype_qint8; v->element_size = 1; break;
    case fb::XNNDatatype::xnn_datatype_quint8: v->dtype = xnn_datatype_quint8; v->element_size = 1; break;
    case fb::XNNDatatype::xnn_datatype_qint32: v->dtype = xnn_datatype_qint32; v->element_size = 4; break;
    case fb::XNNDatatype::xnn_datatype_qcint8: v->dtype = xnn_datatype_qcint8; v->element_size = 1; break;
    case fb::XNNDatatype::xnn_datatype_qcint32: v->dtype = xnn_datatype_qcint32; v->element_size = 4; break;
    case fb::XNNDatatype::xnn_datatype_qdint8: v->dtype = xnn_datatype_qdint8; v->element_size = 1; break;
    case fb::XNNDatatype::xnn_datatype_int32: v->dtype = xnn_datatype_int32; v->element_size = 4; break;
    case fb::XNNDatatype::xnn_datatype_qcint4:
      v->dtype = xnn_datatype_qcint4; v->element_size = 1; v->nibbles = true; break;
    case fb::XNNDatatype::xnn_datatype_qbint4:
      v->dtype = xnn_datatype_qbint4; v->element_size = 1; v->nibbles = true; break;
    default:
      set_error_message("XNNPACK value %zu: datatype %s is not supported by this delegate",
                        value, fb::EnumNameXNNDatatype(t));
      return Error::NotSupported;
  }
  return Error::Ok;
}

const char* xnn_datatype_name(xnn_datatype t) {
  switch (t) {
    case xnn_datatype_fp32: return "fp32";
    case xnn_datatype_fp16: return "fp16";
    case xnn_datatype_qint8: return "qint8";
    case xnn_datatype_quint8: return "quint8";
    case xnn_datatype_qint32: return "qint32";
    case xnn_datatype_qcint8: return "qcint8";
    case xnn_datatype_qcint32: return "qcint32";
    case xnn_datatype_qcint4: return "qcint4";
    case xnn_datatype_qdint8: return "qdint8";
    case xnn_datatype_qbint4: return "qbint4";
    case xnn_datatype_int32: return "int32";
    default: return "other";
  }
}

// fp32 -> bf16 as upstream's runtime converts inline block scales: scale by
// (1 + 2^-8) then keep the high half, so both runtimes see the same bits.
uint16_t bf16_from_f32(float x) {
  const float adjusted = x * 1.00389105f;
  uint32_t bits = 0;
  std::memcpy(&bits, &adjusted, sizeof(bits));
  return uint16_t(bits >> 16);
}

// Resolves constant table entry `idx` to `nbytes` readable bytes.
Error constant_bytes(const Payload& payload, const fb::XNNGraph* g, const NamedDataMap* named,
                     uint32_t idx, size_t nbytes, size_t value, Graph* graph,
                     const void** out) {
  if (payload.has_header) {
    const auto* table = g->constant_data();
    EMBER_CHECK_OR_RETURN(table != nullptr && idx < table->size(), Error::InvalidProgram,
                          "XNNPACK value %zu: constant index %u outside constant_data (%u)",
                          value, idx, table ? table->size() : 0u);
    const fb::ConstantDataOffset* entry = table->Get(idx);
    EMBER_CHECK_OR_RETURN(entry != nullptr, Error::InvalidProgram,
                          "XNNPACK value %zu: constant_data[%u] is null", value, idx);
    const char* key = entry->named_key() ? entry->named_key()->c_str() : "";
    if (key[0] != '\0') {
      EMBER_CHECK_OR_RETURN(named != nullptr, Error::InvalidProgram,
                            "XNNPACK value %zu: constant '%s' is stored by key but the "
                            "program has no named data", value, key);
      Result<FreeableBuffer> buf = named->get_data(key);
      if (!buf.ok()) {
        append_error_message(" (XNNPACK value %zu)", value);
        return buf.error() == Error::NotFound ? Error::InvalidProgram : buf.error();
      }
      EMBER_CHECK_OR_RETURN(buf->size() >= nbytes, Error::InvalidProgram,
                            "XNNPACK value %zu: named data '%s' has %zu bytes, needs %zu",
                            value, key, buf->size(), nbytes);
      *out = buf->data();
      graph->named_buffers.push_back(static_cast<FreeableBuffer&&>(*buf));
      graph->named_keys.emplace_back(key);
      return Error::Ok;
    }
    const uint64_t offset = entry->offset();
    EMBER_CHECK_OR_RETURN(offset <= payload.constants_size &&
                              nbytes <= payload.constants_size - offset,
                          Error::InvalidProgram,
                          "XNNPACK value %zu: constant [%llu, +%zu) outside the %zu bytes of "
                          "constant data", value, static_cast<unsigned long long>(offset),
                          nbytes, payload.constants_size);
    *out = payload.constants + offset;
    return Error::Ok;
  }
  const auto* table = g->constant_buffer();
  EMBER_CHECK_OR_RETURN(table != nullptr && idx < table->size() && table->Get(idx) &&
                            table->Get(idx)->storage(),
                        Error::InvalidProgram,
                        "XNNPACK value %zu: constant_buffer[%u] missing", value, idx);
  EMBER_CHECK_OR_RETURN(table->Get(idx)->storage()->size() >= nbytes, Error::InvalidProgram,
                        "XNNPACK value %zu: constant_buffer[%u] has %u bytes, needs %zu",
                        value, idx, table->Get(idx)->storage()->size(), nbytes);
  *out = table->Get(idx)->storage()->data();
  return Error::Ok;
}

// Per-channel scales, inline or in the constant table.
Error channel_scales(const Payload& payload, const fb::XNNGraph* g, const NamedDataMap* named,
                     const fb::PerChannelQuant* q, size_t index, Graph* graph, Value* v) {
  EMBER_CHECK_OR_RETURN(q != nullptr && q->channel_dim() >= 0 &&
                            size_t(q->channel_dim()) < v->num_dims,
                        Error::InvalidProgram, "XNNPACK value %zu: channel_dim outside rank %zu",
                        index, v->num_dims);
  v->channel_dim = size_t(q->channel_dim());
  const size_t channels = v->dims[v->channel_dim];
  if (q->scale() != nullptr && q->scale()->size() > 0) {
    EMBER_CHECK_OR_RETURN(q->scale()->size() == channels, Error::InvalidProgram,
                          "XNNPACK value %zu: %u scales for %zu channels", index,
                          q->scale()->size(), channels);
    v->channel_scales = q->scale()->data();
    return Error::Ok;
  }
  EMBER_CHECK_OR_RETURN(q->num_scales() == channels && q->scale_buffer_idx() != 0,
                        Error::InvalidProgram, "XNNPACK value %zu: %u scales for %zu channels",
                        index, q->num_scales(), channels);
  const void* scales = nullptr;
  EMBER_RETURN_IF_ERROR(constant_bytes(payload, g, named, q->scale_buffer_idx(),
                                       channels * sizeof(float), index, graph, &scales));
  EMBER_CHECK_OR_RETURN(reinterpret_cast<uintptr_t>(scales) % alignof(float) == 0,
                        Error::InvalidProgram, "XNNPACK value %zu: scales not aligned", index);
  v->channel_scales = static_cast<const float*>(scales);
  return Error::Ok;
}

// Block scales of a qbint4 [out, in] weight: bf16 in the constant table, or
// inline fp32 converted here.
Error block_scales(const Payload& payload, const fb::XNNGraph* g, const NamedDataMap* named,
                   const fb::PerChannelGroupQuant* q, size_t index, Graph* graph, Value* v) {
  EMBER_CHECK_OR_RETURN(q != nullptr && v->num_dims == 2 && q->channel_dim() == 0 &&
                            q->group_size() > 0 && v->dims[1] % size_t(q->group_size()) == 0,
                        Error::InvalidProgram,
                        "XNNPACK value %zu: blockwise quantization needs a 2-D weight, "
                        "channel_dim 0 and a group size that divides %zu", index,
                        v->num_dims == 2 ? v->dims[1] : size_t(0));
  v->channel_dim = 0;
  v->block_size = size_t(q->group_size());
  const size_t count = v->dims[0] * (v->dims[1] / v->block_size);
  if (q->scale_buffer_idx() != 0) {
    EMBER_CHECK_OR_RETURN(q->num_scales() == count, Error::InvalidProgram,
                          "XNNPACK value %zu: %u block scales, %zu blocks", index,
                          q->num_scales(), count);
    const void* scales = nullptr;
    EMBER_RETURN_IF_ERROR(constant_bytes(payload, g, named, q->scale_buffer_idx(),
                                         count * sizeof(uint16_t), index, graph, &scales));
    EMBER_CHECK_OR_RETURN(reinterpret_cast<uintptr_t>(scales) % alignof(uint16_t) == 0,
                          Error::InvalidProgram, "XNNPACK value %zu: scales not aligned",
                          index);
    v->block_scales = static_cast<const uint16_t*>(scales);
    return Error::Ok;
  }
  EMBER_CHECK_OR_RETURN(q->scale() != nullptr && q->scale()->size() == count,
                        Error::InvalidProgram, "XNNPACK value %zu: %u block scales, %zu blocks",
                        index, q->scale() ? q->scale()->size() : 0u, count);
  graph->converted_scales.emplace_back(count);
  std::vector<uint16_t>& bf16 = graph->converted_scales.back();
  for (size_t i = 0; i < count; ++i) bf16[i] = bf16_from_f32(q->scale()->Get(uint32_t(i)));
  v->block_scales = bf16.data();
  return Error::Ok;
}

// The quantization parameters of `v`, checked against its datatype.
Error parse_quantization(const Payload& payload, const fb::XNNGraph* g,
                         const NamedDataMap* named, const fb::XNNQuantizedTensorValue* qv,
                         size_t index, Graph* graph, Value* v) {
  const fb::XNNQuantParams kind = qv->quant_params_type();
  switch (v->dtype) {
    case xnn_datatype_qint8: case xnn_datatype_quint8: case xnn_datatype_qint32:
      if (kind == fb::XNNQuantParams::PerTensorQuant) {
        const fb::PerTensorQuant* q = qv->quant_params_as_PerTensorQuant();
        EMBER_CHECK_OR_RETURN(q != nullptr && std::isfinite(q->scale()) && q->scale() > 0,
                              Error::InvalidProgram,
                              "XNNPACK value %zu: per-tensor scale missing or not positive",
                              index);
        v->scale = q->scale();
        v->zero_point = q->zero_point();
        return Error::Ok;
      }
      break;
    case xnn_datatype_qcint8: case xnn_datatype_qcint32: case xnn_datatype_qcint4:
      if (kind == fb::XNNQuantParams::PerChannelQuant) {
        // 4-bit weights are stored unsigned around 8, as upstream writes them.
        v->zero_point = v->dtype == xnn_datatype_qcint4 ? 8 : 0;
        return channel_scales(payload, g, named, qv->quant_params_as_PerChannelQuant(), index,
                              graph, v);
      }
      break;
    case xnn_datatype_qbint4:
      if (kind == fb::XNNQuantParams::PerChannelGroupQuant) {
        v->zero_point = 8;
        return block_scales(payload, g, named, qv->quant_params_as_PerChannelGroupQuant(),
                            index, graph, v);
      }
      break;
    case xnn_datatype_qdint8:
      if (kind == fb::XNNQuantParams::PerTokenDynamicQuant) {
        const fb::PerTokenDynamicQuant* q = qv->quant_params_as_PerTokenDynamicQuant();
        EMBER_CHECK_OR_RETURN(q != nullptr && q->num_nonbatch_dims() >= 1 &&
                                  size_t(q->num_nonbatch_dims()) <= v->num_dims &&
                                  !v->is_constant(),
                              Error::InvalidProgram,
                              "XNNPACK value %zu: a dynamically quantized value needs 1 to "
                              "%zu non-batch dims and no constant data", index, v->num_dims);
        v->num_nonbatch_dims = size_t(q->num_nonbatch_dims());
        return Error::Ok;
      }
      break;
    default:
      break;
  }
  set_error_message("XNNPACK value %zu: quantization %s with datatype %s is not supported",
                    index, fb::EnumNameXNNQuantParams(kind), xnn_datatype_name(v->dtype));
  return Error::NotSupported;
}

Error parse_value(const Payload& payload, const fb::XNNGraph* g, const NamedDataMap* named,
                  size_t index, Graph* graph, uint32_t* id_out) {
  const fb::XValue* xv = g->xvalues()->Get(uint32_t(index));
  const fb::XNNTensorValue* tv = nullptr;
  const fb::XNNQuantizedTensorValue* qv = nullptr;
  if (xv != nullptr && xv->xvalue_union_type() == fb::XValueUnion::XNNTensorValue) {
    tv = xv->xvalue_union_as_XNNTensorValue();
  } else if (xv != nullptr &&
             xv->xvalue_union_type() == fb::XValueUnion::XNNQuantizedTensorValue) {
    qv = xv->xvalue_union_as_XNNQuantizedTensorValue();
    tv = qv ? qv->tensor_value() : nullptr;
  }
  EMBER_CHECK_OR_RETURN(tv != nullptr, Error::InvalidProgram,
                        "XNNPACK value %zu: not a tensor value", index);
  Value& v = graph->values[index];
  EMBER_RETURN_IF_ERROR(map_datatype(tv->datatype(), index, &v));
  if (tv->dq_datatype() != fb::XNNDatatype::xnn_datatype_invalid) {
    // Older exports: an fp32 graph input quantized per row on the way in.
    EMBER_CHECK_OR_RETURN(tv->dq_datatype() == fb::XNNDatatype::xnn_datatype_qint8 &&
                              v.dtype == xnn_datatype_fp32 &&
                              (tv->flags() & XNN_VALUE_FLAG_EXTERNAL_INPUT) != 0 &&
                              tv->constant_buffer_idx() == 0 && qv == nullptr,
                          Error::NotSupported,
                          "XNNPACK value %zu: dq_datatype %s is supported only as qint8 on "
                          "an fp32 graph input", index,
                          fb::EnumNameXNNDatatype(tv->dq_datatype()));
    v.legacy_dynamic_quant = true;
  }
  const uint32_t rank = tv->dims() ? tv->dims()->size() : 0;
  EMBER_CHECK_OR_RETURN(rank == tv->num_dims() && rank <= kMaxDims, Error::InvalidProgram,
                        "XNNPACK value %zu: num_dims %u, %u dims given (at most %zu)", index,
                        tv->num_dims(), rank, kMaxDims);
  v.num_dims = rank;
  v.numel = 1;
  for (uint32_t d = 0; d < rank; ++d) {
    v.dims[d] = tv->dims()->Get(d);
    // XNNPACK's operators divide by dims (a fuzzed [N, 0, 16] fully
    // connected input raised SIGFPE in its reshape); upstream's partitioner
    // never delegates an empty tensor.
    EMBER_CHECK_OR_RETURN(v.dims[d] != 0, Error::NotSupported,
                          "XNNPACK value %zu: dim %u is 0 (XNNPACK does not run empty tensors)",
                          index, d);
    EMBER_CHECK_OR_RETURN(v.numel <= (size_t(1) << 40) / v.dims[d],
                          Error::InvalidProgram, "XNNPACK value %zu: shape too large", index);
    v.numel *= v.dims[d];
  }
  v.external_id = tv->external_id();
  v.flags = tv->flags();
  EMBER_CHECK_OR_RETURN((v.flags & ~3u) == 0, Error::InvalidProgram,
                        "XNNPACK value %zu: unknown value flags 0x%x", index, v.flags);
  if (v.flags != 0) {
    EMBER_CHECK_OR_RETURN(v.external_id < g->num_externs(), Error::InvalidProgram,
                          "XNNPACK value %zu: external id %u outside num_externs %u", index,
                          v.external_id, g->num_externs());
  }
  if (tv->constant_buffer_idx() != 0) {
    EMBER_CHECK_OR_RETURN(v.flags == 0, Error::InvalidProgram,
                          "XNNPACK value %zu: a constant cannot be external", index);
    EMBER_RETURN_IF_ERROR(constant_bytes(payload, g, named, tv->constant_buffer_idx(),
                                         v.nbytes(), index, graph, &v.data));
  }
  if (v.dtype != xnn_datatype_fp32 && v.dtype != xnn_datatype_fp16 &&
      v.dtype != xnn_datatype_int32) {
    EMBER_CHECK_OR_RETURN(qv != nullptr, Error::InvalidProgram,
                          "XNNPACK value %zu: quantized datatype without parameters", index);
  }
  if (qv != nullptr) {
    EMBER_RETURN_IF_ERROR(parse_quantization(payload, g, named, qv, index, graph, &v));
  }
  *id_out = tv->id_out();
  return Error::Ok;
}

// Operand ids of one node, by type. Returns false for a malformed table.
bool node_operands(const fb::XNode* n, uint32_t* in, size_t* nin, uint32_t* out,
                   bool* bias_optional) {
  using T = fb::XNodeUnion;
  const void* u = n->xnode_union();
  if (u == nullptr) return false;
  *bias_optional = false;
  switch (n->xnode_union_type()) {
    case T::XNNAdd: case T::XNNDiv: case T::XNNMinimum: case T::XNNMultiply:
    case T::XNNSubtract: case T::XNNMaximum: case T::XNNPReLU:
    case T::XNNBatchMatrixMultiply: {
      const auto* t = static_cast<const fb::_XNNNode2x1*>(u);
      in[0] = t->input1_id(); in[1] = t->input2_id(); *nin = 2; *out = t->output_id();
      return true;
    }
    case T::XNNSoftmax: case T::XNNSigmoid: case T::XNNClamp: case T::XNNFloor:
    case T::XNNConvert: case T::XNNGlobalAvgPooling2d: case T::XNNSquareRoot:
    case T::XNNCeiling: case T::XNNHardswish: case T::XNNNegate: case T::XNNSquare:
    case T::XNNAbs: case T::XNNReciprocalSquareRoot: case T::XNNLog: case T::XNNGelu:
    case T::XNNTanh: case T::XNNExp: case T::XNNSin: case T::XNNCopy: case T::XNNCos: {
      const auto* t = static_cast<const fb::_XNNNode1x1*>(u);
      in[0] = t->input_id(); *nin = 1; *out = t->output_id();
      return true;
    }
    case T::XNNConv2d: case T::XNNDepthwiseConv2d: case T::XNNConvTranspose2d: {
      const auto* t = static_cast<const fb::_XNNNodeConv*>(u);
      in[0] = t->input1_id(); in[1] = t->filter_id(); in[2] = t->bias_id(); *nin = 3;
      *out = t->output_id();
      *bias_optional = true;
      return true;
    }
    case T::XNNFullyConnected: {
      const auto* t = static_cast<const fb::XNNFullyConnected*>(u);
      in[0] = t->input1_id(); in[1] = t->filter_id(); in[2] = t->bias_id(); *nin = 3;
      *out = t->output_id();
      *bias_optional = true;
      return true;
    }
    case T::XNNAvgPooling2d: case T::XNNMaxPooling2d: {
      const auto* t = static_cast<const fb::_XNNPooling2D*>(u);
      in[0] = t->input_id(); *nin = 1; *out = t->output_id();
      return true;
    }
#define EMBER_XNN_1X1(Name)                                  \
    case T::Name: {                                           \
      const auto* t = static_cast<const fb::Name*>(u);        \
      in[0] = t->input_id(); *nin = 1; *out = t->output_id(); \
      return true;                                            \
    }
    EMBER_XNN_1X1(XNNStaticTranspose)
    EMBER_XNN_1X1(XNNStaticResizeBilinear2D)
    EMBER_XNN_1X1(XNNStaticConstantPad)
    EMBER_XNN_1X1(XNNStaticReshape)
    EMBER_XNN_1X1(XNNStaticSlice)
    EMBER_XNN_1X1(XNNELU)
    EMBER_XNN_1X1(XNNLeakyReLU)
#undef EMBER_XNN_1X1
    case T::XNNConcatenate2: case T::XNNConcatenate3: case T::XNNConcatenate4:
    case T::XNNConcatenate5: {
      const auto* t = static_cast<const fb::_XNNCat*>(u);
      const uint32_t all[5] = {t->input1_id(), t->input2_id(), t->input3_id(),
                               t->input4_id(), t->input5_id()};
      *nin = n->xnode_union_type() == T::XNNConcatenate2   ? 2
             : n->xnode_union_type() == T::XNNConcatenate3 ? 3
             : n->xnode_union_type() == T::XNNConcatenate4 ? 4
                                                            : 5;
      for (size_t i = 0; i < *nin; ++i) in[i] = all[i];
      *out = t->output_id();
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

Error scalar_type_of(xnn_datatype t, ScalarType* out) {
  switch (t) {
    case xnn_datatype_fp32: *out = ScalarType::Float; return Error::Ok;
    case xnn_datatype_fp16: *out = ScalarType::Half; return Error::Ok;
    case xnn_datatype_qint8: *out = ScalarType::Char; return Error::Ok;
    case xnn_datatype_quint8: *out = ScalarType::Byte; return Error::Ok;
    case xnn_datatype_qint32: case xnn_datatype_int32: *out = ScalarType::Int; return Error::Ok;
    default: return Error::NotSupported;
  }
}

const char* node_type_name(fb::XNodeUnion type) {
  const char* name = fb::EnumNameXNodeUnion(type);
  return name != nullptr && name[0] != '\0' ? name : "unknown";
}

namespace {

// The blob's flatbuffer, verified. flatbuffers reads scalars in place, and
// its verifier checks their alignment only from the buffer's start: a
// graph the blob's header puts off an 8-byte boundary is read from an
// aligned copy the graph keeps.
Error verified_root(const Payload& payload, Graph* graph, const fb::XNNGraph** root) {
  const uint8_t* bytes = payload.flatbuffer;
  if (reinterpret_cast<uintptr_t>(bytes) % alignof(uint64_t) != 0) {
    graph->aligned_flatbuffer.assign((payload.flatbuffer_size + 7) / 8, 0);
    std::memcpy(graph->aligned_flatbuffer.data(), bytes, payload.flatbuffer_size);
    bytes = reinterpret_cast<const uint8_t*>(graph->aligned_flatbuffer.data());
  }
  flatbuffers::Verifier verifier(bytes, payload.flatbuffer_size);
  EMBER_CHECK_OR_RETURN(verifier.VerifyBuffer<fb::XNNGraph>(nullptr), Error::InvalidProgram,
                        "XNNPACK graph flatbuffer (%zu bytes) failed verification",
                        payload.flatbuffer_size);
  const fb::XNNGraph* g = flatbuffers::GetRoot<fb::XNNGraph>(bytes);
  EMBER_CHECK_OR_RETURN(g->xvalues() != nullptr && g->xnodes() != nullptr,
                        Error::InvalidProgram, "XNNPACK graph has no values or no nodes");
  *root = g;
  return Error::Ok;
}

// Values, and the map from serialized id to value index.
Error parse_values(const Payload& payload, const fb::XNNGraph* g, const NamedDataMap* named,
                   Graph* graph, std::vector<uint32_t>* index_of) {
  const size_t num_values = g->xvalues()->size();
  graph->values.assign(num_values, Value());
  for (size_t i = 0; i < num_values; ++i) {
    uint32_t id = 0;
    EMBER_RETURN_IF_ERROR(parse_value(payload, g, named, i, graph, &id));
    EMBER_CHECK_OR_RETURN(id < kMaxValueId, Error::InvalidProgram,
                          "XNNPACK value %zu: id %u too large", i, id);
    if (id >= index_of->size()) index_of->resize(size_t(id) + 1, kInvalidId);
    EMBER_CHECK_OR_RETURN((*index_of)[id] == kInvalidId, Error::InvalidProgram,
                          "XNNPACK value %zu: id %u defined twice", i, id);
    (*index_of)[id] = uint32_t(i);
  }
  return Error::Ok;
}

// A node's serialized operand ids as value indices.
Error resolve_operands(const fb::XNode* xn, const std::vector<uint32_t>& index_of, Node* node,
                       uint32_t* out_id) {
  const size_t i = node->index;
  const char* type = node_type_name(node->type);
  uint32_t ids[kMaxNodeInputs];
  bool bias_optional = false;
  if (!node_operands(xn, ids, &node->num_inputs, out_id, &bias_optional)) {
    set_error_message("XNNPACK node %zu (%s): node type not supported by this delegate",
                      i, type);
    return xn->xnode_union() == nullptr ? Error::InvalidProgram : Error::NotSupported;
  }
  for (size_t k = 0; k < node->num_inputs; ++k) {
    if (ids[k] == kInvalidId && bias_optional && k == 2) {
      node->inputs[k] = kInvalidId;
      continue;
    }
    EMBER_CHECK_OR_RETURN(ids[k] < index_of.size() && index_of[ids[k]] != kInvalidId,
                          Error::InvalidProgram,
                          "XNNPACK node %zu (%s): input %zu refers to value id %u, which "
                          "is not defined", i, type, k, ids[k]);
    node->inputs[k] = index_of[ids[k]];
  }
  EMBER_CHECK_OR_RETURN(*out_id < index_of.size() && index_of[*out_id] != kInvalidId,
                        Error::InvalidProgram,
                        "XNNPACK node %zu (%s): output refers to value id %u, which is not "
                        "defined", i, type, *out_id);
  node->output = index_of[*out_id];
  return Error::Ok;
}

// Data flow in node order: a node writes a value nothing else writes (not
// a constant or graph input) and reads only values already there.
Error check_data_flow(const Graph& graph, const Node& node, uint32_t out_id,
                      const std::vector<uint8_t>& produced) {
  const char* type = node_type_name(node.type);
  const Value& out = graph.values[node.output];
  EMBER_CHECK_OR_RETURN(!out.is_constant() && !(out.flags & XNN_VALUE_FLAG_EXTERNAL_INPUT) &&
                            !produced[node.output],
                        Error::InvalidProgram,
                        "XNNPACK node %zu (%s): output value %u is a constant, a graph "
                        "input, or already produced by another node", node.index, type, out_id);
  for (size_t k = 0; k < node.num_inputs; ++k) {
    const uint32_t v = node.inputs[k];
    if (v == kInvalidId) continue;
    const Value& in = graph.values[v];
    EMBER_CHECK_OR_RETURN(in.is_constant() || (in.flags & XNN_VALUE_FLAG_EXTERNAL_INPUT) ||
                              produced[v],
                          Error::InvalidProgram,
                          "XNNPACK node %zu (%s): input %zu (value %u) is read before any "
                          "node writes it", node.index, type, k, v);
  }
  return Error::Ok;
}

Error parse_nodes(const fb::XNNGraph* g, const std::vector<uint32_t>& index_of, Graph* graph,
                  std::vector<uint8_t>* produced) {
  const size_t num_nodes = g->xnodes()->size();
  graph->nodes.assign(num_nodes, Node());
  for (size_t i = 0; i < num_nodes; ++i) {
    const fb::XNode* xn = g->xnodes()->Get(uint32_t(i));
    Node& node = graph->nodes[i];
    node.index = i;
    node.fb = xn;
    EMBER_CHECK_OR_RETURN(xn != nullptr, Error::InvalidProgram, "XNNPACK node %zu is null", i);
    node.type = xn->xnode_union_type();
    uint32_t out_id = kInvalidId;
    EMBER_RETURN_IF_ERROR(resolve_operands(xn, index_of, &node, &out_id));
    EMBER_RETURN_IF_ERROR(check_data_flow(*graph, node, out_id, *produced));
    EMBER_RETURN_IF_ERROR(check_window_geometry(*graph, node));
    (*produced)[node.output] = 1;
    if (xn->output_min_max() != nullptr) {
      node.output_min = xn->output_min_max()->output_min();
      node.output_max = xn->output_min_max()->output_max();
    }
  }
  return Error::Ok;
}

// External inputs and outputs, in argument order.
Error collect_external_values(const std::vector<uint8_t>& produced, Graph* graph) {
  for (size_t i = 0; i < graph->values.size(); ++i) {
    const Value& v = graph->values[i];
    if (v.flags & XNN_VALUE_FLAG_EXTERNAL_INPUT) graph->inputs.push_back(uint32_t(i));
    if (v.flags & XNN_VALUE_FLAG_EXTERNAL_OUTPUT) {
      EMBER_CHECK_OR_RETURN(produced[i], Error::InvalidProgram,
                            "XNNPACK value %zu is a graph output no node writes", i);
      graph->outputs.push_back(uint32_t(i));
    }
  }
  EMBER_CHECK_OR_RETURN(!graph->outputs.empty(), Error::InvalidProgram,
                        "XNNPACK graph has no output value");
  auto by_external = [&](uint32_t a, uint32_t b) {
    return graph->values[a].external_id < graph->values[b].external_id;
  };
  std::sort(graph->inputs.begin(), graph->inputs.end(), by_external);
  std::sort(graph->outputs.begin(), graph->outputs.end(), by_external);
  return Error::Ok;
}

// No dead nodes: XNNPACK's subgraph optimizer aborts on some graphs whose
// node outputs nobody reads (a fuzzer finding), and upstream's serializer
// never writes one.
Error check_no_dead_nodes(const Graph& graph) {
  std::vector<uint8_t> read(graph.values.size(), 0);
  for (const Node& node : graph.nodes) {
    for (size_t k = 0; k < node.num_inputs; ++k) {
      if (node.inputs[k] != kInvalidId) read[node.inputs[k]] = 1;
    }
  }
  for (const Node& node : graph.nodes) {
    EMBER_CHECK_OR_RETURN(read[node.output] ||
                              (graph.values[node.output].flags & XNN_VALUE_FLAG_EXTERNAL_OUTPUT),
                          Error::InvalidProgram,
                          "XNNPACK node %zu (%s): its output (value %u) is neither read by "
                          "another node nor a graph output", node.index,
                          node_type_name(node.type), node.output);
  }
  return Error::Ok;
}

}  // namespace

Error build_graph(const Payload& payload, const NamedDataMap* named, Graph* graph) {
  const fb::XNNGraph* g = nullptr;
  EMBER_RETURN_IF_ERROR(verified_root(payload, graph, &g));
  std::vector<uint32_t> index_of;
  EMBER_RETURN_IF_ERROR(parse_values(payload, g, named, graph, &index_of));
  std::vector<uint8_t> produced(graph->values.size(), 0);
  EMBER_RETURN_IF_ERROR(parse_nodes(g, index_of, graph, &produced));
  EMBER_RETURN_IF_ERROR(collect_external_values(produced, graph));
  return check_no_dead_nodes(*graph);
}

void format_dims(const size_t* dims, size_t rank, char* out, size_t size) {
  size_t used = size_t(snprintf(out, size, "["));
  for (size_t d = 0; d < rank && used < size; ++d) {
    used += size_t(snprintf(out + used, size - used, "%s%zu", d ? ", " : "", dims[d]));
  }
  if (used < size) snprintf(out + used, size - used, "]");
}

}  // namespace ember::xnnpack
