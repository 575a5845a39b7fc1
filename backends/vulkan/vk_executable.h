// One Vulkan delegate, ready to run: every tensor placed in one device
// buffer (mapped into host memory), constants uploaded, the builders'
// dispatches recorded into one command buffer, and the init-only dispatches
// (prepacking) already run.
//
// Memory: tensors that share a mem_obj_id share a region sized for the
// largest of them; every other tensor gets its own. Each region starts on a
// 256-byte boundary (every device's storage-buffer offset alignment).
//
// Execution copies the inputs in (converting dtypes, see vk_builder.h),
// submits the command buffer, waits, and copies the outputs out. Shapes are
// those the program stored; an input of another shape is refused.
#pragma once

#include <cstdint>
#include <vector>

#include "backends/vulkan/vk_builder.h"
#include "backends/vulkan/vk_device.h"
#include "backends/vulkan/vk_graph.h"
#include "runtime/core/evalue.h"
#include "runtime/core/event_tracer.h"
#include "runtime/core/named_data_map.h"
#include "runtime/core/span.h"

namespace ember::vulkan {

struct Slot {
  uint64_t offset = 0;
  uint64_t bytes = 0;
  bool placed = false;
};

class Executable {
 public:
  Executable() = default;
  ~Executable();
  Executable(const Executable&) = delete;
  Executable& operator=(const Executable&) = delete;

  // Takes the graph and the builders' dispatches; uploads constants from
  // the blob or `named`.
  Error init(const Device& device, Graph&& graph, std::vector<Dispatch>&& dispatches,
             const NamedDataMap* named);

  // `args`: the delegate's inputs then outputs, as the runtime passes them.
  Error execute(Span<EValue*> args, EventTracer* tracer);

  size_t num_dispatches() const { return dispatches_.size(); }
  uint64_t device_bytes() const { return total_bytes_; }

 private:
  Error plan_memory();
  Error allocate();
  Error upload_constants(const NamedDataMap* named);
  Error create_descriptors();
  Error record(VkCommandBuffer cmd, bool once);
  Error run_once();
  Error copy_inputs(Span<EValue*> args);
  Error copy_outputs(Span<EValue*> args);
  void report_times(EventTracer* tracer);

  const Device* device_ = nullptr;
  Graph graph_;
  std::vector<Dispatch> dispatches_;
  std::vector<Slot> slots_;  // per value id
  std::vector<VkDescriptorSet> sets_;
  uint64_t total_bytes_ = 0;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  uint8_t* mapped_ = nullptr;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkQueryPool queries_ = VK_NULL_HANDLE;
  uint32_t timed_ = 0;  // dispatches recorded with timestamps
};

}  // namespace ember::vulkan
