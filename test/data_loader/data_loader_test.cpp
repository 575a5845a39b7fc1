// FileDataLoader, MmapDataLoader and BufferDataLoader: ranges, bounds,
// file errors, alignment, copy vs. in-place; MmapDataLoader's mlock modes.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "extension/data_loader/buffer_data_loader.h"
#include "extension/data_loader/file_data_loader.h"
#include "extension/data_loader/mmap_data_loader.h"
#include "test/data_loader/memlock_limit.h"
#include "test/utils/resident_pages.h"

namespace ember {
namespace {

static_assert(!std::is_copy_constructible_v<FileDataLoader>);
static_assert(!std::is_copy_assignable_v<FileDataLoader>);
static_assert(std::is_nothrow_move_constructible_v<FileDataLoader>);
static_assert(std::is_nothrow_move_assignable_v<FileDataLoader>);
static_assert(!std::is_copy_constructible_v<MmapDataLoader>);
static_assert(std::is_nothrow_move_constructible_v<MmapDataLoader>);
static_assert(std::is_nothrow_move_assignable_v<MmapDataLoader>);
static_assert(!std::is_copy_constructible_v<BufferDataLoader>);
static_assert(std::is_nothrow_move_constructible_v<BufferDataLoader>);

bool message_has(const char* needle) {
  return std::strstr(last_error_message(), needle) != nullptr;
}

// A temporary file removed at the end of the test.
class TempFile {
 public:
  explicit TempFile(const std::vector<uint8_t>& bytes) {
    const char* dir = std::getenv("TMPDIR");
    path_ = std::string(dir != nullptr ? dir : "/tmp") + "/ember_loader_XXXXXX";
    const int fd = mkstemp(path_.data());
    EXPECT_GE(fd, 0);
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
      EXPECT_GT(n, 0);
      if (n <= 0) break;
      done += size_t(n);
    }
    close(fd);
  }
  ~TempFile() { unlink(path_.c_str()); }
  const char* path() const { return path_.c_str(); }

 private:
  std::string path_;
};

std::vector<uint8_t> pattern(size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) {
    v[i] = uint8_t((i * 7 + 3) & 0xff);
  }
  return v;
}

// Loads [offset, offset + size) through the DataLoader interface and checks
// the bytes against `expected`.
void expect_range(DataLoader& loader, const std::vector<uint8_t>& expected,
                  size_t offset, size_t size) {
  Result<FreeableBuffer> buf = loader.load(offset, size, SegmentKind::Program);
  ASSERT_TRUE(buf.ok()) << last_error_message();
  ASSERT_EQ(buf->size(), size);
  if (size > 0) {
    EXPECT_EQ(std::memcmp(buf->data(), expected.data() + offset, size), 0)
        << "offset " << offset << " size " << size;
  }
}

// The out-of-range cases every loader must reject without wrapping.
void expect_bounds_rejected(DataLoader& loader, size_t data_size) {
  struct Range {
    size_t offset, size;
  };
  const Range bad[] = {
      {0, data_size + 1},
      {data_size, 1},
      {data_size + 1, 0},
      {1, data_size},
      {SIZE_MAX, 1},
      {SIZE_MAX - 1, 2},     // offset + size wraps to 0
      {SIZE_MAX - 15, 32},   // wraps to a small number
      {1, SIZE_MAX},
      {SIZE_MAX, SIZE_MAX},
  };
  for (const Range& r : bad) {
    clear_error_message();
    Result<FreeableBuffer> buf = loader.load(r.offset, r.size, SegmentKind::Constant);
    EXPECT_FALSE(buf.ok()) << r.offset << "+" << r.size;
    EXPECT_EQ(buf.error(), Error::InvalidArgument);
    EXPECT_TRUE(message_has(std::to_string(r.offset).c_str()))
        << last_error_message();
    EXPECT_TRUE(message_has(std::to_string(data_size).c_str()))
        << last_error_message();
  }
}

// ---------------------------------------------------------------- file

