// DataLoader: how the runtime reads program bytes. The core never opens
// files; extension/data_loader has file, mmap and in-memory loaders.
//
// load() may be called for overlapping ranges. Programs shared between
// threads (program.h) call it from every thread that loads a method, at
// the same time: Ember's loaders (file: pread, no shared offset; mmap and
// buffer: pointers into read-only memory) allow that, and a loader used
// that way must too.
// A loader must check [offset, offset + size) against its data and return
// Error::InvalidArgument with a message when the range does not fit.
#pragma once

#include <cstddef>

#include "runtime/core/freeable_buffer.h"
#include "runtime/core/result.h"

namespace ember {

// Why a range is being loaded; a loader may use it to decide whether to copy
// or map (constants used in place, say).
enum class SegmentKind {
  Program,   // the header and the program flatbuffer
  Constant,  // the constant segment
  Mutable,   // initial values of mutable tensors (copied into arenas)
  Backend,   // a delegate's processed blob
  External,  // named data
};

class DataLoader {
 public:
  virtual ~DataLoader() = default;
  // Bytes [offset, offset + size) of the underlying data. The returned
  // buffer stays valid until freed, even after the loader is destroyed only
  // if the loader documents so.
  virtual Result<FreeableBuffer> load(size_t offset, size_t size,
                                      SegmentKind kind) = 0;
  // Total size of the underlying data in bytes.
  virtual Result<size_t> size() const = 0;
};

}  // namespace ember
