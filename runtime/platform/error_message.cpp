#include "runtime/platform/error_message.h"

#include <cstdarg>
#include <cstring>

#include "runtime/platform/format.h"

namespace ember {
namespace {
// One message per thread where the platform has threads (and TLS); a
// single buffer on bare metal (EMBER_ERROR_MESSAGE_TLS off), where
// thread_local would need the C library's TLS support (__aeabi_read_tp).
#if EMBER_ERROR_MESSAGE_TLS
thread_local char g_message[kMaxErrorMessage];
#else
char g_message[kMaxErrorMessage];
#endif

// strnlen is POSIX, not C++17: newlib hides it under -std=c++17.
size_t bounded_length(const char* s, size_t max) {
  size_t n = 0;
  while (n < max && s[n] != '\0') ++n;
  return n;
}

void format_at(size_t start, const char* fmt, va_list args) {
  if (start >= kMaxErrorMessage - 1) {
    return;
  }
  vformat_text(g_message + start, kMaxErrorMessage - start, fmt, args);
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
  format_at(bounded_length(g_message, kMaxErrorMessage), fmt, args);
  va_end(args);
}

void clear_error_message() { g_message[0] = '\0'; }

void prefix_error_message(const char* fallback, const char* fmt, ...) {
  char context[kMaxErrorMessage];
  va_list args;
  va_start(args, fmt);
  vformat_text(context, sizeof(context), fmt, args);
  va_end(args);
  if (g_message[0] == '\0') {
    format_text(g_message, kMaxErrorMessage, "%s: %s", context,
             fallback != nullptr ? fallback : "");
    return;
  }
  // Move the previous message right, in place, to make room for
  // "<context>: "; what no longer fits falls off its end.
  const size_t context_size = bounded_length(context, sizeof(context));
  const size_t shift = context_size + 2;
  if (shift >= kMaxErrorMessage - 1) {
    format_text(g_message, kMaxErrorMessage, "%s: ", context);
    return;
  }
  size_t kept = bounded_length(g_message, kMaxErrorMessage);
  if (kept > kMaxErrorMessage - 1 - shift) {
    kept = kMaxErrorMessage - 1 - shift;
  }
  memmove(g_message + shift, g_message, kept);
  g_message[shift + kept] = '\0';
  memcpy(g_message, context, context_size);
  g_message[context_size] = ':';
  g_message[context_size + 1] = ' ';
}

void printable_bytes(const void* bytes, size_t n, char* out, size_t out_size) {
  if (out_size == 0) return;
  const unsigned char* b = static_cast<const unsigned char*>(bytes);
  size_t used = 0;
  for (size_t i = 0; i < n; ++i) {
    const bool plain = b[i] >= 0x20 && b[i] < 0x7f && b[i] != '\\';
    const size_t need = plain ? 1 : 4;
    if (used + need >= out_size) break;
    if (plain) {
      out[used++] = char(b[i]);
    } else {
      used += size_t(format_text(out + used, 5, "\\x%02x", b[i]));
    }
  }
  out[used] = '\0';
}

void printable_identifier(const void* bytes, char out[17]) { printable_bytes(bytes, 4, out, 17); }

void printable_name(const char* name, char* out, size_t out_size) {
  printable_bytes(name, name != nullptr ? bounded_length(name, out_size) : 0, out, out_size);
}

const char* last_error_message() { return g_message; }

}  // namespace ember
