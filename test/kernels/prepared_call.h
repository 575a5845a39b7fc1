// Calling a prepared kernel (EMBER_REGISTER_PREPARED_KERNEL) the way a
// loaded method does with kernel prepare on: once in Prepare mode at load,
// then in Prepared mode when that Prepare stopped, in Run mode when it did
// not (docs/custom_kernels.md, "Checking once: prepared kernels").
//
// expect_prepared_like_run() checks one call both ways on the same
// arguments: Prepare writes no tensor data and stops or fails (never runs
// through to computing), and the call then gives the same Error, message
// and bytes in every tensor argument as a plain call. Tensors must have
// static shapes (prepare skips calls with any other).
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "test/kernels/kernel_test_util.h"

namespace ember::testing {

// The outcome of one call in one mode.
struct ModeCall {
  Error error = Error::Ok;
  bool stopped = false;  // Prepare mode only: the kernel called prepared_stop()
  std::string message;
};

// Calls `op` in `mode` (call_kernel: Prepare gets no temp allocator, as
// at load), checking first that `op` is a prepared kernel.
inline ModeCall call_kernel_in_mode(const std::string& op, const std::vector<Arg>& args,
                                    KernelContext::Mode mode) {
  const size_t dot = op.find('.');
  const std::string name = op.substr(0, dot);
  const std::string overload = dot == std::string::npos ? "" : op.substr(dot + 1);
  EXPECT_TRUE(kernel_prepares(name.c_str(), overload.c_str())) << op << " is not prepared";
  ModeCall result;
  result.error = call_kernel(op, args, mode, &result.stopped);
  result.message = last_error_message();
  return result;
}

// The tensors among `args` (tensor lists included).
inline std::vector<Tensor> tensors_in(const std::vector<Arg>& args) {
  std::vector<Tensor> found;
  for (const Arg& a : args) {
    if (a.value().is_tensor()) {
      found.push_back(a.value().to_tensor());
    } else if (a.value().is_tensor_list()) {
      for (const Tensor& t : a.value().to_tensor_list()) {
        found.push_back(t);
      }
    }
  }
  return found;
}

inline std::vector<std::string> tensor_bytes(const std::vector<Tensor>& tensors) {
  std::vector<std::string> bytes;
  for (const Tensor& t : tensors) {
    const char* p = static_cast<const char*>(t.const_data_ptr());
    bytes.emplace_back(p == nullptr ? "" : std::string(p, t.nbytes()));
  }
  return bytes;
}

inline void restore_bytes(const std::vector<Tensor>& tensors,
                          const std::vector<std::string>& bytes) {
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (!bytes[i].empty()) {
      std::memcpy(tensors[i].mutable_data_ptr(), bytes[i].data(), bytes[i].size());
    }
  }
}

// Runs `op` on `args` plainly, restores every tensor's bytes, then runs it
// as a method with kernel prepare does, and expects the same outcome (see
// the top of this file). Returns the Prepare call's outcome.
inline ModeCall expect_prepared_like_run(const std::string& op, const std::vector<Arg>& args) {
  const std::vector<Tensor> tensors = tensors_in(args);
  const std::vector<std::string> before = tensor_bytes(tensors);
  const ModeCall plain = call_kernel_in_mode(op, args, KernelContext::Mode::Run);
  const std::vector<std::string> after_plain = tensor_bytes(tensors);
  restore_bytes(tensors, before);

  const ModeCall prepare = call_kernel_in_mode(op, args, KernelContext::Mode::Prepare);
  EXPECT_TRUE(prepare.error != Error::Ok || prepare.stopped)
      << op << ": Prepare ran through without stopping";
  EXPECT_EQ(tensor_bytes(tensors), before) << op << ": Prepare wrote tensor data";
  const bool checked = prepare.error == Error::Ok && prepare.stopped;
  const ModeCall run = call_kernel_in_mode(
      op, args, checked ? KernelContext::Mode::Prepared : KernelContext::Mode::Run);
  EXPECT_EQ(run.error, plain.error) << op << ": " << run.message;
  EXPECT_EQ(run.message, plain.message) << op;
  EXPECT_EQ(tensor_bytes(tensors), after_plain) << op << ": results differ";
  return prepare;
}

// A call prepared on `prepare_args` whose Int arguments or tensor data
// pointers then change (a method input, a value read from a tensor, a
// rebound input): expects Prepare on `prepare_args` to stop, then `op` in
// Prepared mode on `run_args` to give the same outcome as a plain call on
// `run_args` (same Error, message and bytes). The tensors must have the
// same dtypes and shapes in both lists.
inline void expect_prepared_on_changed_args(const std::string& op,
                                            const std::vector<Arg>& prepare_args,
                                            const std::vector<Arg>& run_args) {
  const ModeCall prepare = call_kernel_in_mode(op, prepare_args, KernelContext::Mode::Prepare);
  ASSERT_EQ(prepare.error, Error::Ok) << op << ": " << prepare.message;
  ASSERT_TRUE(prepare.stopped) << op;
  const std::vector<Tensor> tensors = tensors_in(run_args);
  const std::vector<std::string> before = tensor_bytes(tensors);
  const ModeCall plain = call_kernel_in_mode(op, run_args, KernelContext::Mode::Run);
  const std::vector<std::string> after_plain = tensor_bytes(tensors);
  restore_bytes(tensors, before);
  const ModeCall run = call_kernel_in_mode(op, run_args, KernelContext::Mode::Prepared);
  EXPECT_EQ(run.error, plain.error) << op << ": " << run.message;
  EXPECT_EQ(run.message, plain.message) << op;
  EXPECT_EQ(tensor_bytes(tensors), after_plain) << op << ": results differ";
}

}  // namespace ember::testing
