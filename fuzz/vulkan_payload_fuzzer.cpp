// Fuzz target: the Vulkan delegate's processed blob (backends/vulkan)
// through everything init does before it touches a device (compile_blob):
// the VH00 header split, the VkGraph flatbuffer verified and read into the
// checked Graph (every id, list item, constant id and byte range), every
// operator looked up, shapes propagated where the graph has SymInts, and
// every builder run over the fuzzed arguments
// (kinds, ranks, shapes, push constants). No device is needed, so no
// shader runs: the builders' checks are what stand between a blob and the
// GPU. Every Error is an expected outcome; a crash or sanitizer report is a
// finding.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "backends/vulkan/vk_compile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The runtime hands backends 16-byte aligned blobs.
  std::vector<uint64_t> aligned(size / 8 + 1);
  if (size != 0) std::memcpy(aligned.data(), data, size);
  ember::vulkan::Graph bounds;
  ember::vulkan::Graph current;
  std::vector<ember::vulkan::Dispatch> dispatches;
  (void)ember::vulkan::compile_blob(aligned.data(), size, &bounds, &current, &dispatches);
  return 0;
}
