// Method: one loaded, executable entry point of a Program.
//
// Phases:
//   load (Program::load_method)  validate the method's bytes, build its
//       values in the method allocator, place tensors in the caller's
//       planned buffers, resolve every operator and backend, init delegates.
//   set_input                    copy (or bind) inputs, applying the
//       upstream resize rules.
//   execute                      run the instructions; pointers only, no
//       allocation beyond the temp allocator.
//   get_output                   read results; they stay valid until the
//       next execute() or set_input() that reuses the memory.
//
// A Method is move-only; it must not outlive its Program or MemoryManager.
//
// Thread safety: a Method is used by one thread at a time (set_input,
// execute, get_output, the setters: none may overlap another call on the
// same Method, and outputs are read before the next execute). Give each
// thread its own Method, loaded from one shared Program (program.h), each
// with its own MemoryManager: planned buffers, method and temp allocators
// hold the Method's activations and scratch, so two Methods never share
// them. Different Methods may then execute at the same time on different
// threads, with or without delegates: Ember's kernels and the XNNPACK
// delegate keep no mutable state outside the Method (the delegate's plan,
// runtimes and workspace are per Method), and constants are only read.
// They share the process's thread pool (runtime/platform/threadpool.h),
// which runs one parallel section at a time, and they give the same bits
// as when run alone. One EventTracer per Method (event_tracer.h). A Method
// may move to another thread between calls (the application orders them,
// a mutex or a join, say).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/backend/backend.h"
#include "runtime/core/error_message.h"
#include "runtime/core/evalue.h"
#include "runtime/core/event_tracer.h"
#include "runtime/core/memory_manager.h"
#include "runtime/core/result.h"
#include "runtime/executor/method_meta.h"
#include "runtime/kernel/fusion_registry.h"
#include "runtime/kernel/operand_preparation.h"
#include "runtime/kernel/operator_registry.h"

namespace ember_fb {
struct ExecutionPlan;
}

namespace ember {

class Program;
enum class TensorDataKind;  // runtime/executor/tensor_data_kind.h (internal)

class Method final {
 public:
  // Default bound on instructions run by one execute() call; a program
  // whose jumps would loop forever stops with Error::ExecutionLimit.
  static constexpr uint64_t kDefaultInstructionLimit = 1000000000ull;

  Method(Method&& other) noexcept;
  Method(const Method&) = delete;
  Method& operator=(const Method&) = delete;
  Method& operator=(Method&&) = delete;
  ~Method();

  const char* name() const;
  MethodMeta method_meta() const { return MethodMeta(plan_); }
  size_t inputs_size() const;
  size_t outputs_size() const;

  // Sets input `index` from `input`.
  //  Tensor inputs: dtype and rank must match. A static shape must match
  //  exactly; a bounded-dynamic one may take any shape within its bound.
  //  An input with planned memory gets a copy of the data. An input the
  //  program leaves to the application (MethodMeta's
  //  input_tensor_meta(index).is_memory_planned() is false) points at the
  //  caller's data instead, on every call (upstream's rule): that data
  //  must be non-null (unless empty), aligned to the element size, and
  //  stay alive and unchanged until execute() returns.
  //  Int/Double/Bool inputs: the exported program specialized on their
  //  value, so the value must equal the serialized one (upstream's rule).
  Error set_input(const EValue& input, size_t index);
  const EValue& get_input(size_t index) const;

  // Points output `index` at the caller's `buffer` of `size` bytes, for an
  // output the program leaves to the application (exported with
  // MemoryPlanningPass(alloc_graph_output=False); MethodMeta's
  // output_tensor_meta(index).is_memory_planned() is false). execute()
  // writes the output there; it stays valid as long as the buffer. The
  // buffer must hold the output's upper-bound byte size
  // (TensorInfo::nbytes(); for a static output its byte size, as upstream
  // checks), be aligned to the element size, and outlive every execute()
  // and read of the output. Errors (with a message):
  //   InvalidArgument  index out of range, the output is not a tensor, the
  //                    buffer is null, too small or misaligned;
  //   InvalidState     the output has planned memory or is a constant: its
  //                    pointer is not the caller's to replace (upstream's
  //                    rule).
  Error set_output_data_ptr(void* buffer, size_t size, size_t index);

  // Runs the method. Every input must have been set at least once, and
  // every input and output the program leaves to the application must
  // have memory: InvalidState naming the first one that has none, checked
  // before any instruction runs (kernels and delegates never see it).
  Error execute();

  const EValue& get_output(size_t index) const;

  // Bounds the instructions one execute() may run (0: no bound).
  void set_instruction_limit(uint64_t limit) { instruction_limit_ = limit; }

