#include "runtime/executor/program.h"

#include <cinttypes>
#include <cstring>

#include "runtime/core/error_message.h"
#include "runtime/executor/extended_header.h"
#include "runtime/executor/program_internal.h"
#include "runtime/executor/program_validation.h"
#include "runtime/platform/cpu_features.h"
#include "runtime/platform/log.h"
#include "schema/program_generated.h"

namespace ember {
namespace {

constexpr size_t kFlatbufferHeaderSize = 8;
constexpr char kProgramIdentifier[4] = {'E', 'T', '1', '2'};

bool add_overflows(uint64_t a, uint64_t b, uint64_t* sum) {
  return __builtin_add_overflow(a, b, sum);
}

// Where the file head says the flatbuffer ends and the segments begin.
struct FileLayout {
  uint64_t program_size = 0;  // bytes of the flatbuffer, from offset 0
  uint64_t segment_base_offset = 0;
  bool has_segment_base = false;
};

// The file's size, at least a flatbuffer header.
Result<size_t> read_file_size(DataLoader* loader) {
  Result<size_t> file_size_result = loader->size();
  if (!file_size_result.ok()) {
    return file_size_result.error();
  }
  const size_t file_size = *file_size_result;
  EMBER_CHECK_OR_RETURN(file_size >= kFlatbufferHeaderSize, Error::InvalidProgram,
                        "truncated: the file is %zu bytes, a program needs at "
                        "least %zu",
                        file_size, kFlatbufferHeaderSize);
  return file_size;
}

// The file identifier in the first `head_size` bytes: ET12, or a message
// saying what the file is instead.
Error check_identifier(const uint8_t* head_bytes, size_t head_size) {
  switch (check_program_header(head_bytes, head_size)) {
    case HeaderStatus::Compatible:
      return Error::Ok;
    case HeaderStatus::OtherVersion: {
      char id[17];
      printable_identifier(head_bytes + 4, id);
      set_error_message("a program of another format version: identifier "
                        "'%s', this runtime reads 'ET12'",
                        id);
      return Error::InvalidProgram;
    }
    case HeaderStatus::NotAProgram: {
      char id[17];
      printable_identifier(head_bytes + 4, id);
      set_error_message("not an ExecuTorch program: file identifier '%s' "
                        "(expected 'ET12'%s)",
                        id,
                        std::memcmp(head_bytes + 4, "BP", 2) == 0
                            ? "; this looks like a bundled program, open it "
                              "with the bundled_program API"
                            : "");
      return Error::InvalidProgram;
    }
    case HeaderStatus::Truncated:
      set_error_message("truncated: file head is %zu bytes", head_size);
      return Error::InvalidProgram;
  }
  return Error::Ok;
}

// The extended header's sizes and offsets, against the file size.
Error check_extended_header(const ExtendedHeader& eh, size_t file_size,
                            FileLayout* layout) {
  EMBER_CHECK_OR_RETURN(
      eh.program_size >= kFlatbufferHeaderSize && eh.program_size <= file_size,
      Error::InvalidProgram,
      "%s: extended header gives a program size of %" PRIu64
      " bytes, the file has %zu",
      eh.program_size > file_size ? "truncated" : "invalid program size",
      eh.program_size, file_size);
  layout->program_size = eh.program_size;
  if (eh.segment_base_offset == 0) {
    return Error::Ok;
  }
  EMBER_CHECK_OR_RETURN(
      eh.segment_base_offset >= layout->program_size &&
          eh.segment_base_offset <= file_size,
      Error::InvalidProgram,
      "extended header segment base offset %" PRIu64
      " is outside [program size %" PRIu64 ", file size %zu]",
      eh.segment_base_offset, layout->program_size, file_size);
  uint64_t segments_end = 0;
  EMBER_CHECK_OR_RETURN(
      !eh.has_segment_data_size ||
          (!add_overflows(eh.segment_base_offset, eh.segment_data_size,
                          &segments_end) &&
           segments_end <= file_size),
      Error::InvalidProgram,
      "truncated: segment data [%" PRIu64 ", +%" PRIu64
      ") extends past the end of the file (%zu bytes)",
      eh.segment_base_offset, eh.segment_data_size, file_size);
  layout->segment_base_offset = eh.segment_base_offset;
  layout->has_segment_base = true;
  return Error::Ok;
}

// Phase 1: the file head (identifier, optional extended header). The head
// bytes are released before the flatbuffer is loaded.
Result<FileLayout> read_file_head(DataLoader* loader, size_t file_size) {
  const size_t head_size =
      file_size < ExtendedHeader::kNumHeadBytes ? file_size
                                                : ExtendedHeader::kNumHeadBytes;
  Result<FreeableBuffer> head = loader->load(0, head_size, SegmentKind::Program);
  if (!head.ok()) {
    return head.error();
  }
  const uint8_t* head_bytes = static_cast<const uint8_t*>(head->data());
  EMBER_RETURN_IF_ERROR(check_identifier(head_bytes, head_size));
  FileLayout layout;
  layout.program_size = file_size;
  Result<ExtendedHeader> eh = ExtendedHeader::parse(head_bytes, head_size);
  if (eh.ok()) {
    EMBER_RETURN_IF_ERROR(check_extended_header(*eh, file_size, &layout));
  } else if (eh.error() != Error::NotFound) {
    return eh.error();
  }
  return layout;
}

// Phase 2: the flatbuffer, loaded and structurally verified (flatbuffers
// Verifier, then the alignment of vector elements).
Result<FreeableBuffer> load_verified_flatbuffer(DataLoader* loader,
                                                uint64_t program_size) {
  Result<FreeableBuffer> data =
      loader->load(0, size_t(program_size), SegmentKind::Program);
  if (!data.ok()) {
    return data.error();
  }
  const uint8_t* bytes = static_cast<const uint8_t*>(data->data());
  flatbuffers::Verifier::Options options;
  options.max_depth = 64;
  options.max_tables = 100000000;
  options.check_alignment = true;
  flatbuffers::Verifier verifier(bytes, size_t(program_size), options);
  EMBER_CHECK_OR_RETURN(
      ember_fb::VerifyProgramBuffer(verifier), Error::InvalidProgram,
      "malformed or truncated program: the flatbuffer (%" PRIu64
      " bytes) failed structural verification",
      program_size);
  EMBER_RETURN_IF_ERROR(validate_vector_alignment(ember_fb::GetProgram(bytes)));
  return static_cast<FreeableBuffer&&>(*data);
}

// Phase 3: every non-empty segment of the segment table lies in the file.
Error check_segment_table(const ember_fb::Program* fb, const FileLayout& layout,
                          size_t file_size) {
  if (fb->segments() == nullptr) {
    return Error::Ok;
  }
  for (flatbuffers::uoffset_t i = 0; i < fb->segments()->size(); ++i) {
    const ember_fb::DataSegment* seg = fb->segments()->Get(i);
    uint64_t start = 0;
    uint64_t end = 0;
    EMBER_CHECK_OR_RETURN(seg != nullptr, Error::InvalidProgram,
                          "segment %u is null", unsigned(i));
    if (seg->size() == 0) {
      continue;  // empty placeholder segments need no file bytes
    }
    EMBER_CHECK_OR_RETURN(
        layout.has_segment_base, Error::InvalidProgram,
        "segment %u has %" PRIu64
        " bytes but the file has no extended header giving a segment base",
        unsigned(i), seg->size());
    EMBER_CHECK_OR_RETURN(
        !add_overflows(layout.segment_base_offset, seg->offset(), &start) &&
            !add_overflows(start, seg->size(), &end) && end <= file_size,
        Error::InvalidProgram,
        "truncated or invalid segment %u: [%" PRIu64 ", +%" PRIu64
        ") past segment base %" PRIu64 " exceeds the file size %zu",
        unsigned(i), seg->offset(), seg->size(), layout.segment_base_offset, file_size);
  }
  return Error::Ok;
}

// InternalConsistency: every method checked now, not when it loads.
Error validate_every_method(const Program& program) {
  const ember_fb::Program* fb = ProgramInternals(program).flatbuffer();
  if (fb->execution_plan() == nullptr) {
    return Error::Ok;
  }
  for (flatbuffers::uoffset_t i = 0; i < fb->execution_plan()->size(); ++i) {
    EMBER_RETURN_IF_ERROR(validate_execution_plan(program, fb->execution_plan()->Get(i)));
  }
  return Error::Ok;
}

}  // namespace

HeaderStatus check_program_header(const void* data, size_t size) {
  if (size < kFlatbufferHeaderSize) {
    return HeaderStatus::Truncated;
  }
  const uint8_t* id = static_cast<const uint8_t*>(data) + 4;
  if (std::memcmp(id, kProgramIdentifier, 4) == 0) {
    return HeaderStatus::Compatible;
  }
  if (id[0] == 'E' && id[1] == 'T' && id[2] >= '0' && id[2] <= '9' &&
      id[3] >= '0' && id[3] <= '9') {
    return HeaderStatus::OtherVersion;
  }
  return HeaderStatus::NotAProgram;
}

Program::Program(Program&& other) noexcept
    : loader_(other.loader_),
      program_data_(static_cast<FreeableBuffer&&>(other.program_data_)),
      constant_segment_(static_cast<FreeableBuffer&&>(other.constant_segment_)),
      program_(other.program_),
      segment_base_offset_(other.segment_base_offset_),
      has_segment_base_(other.has_segment_base_),
      uses_constant_segment_(other.uses_constant_segment_),
      methods_validated_(other.methods_validated_),
      num_data_maps_(other.num_data_maps_) {
  for (size_t i = 0; i < num_data_maps_; ++i) {
    data_maps_[i] = other.data_maps_[i];
  }
  named_data_.program = this;
  other.program_ = nullptr;
}

Result<Program> Program::load(DataLoader* loader, Verification verification) {
  return load(loader, verification, {});
}

Result<Program> Program::load(DataLoader* loader, Verification verification,
                              Span<const NamedDataMap* const> data_maps) {
  clear_error_message();
  EMBER_CHECK_OR_RETURN(data_maps.size() <= kMaxDataMaps, Error::InvalidArgument,
                        "Program::load: %zu data maps, at most %zu", data_maps.size(),
                        kMaxDataMaps);
  for (size_t i = 0; i < data_maps.size(); ++i) {
    EMBER_CHECK_OR_RETURN(data_maps[i] != nullptr, Error::InvalidArgument,
                          "Program::load: data map %zu is null", i);
  }
  EMBER_CHECK_OR_RETURN(loader != nullptr, Error::InvalidArgument,
                        "Program::load: loader is null");
  // A misspelt EMBER_CPU_FEATURES refuses to run, rather than run on a
  // cap nobody asked for (runtime/platform/cpu_features.h).
  const Error cpu = cpu_level_status();
  if (cpu != Error::Ok) return cpu;
  Result<size_t> file_size = read_file_size(loader);
  if (!file_size.ok()) {
    return file_size.error();
  }
  Result<FileLayout> layout = read_file_head(loader, *file_size);
  if (!layout.ok()) {
    return layout.error();
  }
  Result<FreeableBuffer> data = load_verified_flatbuffer(loader, layout->program_size);
  if (!data.ok()) {
    return data.error();
  }

  Program program;
  program.loader_ = loader;
  program.segment_base_offset_ = layout->segment_base_offset;
  program.has_segment_base_ = layout->has_segment_base;
  program.program_data_ = static_cast<FreeableBuffer&&>(*data);
  program.program_ = ember_fb::GetProgram(program.program_data_.data());
  for (size_t i = 0; i < data_maps.size(); ++i) {
    program.data_maps_[i] = data_maps[i];
  }
  program.num_data_maps_ = data_maps.size();
  EMBER_RETURN_IF_ERROR(check_segment_table(program.program_, *layout, *file_size));
  // Phase 4: constants.
  EMBER_RETURN_IF_ERROR(program.load_constant_segment());
  if (verification == Verification::InternalConsistency) {
    EMBER_RETURN_IF_ERROR(validate_every_method(program));
    program.methods_validated_ = true;
  }
  return Result<Program>(static_cast<Program&&>(program));
}

Error Program::load_constant_segment() {
  const ember_fb::SubsegmentOffsets* cs = program_->constant_segment();
  const bool has_segment_constants =
      cs != nullptr && cs->offsets() != nullptr && cs->offsets()->size() > 1;
  const bool has_inline_constants = program_->constant_buffer() != nullptr &&
                                    program_->constant_buffer()->size() > 1;
  EMBER_CHECK_OR_RETURN(!(has_segment_constants && has_inline_constants),
                        Error::InvalidProgram,
                        "program has constants both inline (constant_buffer) "
                        "and in a segment; the format allows one");
  if (!has_segment_constants) {
    return Error::Ok;
  }
  const uint32_t index = cs->segment_index();
  EMBER_CHECK_OR_RETURN(
      program_->segments() != nullptr && index < program_->segments()->size(),
      Error::InvalidProgram,
      "constant_segment.segment_index %u out of range (%u segments)", unsigned(index),
      unsigned(program_->segments() ? program_->segments()->size() : 0u));
  Result<FreeableBuffer> seg = load_segment(index, SegmentKind::Constant);
  if (!seg.ok()) {
    return seg.error();
  }
  constant_segment_ = static_cast<FreeableBuffer&&>(*seg);
  uses_constant_segment_ = true;
  for (flatbuffers::uoffset_t i = 1; i < cs->offsets()->size(); ++i) {
    EMBER_CHECK_OR_RETURN(
        cs->offsets()->Get(i) <= constant_segment_.size(), Error::InvalidProgram,
        "constant_segment.offsets[%u] = %" PRIu64
        " is past the end of the constant segment (%zu bytes)",
        unsigned(i), cs->offsets()->Get(i), constant_segment_.size());
  }
  return Error::Ok;
}

Result<FreeableBuffer> Program::load_segment(size_t index,
                                             SegmentKind kind) const {
  // Bounds were checked against the file in load().
  const ember_fb::DataSegment* seg = program_->segments()->Get(
      flatbuffers::uoffset_t(index));
  if (seg->size() == 0) {
    return FreeableBuffer(nullptr, 0, nullptr);
  }
  return loader_->load(size_t(segment_base_offset_ + seg->offset()),
                       size_t(seg->size()), kind);
}

uint64_t Program::segment_size(size_t index) const {
  return program_->segments()->Get(flatbuffers::uoffset_t(index))->size();
}

size_t Program::num_methods() const {
  return program_->execution_plan() ? program_->execution_plan()->size() : 0;
}

Result<const char*> Program::get_method_name(size_t index) const {
  EMBER_CHECK_OR_RETURN(index < num_methods(), Error::InvalidArgument,
                        "method index %zu out of range (%zu methods)", index,
                        num_methods());
  const ember_fb::ExecutionPlan* plan =
      program_->execution_plan()->Get(flatbuffers::uoffset_t(index));
  EMBER_CHECK_OR_RETURN(plan != nullptr && plan->name() != nullptr, Error::InvalidProgram,
                        "method %zu has no name", index);
  return plan->name()->c_str();
}

const ember_fb::ExecutionPlan* Program::find_plan(const char* name) const {
  for (size_t i = 0; i < num_methods(); ++i) {
    const ember_fb::ExecutionPlan* plan =
        program_->execution_plan()->Get(flatbuffers::uoffset_t(i));
    if (plan != nullptr && plan->name() != nullptr &&
        strcmp(plan->name()->c_str(), name) == 0) {
      return plan;
    }
  }
  return nullptr;
}

namespace {

// The caller's method name may come from another file (a bundle's test
// suite): escaped in the message.
Error no_such_method(const char* method_name) {
  set_error_message("no method named '%s' in the program",
                    PrintableName(method_name).c_str());
  return Error::NotFound;
}

}  // namespace

Result<MethodMeta> Program::method_meta(const char* method_name) const {
  const ember_fb::ExecutionPlan* plan = find_plan(method_name);
  if (plan == nullptr) {
    return no_such_method(method_name);
  }
  return MethodMeta(plan);
}

Result<Method> Program::load_method(const char* method_name, MemoryManager* memory_manager,
                                    EventTracer* event_tracer) const {
  clear_error_message();
  if (event_tracer != nullptr) {
    event_tracer->create_event_block("Default");
  }
  EventTracerScope traced(event_tracer, "Program::load_method");
  const ember_fb::ExecutionPlan* plan = find_plan(method_name);
  if (plan == nullptr) {
    return no_such_method(method_name);
  }
  // Validated once: at program load (InternalConsistency), else here.
  if (!methods_validated_) {
    EMBER_RETURN_IF_ERROR(validate_execution_plan(*this, plan));
  }
  return Method::load(this, plan, memory_manager, event_tracer);
}

bool Program::constant_in_range(uint32_t index, size_t nbytes) const {
  const ember_fb::SubsegmentOffsets* cs = program_->constant_segment();
  if (uses_constant_segment_) {
    if (index >= cs->offsets()->size()) {
      return false;
    }
    const uint64_t offset = cs->offsets()->Get(index);
    return offset <= constant_segment_.size() &&
           nbytes <= constant_segment_.size() - offset;
  }
  const auto* buffers = program_->constant_buffer();
  if (buffers == nullptr || index >= buffers->size()) {
    return false;
  }
  const ember_fb::Buffer* buffer = buffers->Get(index);
  const size_t size =
      buffer != nullptr && buffer->storage() != nullptr ? buffer->storage()->size() : 0;
  return nbytes <= size;
}

const void* Program::constant_data(uint32_t index) const {
  if (uses_constant_segment_) {
    return static_cast<const uint8_t*>(constant_segment_.data()) +
           program_->constant_segment()->offsets()->Get(index);
  }
  const ember_fb::Buffer* buffer = program_->constant_buffer()->Get(index);
  return buffer->storage() != nullptr ? buffer->storage()->data() : nullptr;
}

Error Program::load_mutable_data(uint64_t segments_index, uint32_t buffer_index,
                                 void* dst, size_t nbytes) const {
  // Ranges were validated with the method (validate_execution_plan).
  const ember_fb::SubsegmentOffsets* sub = program_->mutable_data_segments()->Get(
      flatbuffers::uoffset_t(segments_index));
  const uint64_t offset = sub->offsets()->Get(buffer_index);
  Result<FreeableBuffer> seg = load_segment(sub->segment_index(), SegmentKind::Mutable);
  if (!seg.ok()) {
    return seg.error();
  }
  EMBER_CHECK_OR_RETURN(offset <= seg->size() && nbytes <= seg->size() - offset,
                        Error::InvalidProgram,
                        "mutable data [%" PRIu64 ", +%zu) outside its segment "
                        "of %zu bytes",
                        offset, nbytes, seg->size());
  if (nbytes != 0) {
    std::memcpy(dst, static_cast<const uint8_t*>(seg->data()) + offset, nbytes);
  }
  return Error::Ok;
}

Result<FreeableBuffer> Program::load_delegate_data(
    const ember_fb::BackendDelegateDataReference* reference) const {
  // Index ranges were validated with the method.
  if (reference->location() == ember_fb::DataLocation::INLINE) {
    const ember_fb::BackendDelegateInlineData* inline_data =
        program_->backend_delegate_data()->Get(reference->index());
    const auto* bytes = inline_data->data();
    return FreeableBuffer(bytes ? bytes->data() : nullptr, bytes ? bytes->size() : 0,
                          nullptr);
  }
  return load_segment(reference->index(), SegmentKind::Backend);
}

Result<FreeableBuffer> Program::ProgramNamedData::get_data(const char* key) const {
  const ember_fb::Program* fb = program->program_;
  if (fb->named_data() != nullptr) {
    for (flatbuffers::uoffset_t i = 0; i < fb->named_data()->size(); ++i) {
      const ember_fb::NamedData* entry = fb->named_data()->Get(i);
      if (entry == nullptr || entry->key() == nullptr ||
          strcmp(entry->key()->c_str(), key) != 0) {
        continue;
      }
      if (fb->segments() == nullptr || entry->segment_index() >= fb->segments()->size()) {
        char text[128];
        printable_name(key, text, sizeof(text));
        set_error_message("named data '%s' refers to segment %u, out of range", text,
                          unsigned(entry->segment_index()));
        return Error::InvalidProgram;
      }
      return program->load_segment(entry->segment_index(), SegmentKind::External);
    }
  }
  for (size_t m = 0; m < program->num_data_maps_; ++m) {
    Result<FreeableBuffer> data = program->data_maps_[m]->get_data(key);
    if (data.ok() || data.error() != Error::NotFound) {
      return data;
    }
  }
  char text[128];
  printable_name(key, text, sizeof(text));
  set_error_message("no named data with key '%s' in the program or its %zu data file%s", text,
                    program->num_data_maps_, program->num_data_maps_ == 1 ? "" : "s");
  return Error::NotFound;
}

}  // namespace ember
