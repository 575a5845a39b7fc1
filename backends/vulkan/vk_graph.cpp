#include "backends/vulkan/vk_graph.h"

#include <cstring>

#include "flatbuffers/flatbuffers.h"
#include "runtime/platform/error_message.h"
#include "schema/vulkan_graph_generated.h"

namespace ember::vulkan {
namespace fb = ember_vk_fb;

const char* dtype_name(DType t) {
  switch (t) {
    case DType::Bool: return "bool";
    case DType::UInt8: return "uint8";
    case DType::Int8: return "int8";
    case DType::Int32: return "int32";
    case DType::Float16: return "float16";
    case DType::Float32: return "float32";
    case DType::Float64: return "float64";
    case DType::Int64: return "int64";
  }
  return "?";
}

size_t dtype_bytes(DType t) {
  switch (t) {
    case DType::Bool: case DType::UInt8: case DType::Int8: return 1;
    case DType::Float16: return 2;
    case DType::Int32: case DType::Float32: return 4;
    case DType::Float64: case DType::Int64: return 8;
  }
  return 0;
}

const char* value_kind_name(ValueKind k) {
  static const char* const kNames[] = {"Null", "Int", "Double", "Bool", "Tensor", "IntList",
                                       "DoubleList", "BoolList", "ValueList", "String",
                                       "SymInt"};
  return kNames[static_cast<size_t>(k)];
}

namespace {

Error verified_root(const Payload& payload, Graph* graph, const fb::VkGraph** root) {
  const uint8_t* bytes = payload.flatbuffer;
  if (reinterpret_cast<uintptr_t>(bytes) % alignof(uint64_t) != 0) {
    graph->aligned_copy.assign((payload.flatbuffer_size + 7) / 8, 0);
    std::memcpy(graph->aligned_copy.data(), bytes, payload.flatbuffer_size);
    bytes = reinterpret_cast<const uint8_t*>(graph->aligned_copy.data());
  }
  flatbuffers::Verifier verifier(bytes, payload.flatbuffer_size);
  EMBER_CHECK_OR_RETURN(verifier.VerifyBuffer<fb::VkGraph>(nullptr), Error::InvalidProgram,
                        "VulkanBackend graph flatbuffer (%zu bytes) failed verification",
                        payload.flatbuffer_size);
  const fb::VkGraph* g = flatbuffers::GetRoot<fb::VkGraph>(bytes);
  EMBER_CHECK_OR_RETURN(g->values() != nullptr && g->chain() != nullptr, Error::InvalidProgram,
                        "VulkanBackend graph has no values or no operator chain");
  *root = g;
  return Error::Ok;
}

Error parse_dtype(int8_t raw, size_t index, DType* out) {
  EMBER_CHECK_OR_RETURN(raw >= 0 && raw <= static_cast<int8_t>(DType::Int64),
                        Error::InvalidProgram,
                        "VulkanBackend value %zu: tensor datatype %d is not one Ember knows",
                        index, int(raw));
  *out = static_cast<DType>(raw);
  return Error::Ok;
}

Error parse_tensor(const fb::VkTensor* t, size_t index, size_t num_constants,
                   TensorDesc* out) {
  EMBER_RETURN_IF_ERROR(parse_dtype(static_cast<int8_t>(t->datatype()), index, &out->dtype));
  const auto* dims = t->dims();
  const size_t rank = dims == nullptr ? 0 : dims->size();
  EMBER_CHECK_OR_RETURN(rank <= kMaxRank, Error::InvalidProgram,
                        "VulkanBackend value %zu: tensor of rank %zu, at most %zu supported",
                        index, rank, kMaxRank);
  out->rank = uint32_t(rank);
  // The product of the non-zero dims is bounded, not only numel: a tensor
  // with a zero dim has numel 0, but its strides and the products builders
  // take over some of its dims still grow with the others.
  int64_t numel = 1;
  int64_t extent = 1;  // the product of the non-zero dims
  for (size_t d = 0; d < rank; ++d) {
    const uint32_t s = dims->Get(uint32_t(d));
    EMBER_CHECK_OR_RETURN(s <= (uint32_t(1) << 31) && (s == 0 || extent <= (int64_t(1) << 40) / s),
                          Error::InvalidProgram,
                          "VulkanBackend value %zu: tensor dim %zu of %u makes it too large",
                          index, d, s);
    out->sizes[d] = s;
    numel *= s;
    if (s != 0) extent *= s;
  }
  out->numel = numel;
  out->constant_id = t->constant_id() < 0 ? -1 : t->constant_id();
  EMBER_CHECK_OR_RETURN(out->constant_id < 0 || size_t(out->constant_id) < num_constants,
                        Error::InvalidProgram,
                        "VulkanBackend value %zu: constant id %d outside the %zu constants",
                        index, int(out->constant_id), num_constants);
  out->mem_obj_id = t->mem_obj_id() < 0 ? -1 : t->mem_obj_id();
  return Error::Ok;
}

// The items of a scalar vector, read bytewise: the verifier checks the
// alignment of a vector's length field, not of its items, so the 8-byte
// items of an IntList or DoubleList may sit 4 bytes off their alignment.
template <typename E, typename T>
void copy_items(const flatbuffers::Vector<E>* v, std::vector<T>* out) {
  out->clear();
  if (v == nullptr) return;
  out->reserve(v->size());
  const uint8_t* items = v->Data();
  for (uint32_t i = 0; i < v->size(); ++i) {
    E item;
    std::memcpy(&item, items + size_t(i) * sizeof(E), sizeof(E));
    out->push_back(T(flatbuffers::EndianScalar(item)));
  }
}

Error parse_list(const fb::VkValue* v, size_t index, size_t num_values, Value* out) {
  switch (v->value_type()) {
    case fb::GraphTypes::IntList:
      out->kind = ValueKind::IntList;
      copy_items(v->value_as_IntList()->items(), &out->ints);
      return Error::Ok;
    case fb::GraphTypes::DoubleList:
      out->kind = ValueKind::DoubleList;
      copy_items(v->value_as_DoubleList()->items(), &out->doubles);
      return Error::Ok;
    case fb::GraphTypes::BoolList:
      out->kind = ValueKind::BoolList;
      copy_items(v->value_as_BoolList()->items(), &out->ints);
      return Error::Ok;
    default:
      break;
  }
  out->kind = ValueKind::ValueList;
  copy_items(v->value_as_ValueList()->items(), &out->items);
  for (size_t i = 0; i < out->items.size(); ++i) {
    EMBER_CHECK_OR_RETURN(out->items[i] >= 0 && size_t(out->items[i]) < num_values,
                          Error::InvalidProgram,
                          "VulkanBackend value %zu: list item %zu is id %d, outside the "
                          "%zu values", index, i, int(out->items[i]), num_values);
  }
  return Error::Ok;
}

Error parse_value(const fb::VkValue* v, size_t index, size_t num_values, size_t num_constants,
                  Value* out) {
  EMBER_CHECK_OR_RETURN(v != nullptr, Error::InvalidProgram,
                        "VulkanBackend value %zu is missing", index);
  const fb::GraphTypes type = v->value_type();
  if (type == fb::GraphTypes::NONE || type == fb::GraphTypes::Null) {
    out->kind = ValueKind::Null;
    return Error::Ok;
  }
  EMBER_CHECK_OR_RETURN(type <= fb::GraphTypes::MAX, Error::InvalidProgram,
                        "VulkanBackend value %zu has union type %d, not one Ember knows", index,
                        int(type));
  // A union member's table may be absent even when its type is set.
  EMBER_CHECK_OR_RETURN(v->value() != nullptr, Error::InvalidProgram,
                        "VulkanBackend value %zu: union type %d without its table", index,
                        int(type));
  switch (type) {
    case fb::GraphTypes::Int:
      out->kind = ValueKind::Int;
      out->int_value = v->value_as_Int()->int_val();
      return Error::Ok;
    case fb::GraphTypes::Double:
      out->kind = ValueKind::Double;
      out->double_value = v->value_as_Double()->double_val();
      return Error::Ok;
    case fb::GraphTypes::Bool:
      out->kind = ValueKind::Bool;
      out->int_value = v->value_as_Bool()->bool_val() ? 1 : 0;
      return Error::Ok;
    case fb::GraphTypes::VkTensor:
      out->kind = ValueKind::Tensor;
      return parse_tensor(v->value_as_VkTensor(), index, num_constants, &out->tensor);
    case fb::GraphTypes::String: {
      out->kind = ValueKind::String;
      const auto* s = v->value_as_String()->string_val();
      if (s != nullptr) out->text.assign(s->c_str(), s->size());
      return Error::Ok;
    }
    case fb::GraphTypes::SymInt:
      out->kind = ValueKind::SymInt;
      out->symint_value = v->value_as_SymInt()->value();
      return Error::Ok;
    default:
      return parse_list(v, index, num_values, out);
  }
}

Error parse_constants(const Payload& payload, const fb::VkGraph* g, Graph* graph) {
  const auto* list = g->constants();
  const size_t n = list == nullptr ? 0 : list->size();
  graph->constants.assign(n, Constant());
  for (size_t i = 0; i < n; ++i) {
    const fb::VkBytes* b = list->Get(uint32_t(i));
    EMBER_CHECK_OR_RETURN(b != nullptr, Error::InvalidProgram,
                          "VulkanBackend constant %zu is missing", i);
    Constant& c = graph->constants[i];
    if (b->named_key() != nullptr && b->named_key()->size() != 0) {
      c.named_key.assign(b->named_key()->c_str(), b->named_key()->size());
      c.length = b->length();
      continue;
    }
    EMBER_CHECK_OR_RETURN(b->offset() <= payload.raw_bytes_size &&
                              b->length() <= payload.raw_bytes_size - b->offset(),
                          Error::InvalidProgram,
                          "VulkanBackend constant %zu: bytes [%llu, +%llu) outside the blob's "
                          "%zu raw bytes", i, static_cast<unsigned long long>(b->offset()),
                          static_cast<unsigned long long>(b->length()), payload.raw_bytes_size);
    c.bytes = payload.raw_bytes + b->offset();
    c.length = b->length();
  }
  return Error::Ok;
}

Error parse_ids(const flatbuffers::Vector<uint32_t>* ids, const char* what, const Graph& graph,
                std::vector<uint32_t>* out) {
  copy_items(ids, out);
  for (size_t i = 0; i < out->size(); ++i) {
    const uint32_t id = (*out)[i];
    EMBER_CHECK_OR_RETURN(id < graph.values.size(), Error::InvalidProgram,
                          "VulkanBackend %s %zu is value id %u, outside the %zu values", what,
                          i, id, graph.values.size());
    const ValueKind k = graph.values[id].kind;
    EMBER_CHECK_OR_RETURN(k == ValueKind::Tensor || (std::strcmp(what, "input") == 0 &&
                                                     (k == ValueKind::SymInt ||
                                                      k == ValueKind::Int)),
                          Error::InvalidProgram, "VulkanBackend %s %zu (value %u) is a %s",
                          what, i, id, value_kind_name(k));
  }
  return Error::Ok;
}

Error parse_chain(const fb::VkGraph* g, Graph* graph) {
  const size_t n = g->chain()->size();
  graph->chain.assign(n, OpCall());
  for (size_t i = 0; i < n; ++i) {
    const fb::OperatorCall* call = g->chain()->Get(uint32_t(i));
    EMBER_CHECK_OR_RETURN(call != nullptr && call->name() != nullptr, Error::InvalidProgram,
                          "VulkanBackend operator %zu has no name", i);
    OpCall& op = graph->chain[i];
    op.node_id = call->node_id();
    op.name.assign(call->name()->c_str(), call->name()->size());
    EMBER_CHECK_OR_RETURN(std::strlen(op.name.c_str()) == op.name.size(), Error::InvalidProgram,
                          "VulkanBackend operator %zu: its name holds a NUL byte", i);
    copy_items(call->args(), &op.args);
    for (size_t a = 0; a < op.args.size(); ++a) {
      if (op.args[a] >= 0 && size_t(op.args[a]) < graph->values.size()) continue;
      char name[64];
      printable_name(op.name.c_str(), name, sizeof(name));
      EMBER_CHECK_OR_RETURN(false, Error::InvalidProgram,
                            "VulkanBackend operator %zu (%s): argument %zu is id %d, "
                                "outside the %zu values", i, name, a, int(op.args[a]),
                                graph->values.size());
    }
  }
  return Error::Ok;
}

}  // namespace

Error parse_graph(const Payload& payload, Graph* graph) {
  const fb::VkGraph* g = nullptr;
  EMBER_RETURN_IF_ERROR(verified_root(payload, graph, &g));
  if (g->version() != nullptr) graph->version.assign(g->version()->c_str(), g->version()->size());
  EMBER_RETURN_IF_ERROR(parse_constants(payload, g, graph));
  const size_t n = g->values()->size();
  graph->values.assign(n, Value());
  for (size_t i = 0; i < n; ++i) {
    EMBER_RETURN_IF_ERROR(
        parse_value(g->values()->Get(uint32_t(i)), i, n, graph->constants.size(),
                    &graph->values[i]));
  }
  EMBER_RETURN_IF_ERROR(parse_ids(g->input_ids(), "input", *graph, &graph->input_ids));
  EMBER_RETURN_IF_ERROR(parse_ids(g->output_ids(), "output", *graph, &graph->output_ids));
  return parse_chain(g, graph);
}

Error constant_bytes(const Graph& graph, int32_t id, const NamedDataMap* named, size_t need,
                     FreeableBuffer* out) {
  const Constant& c = graph.constants[size_t(id)];
  if (c.named_key.empty()) {
    EMBER_CHECK_OR_RETURN(c.length >= need, Error::InvalidProgram,
                          "VulkanBackend constant %d has %llu bytes, its tensor needs %zu",
                          int(id), static_cast<unsigned long long>(c.length), need);
    *out = FreeableBuffer(c.bytes, size_t(c.length), nullptr);
    return Error::Ok;
  }
  char key[96];
  printable_name(c.named_key.c_str(), key, sizeof(key));
  EMBER_CHECK_OR_RETURN(named != nullptr, Error::InvalidProgram,
                        "VulkanBackend constant %d names data '%s' but the program has no "
                        "named data", int(id), key);
  Result<FreeableBuffer> data = named->get_data(c.named_key.c_str());
  if (!data.ok()) {
    const Error err = data.error();
    EMBER_CHECK_OR_RETURN(false, err, "VulkanBackend constant %d: named data '%s' not found", int(id),
                              key);
  }
  EMBER_CHECK_OR_RETURN(data->size() >= need, Error::InvalidProgram,
                        "VulkanBackend constant %d: named data '%s' has %zu bytes, its tensor "
                        "needs %zu", int(id), key, data->size(), need);
  *out = std::move(*data);
  return Error::Ok;
}

}  // namespace ember::vulkan