TEST(FileDataLoader, LoadsRangesAligned) {
  const std::vector<uint8_t> bytes = pattern(1000);
  TempFile file(bytes);
  Result<FileDataLoader> loader = FileDataLoader::from(file.path());
  ASSERT_TRUE(loader.ok()) << last_error_message();
  ASSERT_TRUE(loader->size().ok());
  EXPECT_EQ(*loader->size(), 1000u);
  for (auto [offset, size] : {std::pair<size_t, size_t>{0, 1000}, {0, 1}, {1, 17},
                              {3, 500}, {999, 1}, {1000, 0}, {0, 0}, {500, 500}}) {
    expect_range(*loader, bytes, offset, size);
    Result<FreeableBuffer> buf = loader->load(offset, size, SegmentKind::Program);
    ASSERT_TRUE(buf.ok());
    EXPECT_EQ(reinterpret_cast<uintptr_t>(buf->data()) % 16, 0u);
  }
}

TEST(FileDataLoader, LoadsAreCopies) {
  const std::vector<uint8_t> bytes = pattern(64);
  TempFile file(bytes);
  Result<FileDataLoader> loader = FileDataLoader::from(file.path());
  ASSERT_TRUE(loader.ok());
  Result<FreeableBuffer> a = loader->load(8, 16, SegmentKind::Constant);
  Result<FreeableBuffer> b = loader->load(8, 16, SegmentKind::Constant);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->data(), b->data());
  EXPECT_EQ(std::memcmp(a->data(), b->data(), 16), 0);
}

TEST(FileDataLoader, CustomAlignment) {
  const std::vector<uint8_t> bytes = pattern(300);
  TempFile file(bytes);
  Result<FileDataLoader> loader = FileDataLoader::from(file.path(), 256);
  ASSERT_TRUE(loader.ok());
  EXPECT_EQ(loader->alignment(), 256u);
  for (size_t size : {1, 255, 256, 299}) {
    Result<FreeableBuffer> buf = loader->load(1, size, SegmentKind::Backend);
    ASSERT_TRUE(buf.ok());
    EXPECT_EQ(reinterpret_cast<uintptr_t>(buf->data()) % 256, 0u);
    EXPECT_EQ(std::memcmp(buf->data(), bytes.data() + 1, size), 0);
  }
  // Smaller alignments are raised to 16; non powers of two are rejected.
  Result<FileDataLoader> small = FileDataLoader::from(file.path(), 4);
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(small->alignment(), 16u);
  Result<FileDataLoader> bad = FileDataLoader::from(file.path(), 24);
  EXPECT_EQ(bad.error(), Error::InvalidArgument);
  Result<FileDataLoader> zero = FileDataLoader::from(file.path(), 0);
  EXPECT_EQ(zero.error(), Error::InvalidArgument);
}

TEST(FileDataLoader, OutOfRange) {
  const std::vector<uint8_t> bytes = pattern(100);
  TempFile file(bytes);
  Result<FileDataLoader> loader = FileDataLoader::from(file.path());
  ASSERT_TRUE(loader.ok());
  expect_bounds_rejected(*loader, 100);
  EXPECT_TRUE(message_has(file.path())) << last_error_message();
}

TEST(FileDataLoader, MissingFile) {
  const std::string path = "/nonexistent-ember-dir/missing.pte";
  Result<FileDataLoader> loader = FileDataLoader::from(path.c_str());
  ASSERT_FALSE(loader.ok());
  EXPECT_EQ(loader.error(), Error::AccessFailed);
  EXPECT_TRUE(message_has(path.c_str())) << last_error_message();
  EXPECT_TRUE(message_has(strerror(ENOENT))) << last_error_message();
}

TEST(FileDataLoader, DirectoryIsNotAFile) {
  Result<FileDataLoader> loader = FileDataLoader::from("/");
  EXPECT_EQ(loader.error(), Error::AccessFailed);
  EXPECT_TRUE(message_has("not a regular file")) << last_error_message();
}

