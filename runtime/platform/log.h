// Logging through a replaceable sink. The default sink writes one line to
// stderr; an embedded application installs its own (UART, logcat, ...).
// Debug messages are dropped unless enabled with set_log_level().
#pragma once

#include "runtime/platform/compiler.h"  // EMBER_PRINTF_LIKE

namespace ember {

enum class LogLevel { Debug = 0, Info = 1, Error = 2 };

using LogSink = void (*)(LogLevel level, const char* file, int line,
                         const char* message);

// Installs `sink` (null restores the default). Both setters may be called
// from any thread at any time; a message being written while the sink
// changes goes to the old or the new one. The sink itself is called from
// every thread that logs (method loads and executions on several threads,
// at once): it must be safe to call concurrently, and keep working after
// it is replaced if another thread may still be inside it.
void set_log_sink(LogSink sink);
void set_log_level(LogLevel min_level);
bool log_enabled(LogLevel level);

void log_message(LogLevel level, const char* file, int line, const char* fmt,
                 ...) EMBER_PRINTF_LIKE(4, 5);

}  // namespace ember

#define EMBER_LOG(level, ...)                                          \
  do {                                                                 \
    if (::ember::log_enabled(::ember::LogLevel::level)) {              \
      ::ember::log_message(::ember::LogLevel::level, __FILE__, __LINE__, \
                           __VA_ARGS__);                               \
    }                                                                  \
  } while (0)
