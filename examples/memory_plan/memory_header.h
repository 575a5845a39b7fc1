// What a program's methods need in memory, as text: a C header a firmware
// includes to size its static buffers, or a report for people. Heap-free:
// the bare-metal runner (examples/baremetal) prints it on the target, where
// the method allocator's figure is the target's own; the host tool
// ember_memory_plan prints the host build's.
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
