// Program: a loaded .pte file.
//
// Program::load() reads and checks the file head (flatbuffer identifier and
// the optional extended header), loads the program flatbuffer through the
// caller's DataLoader, verifies it, and loads the constant segment once.
// Methods are then loaded on demand with load_method().
//
// Verification levels (both never read outside the bytes they were given):
//   Minimal              header, extended header, the flatbuffer structure
//                        (flatbuffers Verifier: every table, vector and
//                        string within bounds) and the segment table. Each
//                        method's values, instructions and indices are
//                        checked when that method loads.
//   InternalConsistency  all of the above, and every method checked now, so
//                        a bad index anywhere in the file fails the load.
//
// External data: a program exported with external constants keeps tensors
// (location EXTERNAL, keyed by fully qualified name) and delegate weights
// (named data) in separate .ptd files. Pass their maps (FlatTensorDataMap,
// runtime/executor/flat_tensor_data_map.h) as `data_maps`: each EXTERNAL
// tensor is looked up by its key in the maps in order (first match wins) when
// its method loads, and must match the program's tensor in byte size (and
// dtype and sizes when the file records a layout); delegates see the
// program's own named data first, then the maps.
//
// Lifetimes: the DataLoader and every data map must outlive the Program; the
// Program must outlive every Method loaded from it. Program is move-only.
//
// Thread safety: after load() returns, a Program is read-only. Any number
// of threads may call its const members at once, load_method() included
// (the same method or different ones), as long as each load has its own
// MemoryManager (see method.h). Concurrent loads call the DataLoader's
// load() (mutable initial values, delegate blobs) and the data maps'
// get_data() from those threads at the same time: the loaders and
// FlatTensorDataMap in Ember are safe for that; an application's own
// loader or map must be too, or the application loads one method at a
// time. Moving or destroying the Program must not overlap any use of it or
// of a Method loaded from it. README.md, "Thread safety", has the whole
// contract; test/runtime/thread_safety_test.cpp checks it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/data_loader.h"
#include "runtime/core/freeable_buffer.h"
#include "runtime/core/memory_manager.h"
#include "runtime/core/named_data_map.h"
#include "runtime/core/result.h"
#include "runtime/executor/method.h"
#include "runtime/executor/method_meta.h"

namespace ember_fb {
struct Program;
struct ExecutionPlan;
struct BackendDelegateDataReference;
}  // namespace ember_fb

namespace ember {

// What the first bytes of a file say it is.
enum class HeaderStatus {
  Compatible,     // an ET12 program
  OtherVersion,   // an ExecuTorch program of a format version we do not read
  NotAProgram,    // some other file (a bundled program has "BP08")
  Truncated,      // fewer than 8 bytes
};

// Classifies a file from its first `size` bytes (8 are enough).
HeaderStatus check_program_header(const void* data, size_t size);

class Program final {
 public:
  enum class Verification : uint8_t { Minimal, InternalConsistency };

  static constexpr size_t kMaxDataMaps = 8;

  static Result<Program> load(DataLoader* loader,
                              Verification verification = Verification::Minimal);
  // With external data files (at most kMaxDataMaps; the pointers are copied,
  // the maps must outlive the Program). InvalidArgument for a null map or
  // too many.
  static Result<Program> load(DataLoader* loader, Verification verification,
                              Span<const NamedDataMap* const> data_maps);

  Program(Program&& other) noexcept;
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  Program& operator=(Program&&) = delete;
  ~Program() = default;

  size_t num_methods() const;
  // Name of method `index`; InvalidArgument if out of range.
  Result<const char*> get_method_name(size_t index) const;
  // Metadata of a method without loading it; NotFound for an unknown name.
  Result<MethodMeta> method_meta(const char* method_name) const;
  // Loads a method. Memory comes from `memory_manager`, which must outlive
  // the Method. On failure, last_error_message() names the cause (every
  // missing operator, an unregistered backend, a bad index...).
  // `event_tracer` (optional) records the load ("Default" block) and stays
  // attached to the Method (see Method::set_event_tracer).
  Result<Method> load_method(const char* method_name, MemoryManager* memory_manager,
                             EventTracer* event_tracer = nullptr) const;

 private:
  // The loader, validation and in-tree tools read these through
  // ProgramInternals (program_internal.h, not installed).
  friend class ProgramInternals;
  const ember_fb::Program* flatbuffer() const { return program_; }
  // Constant bytes [offset of buffer `index`, + nbytes), checked earlier.
  const void* constant_data(uint32_t index) const;
  // Copies the initial value of a mutable tensor into `dst`.
  Error load_mutable_data(uint64_t segments_index, uint32_t buffer_index,
                          void* dst, size_t nbytes) const;
  // The processed blob of a delegate (inline bytes or a loaded segment).
  Result<FreeableBuffer> load_delegate_data(
      const ember_fb::BackendDelegateDataReference* reference) const;
  // Byte size of segment `index` (validated at load).
  uint64_t segment_size(size_t index) const;
  // Size of the constant data backing buffer `index` (segment or inline).
  bool constant_in_range(uint32_t index, size_t nbytes) const;
  // The program's named data, then the data maps (what delegates see).
  const NamedDataMap* named_data() const { return &named_data_; }
  size_t num_data_maps() const { return num_data_maps_; }
  const NamedDataMap* data_map(size_t index) const { return data_maps_[index]; }

  class ProgramNamedData final : public NamedDataMap {
   public:
    Result<FreeableBuffer> get_data(const char* key) const override;
    const Program* program = nullptr;
  };

  Program() = default;
  Error load_constant_segment();
  Result<FreeableBuffer> load_segment(size_t index, SegmentKind kind) const;
  const ember_fb::ExecutionPlan* find_plan(const char* name) const;

  DataLoader* loader_ = nullptr;
  FreeableBuffer program_data_;
  FreeableBuffer constant_segment_;
  const ember_fb::Program* program_ = nullptr;
  uint64_t segment_base_offset_ = 0;
  bool has_segment_base_ = false;
  bool uses_constant_segment_ = false;
  // Every method passed validate_execution_plan at load (InternalConsistency):
  // load_method() does not validate again.
  bool methods_validated_ = false;
  ProgramNamedData named_data_;
  const NamedDataMap* data_maps_[kMaxDataMaps] = {};
  size_t num_data_maps_ = 0;
};

}  // namespace ember
