// MmapDataLoader: a DataLoader over a read-only memory mapping of a file.
//
// from() maps the whole file once (PROT_READ, MAP_PRIVATE) and closes the
// descriptor; the mapping lives until the loader is destroyed. load()
// returns a pointer into the mapping: no copy. So returned buffers must not
// be used, or freed, after the loader is destroyed. Pages are read from the
// file lazily, on first touch.
//
// Freeing a buffer does nothing, except for named data
// (SegmentKind::External): there it gives back the whole pages inside the
// buffer's range (munlock, then madvise MADV_DONTNEED), so weights a
// delegate has packed stop counting in the process's memory. The mapping
// is read-only and private, so any later read of those bytes (another
// buffer over the same range) faults them in from the file again: the
// bytes never change, only whether they are resident.
//
// Alignment: the mapping starts on a page boundary, so a buffer for
// `offset` is aligned as `offset` is (a .pte writer aligns segment offsets;
// the program itself is at offset 0 and thus page-aligned).
//
// Segment kinds: every kind is returned in place. That is also right for
// SegmentKind::Mutable, because the runtime copies mutable initial values
// into its arenas instead of writing through the returned pointer.
//
// Locking (MlockConfig, chosen in from()): with UseMlock or
// UseMlockIgnoreErrors each load() also mlock()s the pages its range
// covers, so they are read in now and never paged out; that raises the
// process's locked memory, which RLIMIT_MEMLOCK bounds for processes
// without CAP_IPC_LOCK. Locks do not nest, and ranges may share pages, so
// freeing a buffer leaves its pages locked (named data excepted, above):
// they are unlocked when the loader unmaps the file (its destruction, or
// being assigned over). With
// UseMlock a refused mlock() fails that load(); with UseMlockIgnoreErrors
// the load goes on with the pages unlocked.
//
// Errors: from() gives Error::AccessFailed (path and strerror) when the
// file cannot be opened, is not a regular file, or cannot be mapped;
// load() gives Error::InvalidArgument for a range outside the file, and,
// with UseMlock, Error::AccessFailed when mlock() fails (the message names
// the file, the range's offset and size, and strerror).
//
// If the file is truncated while mapped, touching the lost pages raises
// SIGBUS; use FileDataLoader for files that may change.
//
// Movable, not copyable.
#pragma once

#include <cstddef>
#include <string>

#include "runtime/core/data_loader.h"

namespace ember {

class MmapDataLoader final : public DataLoader {
 public:
  // Whether load() locks the pages it returns (see "Locking" above).
  enum class MlockConfig {
    NoMlock,               // never lock (the default)
    UseMlock,              // lock; a failed mlock() fails the load()
    UseMlockIgnoreErrors,  // lock where mlock() allows, else go on unlocked
  };

  static Result<MmapDataLoader> from(
      const char* path, MlockConfig mlock = MlockConfig::NoMlock);

  MmapDataLoader(MmapDataLoader&& other) noexcept;
  MmapDataLoader& operator=(MmapDataLoader&& other) noexcept;
  MmapDataLoader(const MmapDataLoader&) = delete;
  MmapDataLoader& operator=(const MmapDataLoader&) = delete;
  ~MmapDataLoader() override;

  // Bytes [offset, offset + size) in place (see the alignment note above).
  // A zero-size load returns an empty buffer.
  Result<FreeableBuffer> load(size_t offset, size_t size,
                              SegmentKind kind) override;
  Result<size_t> size() const override { return size_; }

  const std::string& path() const { return path_; }
  MlockConfig mlock_config() const { return mlock_; }

 private:
  MmapDataLoader(void* base, size_t size, std::string path,
                 MlockConfig mlock);
  void unmap();
  // FreeableBuffer release for named data (see above); no context, so a
  // moved loader's buffers stay valid.
  static void release_pages(void* context, void* data, size_t size);
  // Locks the pages under [offset, offset + size) (size > 0, in range) as
  // mlock_ asks.
  Error lock_range(size_t offset, size_t size) const;

  void* base_ = nullptr;  // null for an empty file (nothing is mapped)
  size_t size_ = 0;
  std::string path_;
  MlockConfig mlock_ = MlockConfig::NoMlock;
};

}  // namespace ember
