#include "extension/data_loader/buffer_data_loader.h"

#include "extension/data_loader/range_check.h"

namespace ember {

BufferDataLoader::BufferDataLoader(BufferDataLoader&& other) noexcept
    : data_(other.data_), size_(other.size_) {
  other.data_ = nullptr;
  other.size_ = 0;
}

BufferDataLoader& BufferDataLoader::operator=(BufferDataLoader&& other) noexcept {
  if (this != &other) {
    data_ = other.data_;
    size_ = other.size_;
    other.data_ = nullptr;
    other.size_ = 0;
  }
  return *this;
}

Result<FreeableBuffer> BufferDataLoader::load(size_t offset, size_t size,
                                              SegmentKind /*kind*/) {
  const Error err = data_loader_detail::check_range(
      "BufferDataLoader", "memory", offset, size, size_);
  if (err != Error::Ok) {
    return err;
  }
  if (size == 0) {
    return FreeableBuffer();
  }
  return FreeableBuffer(static_cast<const char*>(data_) + offset, size,
                        /*free_fn=*/nullptr);
}

}  // namespace ember
