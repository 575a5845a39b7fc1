// Module: the convenient way to run a .pte from an application that has a
// heap. It owns the data loader, the Program, and for each loaded method
// the method allocator, planned buffers (sized from MethodMeta) and a temp
// allocator. The runtime core underneath still allocates nothing itself.
//
//   auto module = Module::load("model.pte");
//   if (!module.ok()) ...;
//   Result<Method*> forward = (*module)->method("forward");
//
// Thread safety: method(), method_names() and method_allocator_used() may
// be called from several threads at once (a mutex guards the table of
// loaded methods; a load holds it, so loads through one Module run one at
// a time). But each name has one Method per Module, and a Method runs on
// one thread at a time (runtime/executor/method.h): two threads that each
// execute "forward" need two Modules, or one Program (program()) and a
// Method each from Program::load_method with their own memory.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/core/data_loader.h"
#include "runtime/core/event_tracer.h"
#include "runtime/core/result.h"
#include "runtime/executor/program.h"

namespace ember {

class Module final {
 public:
  enum class LoadMode { File, Mmap, Buffer };

  // Opens `path` with the chosen loader (Buffer reads the whole file into
  // memory first) and loads the program.
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
  static Result<std::unique_ptr<Module>> load(
      std::unique_ptr<DataLoader> loader, const std::vector<std::string>& data_paths,
      LoadMode mode, Program::Verification verification = Program::Verification::Minimal);

  Program& program() { return *program_; }
  std::vector<std::string> method_names() const;

  // Loads `name` on first use (memory sized from its MethodMeta; the method
  // allocator grows and the load is retried if it was too small) and
  // returns it. The Method lives as long as the Module.
  //
  // `event_tracer` (optional, not owned; runtime/core/event_tracer.h) is
  // handed to Program::load_method when this call loads the method: it
  // records the load and stays attached to the Method, so it must outlive
  // every execute() (or be detached with Method::set_event_tracer(nullptr)).
  // For a method already loaded it is ignored: attach one with
  // Method::set_event_tracer. With a tracer, the method pool starts large
  // enough (lazily mapped) that a retried load, which would record a second
  // "Default" block, is unlikely.
  Result<Method*> method(const std::string& name, EventTracer* event_tracer = nullptr);

  // Bytes of method-allocator memory used by `name`, after it loaded.
  size_t method_allocator_used(const std::string& name) const;

  ~Module();

 private:
  struct LoadedMethod;
  Module() = default;

  std::unique_ptr<DataLoader> loader_;
  std::vector<std::unique_ptr<DataLoader>> data_loaders_;
  std::vector<std::unique_ptr<NamedDataMap>> data_maps_;
  std::unique_ptr<Program> program_;
  mutable std::mutex mutex_;  // guards methods_
  std::map<std::string, std::unique_ptr<LoadedMethod>> methods_;
};

}  // namespace ember