  // Fused operator sequences (runtime/kernel/fusion_registry.h) found at
  // load. They run fused unless disabled here (then every call runs on
  // its own, as written in the program); the results agree up to float
  // rounding.
  void set_fusion_enabled(bool enabled) { fusion_enabled_ = enabled; }
  size_t num_fused_sequences() const { return num_fusions_; }

  // Prepared operands (runtime/kernel/operand_preparation.h): constant
  // operands laid out once for their kernel (a linear layer's weight,
  // read through its transpose, packed for the GEMM; a pointwise
  // convolution's weight packed for its transposed product) instead of on
  // every execute. Load finds them; they take effect when the application gives
  // the memory, which stays the application's (no heap here):
  //   prepared_operands_bytes()  bytes needed, 0 when there are none;
  //   prepare_operands(memory)   writes them into `memory` (64-byte
  //       aligned, at least that many bytes, alive and unchanged as long
  //       as the Method); once, between load and the first execute, or
  //       between executes. InvalidArgument for a short or misaligned
  //       span, InvalidState when called twice.
  // Without it the method runs as written. Results agree with the
  // unprepared method up to float rounding (the same sums, in another
  // order where a kernel's prepared form multiplies differently). A
  // transpose whose only reader uses a prepared operand is skipped at
  // execute, unless fusion is disabled or a tracer wants intermediate
  // outputs (then it runs, so its output exists).
  size_t prepared_operands_bytes() const { return prepared_bytes_; }
  size_t num_prepared_operands() const { return operands_prepared_ ? num_prepared_ : 0; }
  Error prepare_operands(Span<uint8_t> memory);

  // Attaches an event tracer (runtime/core/event_tracer.h) to later
  // execute() calls, or detaches it with null. The tracer must outlive
  // every execute() it is attached for. While its debug level is
  // IntermediateOutputs, fused sequences run unfused, so that every
  // instruction's outputs exist; otherwise a fused sequence is one
  // "OPERATOR_CALL" on its first instruction, its nested event named
  // "fused:<pattern>".
  void set_event_tracer(EventTracer* tracer) { event_tracer_ = tracer; }
  EventTracer* event_tracer() const { return event_tracer_; }

  // What kernel prepare did at load (method_kernel_prepare.cpp): calls
  // that run Prepared, calls whose Prepare failed (they report the error
  // when they run), and calls that ended Prepare neither stopped nor
  // failed (a kernel path that does not take the Prepare mode: tests
  // require none).
  struct KernelPrepareStats {
    size_t prepared = 0;
    size_t failed = 0;
    size_t unfinished = 0;
  };
  const KernelPrepareStats& kernel_prepare_stats() const { return prepare_stats_; }

  size_t num_values() const { return num_values_; }
  const EValue& value(size_t index) const { return values_[index]; }

  // The method allocator's bytes load() takes for `plan`, exactly, from a
  // base aligned to kMethodAllocationAlignment (method_memory.cpp): the
  // same walk of the plan the load phases allocate by, so the two cannot
  // disagree. Delegates' own init() allocations are not included.
  // Applications ask MethodMeta::method_allocator_bytes(), which adds them.
  static size_t allocator_bytes(const ember_fb::ExecutionPlan* plan);

 private:
  friend class Program;
  // Slots load() reserves for fused sequences and prepared operands: an
  // upper bound from the operators alone (which calls actually fuse or get
  // a prepared operand is decided later, from the values).
  static size_t fusion_slots(const ember_fb::ExecutionPlan* plan);
  static size_t prepared_slots(const ember_fb::ExecutionPlan* plan);

  enum class InstructionKind : uint8_t { Kernel, Delegate, Move, JumpFalse, Free };
  struct Instruction {
    InstructionKind kind;
    uint32_t index;  // operator or delegate index
    EValue** args;
    uint32_t num_args;
    int32_t a;  // move from / jump condition / freed value
    int32_t b;  // move to / jump destination
    uint32_t fusion;  // kernel calls: 1 + index into fusions_ when a fused
                      // sequence starts here, else 0
    uint32_t prepared = 0;  // kernel calls: 1 + index into prepared_ once
                            // prepare_operands() gave its operand, else 0
    bool skip = false;      // a transpose only a prepared operand read
    bool checked = false;   // kernel calls: prepared at load (kernel_prepare.cpp),
                            // run in KernelContext::Mode::Prepared
  };
  struct PreparedSlot {
    Instruction* consumer;
    Instruction* producer;  // the skipped transpose, or null
    const OperandPreparation* preparation;
    OperandSource source;
    size_t offset, bytes;  // in the application's memory
    PreparedOperand operand;
    bool shared = false;  // the bytes of an earlier slot (same constant, same form)
  };
  struct FusedSequence {
    const FusionPattern* pattern;
    Span<EValue*> calls[kMaxFusedCalls];
  };
  struct Chain {
    Instruction* instructions;
    size_t size;
  };
  struct Delegate {
    const BackendInterface* backend;
    DelegateHandle* handle;
    FreeableBuffer processed;
  };

