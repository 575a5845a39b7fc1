// write_etdump: an EventRecorder's blocks and events as an ETDump flatbuffer
// (devtools/etdump/etdump_schema.fbs, wire-compatible with upstream's).
#include "devtools/etdump/etdump_writer.h"

#include "devtools/etdump/etdump_schema_generated.h"
#include "runtime/core/error_message.h"

namespace ember {
namespace devtools {

namespace {

namespace fb = ::ember_etdump;
using ::flatbuffers::FlatBufferBuilder;
using ::flatbuffers::Offset;

// Upstream's ETDUMP_VERSION (devtools/etdump/etdump_flatcc.h), which its
// reader does not check but writes as the schema version.
constexpr uint32_t kETDumpVersion = 0;

// ETDump's ScalarType enum shares its numbering with ScalarType; it lacks
// the complex types (which upstream never logs either).
bool etdump_scalar_type(ScalarType t, ember_fb::ScalarType* out) {
  switch (t) {
    case ScalarType::ComplexHalf:
    case ScalarType::ComplexFloat:
    case ScalarType::ComplexDouble:
      return false;
    default:
      break;
  }
  if (element_size(t) == 0) {
    return false;  // not a type at all
  }
  *out = ember_fb::ScalarType(int8_t(t));
  return true;
}

Offset<::flatbuffers::String> optional_string(FlatBufferBuilder& fbb, const char* s) {
  return s != nullptr ? fbb.CreateString(s) : Offset<::flatbuffers::String>();
}

Result<Offset<fb::Tensor>> write_tensor(FlatBufferBuilder& fbb, const RecordedTensor& t,
                                        size_t event_index) {
  ember_fb::ScalarType type;
  if (!etdump_scalar_type(t.dtype, &type)) {
    set_error_message("event %zu: ETDump has no scalar type for %s (%d)", event_index,
                      scalar_type_name(t.dtype), int(t.dtype));
    return Error::InvalidArgument;
  }
  const auto sizes = fbb.CreateVector(t.sizes.data(), t.sizes.size());
  const auto strides = fbb.CreateVector(t.strides.data(), t.strides.size());
  return fb::CreateTensor(fbb, type, sizes, strides, t.offset);
}

Result<Offset<fb::Value>> write_value(FlatBufferBuilder& fbb, const EventRecorder& recorder,
                                      size_t event_index, const RecordedValue& v) {
  fb::ValueType type = fb::ValueType::Null;
  Offset<fb::Tensor> tensor;
  Offset<fb::TensorList> tensor_list;
  Offset<fb::Int> int_value;
  Offset<fb::Double> double_value;
  Offset<fb::Bool> bool_value;
  switch (v.tag) {
    case Tag::Tensor: {
      Result<Offset<fb::Tensor>> t =
          write_tensor(fbb, recorder.tensor(event_index, 0), event_index);
      if (!t.ok()) {
        return t.error();
      }
      type = fb::ValueType::Tensor;
      tensor = *t;
      break;
    }
    case Tag::ListTensor: {
      std::vector<Offset<fb::Tensor>> items;
      items.reserve(v.num_tensors);
      for (size_t i = 0; i < v.num_tensors; ++i) {
        Result<Offset<fb::Tensor>> t =
            write_tensor(fbb, recorder.tensor(event_index, i), event_index);
        if (!t.ok()) {
          return t.error();
        }
        items.push_back(*t);
      }
      type = fb::ValueType::TensorList;
      tensor_list = fb::CreateTensorList(fbb, fbb.CreateVector(items));
      break;
    }
    case Tag::Int:
      type = fb::ValueType::Int;
      int_value = fb::CreateInt(fbb, v.int_value);
      break;
    case Tag::Double:
      type = fb::ValueType::Double;
      double_value = fb::CreateDouble(fbb, v.double_value);
      break;
    case Tag::Bool:
      type = fb::ValueType::Bool;
      bool_value = fb::CreateBool(fbb, v.bool_value);
      break;
    default:
      break;  // the recorder keeps no other kind
  }
  const Offset<fb::Bool> output =
      v.is_program_output ? fb::CreateBool(fbb, true) : Offset<fb::Bool>();
  return fb::CreateValue(fbb, type, tensor, tensor_list, int_value, Offset<fb::Float>(),
                         double_value, bool_value, output);
}

Result<Offset<fb::Event>> write_event(FlatBufferBuilder& fbb, const EventRecorder& recorder,
                                      size_t index) {
  const RecordedEvent e = recorder.event(index);
  const auto name = optional_string(fbb, e.name);
  const auto delegate_str = optional_string(fbb, e.delegate_debug_id_str);
  if (e.kind == RecordedEventKind::Profile) {
    const auto metadata =
        e.delegate_metadata.empty()
            ? Offset<::flatbuffers::Vector<uint8_t>>()
            : fbb.CreateVector(e.delegate_metadata.data(), e.delegate_metadata.size());
    const auto profile = fb::CreateProfileEvent(
        fbb, name, e.chain_index, e.instruction_id, e.delegate_debug_id_int, delegate_str,
        metadata, e.start_ticks, e.end_ticks);
    return fb::CreateEvent(fbb, profile);
  }
  Result<Offset<fb::Value>> value = write_value(fbb, recorder, index, e.value);
  if (!value.ok()) {
    return value.error();
  }
  // The field is unsigned; an unset chain (-1, a program output logged
  // after the last instruction) is written sign-extended, as upstream does.
  const uint64_t chain = uint64_t(int64_t(e.chain_index));
  const auto debug = fb::CreateDebugEvent(fbb, chain, e.instruction_id, *value,
                                          e.delegate_debug_id_int, delegate_str, name);
  return fb::CreateEvent(fbb, 0, 0, debug);
}

}  // namespace

Result<std::vector<uint8_t>> write_etdump(const EventRecorder& recorder) {
  FlatBufferBuilder fbb(1024 + recorder.event_bytes_used());
  const size_t num_blocks = recorder.num_blocks();
  std::vector<Offset<fb::RunData>> runs;
  runs.reserve(num_blocks);
  std::vector<Offset<fb::Event>> events;
  RecordedBlock block = num_blocks > 0 ? recorder.block(0) : RecordedBlock();
  for (size_t b = 0; b < num_blocks; ++b) {
    const RecordedBlock next = b + 1 < num_blocks ? recorder.block(b + 1) : RecordedBlock();
    const size_t end = b + 1 < num_blocks ? next.first_event : recorder.num_events();
    events.clear();
    for (size_t i = block.first_event; i < end; ++i) {
      Result<Offset<fb::Event>> event = write_event(fbb, recorder, i);
      if (!event.ok()) {
        return event.error();
      }
      events.push_back(*event);
    }
    const auto name = fbb.CreateString(block.name != nullptr ? block.name : "");
    runs.push_back(fb::CreateRunData(fbb, name, block.bundled_input_index,
                                     /*allocators=*/0, fbb.CreateVector(events)));
    block = next;
  }
  fb::FinishSizePrefixedETDumpBuffer(
      fbb, fb::CreateETDump(fbb, kETDumpVersion, fbb.CreateVector(runs)));
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

}  // namespace devtools
}  // namespace ember
