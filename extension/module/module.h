// Module: the convenient way to run a .pte (or a .bpte) from an application
// that has a heap. It owns the data loader, the Program, and for each loaded
// method the method allocator, planned buffers (sized from MethodMeta), a
// temp allocator and memory for the outputs the program leaves to the
// application. The runtime core underneath still allocates nothing itself.
//
//   Result<std::unique_ptr<Module>> module = Module::load("model.pte");
//   if (!module.ok()) ...;  // last_error_message() says why
//   Result<TensorPtr> x = make_tensor_ptr({2, 3}, {1.f, 2.f, 3.f, 4.f, 5.f, 6.f});
//   Result<Outputs> out = (*module)->forward({*x});
//   if (!out.ok()) ...;  // e.g. which input, what was expected, what was given
//   const Tensor y = (*out)[0].to_tensor();  // owned by *out
//
// Two levels:
//  - execute()/forward() set inputs (checked against the method's
//    metadata), run, and hand back owned copies of the outputs (Outputs):
//    they stay valid after the next execute() and after the Module is gone.
//  - method() gives the runtime's Method for zero-copy use: its outputs
//    live in the method's memory and change with the next execute().
//
// A bundled program (.bpte) loads like a .pte (its embedded program runs):
// Module is how host tools, the Python binding, the conformance suite and
// the examples open one. The file is opened once, with the loader chosen;
// a .bpte is read whole once and opened with ProgramView::open
// (bundled_program/bundled_program.h), whose embedded program is then
// loaded in place. load_bundled_input() sets a test case's inputs (copied
// into memory the Module owns), verify_outputs() compares the outputs with
// the bundled expected values, verify() does both around an execute().
//
// Thread safety: loading a method (method(), load_method(), the first
// execute() of a name), is_method_loaded(), unload_method(),
// method_names() and method_allocator_used() may be called from several
// threads at once (a mutex guards the table of loaded methods; a load
// holds it, so loads through one Module run one at a time). But each name
// has one Method per Module, and a Method runs on one thread at a time
// (runtime/executor/method.h): set_input(s)/execute()/forward()/verify()
// on one name from two threads must be serialized by the caller; two
// threads that each run "forward" need two Modules, or one Program
// (program()) and a Method each from Program::load_method with their own
// memory. unload_method() must not race with a use of that method.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bundled_program/bundled_program.h"
#include "extension/tensor/tensor_ptr.h"
#include "runtime/core/data_loader.h"
#include "runtime/core/evalue.h"
#include "runtime/core/event_tracer.h"
#include "runtime/core/freeable_buffer.h"
#include "runtime/core/result.h"
#include "runtime/executor/method_meta.h"
#include "runtime/executor/program.h"

namespace ember {

// The outputs of one execute(), owned by the caller. Tensor outputs are
// copies (clone_tensor_ptr) taken before execute() returned; the EValues
// here point at them, so they stay valid as long as this object or a copy
// of it (copies share the tensors), whatever the Module does next. Int,
// Double, Bool and None outputs are copied by value; a String output
// points into the program's bytes and lives as long as the Module.
class Outputs final {
 public:
  size_t size() const { return values_.size(); }
  bool empty() const { return values_.empty(); }
  const EValue& operator[](size_t index) const { return values_[index]; }
  std::vector<EValue>::const_iterator begin() const { return values_.begin(); }
  std::vector<EValue>::const_iterator end() const { return values_.end(); }
  // The tensor of output `index`; null when that output is not a tensor.
  const TensorPtr& tensor(size_t index) const { return tensors_[index]; }