TEST(FileDataLoader, ZeroSizeFile) {
  TempFile file({});
  Result<FileDataLoader> loader = FileDataLoader::from(file.path());
  ASSERT_TRUE(loader.ok()) << last_error_message();
  EXPECT_EQ(*loader->size(), 0u);
  Result<FreeableBuffer> empty = loader->load(0, 0, SegmentKind::Program);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->size(), 0u);
  expect_bounds_rejected(*loader, 0);
}

TEST(FileDataLoader, TruncatedAfterOpen) {
  const std::vector<uint8_t> bytes = pattern(100);
  TempFile file(bytes);
  Result<FileDataLoader> loader = FileDataLoader::from(file.path());
  ASSERT_TRUE(loader.ok());
  ASSERT_EQ(truncate(file.path(), 10), 0);
  Result<FreeableBuffer> buf = loader->load(0, 100, SegmentKind::Program);
  EXPECT_EQ(buf.error(), Error::AccessFailed);
  EXPECT_TRUE(message_has("truncated")) << last_error_message();
}

TEST(FileDataLoader, BuffersOutliveLoaderAndMoves) {
  const std::vector<uint8_t> bytes = pattern(50);
  TempFile file(bytes);
  FreeableBuffer kept;
  {
    Result<FileDataLoader> loader = FileDataLoader::from(file.path());
    ASSERT_TRUE(loader.ok());
    FileDataLoader moved(std::move(*loader));
    Result<FreeableBuffer> buf = moved.load(10, 20, SegmentKind::Mutable);
    ASSERT_TRUE(buf.ok());
    kept = std::move(*buf);
    // The moved-from loader refuses to load.
    EXPECT_EQ(loader->load(0, 1, SegmentKind::Program).error(),
              Error::InvalidState);
    // Move assignment closes the target's file and takes the source's.
    Result<FileDataLoader> other = FileDataLoader::from(file.path());
    ASSERT_TRUE(other.ok());
    moved = std::move(*other);
    expect_range(moved, bytes, 0, 50);
  }
  ASSERT_EQ(kept.size(), 20u);
  EXPECT_EQ(std::memcmp(kept.data(), bytes.data() + 10, 20), 0);
  kept.free();
  EXPECT_EQ(kept.data(), nullptr);
}

// ---------------------------------------------------------------- mmap

TEST(MmapDataLoader, LoadsRangesInPlace) {
  const std::vector<uint8_t> bytes = pattern(10000);
  TempFile file(bytes);
  Result<MmapDataLoader> loader = MmapDataLoader::from(file.path());
  ASSERT_TRUE(loader.ok()) << last_error_message();
  EXPECT_EQ(*loader->size(), 10000u);
  for (auto [offset, size] : {std::pair<size_t, size_t>{0, 10000}, {1, 17},
                              {4095, 2}, {9999, 1}, {10000, 0}}) {
    expect_range(*loader, bytes, offset, size);
  }
  Result<FreeableBuffer> whole = loader->load(0, 10000, SegmentKind::Program);
  ASSERT_TRUE(whole.ok());
  const long page = sysconf(_SC_PAGESIZE);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(whole->data()) % uintptr_t(page), 0u);
}

TEST(MmapDataLoader, LoadsDoNotCopy) {
  const std::vector<uint8_t> bytes = pattern(4096);
  TempFile file(bytes);
  Result<MmapDataLoader> loader = MmapDataLoader::from(file.path());
  ASSERT_TRUE(loader.ok());
  Result<FreeableBuffer> a = loader->load(128, 64, SegmentKind::Constant);
  Result<FreeableBuffer> b = loader->load(128, 64, SegmentKind::Constant);
  Result<FreeableBuffer> base = loader->load(0, 16, SegmentKind::Program);
  // Mutable segments are returned in place too (the runtime copies them).
  Result<FreeableBuffer> m = loader->load(128, 64, SegmentKind::Mutable);
  ASSERT_TRUE(a.ok() && b.ok() && base.ok() && m.ok());
  EXPECT_EQ(a->data(), b->data());
  EXPECT_EQ(a->data(), m->data());
  EXPECT_EQ(static_cast<const char*>(a->data()),
            static_cast<const char*>(base->data()) + 128);
  a->free();  // a no-op: b still reads the mapping
  EXPECT_EQ(std::memcmp(b->data(), bytes.data() + 128, 64), 0);
}

