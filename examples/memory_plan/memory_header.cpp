#include "examples/memory_plan/memory_header.h"

#include <cstdarg>
#include <cstdint>

#include "runtime/core/error_message.h"
#include "runtime/platform/format.h"

namespace ember {
namespace {

class Writer {
 public:
  Writer(TextSink sink, void* context) : sink_(sink), context_(context) {}
  void line(const char* fmt, ...) EMBER_PRINTF_LIKE(2, 3) {
    char text[256];
    va_list args;
    va_start(args, fmt);
    vformat_text(text, sizeof(text), fmt, args);
    va_end(args);
    sink_(context_, text);
    sink_(context_, "\n");
  }

 private:
  TextSink sink_;
  void* context_;
};

size_t round_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

// A method name is a C identifier fragment only when it is one already.
bool is_identifier(const char* s) {
  if (s == nullptr || *s == '\0') return false;
  for (; *s != '\0'; ++s) {
    const char c = *s;
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

Error write_memory_report(const Program& program, const char* source, MemoryReportFormat format,
                          TextSink sink, void* context) {
  Writer out(sink, context);
  const bool header = format == MemoryReportFormat::kCHeader;
  const PrintableName shown_source(source != nullptr ? source : "");
  if (header) {
    out.line("// Memory the methods of %s need, for a %u-bit build of Ember.",
             shown_source.c_str(), unsigned(sizeof(void*) * 8));
    out.line("// Printed by the build it is for (the bare-metal runner's --header:");
    out.line("// scripts/run_cortex_m.sh FILE --header, on the emulated board);");
    out.line("// the method allocator's bytes are this build's, the planned buffers the");
    out.line("// exporter's. Give each pool a base aligned to %u bytes.",
             unsigned(MemoryAllocator::kDefaultAlignment));
    out.line("#pragma once");
    out.line("#define EMBER_MODEL_NUM_METHODS %zu", program.num_methods());
  }
  for (size_t m = 0; m < program.num_methods(); ++m) {
    Result<const char*> name = program.get_method_name(m);
    if (!name.ok()) return name.error();
    Result<MethodMeta> meta = program.method_meta(*name);
    if (!meta.ok()) return meta.error();
    const PrintableName shown(*name);
    const size_t buffers = meta->num_memory_planned_buffers();
    size_t planned_total = 0;
    char sizes[160];
    size_t used = 0;
    sizes[0] = '\0';
    for (size_t b = 0; b < buffers; ++b) {
      Result<int64_t> size = meta->memory_planned_buffer_size(b);
      if (!size.ok()) return size.error();
      planned_total += round_up(size_t(*size), kPlannedBufferAlignment);
      if (used < sizeof(sizes)) {
        used += format_text(sizes + used, sizeof(sizes) - used, "%s%lluu", b == 0 ? "" : ", ",
                            static_cast<unsigned long long>(*size));
      }
    }
    const size_t method_bytes = meta->method_allocator_bytes();
    if (!header) {
      out.line("method '%s': method allocator %zu bytes; %zu planned buffer(s) {%s}, %zu bytes "
               "with %u-byte alignment",
               shown.c_str(), method_bytes, buffers, sizes, planned_total,
               unsigned(kPlannedBufferAlignment));
      continue;
    }
    out.line("// method %zu: '%s'", m, shown.c_str());
    if (is_identifier(*name)) out.line("#define EMBER_MODEL_METHOD%zu_NAME \"%s\"", m, *name);
    out.line("#define EMBER_MODEL_METHOD%zu_METHOD_ALLOCATOR_BYTES %zuu", m, method_bytes);
    out.line("#define EMBER_MODEL_METHOD%zu_NUM_PLANNED_BUFFERS %zu", m, buffers);
    out.line("#define EMBER_MODEL_METHOD%zu_PLANNED_BUFFER_BYTES {%s}", m, buffers ? sizes : "0u");
    out.line("#define EMBER_MODEL_METHOD%zu_PLANNED_TOTAL_BYTES %zuu", m, planned_total);
  }
  return Error::Ok;
}

}  // namespace ember