 private:
  friend class Module;
  std::vector<EValue> values_;
  std::vector<TensorPtr> tensors_;  // parallel to values_
};

// What verify() found for one test case: the bundled_program library's
// report per output (verify_method_outputs) and the verdict.
struct VerifyReport {
  std::string method_name;
  size_t testset_index = 0;
  bool passed = false;
  std::vector<OutputReport> outputs;
  // When !passed: the library's message, naming the first failing output
  // and its worst element.
  std::string message;
};

class Module final {
 public:
  // How load() opens a file (a .pte, a .bpte, and each .ptd):
  //  - File: FileDataLoader, every segment read into memory of its own.
  //  - Mmap: MmapDataLoader, segments used in place, pages read on first
  //    touch and never locked.
  //  - MmapUseMlock: Mmap, and the pages of each loaded segment are
  //    mlock()ed (MmapDataLoader::MlockConfig::UseMlock); a refused mlock()
  //    fails the load, naming the file, range and cause.
  //  - MmapUseMlockIgnoreErrors: as MmapUseMlock, but a refused mlock()
  //    leaves the pages unlocked and the load goes on.
  //  - Buffer: Ember's own addition: the whole file read into memory once.
  // The first four are upstream ExecuTorch's names with its meanings. The
  // default differs: upstream's is MmapUseMlock, Ember's is Mmap, because
  // pinning every weight page makes all of them resident (a large model's
  // whole size, even where a method reads few of them) and fails outright
  // for a process without CAP_IPC_LOCK whose RLIMIT_MEMLOCK is smaller
  // than the model (Linux's default is 8 MiB, 64 KiB before 5.16).
  enum class LoadMode { File, Mmap, MmapUseMlock, MmapUseMlockIgnoreErrors, Buffer };

  // The one table of loader names, as tools spell them on their command
  // lines: "file", "mmap", "mmap_mlock", "mmap_mlock_ignore_errors",
  // "buffer". False (and *mode untouched) for any other name.
  static bool parse_load_mode(const std::string& name, LoadMode* mode);
  static const char* load_mode_name(LoadMode mode);
  // "file, mmap, mmap_mlock, mmap_mlock_ignore_errors or buffer": the names
  // parse_load_mode() takes, for messages.
  static const char* load_mode_names();

  // Opens `path` with the chosen loader (see LoadMode) and loads the
  // program.
  static Result<std::unique_ptr<Module>> load(
      const std::string& path, LoadMode mode = LoadMode::Mmap,
      Program::Verification verification = Program::Verification::Minimal);
  // With external data files (.ptd); see the overload below.
  static Result<std::unique_ptr<Module>> load(
      const std::string& path, const std::vector<std::string>& data_paths,
      LoadMode mode = LoadMode::Mmap,
      Program::Verification verification = Program::Verification::Minimal);
  // Takes ownership of `loader`.
  static Result<std::unique_ptr<Module>> load(
      std::unique_ptr<DataLoader> loader,
      Program::Verification verification = Program::Verification::Minimal);
  // With external data files (.ptd), each opened with `mode` and read as a
  // FlatTensorDataMap; the program looks its EXTERNAL tensors and delegate
  // named data up in them, in order. A file that cannot be opened or read
  // fails the load (the message names it).
  //
  // Every load() takes a .pte or a .bpte: when the bytes carry the bundled
  // program identifier they are read whole, verified
  // (ProgramView::open) and kept, and the embedded program is loaded in
  // place.
  static Result<std::unique_ptr<Module>> load(
      std::unique_ptr<DataLoader> loader, const std::vector<std::string>& data_paths,
      LoadMode mode, Program::Verification verification = Program::Verification::Minimal);

  Program& program() { return *program_; }
  std::vector<std::string> method_names() const;

  // The metadata of method `name`, loaded or not; valid while the Module
  // lives. NotFound (with a message) when the program has no such method.
  Result<MethodMeta> method_meta(const std::string& name) const;

  // Loads `name` on first use and returns it. Its memory is allocated once,
  // at the sizes its MethodMeta states (the planned buffers and
  // method_allocator_bytes(), exact for this build). The Method lives until
  // unload_method() or the Module's end.
  //
  // `event_tracer` (optional, not owned; runtime/core/event_tracer.h) is
  // handed to Program::load_method when this call loads the method: it
  // records the load and stays attached to the Method, so it must outlive
  // every execute() (or be detached with Method::set_event_tracer(nullptr)).
  // For a method already loaded it is ignored: attach one with
  // Method::set_event_tracer.
  Result<Method*> method(const std::string& name, EventTracer* event_tracer = nullptr);

