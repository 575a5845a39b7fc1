#include "extension/data_loader/file_data_loader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "extension/data_loader/range_check.h"

namespace ember {
namespace {

bool is_power_of_two(size_t n) { return n != 0 && (n & (n - 1)) == 0; }

void free_buffer(void* /*context*/, void* data, size_t /*size*/) {
  std::free(data);
}

}  // namespace

Result<FileDataLoader> FileDataLoader::from(const char* path,
                                            size_t alignment) {
  if (path == nullptr) {
    set_error_message("FileDataLoader: path is null");
    return Error::InvalidArgument;
  }
  if (!is_power_of_two(alignment)) {
    set_error_message("FileDataLoader(%s): alignment %zu is not a power of two",
                      path, alignment);
    return Error::InvalidArgument;
  }
  if (alignment < kDefaultAlignment) {
    alignment = kDefaultAlignment;
  }
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    set_error_message("FileDataLoader: cannot open %s: %s", path,
                      strerror(errno));
    return Error::AccessFailed;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    set_error_message("FileDataLoader: cannot stat %s: %s", path,
                      strerror(err));
    return Error::AccessFailed;
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    set_error_message("FileDataLoader: %s is not a regular file", path);
    return Error::AccessFailed;
  }
  return FileDataLoader(fd, size_t(st.st_size), alignment, std::string(path));
}

FileDataLoader::FileDataLoader(FileDataLoader&& other) noexcept
    : fd_(other.fd_),
      file_size_(other.file_size_),
      alignment_(other.alignment_),
      path_(std::move(other.path_)) {
  other.fd_ = -1;
  other.file_size_ = 0;
}

FileDataLoader& FileDataLoader::operator=(FileDataLoader&& other) noexcept {
  if (this != &other) {
    close_fd();
    fd_ = other.fd_;
    file_size_ = other.file_size_;
    alignment_ = other.alignment_;
    path_ = std::move(other.path_);
    other.fd_ = -1;
    other.file_size_ = 0;
  }
  return *this;
}

FileDataLoader::~FileDataLoader() { close_fd(); }

void FileDataLoader::close_fd() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

Result<FreeableBuffer> FileDataLoader::load(size_t offset, size_t size,
                                            SegmentKind /*kind*/) {
  if (fd_ < 0) {
    set_error_message("FileDataLoader: load() on a moved-from loader");
    return Error::InvalidState;
  }
  const Error err = data_loader_detail::check_range(
      "FileDataLoader", path_.c_str(), offset, size, file_size_);
  if (err != Error::Ok) {
    return err;
  }
  if (size == 0) {
    return FreeableBuffer();
  }
  // aligned_alloc wants a size that is a multiple of the alignment; the
  // range check bounds size by the file size, so rounding up cannot wrap
  // for any file that fits in memory, but check anyway.
  const size_t padded = (size + alignment_ - 1) & ~(alignment_ - 1);
  void* buffer = padded >= size ? std::aligned_alloc(alignment_, padded)
                                : nullptr;
  if (buffer == nullptr) {
    set_error_message("FileDataLoader(%s): cannot allocate %zu bytes",
                      path_.c_str(), size);
    return Error::MemoryAllocationFailed;
  }
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd_, static_cast<char*>(buffer) + done,
                              size - done, off_t(offset + done));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      const int read_errno = errno;
      std::free(buffer);
      if (n == 0) {
        set_error_message(
            "FileDataLoader(%s): file ended at offset %zu while reading %zu "
            "bytes at offset %zu (was it truncated?)",
            path_.c_str(), offset + done, size, offset);
      } else {
        set_error_message(
            "FileDataLoader(%s): read of %zu bytes at offset %zu failed: %s",
            path_.c_str(), size, offset, strerror(read_errno));
      }
      return Error::AccessFailed;
    }
    done += size_t(n);
  }
  return FreeableBuffer(buffer, size, free_buffer);
}

}  // namespace ember
