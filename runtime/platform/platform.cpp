#include "runtime/platform/platform.h"

#include <cstdlib>

namespace ember {
namespace {

void default_abort(const char* reason) {
  EMBER_LOG(Error, "abort: %s", reason != nullptr ? reason : "");
  std::abort();
}

AbortHandler g_abort = default_abort;

}  // namespace

void set_abort_handler(AbortHandler handler) { g_abort = handler != nullptr ? handler : default_abort; }

void platform_abort(const char* reason) {
  g_abort(reason);
  // A handler that returns breaks its contract; stop anyway.
  std::abort();
}

}  // namespace ember
