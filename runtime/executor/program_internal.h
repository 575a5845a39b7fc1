// What Method's loader, program validation and the in-tree tools
// (conformance facts, the runner's program info, the fuzz corpus
// extractor, tests) read from a Program beyond its public API: the
// flatbuffer, constant and mutable data, delegate blobs, segment sizes and
// data maps, and read-only views of each method's operator table,
// instructions and delegates (MethodTables), so that tools need not walk
// the flatbuffer. Not installed: applications use program.h.
//
//   ProgramInternals in(program);
//   Result<ProgramInternals::MethodTables> tables = in.method_tables(0);
//   for (size_t i = 0; i < tables->num_operators(); ++i) ... tables->op(i)
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/span.h"
#include "runtime/executor/program.h"

namespace ember {

class ProgramInternals {
 public:
  // One method's tables, read only after the method passed validation
  // (validate_execution_plan), so every index the file holds is in range.
  // Backed by the program's bytes: valid while the Program lives. Names are
  // the file's bytes, unescaped and not NUL-terminated: escape them
  // (printable_bytes) before printing. Indices the caller passes are
  // checked: InvalidArgument when out of range.
  class MethodTables final {
   public:
    struct Operator {
      Span<const char> name;
      Span<const char> overload;  // empty when the operator has none
    };
    enum class InstructionKind : uint8_t { Kernel, Delegate, Move, JumpFalse, Free };
    struct Instruction {
      InstructionKind kind;
      uint32_t index;  // Kernel: its operator; Delegate: its delegate; else 0
    };
    struct Delegate {
      Span<const char> id;     // the backend id ("XnnpackBackend")
      bool inline_data;        // blob in backend_delegate_data, else a segment
      uint32_t data_index;     // index in that table (one blob may serve several)
    };

    // Entries of the method's operator table (what loading resolves).
    size_t num_operators() const;
    // Operator `index` of the table.
    Result<Operator> op(size_t index) const;
    // Chains of the method.
    size_t num_chains() const;
    // Instructions of chain `chain` (0 for a chain out of range).
    size_t num_instructions(size_t chain) const;
    // Instruction `index` of chain `chain`: its kind and table index.
    Result<Instruction> instruction(size_t chain, size_t index) const;
    // Delegates of the method.
    size_t num_delegates() const;
    // Delegate `index`: backend id and where its processed blob is stored.
    Result<Delegate> delegate(size_t index) const;
    // The processed blob of delegate `index` (inline bytes or a loaded segment).
    Result<FreeableBuffer> load_delegate_data(size_t index) const;

   private:
    friend class ProgramInternals;
    MethodTables(const Program& program, const ember_fb::ExecutionPlan* plan)
        : program_(&program), plan_(plan) {}
    const Program* program_;
    const ember_fb::ExecutionPlan* plan_;
  };

  // The tables of method `index` (0..num_methods() - 1). At Minimal
  // verification the method is validated now, as load_method() does:
  // InvalidProgram (with last_error_message()) when it fails;
  // InvalidArgument for an index out of range.
  Result<MethodTables> method_tables(size_t index) const;
  // Bytes of constant data in the file: the segment constant_segment names
  // (when it lists offsets) plus every inline constant_buffer's storage.
  uint64_t constant_bytes() const;

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
