// What Method's loader, program validation and the in-tree tools
// (conformance facts, the runner's program info, the fuzz corpus
// extractor, tests) read from a Program beyond its public API: the
// flatbuffer, constant and mutable data, delegate blobs, segment sizes and
// data maps. Not installed: applications use program.h.
//
//   ProgramInternals in(program);
//   const ember_fb::Program* fb = in.flatbuffer();
#pragma once

#include "runtime/executor/program.h"

namespace ember {

class ProgramInternals {
 public:
  explicit ProgramInternals(const Program& program) : program_(program) {}

  const ember_fb::Program* flatbuffer() const { return program_.flatbuffer(); }
  // The plan of method `name` (null when there is none): the loader's
  // own lookup, so tools find a method as load_method() does.
  const ember_fb::ExecutionPlan* find_plan(const char* name) const {
    return program_.find_plan(name);
  }
  // Constant bytes of buffer `index` (its range checked by validation).
  const void* constant_data(uint32_t index) const { return program_.constant_data(index); }
  // Copies the initial value of a mutable tensor into `dst`.
  Error load_mutable_data(uint64_t segments_index, uint32_t buffer_index, void* dst,
                          size_t nbytes) const {
    return program_.load_mutable_data(segments_index, buffer_index, dst, nbytes);
  }
  // The processed blob of a delegate (inline bytes or a loaded segment).
  Result<FreeableBuffer> load_delegate_data(
      const ember_fb::BackendDelegateDataReference* reference) const {
    return program_.load_delegate_data(reference);
  }
  // Byte size of segment `index` (validated at load).
  uint64_t segment_size(size_t index) const { return program_.segment_size(index); }
  // Whether buffer `index` has `nbytes` of constant data behind it.
  bool constant_in_range(uint32_t index, size_t nbytes) const {
    return program_.constant_in_range(index, nbytes);
  }
  // The program's named data, then the data maps (what delegates see).
  const NamedDataMap* named_data() const { return program_.named_data(); }
  size_t num_data_maps() const { return program_.num_data_maps(); }
  const NamedDataMap* data_map(size_t index) const { return program_.data_map(index); }

 private:
  const Program& program_;
};

}  // namespace ember
