#include "backends/vulkan/vk_device.h"

#include <dlfcn.h>

#include <cstring>
#include <mutex>
#include <vector>

#include "runtime/platform/error_message.h"
#include "runtime/platform/log.h"

namespace ember::vulkan {
namespace {

// Why creating the device failed, kept for every later call.
struct Outcome {
  Device device;
  Error error = Error::Ok;
  char message[256] = {};
};

std::mutex& queue_mutex() {
  static std::mutex m;
  return m;
}

Error fail(Outcome* o, const char* text) {
  o->error = Error::NotSupported;
  std::snprintf(o->message, sizeof(o->message), "VulkanBackend: %s", text);
  return o->error;
}

Error open_loader(Outcome* o, PFN_vkGetInstanceProcAddr* get_proc) {
  void* lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) lib = dlopen("libvulkan.so", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    return fail(o, "no Vulkan loader (libvulkan.so.1) on this system; install one "
                   "(Debian: libvulkan1 and a driver such as mesa-vulkan-drivers)");
  }
  *get_proc = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(lib, "vkGetInstanceProcAddr"));
  if (*get_proc == nullptr) return fail(o, "the Vulkan loader has no vkGetInstanceProcAddr");
  return Error::Ok;
}

Error create_instance(Outcome* o, PFN_vkGetInstanceProcAddr get_proc) {
  Device& d = o->device;
  d.vk.vkCreateInstance =
      reinterpret_cast<PFN_vkCreateInstance>(get_proc(VK_NULL_HANDLE, "vkCreateInstance"));
  if (d.vk.vkCreateInstance == nullptr) return fail(o, "the loader has no vkCreateInstance");
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "ember";
  app.pEngineName = "ember";
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  const VkResult r = d.vk.vkCreateInstance(&info, nullptr, &d.instance);
  if (r != VK_SUCCESS) {
    char text[128];
    std::snprintf(text, sizeof(text),
                  "vkCreateInstance failed (VkResult %d): no Vulkan 1.1 driver (ICD) found",
                  int(r));
    return fail(o, text);
  }
#define EMBER_VK_FN(name)                                                          \
  if (d.vk.name == nullptr) {                                                       \
    d.vk.name = reinterpret_cast<PFN_##name>(get_proc(d.instance, #name));          \
    if (d.vk.name == nullptr) return fail(o, "the driver lacks " #name);            \
  }
#include "backends/vulkan/vk_functions.inc"
#undef EMBER_VK_FN
  return Error::Ok;
}

int device_rank(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
  }
}

// A queue family with compute, or -1.
int32_t compute_family(const Device& d, VkPhysicalDevice pd) {
  uint32_t n = 0;
  d.vk.vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
  std::vector<VkQueueFamilyProperties> families(n);
  d.vk.vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, families.data());
  for (uint32_t i = 0; i < n; ++i) {
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) return int32_t(i);
  }
  return -1;
}

Error pick_physical(Outcome* o) {
  Device& d = o->device;
  uint32_t n = 0;
  d.vk.vkEnumeratePhysicalDevices(d.instance, &n, nullptr);
  std::vector<VkPhysicalDevice> all(n);
  if (n != 0) d.vk.vkEnumeratePhysicalDevices(d.instance, &n, all.data());
  int best_rank = 99;
  for (VkPhysicalDevice pd : all) {
    VkPhysicalDeviceProperties p;
    d.vk.vkGetPhysicalDeviceProperties(pd, &p);
    const int32_t family = compute_family(d, pd);
    if (p.apiVersion < VK_API_VERSION_1_1 || family < 0) continue;
    if (device_rank(p.deviceType) >= best_rank) continue;
    best_rank = device_rank(p.deviceType);
    d.physical = pd;
    d.properties = p;
    d.queue_family = uint32_t(family);
  }
  if (d.physical == VK_NULL_HANDLE) {
    return fail(o, n == 0 ? "the Vulkan loader found no device"
                          : "no Vulkan device offers Vulkan 1.1 and a compute queue");
  }
  d.vk.vkGetPhysicalDeviceMemoryProperties(d.physical, &d.memory);
  std::memcpy(d.name, d.properties.deviceName, sizeof(d.name));
  d.name[sizeof(d.name) - 1] = '\0';
  return Error::Ok;
}

Error create_device(Outcome* o) {
  Device& d = o->device;
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo q{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  q.queueFamilyIndex = d.queue_family;
  q.queueCount = 1;
  q.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &q;
  if (d.vk.vkCreateDevice(d.physical, &info, nullptr, &d.device) != VK_SUCCESS) {
    return fail(o, "vkCreateDevice failed");
  }
  d.vk.vkGetDeviceQueue(d.device, d.queue_family, 0, &d.queue);
  uint32_t n = 0;
  d.vk.vkGetPhysicalDeviceQueueFamilyProperties(d.physical, &n, nullptr);
  std::vector<VkQueueFamilyProperties> families(n);
  d.vk.vkGetPhysicalDeviceQueueFamilyProperties(d.physical, &n, families.data());
  if (families[d.queue_family].timestampValidBits != 0) {
    d.timestamp_ns = d.properties.limits.timestampPeriod;
  }
  return Error::Ok;
}

const Outcome& outcome() {
  static Outcome* o = [] {
    Outcome* made = new Outcome();  // lives for the process
    PFN_vkGetInstanceProcAddr get_proc = nullptr;
    if (open_loader(made, &get_proc) == Error::Ok && create_instance(made, get_proc) == Error::Ok &&
        pick_physical(made) == Error::Ok && create_device(made) == Error::Ok) {
      EMBER_LOG(Info, "VulkanBackend: device '%s'", made->device.name);
    }
    return made;
  }();
  return *o;
}

}  // namespace

Error Device::submit(VkCommandBuffer cmd, VkFence fence) const {
  VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  info.commandBufferCount = 1;
  info.pCommandBuffers = &cmd;
  std::lock_guard<std::mutex> lock(queue_mutex());
  const VkResult r = vk.vkQueueSubmit(queue, 1, &info, fence);
  EMBER_CHECK_OR_RETURN(r == VK_SUCCESS, Error::Internal,
                        "VulkanBackend: vkQueueSubmit failed (VkResult %d)", int(r));
  return Error::Ok;
}

int32_t Device::memory_type(uint32_t type_bits, VkMemoryPropertyFlags required) const {
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & required) == required) {
      return int32_t(i);
    }
  }
  return -1;
}

Result<const Device*> device() {
  const Outcome& o = outcome();
  if (o.error != Error::Ok) {
    set_error_message("%s", o.message);
    return o.error;
  }
  return &o.device;
}

bool device_available() { return outcome().error == Error::Ok; }

}  // namespace ember::vulkan
