// ETDump: upstream ExecuTorch's file of profiling and debug events, which
// its Python Inspector reads (with the debug buffer, for tensor values).
//
// write_etdump() turns what an EventRecorder holds into the exact wire
// format of upstream's devtools/etdump/etdump_schema_flatcc.fbs (our own
// wire-compatible schema: devtools/etdump/etdump_schema.fbs): a
// size-prefixed flatbuffer with file identifier "ED00", one RunData per
// recorded block named as the runtime named it ("Default" for a load,
// "Execute" for a run), events in recording order, tensors as references
// (dtype, sizes, strides, offset) into the debug buffer and scalars inline.
// The debug-buffer file is EventRecorder::debug_buffer() written as is.
//
// Outside the core: uses the heap (std::vector) and the flatbuffers
// builder. Errors: InvalidArgument for a recorded dtype ETDump cannot name.
#pragma once

#include <cstdint>
#include <vector>

#include "devtools/event_recorder.h"
#include "runtime/core/result.h"

namespace ember {
namespace devtools {

Result<std::vector<uint8_t>> write_etdump(const EventRecorder& recorder);

}  // namespace devtools
}  // namespace ember
