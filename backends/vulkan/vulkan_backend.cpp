#include "backends/vulkan/vulkan_backend.h"

#include <new>
#include <string>

#include "backends/vulkan/ops/vk_ops.h"
#include "backends/vulkan/vk_executable.h"
#include "backends/vulkan/vk_graph.h"
#include "backends/vulkan/vk_payload.h"
#include "runtime/backend/backend.h"
#include "runtime/platform/error_message.h"
#include "runtime/platform/log.h"

namespace ember::vulkan {
namespace {

// Every operator of the chain has a builder, or NotSupported listing those
// that do not.
Error check_operators(const Graph& graph) {
  std::string missing;
  size_t count = 0;
  for (const OpCall& op : graph.chain) {
    if (find_op(op.name.c_str()) != nullptr) continue;
    const std::string shown = PrintableName(op.name.c_str()).c_str();
    if (missing.find(shown) != std::string::npos) continue;
    missing += (count++ == 0 ? "" : ", ") + shown;
  }
  EMBER_CHECK_OR_RETURN(count == 0, Error::NotSupported,
                        "VulkanBackend does not run %zu operator(s) of this program: %s", count,
                        missing.c_str());
  return Error::Ok;
}

Error build_all(Builder& builder) {
  const Graph& graph = builder.graph();
  for (size_t i = 0; i < graph.chain.size(); ++i) {
    builder.begin_op(i);
    EMBER_RETURN_IF_ERROR(find_op(graph.chain[i].name.c_str())->build(builder));
  }
  return Error::Ok;
}

class VulkanBackend final : public BackendInterface {
 public:
  bool is_available() const override { return true; }

  Result<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer* processed,
                               Span<const CompileSpec> compile_specs) const override {
    (void)compile_specs;
    Result<const Device*> dev = device();
    if (!dev.ok()) return dev.error();
    Payload payload;
    EMBER_RETURN_IF_ERROR(parse_payload(processed->data(), processed->size(), &payload));
    Graph graph;
    EMBER_RETURN_IF_ERROR(parse_graph(payload, &graph));
    EMBER_RETURN_IF_ERROR(check_operators(graph));
    Builder builder(graph);
    EMBER_RETURN_IF_ERROR(build_all(builder));
    std::vector<Dispatch> dispatches = std::move(builder.dispatches());
    Executable* exe = new (std::nothrow) Executable();
    EMBER_CHECK_OR_RETURN(exe != nullptr, Error::MemoryAllocationFailed,
                          "VulkanBackend: no memory for the delegate");
    const Error err = exe->init(**dev, std::move(graph), std::move(dispatches),
                                context.named_data());
    if (err != Error::Ok) {
      delete exe;
      return err;
    }
    processed->free();
    EMBER_LOG(Debug, "VulkanBackend (method '%s'): %zu dispatches, %llu device bytes on '%s'",
              PrintableName(context.method_name()).c_str(), exe->num_dispatches(),
              static_cast<unsigned long long>(exe->device_bytes()), (*dev)->name);
    return static_cast<DelegateHandle*>(exe);
  }

  Error execute(BackendExecutionContext& context, DelegateHandle* handle,
                Span<EValue*> args) const override {
    return static_cast<Executable*>(handle)->execute(args, context.event_tracer());
  }

  void destroy(DelegateHandle* handle) const override {
    delete static_cast<Executable*>(handle);
  }
};

const VulkanBackend kBackend;

const bool kRegistered = [] {
  const Error err = register_backend(kVulkanBackendId, &kBackend);
  if (err != Error::Ok) {
    EMBER_LOG(Error, "VulkanBackend not registered: %s", error_name(err));
  }
  return err == Error::Ok;
}();

}  // namespace
}  // namespace ember::vulkan
