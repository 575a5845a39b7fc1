// What an operator builder sees: the checked graph, typed argument readers
// that fail with a message naming the operator and the argument, and the
// calls that add GPU work to the delegate's plan. Builders run once, at
// init; execution replays what they recorded.
//
// Storage: every tensor is a contiguous (row-major, the sizes as stored)
// buffer. Floating tensors (float16/32/64) hold float32 on the device;
// integer and bool tensors hold int32 (an int64 input is narrowed on the
// way in and widened on the way out, checked against int32's range).
//
// A builder of operator `op` (ops/vk_ops.h lists them):
//   - reads its arguments with the *_arg calls (each checks the kind);
//   - adds dispatches: dispatch(shader, tensors, push constants, threads)
//     binds the tensors' buffers at bindings 0..n-1 in order, copies the
//     push constants (at most kMaxPush bytes) and runs `threads`
//     invocations (the shader reads its count from the push constants and
//     finds its index with ember_index(), shaders/common.glsl);
//   - dispatch(..., once = true) does the same once at init (prepacking a
//     constant into a tensor that later steps update, such as a KV cache).
//
// SymInt values (integers known only at run time: the position a KV cache
// is written at) live on the device too, as one int32 each, so a dispatch
// may bind a SymInt where it binds a tensor; an operator that produces one
// (et_vk.select_as_symint) writes it there and later dispatches read it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "backends/vulkan/vk_graph.h"
#include "runtime/core/error.h"

namespace ember::vulkan {

constexpr size_t kMaxPush = 128;
constexpr uint32_t kWorkgroupSize = 64;

// Whether tensors of `t` are float32 on the device (else int32).
inline bool device_float(DType t) {
  return t == DType::Float16 || t == DType::Float32 || t == DType::Float64;
}

struct Dispatch {
  std::string shader;
  std::vector<int32_t> tensors;  // value ids, bound in order
  uint8_t push[kMaxPush] = {};
  uint32_t push_size = 0;
  uint32_t groups[3] = {1, 1, 1};
  size_t op_index = 0;   // the chain entry that added it
  bool once = false;     // run at init only
};

class Builder {
 public:
  explicit Builder(const Graph& graph) : graph_(graph) {}

  const Graph& graph() const { return graph_; }
  const Value& value(int32_t id) const { return graph_.values[size_t(id)]; }

  // Sets the operator the next calls report against.
  void begin_op(size_t index) { op_index_ = index; }
  const OpCall& op() const { return graph_.chain[op_index_]; }
  size_t num_args() const { return op().args.size(); }
  int32_t arg_id(size_t arg) const { return op().args[arg]; }

  // Typed readers. Each fails (InvalidProgram) when the operator has fewer
  // arguments or the value is of another kind.
  Error tensor_arg(size_t arg, const TensorDesc** out) const;
  Error int_arg(size_t arg, int64_t* out) const;          // Int or Bool
  Error double_arg(size_t arg, double* out) const;        // Double or Int
  Error bool_arg(size_t arg, bool* out) const;
  Error int_list_arg(size_t arg, std::vector<int64_t>* out) const;  // IntList
  Error tensor_list_arg(size_t arg, std::vector<int32_t>* out) const;  // ValueList
  bool is_null(size_t arg) const;
  // The argument count must be at least `n` (InvalidProgram otherwise).
  Error expect_args(size_t n) const;
  // NotSupported naming the operator and `what`.
  Error unsupported(const char* what) const;
  // InvalidProgram naming the operator and `what`.
  Error invalid(const char* what) const;

  // Adds one dispatch of `threads` invocations (see above).
  Error dispatch(const char* shader, std::initializer_list<int32_t> tensors, const void* push,
                 size_t push_size, uint64_t threads);
  Error dispatch(const char* shader, const std::vector<int32_t>& tensors, const void* push,
                 size_t push_size, uint64_t threads, bool once = false);

  std::vector<Dispatch>& dispatches() { return dispatches_; }

 private:
  const Graph& graph_;
  size_t op_index_ = 0;
  std::vector<Dispatch> dispatches_;
};

// Contiguous strides (in elements) of `t`, into `out[kMaxRank]`.
void contiguous_strides(const TensorDesc& t, int64_t* out);

}  // namespace ember::vulkan
