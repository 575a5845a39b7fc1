// Test helpers for the mlock modes of MmapDataLoader and Module: whether
// this process may lock some bytes, how much it has locked, and a scope in
// which mlock() is refused to the calling thread.
//
// MemlockRefusedScope lowers the soft RLIMIT_MEMLOCK to 0 (the hard limit
// is left alone, so the soft one can be raised back) and, on Linux, drops
// CAP_IPC_LOCK from the calling thread's effective capabilities (it stays
// permitted, so it can be raised back): root keeps that capability and
// may lock past any limit otherwise. The destructor restores both. Where
// either step is not possible, refused() is false and reason() says why;
// tests that need a refusal skip then.
#pragma once

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#ifdef __linux__
#include <linux/capability.h>
#include <sys/syscall.h>
#endif

namespace ember::testing {

// 0 when an anonymous mapping of `bytes` can be mlock()ed here and now,
// else mlock's errno (or mmap's).
inline int mlock_probe(size_t bytes) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return errno;
  const int err = ::mlock(p, bytes) == 0 ? 0 : errno;
  ::munmap(p, bytes);
  return err;
}

// The process's locked memory in kB (VmLck in /proc/self/status), or -1
// where that is not available.
inline long locked_kb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmLck:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  }
  return -1;
}

class MemlockRefusedScope {
 public:
  MemlockRefusedScope() {
    if (::getrlimit(RLIMIT_MEMLOCK, &saved_limit_) != 0) {
      reason_ = std::string("getrlimit(RLIMIT_MEMLOCK): ") + std::strerror(errno);
      return;
    }
    struct rlimit zero = saved_limit_;
    zero.rlim_cur = 0;
    if (::setrlimit(RLIMIT_MEMLOCK, &zero) != 0) {
      reason_ = std::string("cannot lower RLIMIT_MEMLOCK: ") + std::strerror(errno);
      return;
    }
    limit_lowered_ = true;
    drop_ipc_lock();
    probe_errno_ = mlock_probe(size_t(::sysconf(_SC_PAGESIZE)));
    if (probe_errno_ == 0) {
      reason_ = "mlock() still succeeds with RLIMIT_MEMLOCK at 0 (running with "
                "CAP_IPC_LOCK, e.g. as root, that could not be dropped)";
    }
  }
  ~MemlockRefusedScope() {
    restore_ipc_lock();
    if (limit_lowered_) ::setrlimit(RLIMIT_MEMLOCK, &saved_limit_);
  }
  MemlockRefusedScope(const MemlockRefusedScope&) = delete;
  MemlockRefusedScope& operator=(const MemlockRefusedScope&) = delete;

  // Whether mlock() of one page is now refused.
  bool refused() const { return limit_lowered_ && probe_errno_ != 0; }
  // The errno of that refusal (0 when not refused).
  int probe_errno() const { return probe_errno_; }
  // Why mlock() is not refused, for GTEST_SKIP.
  const std::string& reason() const { return reason_; }

 private:
#ifdef __linux__
  // Reads (or, with `set`, writes) the calling thread's capabilities.
  bool capabilities(__user_cap_data_struct* data, bool set) {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    return ::syscall(set ? SYS_capset : SYS_capget, &header, data) == 0;
  }
  void drop_ipc_lock() {
    __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
    if (!capabilities(data, false)) return;
    __u32& effective = data[CAP_TO_INDEX(CAP_IPC_LOCK)].effective;
    if ((effective & CAP_TO_MASK(CAP_IPC_LOCK)) == 0) return;
    effective &= ~CAP_TO_MASK(CAP_IPC_LOCK);
    ipc_lock_dropped_ = capabilities(data, true);
  }
  void restore_ipc_lock() {
    if (!ipc_lock_dropped_) return;
    __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
    if (!capabilities(data, false)) return;
    data[CAP_TO_INDEX(CAP_IPC_LOCK)].effective |= CAP_TO_MASK(CAP_IPC_LOCK);
    capabilities(data, true);
  }
#else
  void drop_ipc_lock() {}
  void restore_ipc_lock() {}
#endif

  struct rlimit saved_limit_ = {};
  bool limit_lowered_ = false;
  bool ipc_lock_dropped_ = false;
  int probe_errno_ = 0;
  std::string reason_;
};

}  // namespace ember::testing