TEST(MmapDataLoader, OutOfRange) {
  const std::vector<uint8_t> bytes = pattern(100);
  TempFile file(bytes);
  Result<MmapDataLoader> loader = MmapDataLoader::from(file.path());
  ASSERT_TRUE(loader.ok());
  expect_bounds_rejected(*loader, 100);
  EXPECT_TRUE(message_has(file.path())) << last_error_message();
}

TEST(MmapDataLoader, MissingFileAndDirectory) {
  const std::string path = "/nonexistent-ember-dir/missing.pte";
  Result<MmapDataLoader> loader = MmapDataLoader::from(path.c_str());
  EXPECT_EQ(loader.error(), Error::AccessFailed);
  EXPECT_TRUE(message_has(path.c_str())) << last_error_message();
  EXPECT_TRUE(message_has(strerror(ENOENT))) << last_error_message();
  EXPECT_EQ(MmapDataLoader::from("/").error(), Error::AccessFailed);
}

TEST(MmapDataLoader, ZeroSizeFile) {
  TempFile file({});
  Result<MmapDataLoader> loader = MmapDataLoader::from(file.path());
  ASSERT_TRUE(loader.ok()) << last_error_message();
  EXPECT_EQ(*loader->size(), 0u);
  Result<FreeableBuffer> empty = loader->load(0, 0, SegmentKind::Program);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->size(), 0u);
  expect_bounds_rejected(*loader, 0);
}

TEST(MmapDataLoader, Moves) {
  const std::vector<uint8_t> bytes = pattern(300);
  TempFile file(bytes);
  Result<MmapDataLoader> loader = MmapDataLoader::from(file.path());
  ASSERT_TRUE(loader.ok());
  MmapDataLoader moved(std::move(*loader));
  expect_range(moved, bytes, 5, 200);
  EXPECT_EQ(loader->load(0, 1, SegmentKind::Program).error(),
            Error::InvalidArgument);
  Result<MmapDataLoader> other = MmapDataLoader::from(file.path());
  ASSERT_TRUE(other.ok());
  moved = std::move(*other);  // unmaps the old mapping
  expect_range(moved, bytes, 0, 300);
}

// ---------------------------------------------------------------- mlock

using Mlock = MmapDataLoader::MlockConfig;
using testing::locked_kb;
using testing::MemlockRefusedScope;
using testing::mlock_probe;

// Named data (SegmentKind::External) is what a delegate releases once it
// has packed it: freeing it gives back the whole pages inside its range;
// the same bytes load again from the file. Other kinds stay mapped.
TEST(MmapDataLoader, FreeingNamedDataGivesItsPagesBack) {
#if defined(EMBER_UNDER_EMULATION)
  GTEST_SKIP() << "pagemap and madvise belong to the emulator, not this program";
#endif
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  const std::vector<uint8_t> bytes = pattern(page * 40);
  TempFile file(bytes);
  Result<MmapDataLoader> loader = MmapDataLoader::from(file.path());
  ASSERT_TRUE(loader.ok()) << last_error_message();
  const size_t offset = page / 2, size = page * 30;  // 29 whole pages inside
  Result<FreeableBuffer> named = loader->load(offset, size, SegmentKind::External);
  Result<FreeableBuffer> constant = loader->load(offset, size, SegmentKind::Constant);
  ASSERT_TRUE(named.ok() && constant.ok());
  const void* data = named->data();
  EXPECT_EQ(std::memcmp(data, bytes.data() + offset, size), 0);  // touches every page
  ASSERT_EQ(testing::resident_pages(data, size), 29u);
  constant->free();  // in place, nothing given back
  EXPECT_EQ(testing::resident_pages(data, size), 29u);
  named->free();
  EXPECT_EQ(testing::resident_pages(data, size), 0u);
  expect_range(*loader, bytes, offset, size);  // read again from the file
  EXPECT_EQ(testing::resident_pages(data, size), 29u);
}

