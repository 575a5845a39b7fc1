#include "backends/vulkan/vulkan_backend.h"

#include <new>
#include <string>

#include "backends/vulkan/vk_compile.h"
#include "backends/vulkan/vk_executable.h"
#include "backends/vulkan/vk_graph.h"
#include "runtime/backend/backend.h"
#include "runtime/platform/error_message.h"
#include "runtime/platform/log.h"

namespace ember::vulkan {
namespace {

class VulkanBackend final : public BackendInterface {
 public:
  bool is_available() const override { return true; }

  Result<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer* processed,
                               Span<const CompileSpec> compile_specs) const override {
    (void)compile_specs;
    Result<const Device*> dev = device();
    if (!dev.ok()) return dev.error();
    Graph bounds;
    Graph current;
    std::vector<Dispatch> dispatches;
    EMBER_RETURN_IF_ERROR(
        compile_blob(processed->data(), processed->size(), &bounds, &current, &dispatches));
    Executable* exe = new (std::nothrow) Executable();
    EMBER_CHECK_OR_RETURN(exe != nullptr, Error::MemoryAllocationFailed,
                          "VulkanBackend: no memory for the delegate");
    const Error err = exe->init(**dev, std::move(bounds), std::move(current),
                                std::move(dispatches), context.named_data());
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
