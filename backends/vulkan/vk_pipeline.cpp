#include "backends/vulkan/vk_pipeline.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/vulkan/vk_builder.h"
#include "backends/vulkan/vk_shaders.h"
#include "runtime/platform/error_message.h"

namespace ember::vulkan {
namespace {

struct Cache {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<Pipeline>> pipelines;
};

Cache& cache() {
  static Cache* c = new Cache();  // lives for the process, as the device does
  return *c;
}

Error make_layouts(const Device& d, uint32_t bindings, Pipeline* p) {
  std::vector<VkDescriptorSetLayoutBinding> b(bindings);
  for (uint32_t i = 0; i < bindings; ++i) {
    b[i] = VkDescriptorSetLayoutBinding{};
    b[i].binding = i;
    b[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    b[i].descriptorCount = 1;
    b[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = bindings;
  set_info.pBindings = b.data();
  EMBER_CHECK_OR_RETURN(
      d.vk.vkCreateDescriptorSetLayout(d.device, &set_info, nullptr, &p->set_layout) == VK_SUCCESS,
      Error::Internal, "VulkanBackend: vkCreateDescriptorSetLayout failed");
  VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, uint32_t(kMaxPush)};
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = 1;
  info.pSetLayouts = &p->set_layout;
  info.pushConstantRangeCount = 1;
  info.pPushConstantRanges = &push;
  EMBER_CHECK_OR_RETURN(
      d.vk.vkCreatePipelineLayout(d.device, &info, nullptr, &p->layout) == VK_SUCCESS,
      Error::Internal, "VulkanBackend: vkCreatePipelineLayout failed");
  return Error::Ok;
}

Error make_pipeline(const Device& d, const ShaderCode& code, Pipeline* p) {
  VkShaderModuleCreateInfo mod_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  mod_info.codeSize = code.size_bytes;
  mod_info.pCode = code.words;
  VkShaderModule module = VK_NULL_HANDLE;
  EMBER_CHECK_OR_RETURN(
      d.vk.vkCreateShaderModule(d.device, &mod_info, nullptr, &module) == VK_SUCCESS,
      Error::Internal, "VulkanBackend: shader '%s' refused by the driver", code.name);
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.layout = p->layout;
  const VkResult r =
      d.vk.vkCreateComputePipelines(d.device, VK_NULL_HANDLE, 1, &info, nullptr, &p->pipeline);
  d.vk.vkDestroyShaderModule(d.device, module, nullptr);
  EMBER_CHECK_OR_RETURN(r == VK_SUCCESS, Error::Internal,
                        "VulkanBackend: pipeline for shader '%s' failed (VkResult %d)",
                        code.name, int(r));
  return Error::Ok;
}

}  // namespace

Result<const Pipeline*> pipeline(const Device& device, const char* shader, uint32_t bindings) {
  const ShaderCode* code = find_shader(shader);
  EMBER_CHECK_OR_RETURN(code != nullptr, Error::NotFound,
                        "VulkanBackend: no shader named '%s'", shader);
  const std::string key = std::string(shader) + "/" + std::to_string(bindings);
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.pipelines.find(key);
  if (it != c.pipelines.end()) return static_cast<const Pipeline*>(it->second.get());
  auto p = std::make_unique<Pipeline>();
  p->bindings = bindings;
  EMBER_RETURN_IF_ERROR(make_layouts(device, bindings, p.get()));
  EMBER_RETURN_IF_ERROR(make_pipeline(device, *code, p.get()));
  const Pipeline* made = p.get();
  c.pipelines.emplace(key, std::move(p));
  return made;
}

}  // namespace ember::vulkan
