// MethodMeta: what a method needs and produces, readable before loading it
// (to size planned buffers, or to build inputs).
//
// Backed by the program's bytes: valid while the Program lives. Every
// accessor checks its index against the (structurally verified) program
// and returns an error rather than reading out of range.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/evalue.h"
#include "runtime/core/result.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/span.h"
#include "runtime/core/tensor.h"

namespace ember_fb {
struct ExecutionPlan;
}

namespace ember {

class TensorInfo final {
 public:
  TensorInfo(Span<const int32_t> sizes, Span<const uint8_t> dim_order,
             ScalarType type, ShapeDynamism dynamism, size_t nbytes,
             bool memory_planned = true)
      : sizes_(sizes), dim_order_(dim_order), type_(type), dynamism_(dynamism),
        nbytes_(nbytes), memory_planned_(memory_planned) {}
  // Sizes as serialized (the upper bound for a dynamic shape).
  Span<const int32_t> sizes() const { return sizes_; }
  Span<const uint8_t> dim_order() const { return dim_order_; }
  ScalarType scalar_type() const { return type_; }
  ShapeDynamism shape_dynamism() const { return dynamism_; }
  size_t nbytes() const { return nbytes_; }
  // True when the program gives the tensor its memory: a planned slot or
  // constant data (upstream's rule). False for a graph input or output
  // exported with MemoryPlanningPass(alloc_graph_input=False /
  // alloc_graph_output=False): the application hands its buffer
  // (Method::set_input binds an input's, Method::set_output_data_ptr sets
  // an output's).
  bool is_memory_planned() const { return memory_planned_; }

 private:
  Span<const int32_t> sizes_;
  Span<const uint8_t> dim_order_;
  ScalarType type_;
  ShapeDynamism dynamism_;
  size_t nbytes_;
  bool memory_planned_;
};

class MethodMeta final {
 public:
  explicit MethodMeta(const ember_fb::ExecutionPlan* plan) : plan_(plan) {}

  const char* name() const;
  size_t num_inputs() const;
  Result<Tag> input_tag(size_t index) const;
  // InvalidArgument if the input is not a tensor.
  Result<TensorInfo> input_tensor_meta(size_t index) const;
  size_t num_outputs() const;
  Result<Tag> output_tag(size_t index) const;
  Result<TensorInfo> output_tensor_meta(size_t index) const;

  // Planned buffers the caller provides, 0-based (buffer i serves memory id
  // i + 1 of the program).
  size_t num_memory_planned_buffers() const;
  Result<int64_t> memory_planned_buffer_size(size_t index) const;

  size_t num_backends() const;
  Result<const char*> get_backend_name(size_t index) const;
  bool uses_backend(const char* backend_id) const;

  size_t num_instructions() const;
  // The method allocator's bytes Program::load_method() takes for this
  // method in this build, exactly: its runtime structures at this target's
  // type sizes, with the fusion patterns and operand preparations this
  // build registers, from a base aligned to MemoryAllocator::kDefaultAlignment
  // (for any other base, add kDefaultAlignment - 1). Plus, per delegate,
  // what its backend declares init() may take from the method allocator at
  // most (BackendInterface::init_allocator_bytes(); XNNPACK takes none, so
  // the figure is exact for it too). A method allocator of this size loads
  // the method; one byte less fails with MemoryAllocationFailed and a
  // message naming the method allocator.
  size_t method_allocator_bytes() const;

 private:
  Result<Tag> value_tag(int32_t value_index) const;
  Result<TensorInfo> tensor_meta(int32_t value_index, const char* what,
                                 size_t index) const;

  const ember_fb::ExecutionPlan* plan_;
};

// Maps a serialized value type to the EValue tag it becomes.
Tag tag_of_serialized_type(int kernel_types);

}  // namespace ember
