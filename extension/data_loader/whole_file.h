// Whole-file loads through a chosen data loader, for tools that hand a
// file's bytes to BundledProgram (which needs the whole file in memory)
// and then run the program from the same bytes.
//
// The returned WholeFile owns the loader and the buffer: the bytes stay
// valid as long as it lives. Errors come from the loader (AccessFailed
// naming the path, MemoryAllocationFailed, ...).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "runtime/core/data_loader.h"
#include "runtime/core/freeable_buffer.h"
#include "runtime/core/result.h"

namespace ember {

struct WholeFile {
  std::unique_ptr<DataLoader> loader;
  FreeableBuffer bytes;
};

// `kind` "mmap" maps the file read-only; any other kind ("file",
// "buffer") reads it into memory aligned to `alignment` bytes.
Result<WholeFile> load_whole_file(const std::string& path, const std::string& kind,
                                  size_t alignment);

}  // namespace ember
