#include "backends/vulkan/vk_executable.h"

#include <cstring>
#include <map>

#include "backends/vulkan/vk_io.h"
#include "backends/vulkan/vk_compile.h"
#include "backends/vulkan/vk_pipeline.h"
#include "backends/vulkan/vk_shapes.h"
#include "runtime/core/tensor.h"
#include "runtime/platform/clock.h"
#include "runtime/platform/error_message.h"

namespace ember::vulkan {
namespace {

constexpr uint64_t kAlign = 256;
constexpr uint64_t kFenceTimeoutNs = 120ull * 1000 * 1000 * 1000;

uint64_t align_up(uint64_t v) { return (v + kAlign - 1) / kAlign * kAlign; }

uint64_t slot_bytes(const TensorDesc& t) {
  return uint64_t(t.numel < 1 ? 1 : t.numel) * 4;
}

}  // namespace

Executable::~Executable() {
  if (device_ == nullptr) return;
  const Functions& vk = device_->vk;
  VkDevice d = device_->device;
  if (queries_ != VK_NULL_HANDLE) vk.vkDestroyQueryPool(d, queries_, nullptr);
  if (fence_ != VK_NULL_HANDLE) vk.vkDestroyFence(d, fence_, nullptr);
  if (command_pool_ != VK_NULL_HANDLE) vk.vkDestroyCommandPool(d, command_pool_, nullptr);
  if (pool_ != VK_NULL_HANDLE) vk.vkDestroyDescriptorPool(d, pool_, nullptr);
  if (mapped_ != nullptr) vk.vkUnmapMemory(d, memory_);
  if (buffer_ != VK_NULL_HANDLE) vk.vkDestroyBuffer(d, buffer_, nullptr);
  if (memory_ != VK_NULL_HANDLE) vk.vkFreeMemory(d, memory_, nullptr);
}

Error Executable::plan_memory() {
  slots_.assign(bounds_.values.size(), Slot());
  std::map<int32_t, uint64_t> shared_bytes;
  for (const Value& v : bounds_.values) {
    if (v.kind != ValueKind::Tensor || v.tensor.mem_obj_id < 0 || v.tensor.constant_id >= 0) {
      continue;
    }
    uint64_t& b = shared_bytes[v.tensor.mem_obj_id];
    if (slot_bytes(v.tensor) > b) b = slot_bytes(v.tensor);
  }
  std::map<int32_t, uint64_t> shared_offset;
  uint64_t cursor = 0;
  for (const auto& entry : shared_bytes) {
    shared_offset[entry.first] = cursor;
    cursor = align_up(cursor + entry.second);
  }
  const uint64_t max_range = device_->properties.limits.maxStorageBufferRange;
  for (size_t i = 0; i < bounds_.values.size(); ++i) {
    const Value& v = bounds_.values[i];
    if (v.kind == ValueKind::SymInt) {  // one int32, its export-time value
      slots_[i] = Slot{cursor, 4, true};
      cursor = align_up(cursor + 4);
      continue;
    }
    if (v.kind != ValueKind::Tensor) continue;
    Slot& s = slots_[i];
    s.bytes = slot_bytes(v.tensor);
    EMBER_CHECK_OR_RETURN(s.bytes <= max_range, Error::NotSupported,
                          "VulkanBackend value %zu: %llu bytes exceed the device's storage "
                          "buffer range (%llu)", i, static_cast<unsigned long long>(s.bytes),
                          static_cast<unsigned long long>(max_range));
    if (v.tensor.mem_obj_id >= 0 && v.tensor.constant_id < 0) {
      s.offset = shared_offset[v.tensor.mem_obj_id];
    } else {
      s.offset = cursor;
      cursor = align_up(cursor + s.bytes);
    }
    s.placed = true;
  }
  total_bytes_ = cursor == 0 ? kAlign : cursor;
  return Error::Ok;
}

Error Executable::allocate() {
  const Functions& vk = device_->vk;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = total_bytes_;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  EMBER_CHECK_OR_RETURN(vk.vkCreateBuffer(device_->device, &info, nullptr, &buffer_) == VK_SUCCESS,
                        Error::MemoryAllocationFailed,
                        "VulkanBackend: vkCreateBuffer of %llu bytes failed",
                        static_cast<unsigned long long>(total_bytes_));
  VkMemoryRequirements req;
  vk.vkGetBufferMemoryRequirements(device_->device, buffer_, &req);
  const VkMemoryPropertyFlags host =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  int32_t type = device_->memory_type(req.memoryTypeBits,
                                      host | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (type < 0) type = device_->memory_type(req.memoryTypeBits, host);
  EMBER_CHECK_OR_RETURN(type >= 0, Error::NotSupported,
                        "VulkanBackend: the device has no host-visible coherent memory");
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = uint32_t(type);
  EMBER_CHECK_OR_RETURN(
      vk.vkAllocateMemory(device_->device, &alloc, nullptr, &memory_) == VK_SUCCESS,
      Error::MemoryAllocationFailed, "VulkanBackend: cannot allocate %llu bytes of device memory",
      static_cast<unsigned long long>(req.size));
  vk.vkBindBufferMemory(device_->device, buffer_, memory_, 0);
  void* mapped = nullptr;
  EMBER_CHECK_OR_RETURN(
      vk.vkMapMemory(device_->device, memory_, 0, VK_WHOLE_SIZE, 0, &mapped) == VK_SUCCESS,
      Error::Internal, "VulkanBackend: vkMapMemory failed");
  mapped_ = static_cast<uint8_t*>(mapped);
  std::memset(mapped_, 0, size_t(total_bytes_));
  return Error::Ok;
}

Error Executable::upload_constants(const NamedDataMap* named) {
  for (size_t i = 0; i < graph_.values.size(); ++i) {
    const Value& v = graph_.values[i];
    if (v.kind == ValueKind::SymInt) {  // as propagated (0 where only the device knows)
      std::memcpy(mapped_ + slots_[i].offset, &v.symint_value, 4);
      continue;
    }
    if (v.kind != ValueKind::Tensor || v.tensor.constant_id < 0) continue;
    const size_t need = size_t(v.tensor.numel) * dtype_bytes(v.tensor.dtype);
    FreeableBuffer bytes;
    EMBER_RETURN_IF_ERROR(constant_bytes(graph_, v.tensor.constant_id, named, need, &bytes));
    const Error err = to_device(bytes.data(), v.tensor.dtype, size_t(v.tensor.numel),
                                mapped_ + slots_[i].offset);
    if (err != Error::Ok) {
      prefix_error_message(error_name(err), "VulkanBackend constant of value %zu", i);
      return err;
    }
  }
  return Error::Ok;
}

Error Executable::create_descriptors() {
  const Functions& vk = device_->vk;
  if (pool_ != VK_NULL_HANDLE) vk.vkDestroyDescriptorPool(device_->device, pool_, nullptr);
  pool_ = VK_NULL_HANDLE;
  uint32_t bindings = 0;
  for (const Dispatch& d : dispatches_) bindings += uint32_t(d.tensors.size());
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, bindings == 0 ? 1 : bindings};
  VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  info.maxSets = dispatches_.empty() ? 1 : uint32_t(dispatches_.size());
  info.poolSizeCount = 1;
  info.pPoolSizes = &size;
  EMBER_CHECK_OR_RETURN(vk.vkCreateDescriptorPool(device_->device, &info, nullptr, &pool_) ==
                            VK_SUCCESS,
                        Error::MemoryAllocationFailed,
                        "VulkanBackend: descriptor pool for %zu dispatches failed",
                        dispatches_.size());
  sets_.assign(dispatches_.size(), VK_NULL_HANDLE);
  for (size_t i = 0; i < dispatches_.size(); ++i) {
    const Dispatch& d = dispatches_[i];
    Result<const Pipeline*> p = pipeline(*device_, d.shader.c_str(), uint32_t(d.tensors.size()));
    if (!p.ok()) return p.error();
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = pool_;
    alloc.descriptorSetCount = 1;
    alloc.pSetLayouts = &(*p)->set_layout;
    EMBER_CHECK_OR_RETURN(vk.vkAllocateDescriptorSets(device_->device, &alloc, &sets_[i]) ==
                              VK_SUCCESS,
                          Error::MemoryAllocationFailed,
                          "VulkanBackend: descriptor set %zu failed", i);
    std::vector<VkDescriptorBufferInfo> buffers(d.tensors.size());
    std::vector<VkWriteDescriptorSet> writes(d.tensors.size());
    for (size_t b = 0; b < d.tensors.size(); ++b) {
      const Slot& s = slots_[size_t(d.tensors[b])];
      buffers[b] = VkDescriptorBufferInfo{buffer_, s.offset, s.bytes};
      writes[b] = VkWriteDescriptorSet{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      writes[b].dstSet = sets_[i];
      writes[b].dstBinding = uint32_t(b);
      writes[b].descriptorCount = 1;
      writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[b].pBufferInfo = &buffers[b];
    }
    vk.vkUpdateDescriptorSets(device_->device, uint32_t(writes.size()), writes.data(), 0,
                              nullptr);
  }
  return Error::Ok;
}

Error Executable::record(VkCommandBuffer cmd, bool once) {
  const Functions& vk = device_->vk;
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vk.vkBeginCommandBuffer(cmd, &begin);
  const bool timed = !once && queries_ != VK_NULL_HANDLE;
  if (timed) {
    vk.vkCmdResetQueryPool(cmd, queries_, 0, timed_ + 1);
    vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries_, 0);
  }
  uint32_t query = 1;
  for (size_t i = 0; i < dispatches_.size(); ++i) {
    const Dispatch& d = dispatches_[i];
    if (d.once != once) continue;
    Result<const Pipeline*> p = pipeline(*device_, d.shader.c_str(), uint32_t(d.tensors.size()));
    if (!p.ok()) return p.error();
    vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, (*p)->pipeline);
    vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, (*p)->layout, 0, 1,
                               &sets_[i], 0, nullptr);
    vk.vkCmdPushConstants(cmd, (*p)->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, uint32_t(kMaxPush),
                          d.push);
    vk.vkCmdDispatch(cmd, d.groups[0], d.groups[1], d.groups[2]);
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr, 0,
                            nullptr);
    if (timed) {
      vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, queries_, query++);
    }
  }
  VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  to_host.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                          0, 1, &to_host, 0, nullptr, 0, nullptr);
  EMBER_CHECK_OR_RETURN(vk.vkEndCommandBuffer(cmd) == VK_SUCCESS, Error::Internal,
                        "VulkanBackend: recording the command buffer failed");
  return Error::Ok;
}