TEST(MmapDataLoader, NoMlockIsTheDefault) {
  TempFile file(pattern(64));
  Result<MmapDataLoader> loader = MmapDataLoader::from(file.path());
  ASSERT_TRUE(loader.ok());
  EXPECT_EQ(loader->mlock_config(), Mlock::NoMlock);
}

// UseMlock returns the same bytes in place, locks the pages under each
// range (whole pages, from any offset), and unmapping unlocks them.
TEST(MmapDataLoader, UseMlockLocksTheLoadedPages) {
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer replaces mlock() with a no-op that succeeds: nothing
  // is locked, so VmLck cannot show it (CI's ASan step found this).
  GTEST_SKIP() << "mlock is a no-op under AddressSanitizer";
#endif
  const long page = sysconf(_SC_PAGESIZE);
  const std::vector<uint8_t> bytes = pattern(size_t(page) * 3 + 100);
  if (const int err = mlock_probe(bytes.size()); err != 0) {
    GTEST_SKIP() << "this process may not lock " << bytes.size()
                 << " bytes: " << strerror(err);
  }
  TempFile file(bytes);
  const long before = locked_kb();
  {
    Result<MmapDataLoader> loader = MmapDataLoader::from(file.path(), Mlock::UseMlock);
    ASSERT_TRUE(loader.ok()) << last_error_message();
    EXPECT_EQ(loader->mlock_config(), Mlock::UseMlock);
    expect_range(*loader, bytes, size_t(page) - 1, 2);  // two pages
    expect_range(*loader, bytes, 3, 5);
    expect_range(*loader, bytes, bytes.size(), 0);  // nothing to lock
    Result<FreeableBuffer> whole = loader->load(0, bytes.size(), SegmentKind::Constant);
    ASSERT_TRUE(whole.ok()) << last_error_message();
    Result<FreeableBuffer> again = loader->load(0, 8, SegmentKind::Program);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(whole->data(), again->data());  // in place, as without mlock
    if (before >= 0) {
      EXPECT_GE(locked_kb() - before, 4 * page / 1024);  // all four pages
    }
    whole->free();  // the pages stay locked while the loader maps them
    expect_range(*loader, bytes, 10, 10);
    expect_bounds_rejected(*loader, bytes.size());  // checked before locking
  }
  if (before >= 0) {
    EXPECT_EQ(locked_kb(), before);
  }
}

TEST(MmapDataLoader, UseMlockFailureNamesTheFileRangeAndCause) {
  const long page = sysconf(_SC_PAGESIZE);
  const std::vector<uint8_t> bytes = pattern(size_t(page) * 2);
  TempFile file(bytes);
  Result<MmapDataLoader> loader = MmapDataLoader::from(file.path(), Mlock::UseMlock);
  ASSERT_TRUE(loader.ok()) << last_error_message();
  MemlockRefusedScope refused;
  if (!refused.refused()) {
    GTEST_SKIP() << "cannot make mlock() fail here: " << refused.reason();
  }
  Result<FreeableBuffer> buf = loader->load(size_t(page) + 1, 10, SegmentKind::Constant);
  EXPECT_EQ(buf.error(), Error::AccessFailed);
  EXPECT_TRUE(message_has(file.path())) << last_error_message();
  EXPECT_TRUE(message_has("cannot mlock 10 bytes at offset ")) << last_error_message();
  EXPECT_TRUE(message_has(std::to_string(page + 1).c_str())) << last_error_message();
  EXPECT_TRUE(message_has(strerror(refused.probe_errno()))) << last_error_message();
  EXPECT_TRUE(message_has("RLIMIT_MEMLOCK: 0 bytes")) << last_error_message();
  // Nothing to lock, or a range outside the file: as without mlock.
  EXPECT_TRUE(loader->load(5, 0, SegmentKind::Program).ok());
  EXPECT_EQ(loader->load(0, bytes.size() + 1, SegmentKind::Program).error(),
            Error::InvalidArgument);
}

