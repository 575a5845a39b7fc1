#include "runtime/kernel/operator_registry.h"

#include <atomic>
#include <cstring>

#include "runtime/platform/log.h"

namespace ember {
namespace {

struct Registry {
  Kernel kernels[kMaxRegisteredKernels];
  size_t count = 0;
};

Registry& registry() {
  static Registry instance;
  return instance;
}

// True if `full` equals name + "." + overload (or name when overload is
// empty).
bool matches(const char* full, const char* name, const char* overload) {
  const size_t name_len = strlen(name);
  if (strncmp(full, name, name_len) != 0) {
    return false;
  }
  const char* rest = full + name_len;
  if (overload == nullptr || overload[0] == '\0') {
    return rest[0] == '\0';
  }
  return rest[0] == '.' && strcmp(rest + 1, overload) == 0;
}

}  // namespace

Error register_kernel(const Kernel& kernel) {
  Registry& r = registry();
  for (size_t i = 0; i < r.count; ++i) {
    if (strcmp(r.kernels[i].name, kernel.name) == 0 &&
        strcmp(r.kernels[i].key, kernel.key) == 0) {
      EMBER_LOG(Error, "kernel %s registered twice", kernel.name);
      return Error::InvalidArgument;
    }
  }
  if (r.count == kMaxRegisteredKernels) {
    EMBER_LOG(Error, "kernel registry full; %s not registered", kernel.name);
    return Error::Internal;
  }
  r.kernels[r.count++] = kernel;
  return Error::Ok;
}

namespace {

const Kernel* find_default(const char* name, const char* overload) {
  const Registry& r = registry();
  for (size_t i = 0; i < r.count; ++i) {
    if (r.kernels[i].key[0] == '\0' && matches(r.kernels[i].name, name, overload)) {
      return &r.kernels[i];
    }
  }
  return nullptr;
}

}  // namespace

OpFunction find_kernel(const char* name, const char* overload) {
  const Kernel* k = find_default(name, overload);
  return k != nullptr ? k->fn : nullptr;
}

bool kernel_prepares(const char* name, const char* overload) {
  const Kernel* k = find_default(name, overload);
  return k != nullptr && k->prepares;
}

namespace {
std::atomic<bool> g_prepare_enabled{true};
}  // namespace

void set_kernel_prepare_enabled(bool enabled) {
  g_prepare_enabled.store(enabled, std::memory_order_relaxed);
}

bool kernel_prepare_enabled() { return g_prepare_enabled.load(std::memory_order_relaxed); }

size_t num_registered_kernels() { return registry().count; }

const Kernel& registered_kernel(size_t index) {
  return registry().kernels[index];
}

}  // namespace ember
