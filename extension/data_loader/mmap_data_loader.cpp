#include "extension/data_loader/mmap_data_loader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "extension/data_loader/range_check.h"

namespace ember {

Result<MmapDataLoader> MmapDataLoader::from(const char* path) {
  if (path == nullptr) {
    set_error_message("MmapDataLoader: path is null");
    return Error::InvalidArgument;
  }
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    set_error_message("MmapDataLoader: cannot open %s: %s", path,
                      strerror(errno));
    return Error::AccessFailed;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    set_error_message("MmapDataLoader: cannot stat %s: %s", path,
                      strerror(err));
    return Error::AccessFailed;
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    set_error_message("MmapDataLoader: %s is not a regular file", path);
    return Error::AccessFailed;
  }
  const size_t size = size_t(st.st_size);
  void* base = nullptr;
  if (size > 0) {  // mmap() rejects a zero length
    base = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (base == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      set_error_message("MmapDataLoader: cannot map %zu bytes of %s: %s", size,
                        path, strerror(err));
      return Error::AccessFailed;
    }
  }
  ::close(fd);  // the mapping keeps the file referenced
  return MmapDataLoader(base, size, std::string(path));
}

MmapDataLoader::MmapDataLoader(void* base, size_t size, std::string path)
    : base_(base), size_(size), path_(std::move(path)) {}

MmapDataLoader::MmapDataLoader(MmapDataLoader&& other) noexcept
    : base_(other.base_), size_(other.size_), path_(std::move(other.path_)) {
  other.base_ = nullptr;
  other.size_ = 0;
}

MmapDataLoader& MmapDataLoader::operator=(MmapDataLoader&& other) noexcept {
  if (this != &other) {
    unmap();
    base_ = other.base_;
    size_ = other.size_;
    path_ = std::move(other.path_);
    other.base_ = nullptr;
    other.size_ = 0;
  }
  return *this;
}

MmapDataLoader::~MmapDataLoader() { unmap(); }

void MmapDataLoader::unmap() {
  if (base_ != nullptr) {
    ::munmap(base_, size_);
    base_ = nullptr;
    size_ = 0;
  }
}

Result<FreeableBuffer> MmapDataLoader::load(size_t offset, size_t size,
                                            SegmentKind /*kind*/) {
  const Error err = data_loader_detail::check_range(
      "MmapDataLoader", path_.c_str(), offset, size, size_);
  if (err != Error::Ok) {
    return err;
  }
  if (size == 0) {
    return FreeableBuffer();
  }
  return FreeableBuffer(static_cast<const char*>(base_) + offset, size,
                        /*free_fn=*/nullptr);
}

}  // namespace ember