  // method() without the pointer: loads `name` now instead of on first use.
  Error load_method(const std::string& name, EventTracer* event_tracer = nullptr);
  bool is_method_loaded(const std::string& name) const;
  // Frees a loaded method and its memory; true if it was loaded. Outputs
  // already returned stay valid; Method pointers from method() do not.
  bool unload_method(const std::string& name);

  // Whether methods loaded from now on get their constant operands
  // prepared (Method::prepare_operands: linear layers' weights packed for
  // the GEMM once, in memory the Module owns, about the size of those
  // weights); on by default. Off, methods run as written.
  void set_prepare_operands(bool enabled) { prepare_operands_ = enabled; }

  // Whether methods loaded from now on get every page of their planned
  // buffers written once at load, so that executions never fault them in
  // (a text generator's first prompt: otherwise the prefill pays a page
  // fault for each fresh page of activations and KV cache). Off by
  // default: planned memory a method never reaches then costs no RSS.
  void set_prefault_planned_memory(bool enabled) { prefault_planned_ = enabled; }

  // Bytes of method-allocator memory used by `name`, after it loaded.
  size_t method_allocator_used(const std::string& name) const;

  // Sets input `index` of method `name` (loading it if needed), checked
  // against its MethodMeta first: the kind (tensor or scalar) must match; a
  // tensor's dtype and rank must match, and each size must equal the
  // method's (static shape) or be at most the method's upper bound
  // (bounded-dynamic shape). Then Method::set_input applies its own rules
  // (dim order, the scalar value a program was specialized on).
  //
  // An input with planned memory is copied. An input the program leaves to
  // the application (TensorInfo::is_memory_planned() false) is read in place
  // at execute(): given as a TensorPtr, the Module keeps a reference to it
  // until the input is set again or the method is unloaded; given as an
  // EValue, the caller keeps the tensor's data alive and unchanged until
  // the last execute() that reads it has returned.
  //
  // Errors, each with a message naming the method and the input index and
  // saying what was expected and what was given: InvalidArgument for an
  // index out of range or a mismatch; NotFound for an unknown method.
  Error set_input(const std::string& name, const EValue& value, size_t index);
  Error set_input(const std::string& name, const TensorPtr& tensor, size_t index);
  // Sets every input, in order; the count must equal the method's.
  Error set_inputs(const std::string& name, const std::vector<EValue>& values);
  Error set_inputs(const std::string& name, const std::vector<TensorPtr>& tensors);

  // Sets inputs 0 .. inputs.size() - 1 as set_input() does (inputs not
  // given keep what an earlier call set, so execute(name) alone runs on the
  // inputs set before), runs the method, and returns owned copies of its
  // outputs. More inputs than the method takes is InvalidArgument naming
  // the first extra index; an input never set is the Method's
  // InvalidState. Outputs that are lists are NotSupported (exported
  // programs flatten their outputs).
  Result<Outputs> execute(const std::string& name);
  Result<Outputs> execute(const std::string& name, const std::vector<EValue>& inputs);
  Result<Outputs> execute(const std::string& name, const std::vector<TensorPtr>& inputs);
  Result<Outputs> execute(const std::string& name, const EValue& input) {
    return execute(name, std::vector<EValue>{input});
  }
  Result<Outputs> execute(const std::string& name, const TensorPtr& input) {
    return execute(name, std::vector<TensorPtr>{input});
  }
  // execute("forward", ...). With no inputs, call forward() (forward({}) is
  // ambiguous between the two vector overloads).
  Result<Outputs> forward() { return execute("forward"); }
  Result<Outputs> forward(const std::vector<EValue>& inputs) {
    return execute("forward", inputs);
  }
  Result<Outputs> forward(const std::vector<TensorPtr>& inputs) {
    return execute("forward", inputs);
  }
  Result<Outputs> forward(const EValue& input) { return execute("forward", input); }
  Result<Outputs> forward(const TensorPtr& input) { return execute("forward", input); }

