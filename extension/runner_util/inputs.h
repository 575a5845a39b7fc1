// Helpers for tools that run methods: fill every input with a default
// value (upstream's runner uses ones), and print values.
#pragma once

#include <cstdio>
#include <memory>
#include <vector>

#include "runtime/core/result.h"
#include "runtime/executor/method.h"

namespace ember {

// Owns the buffers and tensor metadata behind inputs made by this module.
class InputBuffers {
 public:
  InputBuffers();
  InputBuffers(InputBuffers&&) noexcept;
  InputBuffers& operator=(InputBuffers&&) noexcept;
  ~InputBuffers();

  // Makes a tensor shaped like `info` filled with `value` (converted to the
  // tensor's dtype); the tensor lives as long as this object.
  // MemoryAllocationFailed if its storage cannot be allocated.
  Result<Tensor> make_filled(const TensorInfo& info, double value);

 private:
  struct Owned;
  std::vector<std::unique_ptr<Owned>> owned_;
};

// Sets every tensor input of `method` to ones (upstream's default) and
// leaves scalar inputs at their exported values.
Result<InputBuffers> prepare_input_tensors(Method& method, double fill = 1.0);

// Prints "Output i: <summary>" lines for every output of `method`, at most
// `max_elements` values per tensor.
void print_outputs(const Method& method, FILE* out, size_t max_elements = 16);

// Prints one EValue (tensor dtype, shape and leading elements).
void print_evalue(const EValue& value, FILE* out, size_t max_elements);

// Element `i` of a contiguous tensor as double (for printing and checks).
double element_as_double(const Tensor& t, int64_t i);

}  // namespace ember
