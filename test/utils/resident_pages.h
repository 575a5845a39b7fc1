// How many pages wholly inside [data, data + size) this process has mapped
// in, which is what its RSS counts: /proc/self/pagemap's "present" bit
// (bit 63). mincore() would answer another question (whether a file's page
// is in the page cache, where it stays after leaving the process).
// SIZE_MAX when pagemap cannot be read. Linux only; for tests.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>

namespace ember::testing {

inline size_t resident_pages(const void* data, size_t size) {
  const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + page - 1) / page * page;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + size) / page * page;
  if (end <= begin) return 0;
  const int fd = open("/proc/self/pagemap", O_RDONLY);
  if (fd < 0) return SIZE_MAX;
  size_t n = 0;
  for (uintptr_t p = begin; p < end; p += page) {
    uint64_t entry = 0;
    if (pread(fd, &entry, sizeof(entry), off_t(p / page * sizeof(entry))) != sizeof(entry)) {
      close(fd);
      return SIZE_MAX;
    }
    n += (entry >> 63) & 1;
  }
  close(fd);
  return n;
}

}  // namespace ember::testing
