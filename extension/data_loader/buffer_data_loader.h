// BufferDataLoader: a DataLoader over bytes the caller already holds in
// memory (a program embedded in the binary, or read by the application).
//
// Ownership: the loader never copies or frees the bytes. They must stay
// alive and unchanged as long as the loader or any buffer it returned is in
// use. load() returns pointers into them (free is a no-op), so a returned
// buffer is aligned exactly as `data + offset` is: give the loader memory
// aligned to at least 16 bytes (the program flatbuffer's verifier expects
// that), and segment offsets in a .pte are aligned by the writer.
//
// Movable, not copyable.
#pragma once

#include <cstddef>

#include "runtime/core/data_loader.h"

namespace ember {

class BufferDataLoader final : public DataLoader {
 public:
  // `data` may be null only if `size` is 0.
  BufferDataLoader(const void* data, size_t size) : data_(data), size_(size) {}

  BufferDataLoader(BufferDataLoader&& other) noexcept;
  BufferDataLoader& operator=(BufferDataLoader&& other) noexcept;
  BufferDataLoader(const BufferDataLoader&) = delete;
  BufferDataLoader& operator=(const BufferDataLoader&) = delete;
  ~BufferDataLoader() override = default;

  // Bytes [offset, offset + size) in place. InvalidArgument (with a message)
  // when the range does not fit. `kind` is ignored.
  Result<FreeableBuffer> load(size_t offset, size_t size,
                              SegmentKind kind) override;
  Result<size_t> size() const override { return size_; }

 private:
  const void* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace ember
