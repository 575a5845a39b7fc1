// The cause of the most recent failure, as text, without heap.
//
// Code that returns an Error for untrusted input first records why with
// set_error_message() (usually through EMBER_CHECK_OR_RETURN). The text
// lives in a fixed per-thread buffer of kMaxErrorMessage bytes (longer
// messages are truncated) and stays valid until the next message on the
// same thread. append_error_message() adds to it, for errors that list
// several causes (every missing operator of a method, say);
// prefix_error_message() puts context in front of it, for a caller that
// re-reports a failure a callee recorded.
#pragma once

#include <cstddef>

#include "runtime/platform/compiler.h"

namespace ember {

constexpr size_t kMaxErrorMessage = 1024;

void set_error_message(const char* fmt, ...) EMBER_PRINTF_LIKE(1, 2);
void append_error_message(const char* fmt, ...) EMBER_PRINTF_LIKE(1, 2);
void clear_error_message();

// Re-reports the failure recorded so far with context in front: the message
// becomes "<context>: <previous message>", where <context> is `fmt`
// formatted. When nothing was recorded since the last clear_error_message(),
// `fallback` stands in for the previous message (callers pass
// error_name(err), so the result always says what failed; null counts as
// ""). A result longer than kMaxErrorMessage - 1 bytes is cut at its end,
// so the context survives. The arguments may point into last_error_message():
// they are formatted before it changes. For a caller that got an Error from
// a call that recorded its own detail:
//
//   const Error err = resize_tensor(t, sizes);
//   if (err != Error::Ok) {
//     prefix_error_message(error_name(err), "input %zu: shape not accepted", i);
//     return err;
//   }
//
// gives "input 0: shape not accepted: <what resize_tensor recorded>".
void prefix_error_message(const char* fallback, const char* fmt, ...)
    EMBER_PRINTF_LIKE(2, 3);

// Never null; empty when nothing was recorded since the last clear.
const char* last_error_message();

// Untrusted bytes for a message or a log line: `n` bytes with every byte
// outside printable ASCII (and the backslash) written as \xNN, cut to fit
// `out_size` including the NUL (never a partial escape).
void printable_bytes(const void* bytes, size_t n, char* out, size_t out_size);

// The 4 bytes of a file or blob identifier (at most 16 characters and a NUL).
void printable_identifier(const void* bytes, char out[17]);

// A NUL-terminated name read from a file (a method name), cut to fit.
void printable_name(const char* name, char* out, size_t out_size);

// printable_name() into its own buffer, for a message argument; it lives
// until the end of the full expression that made it:
//   set_error_message("method '%s' ...", PrintableName(name).c_str());
class PrintableName final {
 public:
  explicit PrintableName(const char* name) { printable_name(name, text_, sizeof(text_)); }
  const char* c_str() const { return text_; }

 private:
  char text_[128];
};

}  // namespace ember
