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
// submits the command buffer, waits, and copies the outputs out. A program
// without SymInts has fixed shapes: an input of another shape is refused.
// One with SymInts (dynamic shapes, a Llama's input position) gets its
// shapes and host-known SymInts propagated from each call's inputs
// (vk_shapes.h); when they differ from the last call's, the builders run
// again and the command buffer is recorded again (memory stays as planned
// for the stored, largest shapes).
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
  // `bounds`: the graph as stored; `current`: with the shapes the
  // dispatches were built for.
  Error init(const Device& device, Graph&& bounds, Graph&& current,
             std::vector<Dispatch>&& dispatches, const NamedDataMap* named);

  // `args`: the delegate's inputs then outputs, as the runtime passes them.
  Error execute(Span<EValue*> args, EventTracer* tracer);

  size_t num_dispatches() const { return dispatches_.size(); }
  uint64_t device_bytes() const { return total_bytes_; }

 private:
  Error plan_memory();
  Error allocate();
  Error upload_constants(const NamedDataMap* named);
  Error create_descriptors();
  Error create_queries();
  Error update_shapes(Span<EValue*> args, bool* changed);
  Error rebuild();
  Error record(VkCommandBuffer cmd, bool once);
  Error run_once();
  Error copy_inputs(Span<EValue*> args);
  Error copy_outputs(Span<EValue*> args);
  void report_times(EventTracer* tracer);

  const Device* device_ = nullptr;
  Graph bounds_;  // as stored: the largest shapes, what memory is planned for
  Graph graph_;   // the shapes and SymInt values of the last build
  bool dynamic_ = false;
  std::vector<int64_t> signature_;  // graph_'s shapes and SymInts, flattened
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
