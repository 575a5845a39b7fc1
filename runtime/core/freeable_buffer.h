// FreeableBuffer: read-only bytes plus the way to release them.
//
// A DataLoader returns one per load. The release function (if any) runs once
// when free() is called or the buffer is destroyed. Move-only.
#pragma once

#include <cstddef>

namespace ember {

class FreeableBuffer final {
 public:
  using FreeFn = void (*)(void* context, void* data, size_t size);

  FreeableBuffer() = default;
  FreeableBuffer(const void* data, size_t size, FreeFn free_fn,
                 void* free_context = nullptr)
      : data_(data), size_(size), free_fn_(free_fn), context_(free_context) {}
  FreeableBuffer(FreeableBuffer&& other) noexcept { *this = static_cast<FreeableBuffer&&>(other); }
  FreeableBuffer& operator=(FreeableBuffer&& other) noexcept {
    if (this != &other) {
      free();
      data_ = other.data_;
      size_ = other.size_;
      free_fn_ = other.free_fn_;
      context_ = other.context_;
      other.data_ = nullptr;
      other.size_ = 0;
      other.free_fn_ = nullptr;
    }
    return *this;
  }
  FreeableBuffer(const FreeableBuffer&) = delete;
  FreeableBuffer& operator=(const FreeableBuffer&) = delete;
  ~FreeableBuffer() { free(); }

  void free() {
    if (free_fn_ != nullptr) {
      free_fn_(context_, const_cast<void*>(data_), size_);
    }
    free_fn_ = nullptr;
    data_ = nullptr;
    size_ = 0;
  }

  const void* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  const void* data_ = nullptr;
  size_t size_ = 0;
  FreeFn free_fn_ = nullptr;
  void* context_ = nullptr;
};

}  // namespace ember
