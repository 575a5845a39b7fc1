// The compute shaders built into the library: GLSL in backends/vulkan/shaders,
// compiled to SPIR-V by glslc at build time and embedded (the generated
// vk_shaders.cpp lists them).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::vulkan {

struct ShaderCode {
  const char* name;  // the file name without ".comp"
  const uint32_t* words;
  size_t size_bytes;
};

// The shader called `name`, or null.
const ShaderCode* find_shader(const char* name);

}  // namespace ember::vulkan
