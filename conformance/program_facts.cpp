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

using MethodTables = ProgramInternals::MethodTables;

// A name from the file, escaped for reports and messages.
std::string escaped(Span<const char> s) {
  std::string out(s.size() * 4 + 1, '\0');
  printable_bytes(s.data(), s.size(), &out[0], out.size());
  out.resize(std::strlen(out.c_str()));
  return out;
}

std::string operator_key(const MethodTables::Operator& op) {
  std::string key = escaped(op.name);
  const std::string overload = escaped(op.overload);
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

// Walks every method of a loaded program through the runtime's read-only
// views (ProgramInternals::MethodTables), which read only validated bytes.
class FactsCollector {
 public:
  explicit FactsCollector(const Program& program) : program_(program) {}

  Error run(ProgramFacts* facts) {
    for (size_t m = 0; m < program_.num_methods(); ++m) {
      Result<MethodTables> tables = ProgramInternals(program_).method_tables(m);
      if (!tables.ok()) return tables.error();
      for (size_t i = 0; i < tables->num_operators(); ++i) {
        Result<MethodTables::Operator> op = tables->op(i);
        if (!op.ok()) return op.error();
        operators_.insert(operator_key(*op));
      }
      EMBER_RETURN_IF_ERROR(count_instructions(*tables, facts));
      EMBER_RETURN_IF_ERROR(count_delegates(m, *tables, facts));
    }
    facts->constant_bytes += ProgramInternals(program_).constant_bytes();
    facts->backends.assign(backends_.begin(), backends_.end());
    facts->operators.assign(operators_.begin(), operators_.end());
    uint64_t delegated = 0;
    for (const auto& entry : facts->delegated_ops) delegated += entry.second;
    const uint64_t total = delegated + facts->kernel_calls;
    facts->delegated_percent = total == 0 ? 0.0 : 100.0 * double(delegated) / double(total);
    return Error::Ok;
  }

 private:
  Error count_instructions(const MethodTables& tables, ProgramFacts* facts) {
    for (size_t c = 0; c < tables.num_chains(); ++c) {
      for (size_t pc = 0; pc < tables.num_instructions(c); ++pc) {
        Result<MethodTables::Instruction> ins = tables.instruction(c, pc);
        if (!ins.ok()) return ins.error();
        if (ins->kind == MethodTables::InstructionKind::Kernel) {
          Result<MethodTables::Operator> op = tables.op(ins->index);
          if (!op.ok()) return op.error();
          ++facts->kernel_calls;
          ++facts->undelegated_ops[operator_key(*op)];
        } else if (ins->kind == MethodTables::InstructionKind::Delegate) {
          Result<MethodTables::Delegate> d = tables.delegate(ins->index);
          if (!d.ok()) return d.error();
          ++facts->delegate_calls;
          const std::string id = escaped(d->id);
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
  Error count_delegates(size_t method, const MethodTables& tables, ProgramFacts* facts) {
    for (size_t i = 0; i < tables.num_delegates(); ++i) {
      Result<MethodTables::Delegate> d = tables.delegate(i);
      if (!d.ok()) return d.error();
      const std::string id = escaped(d->id);
      backends_.insert(id);
      const BlobKey key{d->inline_data, d->data_index};
      auto seen = blobs_.find(key);
      if (seen == blobs_.end()) {
        BlobFacts blob_facts;
        const Error err = read_blob(tables, i, id, &blob_facts);
        if (err != Error::Ok) {
          Result<const char*> name = program_.get_method_name(method);
          prefix_error_message(error_name(err), "method '%s' delegate %u (%s)",
                               PrintableName(name.ok() ? *name : "").c_str(), unsigned(i),
                               id.c_str());
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

  using BlobKey = std::pair<bool, uint32_t>;  // (inline, index in its table)
  struct BlobFacts {
    uint64_t bytes = 0;
    std::map<std::string, uint64_t> xnnpack_nodes;  // empty for other backends
  };

  Error read_blob(const MethodTables& tables, size_t delegate, const std::string& id,
                  BlobFacts* out) {
    Result<FreeableBuffer> blob = tables.load_delegate_data(delegate);
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
