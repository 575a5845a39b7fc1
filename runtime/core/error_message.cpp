#include "runtime/core/error_message.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace ember {
namespace {
thread_local char g_message[kMaxErrorMessage];

void format_at(size_t start, const char* fmt, va_list args) {
  if (start >= kMaxErrorMessage - 1) {
    return;
  }
  vsnprintf(g_message + start, kMaxErrorMessage - start, fmt, args);
}
}  // namespace

void set_error_message(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  format_at(0, fmt, args);
  va_end(args);
}

void append_error_message(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  format_at(strnlen(g_message, kMaxErrorMessage), fmt, args);
  va_end(args);
}

void clear_error_message() { g_message[0] = '\0'; }

void printable_identifier(const void* bytes, char out[17]) {
  const unsigned char* id = static_cast<const unsigned char*>(bytes);
  size_t n = 0;
  for (size_t i = 0; i < 4; ++i) {
    if (id[i] >= 0x20 && id[i] < 0x7f && id[i] != '\\') {
      out[n++] = char(id[i]);
    } else {
      n += size_t(snprintf(out + n, 5, "\\x%02x", id[i]));
    }
  }
  out[n] = '\0';
}

const char* last_error_message() { return g_message; }

}  // namespace ember
