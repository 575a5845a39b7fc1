#include "conformance/program_facts.h"

#include <cinttypes>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <utility>
#include <vector>

#include "backends/xnnpack/xnn_payload.h"
#include "bundled_program/bundled_program.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "runtime/core/error_message.h"
#include "runtime/executor/program.h"
#include "runtime/executor/program_internal.h"
#include "schema/program_generated.h"
#include "schema/xnnpack_graph_generated.h"

namespace ember::conformance {
namespace {

constexpr const char* kXnnpackBackendId = "XnnpackBackend";

// Program bytes copied to memory aligned for the flatbuffer verifier and
// for the embedded program of a .bpte (kBundledProgramAlignment).
class AlignedBytes {
 public:
  AlignedBytes(const void* data, size_t size)
      : blocks_((size + sizeof(Block) - 1) / sizeof(Block)), size_(size) {
    if (size > 0) std::memcpy(blocks_.data(), data, size);
  }
  const uint8_t* data() const { return reinterpret_cast<const uint8_t*>(blocks_.data()); }
  size_t size() const { return size_; }

 private:
  struct alignas(64) Block {
    uint8_t bytes[64];
  };
  static_assert(alignof(Block) >= kBundledProgramAlignment, "bundle alignment");
  std::vector<Block> blocks_;
  size_t size_;
};

// A flatbuffer string from the file, escaped for reports and messages.
std::string escaped(const flatbuffers::String* s) {
  if (s == nullptr) return std::string();
  std::string out(s->size() * 4 + 1, '\0');
  printable_bytes(s->data(), s->size(), &out[0], out.size());
  out.resize(std::strlen(out.c_str()));
  return out;
}

std::string operator_key(const ember_fb::Operator* op) {
  std::string key = escaped(op->name());
  const std::string overload = escaped(op->overload());
  if (!overload.empty()) key += "." + overload;
  return key;
}

std::string node_type_name(ember_xnn_fb::XNodeUnion type) {
  const char* name = ember_xnn_fb::EnumNameXNodeUnion(type);
  if (name != nullptr && name[0] != '\0') return name;
  return "unknown(" + std::to_string(unsigned(type)) + ")";
}

// Adds the node types of one XNNPACK blob to *ops.
Error count_xnnpack_nodes(const void* blob, size_t size,
                          std::map<std::string, uint64_t>* ops) {
  xnnpack::Payload payload;
  EMBER_RETURN_IF_ERROR(xnnpack::parse_payload(blob, size, &payload));
  flatbuffers::Verifier verifier(payload.flatbuffer, payload.flatbuffer_size);
  // No identifier check: parse_payload() accepted XN01 or XN00.
  EMBER_CHECK_OR_RETURN(verifier.VerifyBuffer<ember_xnn_fb::XNNGraph>(nullptr),
                        Error::InvalidProgram,
                        "XNNPACK graph flatbuffer (%zu bytes) failed verification",
                        payload.flatbuffer_size);
  const ember_xnn_fb::XNNGraph* graph =
      flatbuffers::GetRoot<ember_xnn_fb::XNNGraph>(payload.flatbuffer);
  if (graph->xnodes() == nullptr) return Error::Ok;
  for (const ember_xnn_fb::XNode* node : *graph->xnodes()) {
    EMBER_CHECK_OR_RETURN(node != nullptr, Error::InvalidProgram, "XNNPACK graph has a null node");
    ++(*ops)[node_type_name(node->xnode_union_type())];
  }
  return Error::Ok;
}

// Walks every method of a loaded (and fully validated) program.
class FactsCollector {
 public:
  explicit FactsCollector(const Program& program) : program_(program) {}

  Error run(ProgramFacts* facts) {
    const ember_fb::Program* fb = ProgramInternals(program_).flatbuffer();
    if (fb->execution_plan() != nullptr) {
      for (const ember_fb::ExecutionPlan* plan : *fb->execution_plan()) {
        if (plan->operators() != nullptr) {
          for (const ember_fb::Operator* op : *plan->operators()) operators_.insert(operator_key(op));
        }
        EMBER_RETURN_IF_ERROR(count_instructions(plan, facts));
        EMBER_RETURN_IF_ERROR(count_delegates(plan, facts));
      }
    }
    count_constants(fb, facts);
    facts->backends.assign(backends_.begin(), backends_.end());
    facts->operators.assign(operators_.begin(), operators_.end());
    uint64_t delegated = 0;
    for (const auto& entry : facts->delegated_ops) delegated += entry.second;
    const uint64_t total = delegated + facts->kernel_calls;
    facts->delegated_percent = total == 0 ? 0.0 : 100.0 * double(delegated) / double(total);
    return Error::Ok;
  }

 private:
  Error count_instructions(const ember_fb::ExecutionPlan* plan, ProgramFacts* facts) {
    if (plan->chains() == nullptr) return Error::Ok;
    for (const ember_fb::Chain* chain : *plan->chains()) {
      if (chain == nullptr || chain->instructions() == nullptr) continue;
      for (const ember_fb::Instruction* instr : *chain->instructions()) {
        if (instr == nullptr) continue;
        if (const ember_fb::KernelCall* call = instr->instr_args_as_KernelCall()) {
          // Indices were checked by Program::load (InternalConsistency).
          const ember_fb::Operator* op = plan->operators()->Get(call->op_index());
          ++facts->kernel_calls;
          ++facts->undelegated_ops[operator_key(op)];
        } else if (const ember_fb::DelegateCall* dcall = instr->instr_args_as_DelegateCall()) {
          const ember_fb::BackendDelegate* d = plan->delegates()->Get(dcall->delegate_index());
          ++facts->delegate_calls;
          const std::string id = escaped(d->id());
          if (id != kXnnpackBackendId) ++facts->delegated_ops[id + " call"];
        }
      }
    }
    return Error::Ok;
  }

