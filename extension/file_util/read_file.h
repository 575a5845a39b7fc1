// Reads a whole file into memory, for tools and extensions (not the core).
// Errors are values, never exceptions: AccessFailed with the path and the
// reason for a missing file, a directory or a read error.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/result.h"

namespace ember {

Result<std::vector<uint8_t>> read_file(const std::string& path);

}  // namespace ember
