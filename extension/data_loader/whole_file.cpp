#include "extension/data_loader/whole_file.h"

#include "extension/data_loader/file_data_loader.h"
#include "extension/data_loader/mmap_data_loader.h"

namespace ember {

namespace {

Result<std::unique_ptr<DataLoader>> open_loader(const std::string& path, const std::string& kind,
                                                size_t alignment) {
  if (kind == "mmap") {
    Result<MmapDataLoader> loader = MmapDataLoader::from(path.c_str());
    if (!loader.ok()) return loader.error();
    return std::unique_ptr<DataLoader>(new MmapDataLoader(std::move(*loader)));
  }
  Result<FileDataLoader> loader = FileDataLoader::from(path.c_str(), alignment);
  if (!loader.ok()) return loader.error();
  return std::unique_ptr<DataLoader>(new FileDataLoader(std::move(*loader)));
}

}  // namespace

Result<WholeFile> load_whole_file(const std::string& path, const std::string& kind,
                                  size_t alignment) {
  WholeFile file;
  Result<std::unique_ptr<DataLoader>> loader = open_loader(path, kind, alignment);
  if (!loader.ok()) return loader.error();
  file.loader = std::move(*loader);
  Result<size_t> size = file.loader->size();
  if (!size.ok()) return size.error();
  Result<FreeableBuffer> bytes = file.loader->load(0, *size, SegmentKind::Program);
  if (!bytes.ok()) return bytes.error();
  file.bytes = std::move(*bytes);
  return file;
}

}  // namespace ember