  // For a Module loaded from a .bpte (else InvalidState):
  //
  // load_bundled_input() sets the inputs of test case `testset_index` of
  // `method_name`'s suite, loading the method if needed. They are copied
  // into memory the Module owns (sized by bundled_case_memory_bytes, reused
  // for every test case), so nothing refers to the bundle's bytes and a
  // program that writes into an input cannot change them. Call it again
  // before every execute() that must see the test case's inputs (planned
  // memory may let an output overwrite an input). Errors: NotFound /
  // InvalidArgument from the bundled_program library (no suite for the
  // method, index out of range, an input of the wrong count, kind, dtype or
  // shape); the method's load errors.
  Error load_bundled_input(const std::string& method_name, size_t testset_index);

  // verify_outputs() compares the method's outputs as they are now (after
  // execute()) with test case `testset_index`'s expected ones through
  // bundled_program's verify_method_outputs (rules and default tolerances
  // there), one OutputReport per output. Outputs outside tolerance give a
  // report with passed == false, not an Error. Errors: NotFound /
  // InvalidArgument as above, or when the expected output count differs;
  // NotSupported when the test case has no expected outputs.
  Result<VerifyReport> verify_outputs(const std::string& method_name, size_t testset_index,
                                      double rtol = kDefaultBundledRtol,
                                      double atol = kDefaultBundledAtol);

  // load_bundled_input(), execute() and verify_outputs(); execution errors
  // too.
  Result<VerifyReport> verify(size_t testset_index, double rtol = kDefaultBundledRtol,
                              double atol = kDefaultBundledAtol,
                              const std::string& method_name = "forward");
  // The bundle when the Module was loaded from a .bpte, else null.
  const BundledProgram* bundle() const { return bundle_.get(); }

  ~Module();

 private:
  struct LoadedMethod;
  Module() = default;

  // The loaded method `name`, loading it if needed.
  Result<LoadedMethod*> loaded_method(const std::string& name,
                                      EventTracer* event_tracer = nullptr);
  // Checks `value` against input `index` of the method's metadata, then
  // sets it (module_io.cpp).
  Error set_checked_input(LoadedMethod& loaded, const EValue& value, size_t index);
  // Executes and copies the outputs out.
  Result<Outputs> run(LoadedMethod& loaded);
  // For a loader whose bytes are a .bpte: reads them whole (once), keeps
  // them, opens them (ProgramView::open) and points loader_ at the
  // embedded program.
  Error adopt_bundle(std::unique_ptr<DataLoader> file_loader);
  // The bundle, or InvalidState with a message naming `what`.
  Result<const BundledProgram*> require_bundle(const char* what) const;

  std::unique_ptr<DataLoader> loader_;
  // For a .bpte: the file's loader, its whole bytes (realigned into
  // bundle_copy_ when the loader's buffer was not aligned for the embedded
  // program) and the verified view of them; loader_ reads the embedded
  // program out of these bytes.
  std::unique_ptr<DataLoader> bundle_loader_;
  FreeableBuffer bundle_bytes_;
  std::unique_ptr<uint8_t, void (*)(void*)> bundle_copy_{nullptr, nullptr};
  std::unique_ptr<BundledProgram> bundle_;

  std::vector<std::unique_ptr<DataLoader>> data_loaders_;
  std::vector<std::unique_ptr<NamedDataMap>> data_maps_;
  std::unique_ptr<Program> program_;
  mutable std::mutex mutex_;  // guards methods_
  std::map<std::string, std::unique_ptr<LoadedMethod>> methods_;
  bool prepare_operands_ = true;
  bool prefault_planned_ = false;
};

}  // namespace ember
