// Moving tensor data between the host and the device's representation
// (vk_builder.h): floating tensors as float32, integer and bool tensors as
// int32.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backends/vulkan/vk_graph.h"
#include "runtime/core/error.h"
#include "runtime/core/tensor.h"

namespace ember::vulkan {

// `n` elements of `src`, stored as `dtype`, into the device representation
// at `dst`. InvalidProgram when an int64 does not fit int32.
Error to_device(const void* src, DType dtype, size_t n, uint8_t* dst);

// An input tensor into its slot. InvalidArgument when its shape differs
// from the one the program stored or its dtype is not one the value's kind
// accepts (a float tensor for a float value, an integer or bool tensor for
// an integer value).
Error host_to_slot(const Tensor& t, const TensorDesc& desc, uint8_t* dst);

// A slot into an output tensor, resizing it to the stored shape when it is
// dynamic.
Error slot_to_host(const uint8_t* src, const TensorDesc& desc, Tensor t);

}  // namespace ember::vulkan
