#include "runtime/platform/log.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>

#include "runtime/platform/format.h"

namespace ember {
namespace {

void default_sink(LogLevel level, const char* file, int line,
                  const char* message) {
  const char* tag = level == LogLevel::Error  ? "E"
                    : level == LogLevel::Info ? "I"
                                              : "D";
  fprintf(stderr, "[ember %s %s:%d] %s\n", tag, file, line, message);
}

// Atomic: a thread may change the level or the sink while others log.
std::atomic<LogSink> g_sink{default_sink};
std::atomic<LogLevel> g_level{LogLevel::Info};

}  // namespace

void set_log_sink(LogSink sink) {
  g_sink.store(sink ? sink : default_sink, std::memory_order_release);
}
void set_log_level(LogLevel min_level) { g_level.store(min_level, std::memory_order_relaxed); }
bool log_enabled(LogLevel level) { return level >= g_level.load(std::memory_order_relaxed); }

void log_message(LogLevel level, const char* file, int line, const char* fmt,
                 ...) {
  char buffer[512];
  va_list args;
  va_start(args, fmt);
  vformat_text(buffer, sizeof(buffer), fmt, args);
  va_end(args);
  g_sink.load(std::memory_order_acquire)(level, file, line, buffer);
}

}  // namespace ember
