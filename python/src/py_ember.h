// The native half of the Python module `ember` (ember._ember): programs,
// methods and value conversion. The Python half (python/ember/__init__.py)
// shapes it like upstream's executorch.runtime.
//
// This is binding code, outside the core: it uses the heap and C++
// exceptions. Every Ember Error becomes an ember.EmberError (a
// RuntimeError) whose text is "<what>: <ErrorName>: <last_error_message()>".
//
// Lifetimes: a PyProgram owns the program's bytes (when they came from
// Python) and its Module, which opens a .pte or a .bpte and owns the
// methods' memory; every PyMethod and PyMethodMeta holds a shared_ptr to
// its PyProgram, so Python may drop the Program first.
//
// Threads: execute() releases the GIL. A method runs one call at a time
// (a per-method mutex); different methods run in parallel. Changing the
// thread count waits for running calls (g_pool_lock).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "bundled_program/bundled_program.h"
#include "extension/module/module.h"
#include "runtime/core/error.h"
#include "runtime/core/evalue.h"
#include "runtime/executor/method_meta.h"

namespace ember_py {

namespace py = pybind11;

// An Ember failure on its way to Python (translated in ember_py.cpp).
class EmberException : public std::runtime_error {
 public:
  EmberException(ember::Error code, const std::string& message)
      : std::runtime_error(message), code_(code) {}
  ember::Error code() const { return code_; }

 private:
  ember::Error code_;
};

// Throws EmberException: "<what>: <ErrorName>[: <last_error_message()>]".
[[noreturn]] void throw_error(const std::string& what, ember::Error error);
inline void check(ember::Error error, const std::string& what) {
  if (error != ember::Error::Ok) throw_error(what, error);
}

// Readers and writers share the process-wide pool: execute() holds it
// shared, set_num_threads() exclusive.
extern std::shared_mutex g_pool_lock;

// ---- Text generation (py_llm.cpp; built with EMBER_BUILD_LLM) ----

// Adds the `llm` submodule to `parent`.
void bind_llm(py::module_& parent);
// Adds MultimodalRunner, Seq2SeqRunner and the input makers to `llm`
// (py_multimodal.cpp).
void bind_multimodal(py::module_& llm);

// ---- Values (py_values.cpp) ----

// Storage and metadata behind the tensors of one execute() call; the
// Python objects whose memory the tensors point at are kept alive here.
// Build and destroy it with the GIL held.
class InputTensors {
 public:
  // The EValue for `value`, to set as input `index` of a method whose
  // slot has `tag` (and `info` for a tensor slot). Accepts numpy arrays
  // (any dtype with an Ember equivalent), (array, scalar_type) pairs for
  // dtypes numpy lacks (bfloat16 bits as uint16/int16), Python
  // bool/int/float, 0-d arrays for scalar slots, and None.
  ember::EValue convert(py::handle value, size_t index, ember::Tag tag,
                        const ember::TensorInfo* info);

 private:
  struct Owned {
    std::vector<ember::SizesType> sizes;
    std::vector<ember::DimOrderType> dim_order;
    std::vector<ember::StridesType> strides;
    std::unique_ptr<ember::TensorImpl> impl;
    py::object keep;  // the array the data lives in
  };
  std::vector<std::unique_ptr<Owned>> owned_;
};

// A Python value for an output: numpy arrays (copied, C-contiguous),
// ("BFloat16", uint16 array) for bfloat16 tensors, int/float/bool/None/str,
// lists for list values.
py::object to_python(const ember::EValue& value);

// The ScalarType a numpy dtype stands for; throws TypeError when none.
ember::ScalarType scalar_type_of(const py::dtype& dtype);

// ---- Programs and methods (py_program.cpp) ----

class PyMethod;

// The program bytes when they must be owned: from Python.
struct OwnedBytes {
  std::unique_ptr<uint8_t, void (*)(void*)> data{nullptr, nullptr};
  size_t size = 0;
};

class PyProgram : public std::enable_shared_from_this<PyProgram> {
 public:
  // From a file (.pte, or .bpte: its embedded program) or from bytes.
  static std::shared_ptr<PyProgram> from_file(const std::string& path,
                                              const std::vector<std::string>& data_files,
                                              ember::Program::Verification verification);
  static std::shared_ptr<PyProgram> from_bytes(py::bytes bytes,
                                               const std::vector<std::string>& data_files,
                                               ember::Program::Verification verification);

  size_t num_methods() const { return module_->program().num_methods(); }
  std::string get_method_name(size_t index) const;
  std::vector<std::string> method_names() const { return module_->method_names(); }
  ember::MethodMeta method_meta(const std::string& name) const;
  // Loads the method once (GIL released) and returns it every time after.
  std::shared_ptr<PyMethod> load_method(const std::string& name);

  bool is_bundled() const { return module_->bundle() != nullptr; }
  const ember::BundledProgram& bundle() const;
  // Method names with test cases, in the bundle's order.
  std::vector<std::string> bundled_method_names() const;
  size_t num_test_cases(const std::string& method_name) const;
  // The Module that opened the program (and its bundle) and owns its
  // methods and their memory.
  ember::Module& module() { return *module_; }

 private:
  PyProgram() = default;
  void load_module(std::unique_ptr<ember::DataLoader> loader,
                   const std::vector<std::string>& data_files,
                   ember::Program::Verification verification, const std::string& what);
  void take_bytes(const void* data, size_t size);

  // Declared first: destroyed last, after everything that points into it.
  OwnedBytes bytes_;
  std::unique_ptr<ember::Module> module_;
  std::mutex load_mutex_;
  std::vector<std::pair<std::string, std::shared_ptr<PyMethod>>> methods_;
};

class PyMethod {
 public:
  PyMethod(std::shared_ptr<PyProgram> program, ember::Method* method)
      : program_(std::move(program)), method_(method) {}

  std::string name() const { return method_->name(); }
  ember::MethodMeta meta() const { return method_->method_meta(); }
  const std::shared_ptr<PyProgram>& program() const { return program_; }

  // Sets every input, runs, returns copies of the outputs.
  py::list execute(py::sequence inputs);

  // Bundled programs only. Sets the inputs of test case `testset_index`.
  void load_bundled_input(size_t testset_index);
  // The inputs of test case `testset_index`, as Python values.
  py::list bundled_inputs(size_t testset_index);
  // Runs test case `testset_index` and compares: a report dict (see
  // ember.Method.verify). Never raises for values outside tolerance.
  py::dict verify(size_t testset_index, double rtol, double atol);
  // Upstream's verify_result_with_bundled_expected_output: the outputs,
  // or EmberError when one is outside tolerance.
  py::list run_and_verify(size_t testset_index, double rtol, double atol);

 private:
  // With the method's mutex held and the GIL released.
  void set_bundled_input_locked(size_t testset_index);
  // Sets test case `testset_index`'s inputs and executes; returns the
  // case's name for messages ("method 'm' test case k").
  std::string run_bundled_case_locked(size_t testset_index);
  py::list outputs_locked() const;

  std::shared_ptr<PyProgram> program_;
  ember::Method* method_;  // owned by program_'s Module
  std::mutex mutex_;
};

}  // namespace ember_py
