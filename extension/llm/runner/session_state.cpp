#include "extension/llm/runner/session_state.h"

#include <algorithm>
#include <cstring>
#include <fstream>

#include "runtime/core/error_message.h"
#include "runtime/executor/extended_header.h"
#include "runtime/executor/program_internal.h"
#include "runtime/executor/tensor_data_kind.h"
#include "schema/program_generated.h"

namespace ember::llm {
namespace {

constexpr uint64_t kWholeBytes = uint64_t(16) << 20;  // hashed whole, at most
constexpr uint64_t kSampleBytes = 4096;
constexpr uint64_t kNumSamples = 64;

const ember_fb::ExecutionPlan* find_plan(const ember_fb::Program* program, const char* name) {
  if (program == nullptr || program->execution_plan() == nullptr) return nullptr;
  for (const ember_fb::ExecutionPlan* plan : *program->execution_plan()) {
    if (plan != nullptr && plan->name() != nullptr && plan->name()->str() == name) {
      return plan;
    }
  }
  return nullptr;
}

// The lowest input value index of `plan`; -1 when it has no inputs.
int64_t first_input(const ember_fb::ExecutionPlan* plan) {
  if (plan->inputs() == nullptr || plan->inputs()->size() == 0) return -1;
  int64_t first = INT64_MAX;
  for (int32_t index : *plan->inputs()) first = std::min<int64_t>(first, index);
  return first;
}

// Bytes [at, at + size) of `in` into the hash.
bool hash_range(std::ifstream& in, uint64_t at, uint64_t size, Hash64* h) {
  std::vector<char> block(size_t(std::min<uint64_t>(size, uint64_t(1) << 20)));
  in.seekg(std::streamoff(at));
  while (size > 0 && in) {
    const size_t n = size_t(std::min<uint64_t>(size, block.size()));
    in.read(block.data(), std::streamsize(n));
    h->update(block.data(), n);
    size -= n;
  }
  return bool(in);
}

// How many leading bytes of the file are hashed whole: the flatbuffer of a
// program with an extended header, else everything, both up to kWholeBytes.
uint64_t whole_part(std::ifstream& in, uint64_t file_size, bool is_program) {
  uint64_t whole = file_size;
  if (is_program && file_size >= ExtendedHeader::kNumHeadBytes) {
    char head[ExtendedHeader::kNumHeadBytes];
    in.seekg(0);
    in.read(head, sizeof(head));
    Result<ExtendedHeader> header = ExtendedHeader::parse(head, sizeof(head));
    if (in && header.ok()) whole = std::min(file_size, header->program_size);
    in.clear();
  }
  return std::min(whole, kWholeBytes);
}

// The file's size, its first part whole and kNumSamples blocks of the rest.
Error hash_file(const std::string& path, bool is_program, Hash64* h) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  EMBER_CHECK_OR_RETURN(bool(in), Error::AccessFailed, "cannot open %s",
                        PrintableName(path.c_str()).c_str());
  const uint64_t size = uint64_t(in.tellg());
  h->update_u64(size);
  const uint64_t whole = whole_part(in, size, is_program);
  bool ok = hash_range(in, 0, whole, h);
  const uint64_t rest = size - whole;
  if (rest <= kNumSamples * kSampleBytes) {
    ok = ok && hash_range(in, whole, rest, h);
  } else {
    for (uint64_t k = 0; k < kNumSamples && ok; ++k) {
      const uint64_t at = whole + (rest - kSampleBytes) * k / (kNumSamples - 1);
      ok = hash_range(in, at, kSampleBytes, h);
    }
  }
  EMBER_CHECK_OR_RETURN(ok, Error::AccessFailed, "cannot read %s",
                        PrintableName(path.c_str()).c_str());
  return Error::Ok;
}

}  // namespace

Result<std::vector<StateBuffer>> find_state_buffers(const Program& program, const Method& method) {
  const ember_fb::ExecutionPlan* plan =
      find_plan(ProgramInternals(program).flatbuffer(), method.name());
  EMBER_CHECK_OR_RETURN(plan != nullptr && plan->values() != nullptr, Error::Internal,
                        "method '%s' is not in its program",
                        PrintableName(method.name()).c_str());
  const int64_t end = first_input(plan);
  EMBER_CHECK_OR_RETURN(end >= 0, Error::NotSupported,
                        "method '%s' takes no inputs: its state buffers cannot be told apart",
                        PrintableName(method.name()).c_str());
  std::vector<StateBuffer> buffers;
  const int64_t n = std::min<int64_t>({end, int64_t(plan->values()->size()),
                                       int64_t(method.num_values())});
  for (int64_t v = 0; v < n; ++v) {
    const ember_fb::EValue* value = plan->values()->Get(flatbuffers::uoffset_t(v));
    const ember_fb::Tensor* t = value != nullptr ? value->val_as_Tensor() : nullptr;
    if (t == nullptr || tensor_data_kind(t) != TensorDataKind::Planned) continue;
    EMBER_CHECK_OR_RETURN(method.value(size_t(v)).is_tensor(), Error::Internal,
                          "method '%s' value %lld is a planned tensor in the program but not "
                          "in the loaded method", PrintableName(method.name()).c_str(),
                          (long long)v);
    const Tensor tensor = method.value(size_t(v)).to_tensor();
    StateBuffer buffer{{uint32_t(v), tensor.scalar_type(), tensor.nbytes()},
                       tensor.mutable_data_ptr()};
    if (t->data_buffer_idx() > 0) {
      buffer.initial_buffer = t->data_buffer_idx();
      const ember_fb::ExtraTensorInfo* extra = t->extra_tensor_info();
      buffer.initial_segments = extra != nullptr ? extra->mutable_data_segments_idx() : 0;
    }
    buffers.push_back(buffer);
  }
  EMBER_CHECK_OR_RETURN(!buffers.empty(), Error::NotSupported,
                        "method '%s' keeps no state between calls (no mutable buffers): "
                        "there is no KV cache to save",
                        PrintableName(method.name()).c_str());
  return buffers;
}

Error reset_state_buffers(const Program& program, const std::vector<StateBuffer>& buffers) {
  for (const StateBuffer& b : buffers) {
    if (b.initial_buffer > 0) {
      EMBER_RETURN_IF_ERROR(ProgramInternals(program).load_mutable_data(
          b.initial_segments, b.initial_buffer, b.data, size_t(b.info.nbytes)));
    } else {
      std::memset(b.data, 0, size_t(b.info.nbytes));
    }
  }
  return Error::Ok;
}

Result<uint64_t> program_identity(const std::string& model_path,
                                  const std::vector<std::string>& data_paths,
                                  const std::string& method_name,
                                  const std::vector<StateBuffer>& buffers) {
  static const char kDomain[] = "ember session identity 1";
  Hash64 h;
  h.update(kDomain, sizeof(kDomain));
  EMBER_RETURN_IF_ERROR(hash_file(model_path, true, &h));
  h.update_u64(data_paths.size());
  for (const std::string& path : data_paths) EMBER_RETURN_IF_ERROR(hash_file(path, false, &h));
  h.update_u64(method_name.size());
  h.update(method_name.data(), method_name.size());
  h.update_u64(buffers.size());
  for (const StateBuffer& b : buffers) {
    h.update_u64(b.info.value_index);
    h.update_u64(uint64_t(uint8_t(b.info.dtype)));
    h.update_u64(b.info.nbytes);
  }
  return h.digest();
}

}  // namespace ember::llm
