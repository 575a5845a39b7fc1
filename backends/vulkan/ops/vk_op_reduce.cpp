// (Being written: the reduce family. See vk_ops.h.)
#include "backends/vulkan/ops/vk_ops.h"

namespace ember::vulkan {

OpFamily reduce_ops() { return {nullptr, 0}; }

}  // namespace ember::vulkan
