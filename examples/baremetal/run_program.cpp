#include "examples/baremetal/run_program.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <new>

#include "bundled_program/bundled_program.h"
#include "examples/baremetal/cycle_tracer.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "runtime/core/error_message.h"
#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_manager.h"
#include "runtime/executor/program.h"
#include "runtime/platform/format.h"
#include "test/op_suite/op_suite_tolerance.h"

namespace ember::baremetal {
namespace {

constexpr size_t kMaxPlannedBuffers = 16;
constexpr size_t kMaxReports = 16;
constexpr size_t kPlannedAlignment = 16;

// A loaded method and the memory behind it, all from the arena.
struct LoadedMethod {
  Span<uint8_t> spans[kMaxPlannedBuffers];
  HierarchicalAllocator planned{Span<Span<uint8_t>>()};
  MemoryAllocator method_allocator{nullptr, 0};
  MemoryAllocator temp_allocator{nullptr, 0};
  MemoryManager memory{nullptr};
};

uint8_t* take(MemoryAllocator& arena, size_t bytes, size_t alignment, const char* what,
              const char* method) {
  uint8_t* p = static_cast<uint8_t*>(arena.allocate(bytes == 0 ? 1 : bytes, alignment));
  if (p == nullptr) {
    say("  method '%s': does not fit: %s needs %zu bytes, %zu of the board's %zu arena bytes "
        "are free\n",
        method, what, bytes, arena.size() - arena.used(), arena.size());
  }
  return p;
}

// Sizes every pool from MethodMeta (or takes the firmware's static pools),
// then loads the method. False (with a line printed) when it does not load.
bool load_method(const Program& program, const char* method, const RunOptions& options,
                 MemoryAllocator& arena, const StaticPools* pools, LoadedMethod& loaded,
                 Result<Method>* out) {
  const PrintableName shown(method);
  Result<MethodMeta> meta = program.method_meta(method);
  if (!meta.ok()) {
    say("  method '%s': %s\n", shown.c_str(), last_error_message());
    return false;
  }
  const size_t buffers = meta->num_memory_planned_buffers();
  if (buffers > kMaxPlannedBuffers) {
    say("  method '%s': %zu planned buffers, the runner takes %zu\n", shown.c_str(), buffers,
        kMaxPlannedBuffers);
    return false;
  }
  size_t planned_offset = 0;
  for (size_t b = 0; b < buffers; ++b) {
    size_t size = size_t(*meta->memory_planned_buffer_size(b));
    if (options.shrink == 'p' && b == 0 && size > 0) --size;
    uint8_t* data = nullptr;
    if (pools != nullptr && pools->planned != nullptr) {
      if (planned_offset + size > pools->planned_size) {
        say("  method '%s': the static planned memory (%zu bytes) is smaller than the program's "
            "planned buffers: regenerate the memory header\n",
            shown.c_str(), pools->planned_size);
        return false;
      }
      data = pools->planned + planned_offset;
      planned_offset += (size + kPlannedAlignment - 1) / kPlannedAlignment * kPlannedAlignment;
    } else {
      data = take(arena, size, kPlannedAlignment, "a planned buffer", shown.c_str());
      if (data == nullptr) return false;
    }
    // Planned memory starts zeroed, as upstream's runners give it (a
    // program may read a mutable buffer it never wrote: zeros, then).
    std::memset(data, 0, size);
    loaded.spans[b] = Span<uint8_t>(data, size);
  }
  new (&loaded.planned) HierarchicalAllocator(Span<Span<uint8_t>>(loaded.spans, buffers));
  size_t method_bytes = meta->method_allocator_bytes();
  if (options.shrink == 'm' && method_bytes > 0) --method_bytes;
  uint8_t* method_pool = nullptr;
  if (pools != nullptr && pools->method_pool != nullptr) {
    if (method_bytes > pools->method_pool_size) {
      say("  method '%s': needs %zu method allocator bytes, the static pool has %zu: "
          "regenerate the memory header\n",
          shown.c_str(), method_bytes, pools->method_pool_size);
      return false;
    }
    method_pool = pools->method_pool;
  } else {
    method_pool = take(arena, method_bytes, MemoryAllocator::kDefaultAlignment,
                       "the method allocator", shown.c_str());
  }
  uint8_t* temp = take(arena, options.temp_bytes, MemoryAllocator::kDefaultAlignment,
                       "the temp allocator", shown.c_str());
  if (method_pool == nullptr || temp == nullptr) return false;
  new (&loaded.method_allocator) MemoryAllocator(method_pool, method_bytes);
  new (&loaded.temp_allocator) MemoryAllocator(temp, options.temp_bytes);
  new (&loaded.memory)
      MemoryManager(&loaded.method_allocator, &loaded.planned, &loaded.temp_allocator);
  new (out) Result<Method>(program.load_method(method, &loaded.memory));
  if (!out->ok()) {
    say("  method '%s': load failed: %s: %s\n", shown.c_str(), error_name(out->error()),
        last_error_message());
    return false;
  }
  say("  method '%s': loaded (method allocator %zu bytes, %zu planned buffer(s))\n",
      shown.c_str(), method_bytes, buffers);
  return true;
}

void fill_ones(void* data, ScalarType type, int64_t n) {
  for (int64_t k = 0; k < n; ++k) {
    switch (type) {
      case ScalarType::Float: static_cast<float*>(data)[k] = 1.0f; break;
      case ScalarType::Double: static_cast<double*>(data)[k] = 1.0; break;
      case ScalarType::Int: static_cast<int32_t*>(data)[k] = 1; break;
      case ScalarType::Long: static_cast<int64_t*>(data)[k] = 1; break;
      case ScalarType::Short: static_cast<int16_t*>(data)[k] = 1; break;
      case ScalarType::Char: static_cast<int8_t*>(data)[k] = 1; break;
      case ScalarType::Byte:
      case ScalarType::Bool: static_cast<uint8_t*>(data)[k] = 1; break;
      case ScalarType::Half: static_cast<uint16_t*>(data)[k] = 0x3c00; break;
      case ScalarType::BFloat16: static_cast<uint16_t*>(data)[k] = 0x3f80; break;
      default: return;  // other dtypes stay zero
    }
  }
}

// Sets every input: tensors to ones (upstream's runner's default), in
// memory from the arena; scalars to the values the program was exported
// with (the only ones it accepts).
Error set_inputs_to_ones(Method& method, MemoryAllocator& arena) {
  for (size_t i = 0; i < method.inputs_size(); ++i) {
    const EValue input = method.get_input(i);
    if (!input.is_tensor()) {
      EMBER_RETURN_IF_ERROR(method.set_input(input, i));
      continue;
    }
    const TensorImpl& meta = *input.to_tensor().impl();
    const size_t bytes = meta.nbytes();
    void* data = arena.allocate(bytes == 0 ? 1 : bytes, MemoryAllocator::kDefaultAlignment);
    void* slot = arena.allocate(sizeof(TensorImpl), alignof(TensorImpl));
    EMBER_CHECK_OR_RETURN(data != nullptr && slot != nullptr, Error::MemoryAllocationFailed,
                          "the arena has no room for input %zu (%zu bytes)", i, bytes);
    std::memset(data, 0, bytes);
    fill_ones(data, meta.scalar_type(), meta.numel());
    // Same shape and layout as the method's own input, the arena's data.
    TensorImpl* impl = new (slot) TensorImpl(
        meta.scalar_type(), meta.dim(), const_cast<SizesType*>(meta.sizes().data()), data,
        const_cast<DimOrderType*>(meta.dim_order().data()),
        const_cast<StridesType*>(meta.strides().data()));
    EMBER_RETURN_IF_ERROR(method.set_input(EValue(Tensor(impl)), i));
  }
  // Outputs the program leaves to the application get arena memory.
  for (size_t i = 0; i < method.outputs_size(); ++i) {
    const EValue& output = method.get_output(i);
    if (!output.is_tensor() || output.to_tensor().const_data_ptr() != nullptr) continue;
    const size_t bytes = output.to_tensor().impl()->capacity_nbytes();
    if (bytes == 0) continue;
    void* data = arena.allocate(bytes, MemoryAllocator::kDefaultAlignment);
    EMBER_CHECK_OR_RETURN(data != nullptr, Error::MemoryAllocationFailed,
                          "the arena has no room for output %zu (%zu bytes)", i, bytes);
    EMBER_RETURN_IF_ERROR(method.set_output_data_ptr(data, bytes, i));
  }
  return Error::Ok;
}

Error execute(Method& method, const RunOptions& options) {
  CycleTracer tracer;
  if (options.cycles) method.set_event_tracer(&tracer);
  const Error err = method.execute();
  method.set_event_tracer(nullptr);
  if (options.cycles && err == Error::Ok) {
    say("  cycles total %llu over %u operator call(s)\n",
        static_cast<unsigned long long>(tracer.total_ticks()), unsigned(tracer.events()));
  }
  return err;
}

void print_report(const char* method, size_t index, const OutputReport& r) {
  say("    case %zu output %zu: %s (%s) max abs %.3g, max rel %.3g, %lld of %lld outside "
      "tolerance\n",
      index, r.output_index, r.passed ? "pass" : "FAIL", output_mismatch_name(r.mismatch),
      r.max_abs_error, r.max_rel_error, static_cast<long long>(r.num_outside_tolerance),
      static_cast<long long>(r.numel));
}

void run_suite(const Program& program, const BundledProgram& bundle, size_t suite,
               const RunOptions& options, MemoryAllocator& arena, const StaticPools* pools,
               RunCounts& counts) {
  const char* method = bundle.suite_method_name(suite);
  const PrintableName shown(method);
  const size_t cases = *bundle.num_test_cases(method);
  LoadedMethod loaded;
  Result<Method> m(Error::NotFound);
  if (!load_method(program, method, options, arena, pools, loaded, &m)) {
    counts.failed += cases == 0 ? 1 : cases;
    return;
  }
  // Inputs and outputs the program leaves to the application: what the
  // library says a case of this method needs, started over for every case.
  const size_t io_size = bundled_case_memory_bytes(*m);
  uint8_t* io_base = static_cast<uint8_t*>(arena.allocate(io_size, MemoryAllocator::kDefaultAlignment));
  for (size_t c = 0; c < cases; ++c) {
    if (io_base == nullptr) {
      say("  method '%s': does not fit: a test case needs %zu bytes of inputs, %zu arena bytes "
          "are free\n", shown.c_str(), io_size, arena.size() - arena.used());
      counts.failed += cases;
      return;
    }
    MemoryAllocator io(io_base, io_size);
    OutputReport reports[kMaxReports];
    Error err = load_bundled_input(*m, bundle, c, &io);
    if (err == Error::Ok) err = execute(*m, options);
    if (err == Error::Ok) {
      const ember::testing::OpSuiteTolerance tol =
          options.op_suite_tolerance
              ? ember::testing::op_suite_tolerance(*m, options.rtol, options.atol)
              : ember::testing::OpSuiteTolerance{options.rtol, options.atol};
      err = verify_method_outputs(*m, bundle, c, tol.rtol, tol.atol, reports, kMaxReports);
      const size_t shown_reports = m->outputs_size() < kMaxReports ? m->outputs_size() : kMaxReports;
      for (size_t o = 0; o < shown_reports; ++o) print_report(shown.c_str(), c, reports[o]);
    }
    if (err == Error::Ok) {
      ++counts.passed;
      say("  method '%s' case %zu: PASS\n", shown.c_str(), c);
    } else {
      ++counts.failed;
      say("  method '%s' case %zu: FAIL: %s: %s\n", shown.c_str(), c, error_name(err),
          last_error_message());
    }
  }
}

}  // namespace

void say(const char* fmt, ...) {
  char text[512];
  va_list args;
  va_start(args, fmt);
  vformat_text(text, sizeof(text), fmt, args);
  va_end(args);
  // A line cut short keeps its end, so the next line starts on its own.
  const size_t n = std::strlen(text), f = std::strlen(fmt);
  if (f > 0 && fmt[f - 1] == '\n' && n > 0 && text[n - 1] != '\n') text[n - 1] = '\n';
  std::fputs(text, stdout);
}

RunCounts run_program(const uint8_t* bytes, size_t size, const char* name,
                      const RunOptions& options, MemoryAllocator& arena,
                      const StaticPools* pools) {
  RunCounts counts;
  const PrintableName shown(name);
  Result<ProgramView> view = ProgramView::open(bytes, size);
  if (!view.ok()) {
    say("%s: not a valid program or bundled program: %s\n", shown.c_str(), last_error_message());
    counts.failed = 1;
    return counts;
  }
  BufferDataLoader loader(view->program_data(), view->program_size());
  Result<Program> program = Program::load(&loader, Program::Verification::InternalConsistency);
  if (!program.ok()) {
    say("%s: program load failed: %s: %s\n", shown.c_str(), error_name(program.error()),
        last_error_message());
    counts.failed = 1;
    return counts;
  }
  if (const BundledProgram* bundle = view->bundle()) {
    for (size_t s = 0; s < bundle->num_method_suites(); ++s) {
      if (options.method != nullptr && std::strcmp(options.method, bundle->suite_method_name(s)) != 0) {
        continue;
      }
      run_suite(*program, *bundle, s, options, arena, pools, counts);
    }
    return counts;
  }
  for (size_t i = 0; i < program->num_methods(); ++i) {
    const char* method = *program->get_method_name(i);
    if (options.method != nullptr && std::strcmp(options.method, method) != 0) continue;
    LoadedMethod loaded;
    Result<Method> m(Error::NotFound);
    const PrintableName shown_method(method);
    if (!load_method(*program, method, options, arena, pools, loaded, &m)) {
      ++counts.failed;
      continue;
    }
    Error err = set_inputs_to_ones(*m, arena);
    if (err == Error::Ok) err = execute(*m, options);
    if (err == Error::Ok) {
      ++counts.passed;
      say("  method '%s': PASS (ran on inputs of ones, %zu output(s))\n", shown_method.c_str(),
          m->outputs_size());
    } else {
      ++counts.failed;
      say("  method '%s': FAIL: %s: %s\n", shown_method.c_str(), error_name(err),
          last_error_message());
    }
  }
  return counts;
}

}  // namespace ember::baremetal
