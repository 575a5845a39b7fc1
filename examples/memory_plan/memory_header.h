// What a program's methods need in memory, as text: a C header a firmware
// includes to size its static buffers, or a report for people. Heap-free,
// so that the build the figures are for prints them: the method allocator's
// bytes depend on the target's type sizes (4-byte pointers on Cortex-M),
// so the bare-metal runner (examples/baremetal, --header) prints them on
// the target, and scripts/run_cortex_m.sh FILE --header runs that from the
// host.
#pragma once

#include <cstddef>

#include "runtime/core/error.h"
#include "runtime/executor/program.h"

namespace ember {

// Receives the text piece by piece.
using TextSink = void (*)(void* context, const char* text);

// Planned buffers are rounded up to this in the header's totals, so that a
// firmware can carve them one after another from one array.
constexpr size_t kPlannedBufferAlignment = 16;

enum class MemoryReportFormat { kText, kCHeader };

// One section per method: the planned buffers (exporter's, the same on
// every target) and the method allocator's bytes (this build's:
// MethodMeta::method_allocator_bytes()). `source` names the file in the
// header's comment (escaped). Errors come from Program::method_meta.
Error write_memory_report(const Program& program, const char* source, MemoryReportFormat format,
                          TextSink sink, void* context);

}  // namespace ember
