// FileDataLoader: a DataLoader that reads ranges of a file with pread().
//
// Each load() allocates a buffer (aligned_alloc) and copies the range into
// it; the returned FreeableBuffer frees it. Buffers are independent of the
// loader: they stay valid after the loader is destroyed, until freed.
// Every returned buffer is aligned to `alignment` bytes (16 by default,
// what the flatbuffers verifier needs for the program). The file is opened
// once, in from(), and closed when the loader is destroyed.
//
// Errors: from() and load() give Error::AccessFailed for a file that cannot
// be opened, is not a regular file, or cannot be read (message: the path and
// strerror); load() gives Error::InvalidArgument for a range outside the
// file, Error::MemoryAllocationFailed when the buffer cannot be allocated.
//
// Movable, not copyable. load() and size() may be called from several
// threads at once (pread keeps no file offset); moving or destroying the
// loader must not overlap them.
#pragma once

#include <cstddef>
#include <string>
#include <utility>

#include "runtime/core/data_loader.h"

namespace ember {

class FileDataLoader final : public DataLoader {
 public:
  static constexpr size_t kDefaultAlignment = 16;

  // Opens `path` read-only. `alignment` must be a power of two; buffers are
  // aligned to max(alignment, kDefaultAlignment).
  static Result<FileDataLoader> from(const char* path,
                                     size_t alignment = kDefaultAlignment);

  FileDataLoader(FileDataLoader&& other) noexcept;
  FileDataLoader& operator=(FileDataLoader&& other) noexcept;
  FileDataLoader(const FileDataLoader&) = delete;
  FileDataLoader& operator=(const FileDataLoader&) = delete;
  ~FileDataLoader() override;

  // A copy of bytes [offset, offset + size). A zero-size load returns an
  // empty buffer. `kind` is ignored: every load is a copy.
  Result<FreeableBuffer> load(size_t offset, size_t size,
                              SegmentKind kind) override;
  // The file's size when it was opened.
  Result<size_t> size() const override { return file_size_; }

  const std::string& path() const { return path_; }
  size_t alignment() const { return alignment_; }

 private:
  FileDataLoader(int fd, size_t file_size, size_t alignment, std::string path)
      : fd_(fd), file_size_(file_size), alignment_(alignment),
        path_(std::move(path)) {}
  void close_fd();

  int fd_ = -1;
  size_t file_size_ = 0;
  size_t alignment_ = kDefaultAlignment;
  std::string path_;
};

}  // namespace ember