  Method(const Program* program, const ember_fb::ExecutionPlan* plan,
         MemoryManager* memory_manager)
      : program_(program), plan_(plan), memory_manager_(memory_manager) {}

  static Result<Method> load(const Program* program,
                             const ember_fb::ExecutionPlan* plan,
                             MemoryManager* memory_manager, EventTracer* event_tracer);
  // Load phases (method_load.cpp).
  Error check_planned_memory() const;
  Error parse_values();
  Error parse_tensor(size_t index, const void* serialized_tensor);
  // The bytes of an EXTERNAL constant tensor, from the program's data maps.
  Result<const void*> load_external_tensor(size_t index, const void* serialized_tensor,
                                           size_t nbytes);
  Error check_tensor_data(const void* serialized_tensor, size_t index, TensorDataKind kind,
                          const void* data, size_t nbytes) const;
  Error parse_value(size_t index);
  Error resolve_operators_and_backends();
  // The argument values of the first DelegateCall to a delegate (empty if
  // none), for BackendInitContext::call_args().
  Span<EValue* const> first_delegate_call_args(size_t delegate_index) const;
  Error init_delegates();
  Error parse_chains();
  // Kernel prepare (method_kernel_prepare.cpp): each call of a kernel that
  // prepares, with static shapes, checked and sized once here.
  void prepare_kernels();
  bool has_static_shapes(const Instruction& ins) const;
  // Fusion (method_fusion.cpp).
  Error plan_fusions();
  bool fusable_at(const FusionPattern& pattern, size_t chain, size_t pc) const;
  bool only_read_by_next(size_t value, size_t chain, size_t pc) const;
  bool referenced_elsewhere(size_t value, const Instruction* skip_a, const Instruction* skip_b,
                            Span<EValue*> own_lists) const;
  Error run_fused(const Instruction& instruction, size_t chain, size_t pc, bool* ran);
  // Prepared operands (method_prepare.cpp).
  Error plan_prepared_operands();
  const PreparedSlot* same_prepared_form(const PreparedSlot& slot, size_t count) const;
  bool is_constant_tensor(const EValue* value) const;
  bool in_fused_sequence(const Instruction& instruction) const;
  bool find_operand_source(Instruction& consumer, size_t operand, OperandSource* source,
                           Instruction** producer);

  // Execute helpers (method.cpp).
  Error run_chains();
  Error run_instruction(const Instruction& instruction, size_t chain, size_t pc,
                        bool allow_fusion, size_t* next);
  Error run_traced(const Instruction& instruction, size_t chain, size_t pc, size_t* next);
  // Tracing helpers (method_trace.cpp).
  void operator_event_name(const Instruction& instruction, bool fused, char* out,
                           size_t size) const;
  void log_kernel_outputs(const Instruction& instruction) const;
  void log_program_outputs() const;
  Error run_kernel(const Instruction& instruction, size_t chain, size_t pc);
  Error run_delegate(const Instruction& instruction, size_t chain, size_t pc);
  Result<bool> read_condition(int32_t value_index) const;
  Error set_tensor_input(const Tensor& input, size_t index, EValue& slot);
  Error check_io_memory() const;
  // The name, escaped for a message (it is read from the file).
  PrintableName shown_name() const { return PrintableName(name()); }

  const Program* program_;
  const ember_fb::ExecutionPlan* plan_;
  MemoryManager* memory_manager_;

  EValue* values_ = nullptr;
  size_t num_values_ = 0;
  OpFunction* kernels_ = nullptr;  // per operator index
  size_t num_operators_ = 0;
  KernelPrepareStats prepare_stats_;
  Delegate* delegates_ = nullptr;
  size_t num_delegates_ = 0;
  size_t num_delegates_initialized_ = 0;
  Chain* chains_ = nullptr;
  size_t num_chains_ = 0;
  bool* input_set_ = nullptr;
  uint64_t instruction_limit_ = kDefaultInstructionLimit;
  FusedSequence* fusions_ = nullptr;
  size_t num_fusions_ = 0;
  bool fusion_enabled_ = true;
  PreparedSlot* prepared_ = nullptr;
  size_t num_prepared_ = 0;
  size_t prepared_bytes_ = 0;
  bool operands_prepared_ = false;
  EventTracer* event_tracer_ = nullptr;
  // Buffers of EXTERNAL constant tensors (from .ptd files), held for the
  // Method's life.
  FreeableBuffer* external_ = nullptr;
  size_t num_external_ = 0;
};

}  // namespace ember
