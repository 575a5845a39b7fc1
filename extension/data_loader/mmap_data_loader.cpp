#include "extension/data_loader/mmap_data_loader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <utility>

#include "extension/data_loader/range_check.h"

namespace ember {

namespace {

size_t page_size() {
  static const size_t size = size_t(::sysconf(_SC_PAGESIZE));
  return size;
}

// The soft RLIMIT_MEMLOCK as text ("65536 bytes", "unlimited"), for the
// message of a refused mlock().
std::string memlock_limit_text() {
  struct rlimit limit;
  if (::getrlimit(RLIMIT_MEMLOCK, &limit) != 0) return "unknown";
  if (limit.rlim_cur == RLIM_INFINITY) return "unlimited";
  return std::to_string(static_cast<unsigned long long>(limit.rlim_cur)) +
         " bytes";
}

}  // namespace

Result<MmapDataLoader> MmapDataLoader::from(const char* path,
                                            MlockConfig mlock) {
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
  return MmapDataLoader(base, size, std::string(path), mlock);
}

MmapDataLoader::MmapDataLoader(void* base, size_t size, std::string path,
                               MlockConfig mlock)
    : base_(base), size_(size), path_(std::move(path)), mlock_(mlock) {}

MmapDataLoader::MmapDataLoader(MmapDataLoader&& other) noexcept
    : base_(other.base_),
      size_(other.size_),
      path_(std::move(other.path_)),
      mlock_(other.mlock_) {
  other.base_ = nullptr;
  other.size_ = 0;
}

MmapDataLoader& MmapDataLoader::operator=(MmapDataLoader&& other) noexcept {
  if (this != &other) {
    unmap();
    base_ = other.base_;
    size_ = other.size_;
    path_ = std::move(other.path_);
    mlock_ = other.mlock_;
    other.base_ = nullptr;
    other.size_ = 0;
  }
  return *this;
}

MmapDataLoader::~MmapDataLoader() { unmap(); }

void MmapDataLoader::unmap() {
  if (base_ != nullptr) {
    ::munmap(base_, size_);  // also drops the locks load() took
    base_ = nullptr;
    size_ = 0;
  }
}

Result<FreeableBuffer> MmapDataLoader::load(size_t offset, size_t size,
                                            SegmentKind kind) {
  const Error err = data_loader_detail::check_range(
      "MmapDataLoader", path_.c_str(), offset, size, size_);
  if (err != Error::Ok) {
    return err;
  }
  if (size == 0) {
    return FreeableBuffer();
  }
  const Error locked = lock_range(offset, size);
  if (locked != Error::Ok) {
    return locked;
  }
  return FreeableBuffer(static_cast<const char*>(base_) + offset, size,
                        kind == SegmentKind::External ? &MmapDataLoader::release_pages
                                                      : nullptr);
}

void MmapDataLoader::release_pages(void* /*context*/, void* data, size_t size) {
  // Only the pages wholly inside the range: the edges may hold other data.
  const uintptr_t page = page_size();
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + page - 1) / page * page;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + size) / page * page;
  if (end <= begin) return;
  void* start = reinterpret_cast<void*>(begin);
  ::munlock(start, end - begin);  // MADV_DONTNEED refuses locked pages
  ::madvise(start, end - begin, MADV_DONTNEED);
}

Error MmapDataLoader::lock_range(size_t offset, size_t size) const {
  if (mlock_ == MlockConfig::NoMlock) {
    return Error::Ok;
  }
  // mlock() takes a page-aligned start; the mapping starts on a page, so
  // rounding the offset down gives one. load() checked offset + size.
  const size_t first = offset - offset % page_size();
  const void* start = static_cast<const char*>(base_) + first;
  if (::mlock(start, offset + size - first) == 0) {
    return Error::Ok;
  }
  const int err = errno;
  if (mlock_ == MlockConfig::UseMlockIgnoreErrors) {
    return Error::Ok;  // the pages stay mapped, only not pinned
  }
  set_error_message(
      "MmapDataLoader(%s): cannot mlock %zu bytes at offset %zu: %s "
      "(RLIMIT_MEMLOCK: %s)",
      path_.c_str(), size, offset, strerror(err),
      memlock_limit_text().c_str());
  return Error::AccessFailed;
}

}  // namespace ember
