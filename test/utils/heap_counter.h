// Heap counting for tests that prove a path allocates nothing: replaces
// malloc, calloc, realloc, aligned_alloc, posix_memalign and operator new
// for the whole process and counts calls (from any thread) while
// g_counting is set. Include it in exactly one source file of a test
// binary of its own, never with sanitizers (which replace malloc
// themselves).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

extern "C" void* __libc_malloc(size_t);
extern "C" void* __libc_calloc(size_t, size_t);
extern "C" void* __libc_realloc(void*, size_t);
extern "C" void* __libc_memalign(size_t, size_t);
extern "C" void __libc_free(void*);

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
void note() {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
}
}  // namespace

extern "C" void* malloc(size_t n) { note(); return __libc_malloc(n); }
extern "C" void* calloc(size_t a, size_t b) { note(); return __libc_calloc(a, b); }
extern "C" void* realloc(void* p, size_t n) { note(); return __libc_realloc(p, n); }
extern "C" void* aligned_alloc(size_t a, size_t n) { note(); return __libc_memalign(a, n); }
extern "C" int posix_memalign(void** out, size_t a, size_t n) {
  note();
  *out = __libc_memalign(a, n);
  return *out ? 0 : 12;
}
extern "C" void free(void* p) { __libc_free(p); }
void* operator new(size_t n) {
  note();
  void* p = __libc_malloc(n ? n : 1);
  if (!p) std::abort();
  return p;
}
void* operator new[](size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { __libc_free(p); }
void operator delete[](void* p) noexcept { __libc_free(p); }
void operator delete(void* p, size_t) noexcept { __libc_free(p); }
void operator delete[](void* p, size_t) noexcept { __libc_free(p); }