// With RLIMIT_MEMLOCK at 0 (and, where it could be dropped, no
// CAP_IPC_LOCK), UseMlockIgnoreErrors still loads every range; nothing is
// locked when mlock() is refused.
TEST(MmapDataLoader, UseMlockIgnoreErrorsLoadsUnderAZeroMemlockLimit) {
  const long page = sysconf(_SC_PAGESIZE);
  const std::vector<uint8_t> bytes = pattern(size_t(page) * 2 + 7);
  TempFile file(bytes);
  MemlockRefusedScope refused;
  const long before = locked_kb();
  Result<MmapDataLoader> loader =
      MmapDataLoader::from(file.path(), Mlock::UseMlockIgnoreErrors);
  ASSERT_TRUE(loader.ok()) << last_error_message();
  expect_range(*loader, bytes, 0, bytes.size());
  expect_range(*loader, bytes, size_t(page) - 3, 9);
  expect_bounds_rejected(*loader, bytes.size());
  if (refused.refused() && before >= 0) {
    EXPECT_EQ(locked_kb(), before);
  }
}

TEST(MmapDataLoader, MovesKeepTheMlockConfig) {
  const std::vector<uint8_t> bytes = pattern(300);
  TempFile file(bytes);
  Result<MmapDataLoader> loader =
      MmapDataLoader::from(file.path(), Mlock::UseMlockIgnoreErrors);
  ASSERT_TRUE(loader.ok());
  MmapDataLoader moved(std::move(*loader));
  EXPECT_EQ(moved.mlock_config(), Mlock::UseMlockIgnoreErrors);
  Result<MmapDataLoader> other = MmapDataLoader::from(file.path());
  ASSERT_TRUE(other.ok());
  moved = std::move(*other);
  EXPECT_EQ(moved.mlock_config(), Mlock::NoMlock);
  expect_range(moved, bytes, 0, 300);
}

// ---------------------------------------------------------------- buffer

TEST(BufferDataLoader, LoadsInPlace) {
  alignas(16) static uint8_t storage[256];
  const std::vector<uint8_t> bytes = pattern(256);
  std::memcpy(storage, bytes.data(), sizeof(storage));
  BufferDataLoader loader(storage, sizeof(storage));
  EXPECT_EQ(*loader.size(), 256u);
  expect_range(loader, bytes, 0, 256);
  expect_range(loader, bytes, 17, 3);
  expect_range(loader, bytes, 256, 0);
  Result<FreeableBuffer> a = loader.load(32, 16, SegmentKind::Constant);
  Result<FreeableBuffer> b = loader.load(32, 16, SegmentKind::Mutable);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->data(), storage + 32);
  EXPECT_EQ(a->data(), b->data());
  a->free();
  EXPECT_EQ(storage[32], bytes[32]);
}

TEST(BufferDataLoader, OutOfRangeAndEmpty) {
  uint8_t storage[100] = {};
  BufferDataLoader loader(storage, sizeof(storage));
  expect_bounds_rejected(loader, 100);
  BufferDataLoader empty(nullptr, 0);
  Result<FreeableBuffer> e = empty.load(0, 0, SegmentKind::Program);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->size(), 0u);
  expect_bounds_rejected(empty, 0);
}

TEST(BufferDataLoader, Moves) {
  uint8_t storage[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  BufferDataLoader loader(storage, sizeof(storage));
  BufferDataLoader moved(std::move(loader));
  Result<FreeableBuffer> buf = moved.load(4, 4, SegmentKind::Program);
  ASSERT_TRUE(buf.ok());
  EXPECT_EQ(buf->data(), storage + 4);
  EXPECT_EQ(loader.load(0, 1, SegmentKind::Program).error(),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember
