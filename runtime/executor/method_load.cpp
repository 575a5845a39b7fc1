// Method loading: builds a validated execution plan into runtime objects.
// validate_execution_plan() has already checked every index and bound this
// file relies on, so it only asserts.
#include <cinttypes>
#include <cstddef>
#include <cstring>
#include <new>

#include "runtime/core/error_message.h"
#include "runtime/executor/method.h"
#include "runtime/executor/method_allocation.h"
#include "runtime/executor/program.h"
#include "runtime/executor/program_internal.h"
#include "runtime/executor/program_validation.h"
#include "runtime/executor/tensor_data_kind.h"
#include "runtime/executor/value_kinds.h"
#include "runtime/platform/format.h"
#include "runtime/platform/log.h"
#include "schema/program_generated.h"

namespace ember {
namespace {

template <typename T>
uint32_t count(const flatbuffers::Vector<T>* v) {
  return v == nullptr ? 0 : v->size();
}

}  // namespace

Result<Method> Method::load(const Program* program, const ember_fb::ExecutionPlan* plan,
                            MemoryManager* memory_manager, EventTracer* event_tracer) {
  EventTracerScope traced(event_tracer, "Method::init");
  const char* name = plan->name()->c_str();
  EMBER_CHECK_OR_RETURN(memory_manager != nullptr &&
                            memory_manager->method_allocator() != nullptr,
                        Error::InvalidArgument,
                        "method '%s': a MemoryManager with a method allocator "
                        "is required",
                        name);
  Method method(program, plan, memory_manager);
  method.event_tracer_ = event_tracer;
  EMBER_RETURN_IF_ERROR(method.check_planned_memory());
  EMBER_RETURN_IF_ERROR(method.parse_values());
  EMBER_RETURN_IF_ERROR(method.resolve_operators_and_backends());
  EMBER_RETURN_IF_ERROR(method.parse_chains());
  EMBER_RETURN_IF_ERROR(method.plan_fusions());
  EMBER_RETURN_IF_ERROR(method.plan_prepared_operands());
  EMBER_RETURN_IF_ERROR(method.init_delegates());
  method.prepare_kernels();
  method.input_set_ = allocate_method_array<bool>(memory_manager->method_allocator(),
                                               method.inputs_size(), name,
                                               "input flags");
  if (method.input_set_ == nullptr) {
    return Error::MemoryAllocationFailed;
  }
  for (size_t i = 0; i < method.inputs_size(); ++i) {
    method.input_set_[i] = false;
  }
  return Result<Method>(static_cast<Method&&>(method));
}

Error Method::check_planned_memory() const {
  const MethodMeta meta(plan_);
  const size_t needed = meta.num_memory_planned_buffers();
  const HierarchicalAllocator* planned = memory_manager_->planned_memory();
  bool any_planned_tensor = false;
  for (uint32_t i = 0; i < count(plan_->values()) && !any_planned_tensor; ++i) {
    const ember_fb::Tensor* t = plan_->values()->Get(i)->val_as_Tensor();
    any_planned_tensor = t != nullptr && tensor_data_kind(t) == TensorDataKind::Planned;
  }
  if (!any_planned_tensor) {
    return Error::Ok;
  }
  EMBER_CHECK_OR_RETURN(planned != nullptr && planned->num_buffers() >= needed,
                        Error::InvalidArgument,
                        "method '%s' needs %zu planned buffer(s); the memory "
                        "manager provides %zu",
                        name(), needed, planned ? planned->num_buffers() : size_t(0));
  for (size_t i = 0; i < needed; ++i) {
    Result<int64_t> size = meta.memory_planned_buffer_size(i);
    if (!size.ok()) {
      return size.error();
    }
    EMBER_CHECK_OR_RETURN(uint64_t(*size) <= planned->buffer(i).size(),
                          Error::InvalidArgument,
                          "method '%s': planned buffer %zu is %zu bytes, the "
                          "method needs %" PRId64,
                          name(), i, planned->buffer(i).size(), *size);
  }
  return Error::Ok;
}

Error Method::parse_values() {
  MemoryAllocator* allocator = memory_manager_->method_allocator();
  num_values_ = count(plan_->values());
  values_ = allocate_method_array<EValue>(allocator, num_values_, name(), "values");
  if (values_ == nullptr) {
    return Error::MemoryAllocationFailed;
  }
  for (size_t i = 0; i < num_values_; ++i) {
    new (&values_[i]) EValue();
  }
  // Room for the buffers of EXTERNAL constants (validated: no planned ones).
  const size_t num_external = count_external_tensors(plan_);
  if (num_external > 0) {
    external_ = allocate_method_array<FreeableBuffer>(allocator, num_external, name(),
                                                   "external tensor buffers");
    if (external_ == nullptr) {
      return Error::MemoryAllocationFailed;
    }
  }
  for (size_t i = 0; i < num_values_; ++i) {
    EMBER_RETURN_IF_ERROR(parse_value(i));
  }
  return Error::Ok;
}

// Each value is built by its kind's row (value_kinds.cpp); tensors call
// back into parse_tensor for where their data lives.
Error Method::parse_value(size_t i) {
  const ember_fb::EValue* value = plan_->values()->Get(uint32_t(i));
  const ValueKind* kind = find_value_kind(value);
  if (kind == nullptr) {
    set_error_message("method '%s' value %zu: unexpected type", name(), i);
    return Error::Internal;
  }
  auto tensor = [](void* owner, size_t index, const ember_fb::Tensor* t) {
    return static_cast<Method*>(owner)->parse_tensor(index, t);
  };
  const ValueBuild build{memory_manager_->method_allocator(), values_, name(), i, tensor, this};
  return kind->build(build, *value);
}

// Kernels read tensor data through typed pointers: the address must be
// aligned to the element size (a planned offset or a constant offset in the
// file could be odd), and a Bool tensor whose bytes come from the file (a
// constant or a mutable initial value) must hold only 0 and 1 (any other
// byte is not a valid bool). Found by fuzz/program_fuzzer.
Error Method::check_tensor_data(const void* serialized, size_t i, TensorDataKind kind,
                                const void* data, size_t nbytes) const {
  const auto* t = static_cast<const ember_fb::Tensor*>(serialized);
  if (data == nullptr) {
    return Error::Ok;
  }
  const ScalarType type = static_cast<ScalarType>(t->scalar_type());
  size_t alignment = element_size(type);
  if (alignment > alignof(std::max_align_t)) alignment = alignof(std::max_align_t);
  EMBER_CHECK_OR_RETURN(alignment == 0 || reinterpret_cast<uintptr_t>(data) % alignment == 0,
                        Error::InvalidProgram,
                        "method '%s' value %zu: %s data is not aligned to %zu bytes (a %s "
                        "offset in the file is misaligned)",
                        name(), i, scalar_type_name(type), alignment,
                        kind == TensorDataKind::Planned    ? "planned memory"
                        : kind == TensorDataKind::External ? "external"
                                                           : "constant");
  // Bytes read from the file: constants, external data, initial values.
  const bool from_file = kind == TensorDataKind::Constant || kind == TensorDataKind::External ||
                         (kind == TensorDataKind::Planned && t->data_buffer_idx() > 0);
  if (type == ScalarType::Bool && from_file) {
    const uint8_t* bytes = static_cast<const uint8_t*>(data);
    for (size_t k = 0; k < nbytes; ++k) {
      EMBER_CHECK_OR_RETURN(bytes[k] <= 1, Error::InvalidProgram,
                            "method '%s' value %zu: Bool tensor byte %zu is %u, not 0 or 1",
                            name(), i, k, unsigned(bytes[k]));
    }
  }
  return Error::Ok;
}

Error Method::parse_tensor(size_t i, const void* serialized) {
  const auto* t = static_cast<const ember_fb::Tensor*>(serialized);
  MemoryAllocator* allocator = memory_manager_->method_allocator();
  Result<size_t> nbytes = serialized_tensor_nbytes(t, name(), i);
  if (!nbytes.ok()) {
    return nbytes.error();
  }
  const size_t dim = count(t->sizes());
  SizesType* sizes = allocate_method_array<SizesType>(allocator, dim, name(), "tensor sizes");
  DimOrderType* dim_order =
      allocate_method_array<DimOrderType>(allocator, dim, name(), "tensor dim order");
  StridesType* strides =
      allocate_method_array<StridesType>(allocator, dim, name(), "tensor strides");
  TensorImpl* impl = allocate_method_array<TensorImpl>(allocator, 1, name(), "tensor");
  if (sizes == nullptr || dim_order == nullptr || strides == nullptr || impl == nullptr) {
    return Error::MemoryAllocationFailed;
  }
  for (size_t d = 0; d < dim; ++d) {
    sizes[d] = t->sizes()->Get(uint32_t(d));
    dim_order[d] = t->dim_order() != nullptr ? t->dim_order()->Get(uint32_t(d))
                                             : DimOrderType(d);
  }

  void* data = nullptr;
  const ember_fb::AllocationDetails* alloc = t->allocation_info();
  const TensorDataKind kind = tensor_data_kind(t);
  if (kind == TensorDataKind::Planned) {
    const uint64_t offset = uint64_t(alloc->memory_offset_low()) |
                            uint64_t(alloc->memory_offset_high()) << 32;
    Result<void*> address = memory_manager_->planned_memory()->get_offset_address(
        alloc->memory_id() - 1, offset, *nbytes);
    if (!address.ok()) {
      append_error_message(" (method '%s' value %zu)", name(), i);
      return address.error();
    }
    data = *address;
    if (t->data_buffer_idx() > 0) {
      const ember_fb::ExtraTensorInfo* extra = t->extra_tensor_info();
      EMBER_RETURN_IF_ERROR(ProgramInternals(*program_).load_mutable_data(
          extra ? extra->mutable_data_segments_idx() : 0, t->data_buffer_idx(), data,
          *nbytes));
    }
  } else if (kind == TensorDataKind::External) {
    Result<const void*> external = load_external_tensor(i, t, *nbytes);
    if (!external.ok()) {
      return external.error();
    }
    data = const_cast<void*>(*external);
  } else if (kind == TensorDataKind::Constant) {
    data = const_cast<void*>(ProgramInternals(*program_).constant_data(t->data_buffer_idx()));
  }
  EMBER_RETURN_IF_ERROR(check_tensor_data(t, i, kind, data, *nbytes));
  new (impl) TensorImpl(static_cast<ScalarType>(t->scalar_type()), dim, sizes, data,
                        dim_order, strides,
                        static_cast<ShapeDynamism>(t->shape_dynamism()));
  values_[i] = EValue(Tensor(impl));
  return Error::Ok;
}

// The key was checked by validation; the bytes are checked here, against
// the program's tensor: the same byte size, and the same dtype and sizes
// when the data file records a layout.
Result<const void*> Method::load_external_tensor(size_t i, const void* serialized,
                                                 size_t nbytes) {
  const auto* t = static_cast<const ember_fb::Tensor*>(serialized);
  const char* key = t->extra_tensor_info()->fully_qualified_name()->c_str();
  char text[128];
  printable_name(key, text, sizeof(text));
  EMBER_CHECK_OR_RETURN(ProgramInternals(*program_).num_data_maps() > 0, Error::NotFound,
                        "method '%s' value %zu: tensor '%s' is stored in an external "
                        "data file (.ptd), but the program was loaded without one",
                        name(), i, text);
  // First map that has the key; its buffer goes to the next free slot.
  const NamedDataMap* map = nullptr;
  FreeableBuffer* slot = &external_[num_external_];
  for (size_t m = 0; m < ProgramInternals(*program_).num_data_maps() && map == nullptr; ++m) {
    Result<FreeableBuffer> found = ProgramInternals(*program_).data_map(m)->get_data(key);
    if (found.ok()) {
      map = ProgramInternals(*program_).data_map(m);
      new (slot) FreeableBuffer(static_cast<FreeableBuffer&&>(*found));
      ++num_external_;
    } else if (found.error() != Error::NotFound) {
      prefix_error_message(error_name(found.error()),
                           "method '%s' value %zu: external tensor '%s' in data file %zu",
                           name(), i, text, m);
      return found.error();
    }
  }
  EMBER_CHECK_OR_RETURN(map != nullptr, Error::NotFound,
                        "method '%s' value %zu: external tensor '%s' is in none of the "
                        "%zu data files",
                        name(), i, text, ProgramInternals(*program_).num_data_maps());
  const FreeableBuffer* data = slot;
  const ScalarType type = static_cast<ScalarType>(t->scalar_type());
  EMBER_CHECK_OR_RETURN(data->size() == nbytes, Error::InvalidExternalData,
                        "method '%s' value %zu: external tensor '%s' has %zu bytes in its "
                        "data file, the program's %s tensor of %u dims needs %zu",
                        name(), i, text, data->size(), scalar_type_name(type),
                        unsigned(count(t->sizes())), nbytes);
  Result<TensorLayoutView> layout = map->get_tensor_layout(key);
  if (layout.ok()) {
    EMBER_CHECK_OR_RETURN(layout->dtype == type && layout->sizes.size() == count(t->sizes()),
                          Error::InvalidExternalData,
                          "method '%s' value %zu: external tensor '%s' is a %s tensor of "
                          "%zu dims in its data file, the program expects %s of %u dims",
                          name(), i, text, scalar_type_name(layout->dtype),
                          layout->sizes.size(), scalar_type_name(type),
                          unsigned(count(t->sizes())));
    for (size_t d = 0; d < layout->sizes.size(); ++d) {
      const int32_t expected = t->sizes()->Get(uint32_t(d));
      EMBER_CHECK_OR_RETURN(layout->sizes[d] == expected, Error::InvalidExternalData,
                            "method '%s' value %zu: external tensor '%s' has size %d at dim "
                            "%zu in its data file, the program expects %d",
                            name(), i, text, int(layout->sizes[d]), d, int(expected));
    }
  }
  return data->data();
}

Error Method::resolve_operators_and_backends() {
  MemoryAllocator* allocator = memory_manager_->method_allocator();
  num_operators_ = count(plan_->operators());
  kernels_ = allocate_method_array<OpFunction>(allocator, num_operators_, name(), "kernels");
  const size_t num_delegates = count(plan_->delegates());
  delegates_ = allocate_method_array<Delegate>(allocator, num_delegates, name(), "delegates");
  if (kernels_ == nullptr || delegates_ == nullptr) {
    return Error::MemoryAllocationFailed;
  }
  // Collect every missing operator and backend into one message.
  size_t missing_ops = 0;
  size_t missing_backends = 0;
  char list[kMaxErrorMessage];
  size_t used = 0;
  list[0] = '\0';
  for (size_t i = 0; i < num_operators_; ++i) {
    const ember_fb::Operator* op = plan_->operators()->Get(uint32_t(i));
    const char* overload = op->overload() ? op->overload()->c_str() : "";
    kernels_[i] = find_kernel(op->name()->c_str(), overload);
    if (kernels_[i] == nullptr && used < sizeof(list)) {
      used += format_text(list + used, sizeof(list) - used, "%s%s%s%s",
                              missing_ops == 0 ? "" : ", ",
                              PrintableName(op->name()->c_str()).c_str(),
                              overload[0] ? "." : "", PrintableName(overload).c_str());
    }
    missing_ops += kernels_[i] == nullptr ? 1 : 0;
  }
  // Each missing backend is named once, however many delegate calls need it.
  const auto named_before = [this](size_t i, const char* id) {
    for (size_t j = 0; j < i; ++j) {
      if (std::strcmp(plan_->delegates()->Get(uint32_t(j))->id()->c_str(), id) == 0) return true;
    }
    return false;
  };
  char backends[kMaxErrorMessage / 2];
  size_t backends_used = 0;
  size_t distinct_backends = 0;
  backends[0] = '\0';
  for (size_t i = 0; i < num_delegates; ++i) {
    const char* id = plan_->delegates()->Get(uint32_t(i))->id()->c_str();
    const BackendInterface* backend = find_backend(id);
    if (backend == nullptr || !backend->is_available()) {
      ++missing_backends;
      if (!named_before(i, id) && backends_used < sizeof(backends)) {
        backends_used += format_text(backends + backends_used,
                                     sizeof(backends) - backends_used, "%s'%s'%s",
                                     distinct_backends == 0 ? "" : ", ",
                                     PrintableName(id).c_str(),
                                     backend == nullptr ? "" : " (unavailable)");
        ++distinct_backends;
      }
    }
    new (&delegates_[i]) Delegate{backend, nullptr, FreeableBuffer()};
    num_delegates_ = i + 1;  // constructed, so the destructor releases it
  }
  if (missing_ops == 0 && missing_backends == 0) {
    return Error::Ok;
  }
  clear_error_message();
  if (missing_backends > 0) {
    append_error_message("method '%s': %zu delegate call(s) need backend(s) not registered: %s",
                         PrintableName(name()).c_str(), missing_backends, backends);
  }
  if (missing_ops > 0) {
    append_error_message("%smethod '%s': %zu missing operator(s): %s",
                         missing_backends > 0 ? "; " : "", PrintableName(name()).c_str(),
                         missing_ops, list);
  }
  return missing_ops > 0 ? Error::OperatorMissing : Error::NotFound;
}

Span<EValue* const> Method::first_delegate_call_args(size_t delegate_index) const {
  for (size_t c = 0; c < num_chains_; ++c) {
    const Chain& chain = chains_[c];
    for (size_t pc = 0; pc < chain.size; ++pc) {
      const Instruction& ins = chain.instructions[pc];
      if (ins.kind == InstructionKind::Delegate && ins.index == delegate_index) {
        return {ins.args, ins.num_args};
      }
    }
  }
  return {};
}

Error Method::init_delegates() {
  MemoryAllocator* allocator = memory_manager_->method_allocator();
  for (size_t i = 0; i < num_delegates_; ++i) {
    const ember_fb::BackendDelegate* d = plan_->delegates()->Get(uint32_t(i));
    Delegate& delegate = delegates_[i];
    Result<FreeableBuffer> processed = ProgramInternals(*program_).load_delegate_data(d->processed());
    if (!processed.ok()) {
      append_error_message(" (method '%s' delegate %zu '%s')", PrintableName(name()).c_str(),
                           i, PrintableName(d->id()->c_str()).c_str());
      return processed.error();
    }
    delegate.processed = static_cast<FreeableBuffer&&>(*processed);
    const uint32_t num_specs = count(d->compile_specs());
    CompileSpec* specs =
        allocate_method_array<CompileSpec>(allocator, num_specs, name(), "compile specs");
    if (specs == nullptr) {
      return Error::MemoryAllocationFailed;
    }
    for (uint32_t j = 0; j < num_specs; ++j) {
      const ember_fb::CompileSpec* spec = d->compile_specs()->Get(j);
      const auto* value = spec->value();
      specs[j] = CompileSpec{spec->key()->c_str(),
                             {value ? value->data() : nullptr, value ? value->size() : 0u}};
    }
    BackendInitContext context(allocator, ProgramInternals(*program_).named_data(), name(),
                               first_delegate_call_args(i), event_tracer_);
    clear_error_message();
    Result<DelegateHandle*> handle =
        delegate.backend->init(context, &delegate.processed, {specs, num_specs});
    if (!handle.ok()) {
      prefix_error_message(error_name(handle.error()),
                           "method '%s': delegate %zu ('%s') failed to initialize",
                           PrintableName(name()).c_str(), i,
                           PrintableName(d->id()->c_str()).c_str());
      return handle.error();
    }
    delegate.handle = *handle;
    num_delegates_initialized_ = i + 1;
  }
  return Error::Ok;
}

Error Method::parse_chains() {
  MemoryAllocator* allocator = memory_manager_->method_allocator();
  num_chains_ = count(plan_->chains());
  chains_ = allocate_method_array<Chain>(allocator, num_chains_, name(), "chains");
  if (chains_ == nullptr) {
    return Error::MemoryAllocationFailed;
  }
  for (size_t c = 0; c < num_chains_; ++c) {
    const auto* instructions = plan_->chains()->Get(uint32_t(c))->instructions();
    const uint32_t n = count(instructions);
    Instruction* out =
        allocate_method_array<Instruction>(allocator, n, name(), "instructions");
    if (out == nullptr) {
      return Error::MemoryAllocationFailed;
    }
    for (uint32_t pc = 0; pc < n; ++pc) {
      const ember_fb::Instruction* in = instructions->Get(pc);
      Instruction& ins = out[pc];
      ins = Instruction{InstructionKind::Free, 0, nullptr, 0, 0, 0, 0};
      const flatbuffers::Vector<int32_t>* args = nullptr;
      switch (in->instr_args_type()) {
        case ember_fb::InstructionArguments::KernelCall:
          ins.kind = InstructionKind::Kernel;
          ins.index = uint32_t(in->instr_args_as_KernelCall()->op_index());
          args = in->instr_args_as_KernelCall()->args();
          break;
        case ember_fb::InstructionArguments::DelegateCall:
          ins.kind = InstructionKind::Delegate;
          ins.index = uint32_t(in->instr_args_as_DelegateCall()->delegate_index());
          args = in->instr_args_as_DelegateCall()->args();
          break;
        case ember_fb::InstructionArguments::MoveCall:
          ins.kind = InstructionKind::Move;
          ins.a = in->instr_args_as_MoveCall()->move_from();
          ins.b = in->instr_args_as_MoveCall()->move_to();
          break;
        case ember_fb::InstructionArguments::JumpFalseCall:
          ins.kind = InstructionKind::JumpFalse;
          ins.a = in->instr_args_as_JumpFalseCall()->cond_value_index();
          ins.b = in->instr_args_as_JumpFalseCall()->destination_instruction();
          break;
        case ember_fb::InstructionArguments::FreeCall:
          ins.kind = InstructionKind::Free;
          ins.a = in->instr_args_as_FreeCall()->value_index();
          break;
        default:
          set_error_message("method '%s': unexpected instruction kind", name());
          return Error::Internal;
      }
      if (args != nullptr) {
        ins.num_args = args->size();
        ins.args = allocate_method_array<EValue*>(allocator, ins.num_args, name(),
                                               "instruction arguments");
        if (ins.args == nullptr) {
          return Error::MemoryAllocationFailed;
        }
        for (uint32_t j = 0; j < ins.num_args; ++j) {
          ins.args[j] = &values_[size_t(args->Get(j))];
        }
      }
    }
    chains_[c] = Chain{out, n};
  }
  return Error::Ok;
}

}  // namespace ember
