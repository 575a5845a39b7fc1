#include "extension/llm/runner/image_stb.h"

#include <climits>
#include <cstdlib>

namespace ember::llm {
namespace {
// Set when one of stb's allocations failed: the decoder's only other
// signal is its reason text, which nothing should branch on.
thread_local bool stb_allocation_failed = false;
void* stb_allocate(size_t size) {
  void* p = std::malloc(size);
  if (p == nullptr && size != 0) stb_allocation_failed = true;
  return p;
}
void* stb_reallocate(void* old, size_t size) {
  void* p = std::realloc(old, size);
  if (p == nullptr && size != 0) stb_allocation_failed = true;
  return p;
}
}  // namespace
}  // namespace ember::llm

// STB_IMAGE_STATIC gives every stb function internal linkage, so an
// application that links this library and has its own stb_image sees no
// duplicate symbols.
#define STBI_MALLOC(size) ::ember::llm::stb_allocate(size)
#define STBI_REALLOC(p, size) ::ember::llm::stb_reallocate(p, size)
#define STBI_FREE(p) std::free(p)
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#include <stb/stb_image.h>

namespace ember::llm {
namespace {

// stb keeps its last reason in a thread-local variable of this translation
// unit; it is cleared before each call so that a reason is never a stale
// one (some of stb's failures set none).
void start_call() {
  stbi__g_failure_reason = nullptr;
  stb_allocation_failed = false;
}

void fail(StbFailure* failure) {
  const char* reason = stbi_failure_reason();
  failure->reason = reason != nullptr ? reason : "no reason given";
  failure->out_of_memory = stb_allocation_failed;
}

}  // namespace

bool stb_image_size(Span<const uint8_t> bytes, int* width, int* height, StbFailure* failure) {
  if (bytes.size() > size_t(INT_MAX)) {
    failure->reason = "over 2 GiB";
    return false;
  }
  start_call();
  int channels = 0;
  if (stbi_info_from_memory(bytes.data(), int(bytes.size()), width, height, &channels)) {
    return true;
  }
  fail(failure);
  return false;
}

uint8_t* stb_image_rgb(Span<const uint8_t> bytes, int* width, int* height,
                       StbFailure* failure) {
  if (bytes.size() > size_t(INT_MAX)) {
    failure->reason = "over 2 GiB";
    return nullptr;
  }
  start_call();
  int channels = 0;
  uint8_t* pixels =
      stbi_load_from_memory(bytes.data(), int(bytes.size()), width, height, &channels, 3);
  if (pixels == nullptr) fail(failure);
  return pixels;
}

void stb_image_release(uint8_t* pixels) { stbi_image_free(pixels); }

}  // namespace ember::llm