Error Executable::run_once() {
  bool any = false;
  for (const Dispatch& d : dispatches_) any = any || d.once;
  if (!any) return Error::Ok;
  const Functions& vk = device_->vk;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = command_pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  EMBER_CHECK_OR_RETURN(vk.vkAllocateCommandBuffers(device_->device, &alloc, &cmd) == VK_SUCCESS,
                        Error::Internal, "VulkanBackend: command buffer allocation failed");
  Error err = record(cmd, /*once=*/true);
  if (err == Error::Ok) err = device_->submit(cmd, fence_);
  if (err == Error::Ok) {
    const VkResult r = vk.vkWaitForFences(device_->device, 1, &fence_, VK_TRUE, kFenceTimeoutNs);
    vk.vkResetFences(device_->device, 1, &fence_);
    if (r != VK_SUCCESS) {
      set_error_message("VulkanBackend: prepacking did not finish (VkResult %d)", int(r));
      err = Error::Internal;
    }
  }
  vk.vkFreeCommandBuffers(device_->device, command_pool_, 1, &cmd);
  return err;
}

Error Executable::create_queries() {
  timed_ = 0;
  for (const Dispatch& d : dispatches_) timed_ += d.once ? 0 : 1;
  const Functions& vk = device_->vk;
  if (queries_ != VK_NULL_HANDLE) vk.vkDestroyQueryPool(device_->device, queries_, nullptr);
  queries_ = VK_NULL_HANDLE;
  if (device_->timestamp_ns <= 0) return Error::Ok;
  VkQueryPoolCreateInfo q{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  q.queryType = VK_QUERY_TYPE_TIMESTAMP;
  q.queryCount = timed_ + 1;
  if (vk.vkCreateQueryPool(device_->device, &q, nullptr, &queries_) != VK_SUCCESS) {
    queries_ = VK_NULL_HANDLE;  // run untimed
  }
  return Error::Ok;
}

Error Executable::init(const Device& device, Graph&& bounds, Graph&& current,
                       std::vector<Dispatch>&& dispatches, const NamedDataMap* named) {
  device_ = &device;
  bounds_ = std::move(bounds);
  graph_ = std::move(current);
  dispatches_ = std::move(dispatches);
  dynamic_ = has_runtime_shapes(bounds_);
  const Functions& vk = device.vk;
  EMBER_RETURN_IF_ERROR(plan_memory());
  EMBER_RETURN_IF_ERROR(allocate());
  EMBER_RETURN_IF_ERROR(upload_constants(named));
  EMBER_RETURN_IF_ERROR(create_descriptors());
  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = device.queue_family;
  EMBER_CHECK_OR_RETURN(
      vk.vkCreateCommandPool(device.device, &pool, nullptr, &command_pool_) == VK_SUCCESS,
      Error::Internal, "VulkanBackend: vkCreateCommandPool failed");
  VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  EMBER_CHECK_OR_RETURN(vk.vkCreateFence(device.device, &fence, nullptr, &fence_) == VK_SUCCESS,
                        Error::Internal, "VulkanBackend: vkCreateFence failed");
  EMBER_RETURN_IF_ERROR(create_queries());
  EMBER_RETURN_IF_ERROR(run_once());
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = command_pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  EMBER_CHECK_OR_RETURN(vk.vkAllocateCommandBuffers(device.device, &alloc, &cmd_) == VK_SUCCESS,
                        Error::Internal, "VulkanBackend: command buffer allocation failed");
  return record(cmd_, /*once=*/false);
}

namespace {

struct InputLookup {
  const Graph* graph;
  Span<EValue*> args;
};

bool input_tensor(void* context, uint32_t id, Tensor* out) {
  const InputLookup* l = static_cast<const InputLookup*>(context);
  for (size_t i = 0; i < l->graph->input_ids.size(); ++i) {
    if (l->graph->input_ids[i] == id && l->args[i] != nullptr && l->args[i]->is_tensor()) {
      *out = l->args[i]->to_tensor();
      return true;
    }
  }
  return false;
}

void flatten_shapes(const Graph& g, std::vector<int64_t>* out) {
  out->clear();
  for (const Value& v : g.values) {
    if (v.kind == ValueKind::Tensor) {
      out->insert(out->end(), v.tensor.sizes, v.tensor.sizes + v.tensor.rank);
    } else if (v.kind == ValueKind::SymInt) {
      out->push_back(v.symint_value);
    }
  }
}

}  // namespace

// This call's shapes and SymInts into graph_; *changed when they differ
// from the last build's.
Error Executable::update_shapes(Span<EValue*> args, bool* changed) {
  for (size_t i = 0; i < bounds_.values.size(); ++i) {
    graph_.values[i].tensor = bounds_.values[i].tensor;
    graph_.values[i].symint_value = bounds_.values[i].symint_value;
  }
  for (size_t i = 0; i < graph_.input_ids.size(); ++i) {
    Value& v = graph_.values[graph_.input_ids[i]];
    if (v.kind != ValueKind::Tensor) continue;
    EMBER_CHECK_OR_RETURN(args[i] != nullptr && args[i]->is_tensor(), Error::InvalidArgument,
                          "VulkanBackend input %zu is not a tensor", i);
    const Tensor& t = args[i]->to_tensor();
    EMBER_CHECK_OR_RETURN(t.dim() == v.tensor.rank && t.numel() <= v.tensor.numel,
                          Error::InvalidArgument,
                          "VulkanBackend input %zu: shape outside the program's bound (rank "
                          "%u, at most %lld elements)", i, v.tensor.rank,
                          static_cast<long long>(v.tensor.numel));
    for (size_t d = 0; d < t.dim(); ++d) v.tensor.sizes[d] = t.sizes()[d];
    v.tensor.numel = t.numel();
  }
  InputLookup lookup{&graph_, args};
  ShapeInputs inputs{input_tensor, &lookup};
  EMBER_RETURN_IF_ERROR(propagate_shapes(bounds_, inputs, &graph_));
  std::vector<int64_t> signature;
  flatten_shapes(graph_, &signature);
  *changed = signature != signature_;
  if (*changed) signature_ = std::move(signature);
  return Error::Ok;
}

// The builders over graph_'s shapes, new descriptor sets, a new recording.
Error Executable::rebuild() {
  std::vector<Dispatch> dispatches;
  EMBER_RETURN_IF_ERROR(build_dispatches(graph_, &dispatches));
  dispatches_ = std::move(dispatches);
  EMBER_RETURN_IF_ERROR(create_descriptors());
  EMBER_RETURN_IF_ERROR(create_queries());
  for (size_t i = 0; i < graph_.values.size(); ++i) {  // host-known SymInts
    const Value& v = graph_.values[i];
    if (v.kind == ValueKind::SymInt) std::memcpy(mapped_ + slots_[i].offset, &v.symint_value, 4);
  }
  return record(cmd_, /*once=*/false);
}

Error Executable::copy_inputs(Span<EValue*> args) {
  // execute() checked the argument count.
  const size_t n_in = graph_.input_ids.size();
  for (size_t i = 0; i < n_in; ++i) {
    const uint32_t id = graph_.input_ids[i];
    const Value& v = graph_.values[id];
    if (v.kind != ValueKind::Tensor) continue;  // a scalar input: fixed at export
    EMBER_CHECK_OR_RETURN(args[i] != nullptr && args[i]->is_tensor(), Error::InvalidArgument,
                          "VulkanBackend input %zu is not a tensor", i);
    const Error err = host_to_slot(args[i]->to_tensor(), v.tensor, mapped_ + slots_[id].offset);
    if (err != Error::Ok) {
      prefix_error_message(error_name(err), "VulkanBackend input %zu", i);
      return err;
    }
  }
  return Error::Ok;
}

Error Executable::copy_outputs(Span<EValue*> args) {
  const size_t n_in = graph_.input_ids.size();
  for (size_t o = 0; o < graph_.output_ids.size(); ++o) {
    const uint32_t id = graph_.output_ids[o];
    EValue* arg = args[n_in + o];
    EMBER_CHECK_OR_RETURN(arg != nullptr && arg->is_tensor(), Error::InvalidArgument,
                          "VulkanBackend output %zu is not a tensor", o);
    const Error err =
        slot_to_host(mapped_ + slots_[id].offset, graph_.values[id].tensor, arg->to_tensor());
    if (err != Error::Ok) {
      prefix_error_message(error_name(err), "VulkanBackend output %zu", o);
      return err;
    }
  }
  return Error::Ok;
}

void Executable::report_times(EventTracer* tracer) {
  if (tracer == nullptr || !tracer->profile_instructions() || queries_ == VK_NULL_HANDLE) return;
  std::vector<uint64_t> stamps(timed_ + 1);
  const VkResult r = device_->vk.vkGetQueryPoolResults(
      device_->device, queries_, 0, timed_ + 1, stamps.size() * sizeof(uint64_t), stamps.data(),
      sizeof(uint64_t), VK_QUERY_RESULT_64_BIT);
  if (r != VK_SUCCESS) return;
  // GPU time runs on its own clock: place the last step's end at "now" and
  // every earlier stamp before it by the device's tick period.
  const uint64_t now = event_tracer_ticks();
  const double ticks_per_ns = double(clock_ticks_per_second()) / 1e9;
  const double ns = device_->timestamp_ns;
  auto to_ticks = [&](uint64_t stamp) {
    const double back = double(stamps[timed_] - stamp) * ns * ticks_per_ns;
    return back >= double(now) ? uint64_t(0) : now - uint64_t(back);
  };
  uint32_t q = 1;
  for (const Dispatch& d : dispatches_) {
    if (d.once) continue;
    tracer->log_profiling_delegate(graph_.chain[d.op_index].name.c_str(), kUnsetDelegateDebugId,
                                   to_ticks(stamps[q - 1]), to_ticks(stamps[q]));
    ++q;
  }
}

Error Executable::execute(Span<EValue*> args, EventTracer* tracer) {
  EMBER_CHECK_OR_RETURN(args.size() == graph_.input_ids.size() + graph_.output_ids.size(),
                        Error::InvalidArgument,
                        "VulkanBackend: call passes %zu values, the graph has %zu inputs and "
                        "%zu outputs", args.size(), graph_.input_ids.size(),
                        graph_.output_ids.size());
  if (dynamic_) {
    bool changed = false;
    EMBER_RETURN_IF_ERROR(update_shapes(args, &changed));
    if (changed) {
      const Error err = rebuild();
      if (err != Error::Ok) {
        // The recording may be half replaced: never submit it; the next
        // call rebuilds from scratch.
        signature_.clear();
        return err;
      }
    }
  }
  EMBER_RETURN_IF_ERROR(copy_inputs(args));
  EMBER_RETURN_IF_ERROR(device_->submit(cmd_, fence_));
  const Functions& vk = device_->vk;
  const VkResult r = vk.vkWaitForFences(device_->device, 1, &fence_, VK_TRUE, kFenceTimeoutNs);
  vk.vkResetFences(device_->device, 1, &fence_);
  EMBER_CHECK_OR_RETURN(r == VK_SUCCESS, Error::Internal,
                        "VulkanBackend: the device did not finish (VkResult %d)", int(r));
  EMBER_RETURN_IF_ERROR(copy_outputs(args));
  report_times(tracer);
  return Error::Ok;
}

}  // namespace ember::vulkan
