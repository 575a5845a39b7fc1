// Delegate backends: the interface a backend implements and its registry.
//
// A program's BackendDelegate entries name a backend by id string
// ("XnnpackBackend"). When a method loads, the runtime finds the backend in
// this registry and calls init() once per delegate with the processed blob
// and the compile specs; execute() runs for every DelegateCall; destroy()
// runs when the Method is destroyed.
//
// Thread safety: one BackendInterface serves every Method in the process,
// and Methods load and execute on several threads at once. So init(),
// execute() and destroy() may run concurrently for different handles and
// must not share mutable state between handles without synchronizing it
// (global library set-up once, under std::call_once or a function-local
// static); the runtime never calls them concurrently for one handle. A
// backend that runs work on the shared pool (shared_pthreadpool()) may be
// serialized there with other Methods' parallel sections.
// The registry: register_backend runs from static initializers (or
// before any other thread uses the runtime); find_backend and the
// listing are then read-only and may be called from any thread.
//
// Lifetimes: the runtime keeps the processed blob alive for the Method's
// life unless the backend frees it during init() (after packing weights,
// say). The handle returned by init() is allocated from context.allocator()
// or owned by the backend; destroy() releases what the handle holds.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/data_loader.h"
#include "runtime/core/error.h"
#include "runtime/core/evalue.h"
#include "runtime/core/event_tracer.h"
#include "runtime/core/freeable_buffer.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/named_data_map.h"
#include "runtime/core/result.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/span.h"

namespace ember {

struct CompileSpec {
  const char* key;  // NUL-terminated, points into the program
  Span<const uint8_t> value;
};

// Opaque per-delegate state returned by init().
using DelegateHandle = void;

class BackendInitContext final {
 public:
  BackendInitContext(MemoryAllocator* allocator, const NamedDataMap* named_data,
                     const char* method_name, Span<EValue* const> call_args = {},
                     EventTracer* event_tracer = nullptr)
      : allocator_(allocator),
        named_data_(named_data),
        method_name_(method_name),
        call_args_(call_args),
        event_tracer_(event_tracer) {}
  // Memory that lives as long as the Method (the method allocator).
  MemoryAllocator* allocator() const { return allocator_; }
  // Named data of the program; may be null.
  const NamedDataMap* named_data() const { return named_data_; }
  const char* method_name() const { return method_name_; }
  // The values the method's first DelegateCall to this delegate passes
  // (inputs then outputs, as execute() will see them), so a backend can
  // refuse at load what it could not run (a dynamic shape, a dtype); empty
  // when no instruction calls the delegate. Values are not yet set: only
  // their kinds and tensor metadata (dtype, sizes, dynamism) are meaningful.
  Span<EValue* const> call_args() const { return call_args_; }
  // The tracer attached when the method loads, or null. Only a hint: a
  // backend may prepare to report finer events (XNNPACK creates its
  // runtimes with per-operator timing), but the tracer execute() sees may
  // differ (Method::set_event_tracer); report nothing from init().
  EventTracer* event_tracer() const { return event_tracer_; }

 private:
  MemoryAllocator* allocator_;
  const NamedDataMap* named_data_;
  const char* method_name_;
  Span<EValue* const> call_args_;
  EventTracer* event_tracer_;
};

class BackendExecutionContext final {
 public:
  explicit BackendExecutionContext(MemoryAllocator* temp_allocator,
                                   EventTracer* event_tracer = nullptr,
                                   const char* method_name = "")
      : temp_allocator_(temp_allocator),
        event_tracer_(event_tracer),
        method_name_(method_name) {}
  // Scratch memory for this call only; may be null.
  MemoryAllocator* temp_allocator() const { return temp_allocator_; }
  // The method's tracer, or null. A backend reports its own steps with the
  // *_delegate calls (runtime/core/event_tracer.h) and logs step outputs
  // with log_delegate_output() when debug_level() is IntermediateOutputs.
  // The tracer already knows the chain and instruction of this call.
  EventTracer* event_tracer() const { return event_tracer_; }
  const char* method_name() const { return method_name_; }

 private:
  MemoryAllocator* temp_allocator_;
  EventTracer* event_tracer_;
  const char* method_name_;
};

class BackendInterface {
 public:
  virtual ~BackendInterface() = default;

  virtual bool is_available() const = 0;

  // Prepares one delegate. `processed` holds the blob; the backend may call
  // processed->free() once it no longer needs the bytes, otherwise the
  // runtime keeps them until the Method is destroyed.
  virtual Result<DelegateHandle*> init(BackendInitContext& context,
                                       FreeableBuffer* processed,
                                       Span<const CompileSpec> compile_specs) const = 0;

  // Runs the delegate. `args` are the DelegateCall's values: inputs then
  // outputs, in the order the lowered graph declares them.
  virtual Error execute(BackendExecutionContext& context, DelegateHandle* handle,
                        Span<EValue*> args) const = 0;

  // The most bytes init() takes from context.allocator() for one delegate,
  // whatever its blob: MethodMeta::method_allocator_bytes() adds it per
  // delegate, so an application sizes the method allocator before loading.
  // 0 (the default) for a backend that keeps its state in its own memory,
  // as XNNPACK does; scratch for one execution belongs in the temp
  // allocator (BackendExecutionContext), not here.
  virtual size_t init_allocator_bytes() const { return 0; }

  // Releases what init() acquired. The handle's memory itself came from the
  // method allocator and is not freed here.
  virtual void destroy(DelegateHandle* handle) const {}
};

constexpr size_t kMaxRegisteredBackends = 16;

// Registers `backend` (which must outlive the process) under `id`.
// InvalidArgument if the id is taken; Internal if the table is full.
Error register_backend(const char* id, const BackendInterface* backend);

// The backend registered under `id`, or null.
const BackendInterface* find_backend(const char* id);

size_t num_registered_backends();
const char* registered_backend_id(size_t index);

}  // namespace ember
