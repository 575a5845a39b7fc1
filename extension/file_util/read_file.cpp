#include "extension/file_util/read_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "runtime/core/error_message.h"

namespace ember {

Result<std::vector<uint8_t>> read_file(const std::string& path) {
  struct stat st;
  EMBER_CHECK_OR_RETURN(stat(path.c_str(), &st) == 0, Error::AccessFailed,
                        "cannot open '%s': %s", path.c_str(), strerror(errno));
  EMBER_CHECK_OR_RETURN(S_ISREG(st.st_mode), Error::AccessFailed,
                        "cannot read '%s': not a regular file", path.c_str());
  FILE* f = fopen(path.c_str(), "rb");
  EMBER_CHECK_OR_RETURN(f != nullptr, Error::AccessFailed, "cannot open '%s': %s",
                        path.c_str(), strerror(errno));
  std::vector<uint8_t> bytes;
  uint8_t chunk[1 << 16];
  size_t got = 0;
  while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
    bytes.insert(bytes.end(), chunk, chunk + got);
  }
  const bool failed = ferror(f) != 0;
  fclose(f);
  EMBER_CHECK_OR_RETURN(!failed, Error::AccessFailed, "error reading '%s'", path.c_str());
  return bytes;
}

}  // namespace ember