  // Blobs are counted once however many delegates share one (the
  // serializer stores identical processed bytes once); an XNNPACK graph's
  // nodes are counted for every delegate that uses it, as each is a lowered
  // part of the model.
  Error count_delegates(const ember_fb::ExecutionPlan* plan, ProgramFacts* facts) {
    if (plan->delegates() == nullptr) return Error::Ok;
    for (flatbuffers::uoffset_t i = 0; i < plan->delegates()->size(); ++i) {
      const ember_fb::BackendDelegate* d = plan->delegates()->Get(i);
      const std::string id = escaped(d->id());
      backends_.insert(id);
      const ember_fb::BackendDelegateDataReference* ref = d->processed();
      const BlobKey key{uint8_t(ref->location()), ref->index()};
      auto seen = blobs_.find(key);
      if (seen == blobs_.end()) {
        BlobFacts blob_facts;
        const Error err = read_blob(ref, id, &blob_facts);
        if (err != Error::Ok) {
          prefix_error_message(error_name(err), "method '%s' delegate %u (%s)",
                               PrintableName(plan->name() ? plan->name()->c_str() : "").c_str(),
                               i, id.c_str());
          return err;
        }
        ++facts->delegate_blobs;
        facts->delegate_blob_bytes += blob_facts.bytes;
        seen = blobs_.emplace(key, std::move(blob_facts)).first;
      }
      for (const auto& [node, n] : seen->second.xnnpack_nodes) facts->delegated_ops[node] += n;
    }
    return Error::Ok;
  }

  void count_constants(const ember_fb::Program* fb, ProgramFacts* facts) {
    const ember_fb::SubsegmentOffsets* cs = fb->constant_segment();
    if (cs != nullptr && cs->offsets() != nullptr && cs->offsets()->size() > 0 &&
        fb->segments() != nullptr && cs->segment_index() < fb->segments()->size()) {
      facts->constant_bytes += ProgramInternals(program_).segment_size(cs->segment_index());
    }
    if (fb->constant_buffer() != nullptr) {
      for (const ember_fb::Buffer* buffer : *fb->constant_buffer()) {
        if (buffer != nullptr && buffer->storage() != nullptr) {
          facts->constant_bytes += buffer->storage()->size();
        }
      }
    }
  }

  using BlobKey = std::pair<uint8_t, uint32_t>;  // (location, index)
  struct BlobFacts {
    uint64_t bytes = 0;
    std::map<std::string, uint64_t> xnnpack_nodes;  // empty for other backends
  };

  Error read_blob(const ember_fb::BackendDelegateDataReference* ref, const std::string& id,
                  BlobFacts* out) {
    Result<FreeableBuffer> blob = ProgramInternals(program_).load_delegate_data(ref);
    if (!blob.ok()) return blob.error();
    out->bytes = blob->size();
    if (id != kXnnpackBackendId) return Error::Ok;
    return count_xnnpack_nodes(blob->data(), blob->size(), &out->xnnpack_nodes);
  }

  const Program& program_;
  std::set<std::string> backends_;
  std::set<std::string> operators_;
  std::map<BlobKey, BlobFacts> blobs_;
};

}  // namespace

Result<ProgramFacts> program_facts(const void* data, size_t size) {
  clear_error_message();
  EMBER_CHECK_OR_RETURN(data != nullptr || size == 0, Error::InvalidArgument,
                        "program_facts: null data");
  EMBER_CHECK_OR_RETURN(size >= 8, Error::InvalidProgram,
                        "truncated: %zu bytes, a program needs at least 8", size);
  const AlignedBytes bytes(data, size);
  Result<ProgramView> view = ProgramView::open(bytes.data(), bytes.size());
  if (!view.ok()) {
    prefix_error_message(error_name(view.error()), "bundled program");
    return view.error() == Error::NotSupported ? Error::InvalidProgram : view.error();
  }
  const size_t program_size = view->program_size();
  BufferDataLoader loader(view->program_data(), program_size);
  Result<Program> program = Program::load(&loader, Program::Verification::InternalConsistency);
  if (!program.ok()) {
    prefix_error_message(error_name(program.error()), "program");
    return program.error();
  }
  ProgramFacts facts;
  facts.pte_bytes = program_size;
  EMBER_RETURN_IF_ERROR(FactsCollector(*program).run(&facts));
  return facts;
}

std::string operator_base_name(const std::string& name) {
  const size_t ns = name.find("::");
  if (ns != std::string::npos) return name.substr(0, name.find('.', ns + 2));
  // The dotted spelling: namespace.name[.overload].
  const size_t first = name.find('.');
  if (first == std::string::npos) return name;
  const size_t second = name.find('.', first + 1);
  return name.substr(0, first) + "::" +
         name.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
}

Result<ProgramFacts> program_facts_from_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes;
  if (in) bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) {
    char shown[256];
    printable_name(path.c_str(), shown, sizeof(shown));
    set_error_message("cannot read '%s'", shown);
    return Error::AccessFailed;
  }
  return program_facts(bytes.data(), bytes.size());
}

}  // namespace ember::conformance
