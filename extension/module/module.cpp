// Module: loading (program, bundle, external data) and per-method memory.
// Inputs, execute and outputs are in module_io.cpp; verify() and the
// bundle's bytes in module_bundled.cpp.
#include "extension/module/module.h"

#include <cstdlib>
#include <cstring>

#include "bundled_program/bundled_program.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "extension/data_loader/file_data_loader.h"
#include "extension/data_loader/mmap_data_loader.h"
#include "extension/file_util/read_file.h"
#include "extension/module/module_internal.h"
#include "runtime/core/error_message.h"
#include "runtime/executor/flat_tensor_data_map.h"

namespace ember {

namespace {

// Owns a file's bytes for the Buffer mode.
class OwningBufferLoader final : public DataLoader {
 public:
  explicit OwningBufferLoader(std::vector<uint8_t> bytes)
      : bytes_(std::move(bytes)), inner_(bytes_.data(), bytes_.size()) {}
  Result<FreeableBuffer> load(size_t offset, size_t size, SegmentKind kind) override {
    return inner_.load(offset, size, kind);
  }
  Result<size_t> size() const override { return inner_.size(); }

 private:
  std::vector<uint8_t> bytes_;
  BufferDataLoader inner_;
};

constexpr size_t kTempPoolSize = size_t(16) << 20;
// Writes one zero per 4 KiB of a zeroed (calloc'd) block: the kernel maps
// each page now instead of at the first execution that touches it.
void prefault(uint8_t* p, size_t bytes) {
  constexpr size_t kPage = 4096;
  for (size_t i = 0; i < bytes; i += kPage) {
    static_cast<volatile uint8_t*>(p)[i] = 0;
  }
}

// A planned buffer larger than this is refused rather than attempted: the
// size comes from the file.
constexpr uint64_t kMaxPlannedBufferBytes = uint64_t(16) << 30;

// Gives every output the program leaves to the application (exported
// with MemoryPlanningPass(alloc_graph_output=False)) a zeroed buffer of
// its upper-bound size, as upstream's tools do; inputs need none, since
// set_input binds the caller's data. The application may still point an
// output at its own buffer with Method::set_output_data_ptr.
// Gives the method the memory its prepared operands need (64-byte
// aligned) and lets it write them.
Error prepare_operands(Method& method, CBuffer* memory) {
  const size_t bytes = method.prepared_operands_bytes();
  if (bytes == 0) return Error::Ok;
  const size_t rounded = (bytes + 63) / 64 * 64;
  memory->reset(static_cast<uint8_t*>(std::aligned_alloc(64, rounded)));
  EMBER_CHECK_OR_RETURN(*memory != nullptr, Error::MemoryAllocationFailed,
                        "cannot allocate %zu bytes for prepared operands", rounded);
  return method.prepare_operands(Span<uint8_t>(memory->get(), rounded));
}

Error give_outputs_memory(Method& method, std::vector<CBuffer>* buffers) {
  const MethodMeta meta = method.method_meta();
  for (size_t i = 0; i < method.outputs_size(); ++i) {
    Result<Tag> tag = meta.output_tag(i);
    if (!tag.ok()) return tag.error();
    if (*tag != Tag::Tensor) continue;
    Result<TensorInfo> info = meta.output_tensor_meta(i);
    if (!info.ok()) return info.error();
    if (info->is_memory_planned()) continue;
    EMBER_CHECK_OR_RETURN(uint64_t(info->nbytes()) <= kMaxPlannedBufferBytes,
                          Error::MemoryAllocationFailed,
                          "output %zu wants %zu bytes, more than Module's limit of %llu", i,
                          info->nbytes(),
                          static_cast<unsigned long long>(kMaxPlannedBufferBytes));
    CBuffer buffer(static_cast<uint8_t*>(std::calloc(info->nbytes() + 1, 1)));
    EMBER_CHECK_OR_RETURN(buffer != nullptr, Error::MemoryAllocationFailed,
                          "cannot allocate output %zu of %zu bytes", i, info->nbytes());
    EMBER_RETURN_IF_ERROR(method.set_output_data_ptr(buffer.get(), info->nbytes(), i));
    buffers->push_back(std::move(buffer));
  }
  return Error::Ok;
}

}  // namespace

Module::~Module() {
  methods_.clear();  // methods before the program they came from
  program_.reset();
}

namespace {

// The loader names tools take on their command lines.
struct LoadModeName {
  Module::LoadMode mode;
  const char* name;
};
constexpr LoadModeName kLoadModeNames[] = {
    {Module::LoadMode::File, "file"},
    {Module::LoadMode::Mmap, "mmap"},
    {Module::LoadMode::MmapUseMlock, "mmap_mlock"},
    {Module::LoadMode::MmapUseMlockIgnoreErrors, "mmap_mlock_ignore_errors"},
    {Module::LoadMode::Buffer, "buffer"},
};

}  // namespace

bool Module::parse_load_mode(const std::string& name, LoadMode* mode) {
  for (const LoadModeName& entry : kLoadModeNames) {
    if (name == entry.name) {
      *mode = entry.mode;
      return true;
    }
  }
  return false;
}

const char* Module::load_mode_name(LoadMode mode) {
  for (const LoadModeName& entry : kLoadModeNames) {
    if (entry.mode == mode) return entry.name;
  }
  return "?";
}

const char* Module::load_mode_names() {
  static const std::string names = [] {
    std::string text;
    const size_t n = sizeof(kLoadModeNames) / sizeof(kLoadModeNames[0]);
    for (size_t i = 0; i < n; ++i) {
      if (i != 0) text += i + 1 == n ? " or " : ", ";
      text += kLoadModeNames[i].name;
    }
    return text;
  }();
  return names.c_str();
}

namespace {

// A FileDataLoader whose reads are aligned for the program embedded in a
// .bpte, so that it is loaded in place.
Result<std::unique_ptr<DataLoader>> open_file_loader(const std::string& path) {
  Result<FileDataLoader> file = FileDataLoader::from(path.c_str(), kBundledProgramAlignment);
  if (!file.ok()) return file.error();
  return std::unique_ptr<DataLoader>(std::make_unique<FileDataLoader>(std::move(*file)));
}

Result<std::unique_ptr<DataLoader>> open_mmap_loader(const std::string& path,
                                                     MmapDataLoader::MlockConfig mlock) {
  Result<MmapDataLoader> map = MmapDataLoader::from(path.c_str(), mlock);
  if (!map.ok()) return map.error();
  return std::unique_ptr<DataLoader>(std::make_unique<MmapDataLoader>(std::move(*map)));
}

Result<std::unique_ptr<DataLoader>> open_buffer_loader(const std::string& path) {
  Result<std::vector<uint8_t>> bytes = read_file(path);
  if (!bytes.ok()) return bytes.error();
  return std::unique_ptr<DataLoader>(std::make_unique<OwningBufferLoader>(std::move(*bytes)));
}

// A loader over `path` of the kind `mode` names.
Result<std::unique_ptr<DataLoader>> open_loader(const std::string& path, Module::LoadMode mode) {
  using Mlock = MmapDataLoader::MlockConfig;
  switch (mode) {
    case Module::LoadMode::File:
      return open_file_loader(path);
    case Module::LoadMode::Mmap:
      return open_mmap_loader(path, Mlock::NoMlock);
    case Module::LoadMode::MmapUseMlock:
      return open_mmap_loader(path, Mlock::UseMlock);
    case Module::LoadMode::MmapUseMlockIgnoreErrors:
      return open_mmap_loader(path, Mlock::UseMlockIgnoreErrors);
    case Module::LoadMode::Buffer:
      return open_buffer_loader(path);
  }
  set_error_message("Module: unknown load mode %d (the modes are %s)", static_cast<int>(mode),
                    Module::load_mode_names());
  return Error::InvalidArgument;
}

// True when the loader's bytes carry the bundled program identifier.
Result<bool> is_bundled(DataLoader& loader) {
  Result<size_t> size = loader.size();
  if (!size.ok()) return size.error();
  constexpr size_t kHead = 8;
  if (*size < kHead) return false;  // Program::load says what is wrong
  Result<FreeableBuffer> head = loader.load(0, kHead, SegmentKind::Program);
  if (!head.ok()) return head.error();
  return is_bundled_program(head->data(), head->size());
}

}  // namespace

Result<std::unique_ptr<Module>> Module::load(const std::string& path, LoadMode mode,
                                             Program::Verification verification) {
  Result<std::unique_ptr<DataLoader>> loader = open_loader(path, mode);
  if (!loader.ok()) return loader.error();
  return load(std::move(*loader), verification);
}

Result<std::unique_ptr<Module>> Module::load(const std::string& path,
                                             const std::vector<std::string>& data_paths,
                                             LoadMode mode,
                                             Program::Verification verification) {
  Result<std::unique_ptr<DataLoader>> loader = open_loader(path, mode);
  if (!loader.ok()) return loader.error();
  return load(std::move(*loader), data_paths, mode, verification);
}

Result<std::unique_ptr<Module>> Module::load(std::unique_ptr<DataLoader> loader,
                                             const std::vector<std::string>& data_paths,
                                             LoadMode mode,
                                             Program::Verification verification) {
  std::unique_ptr<Module> module(new Module());
  Result<bool> bundled = is_bundled(*loader);
  if (!bundled.ok()) return bundled.error();
  if (*bundled) {
    EMBER_RETURN_IF_ERROR(module->adopt_bundle(std::move(loader)));
  } else {
    module->loader_ = std::move(loader);
  }
  std::vector<const NamedDataMap*> maps;
  for (const std::string& path : data_paths) {
    Result<std::unique_ptr<DataLoader>> data_loader = open_loader(path, mode);
    if (!data_loader.ok()) return data_loader.error();
    module->data_loaders_.push_back(std::move(*data_loader));
    Result<FlatTensorDataMap> map = FlatTensorDataMap::load(module->data_loaders_.back().get());
    if (!map.ok()) {
      prefix_error_message(error_name(map.error()), "data file '%s'", path.c_str());
      return map.error();
    }
    module->data_maps_.push_back(std::make_unique<FlatTensorDataMap>(std::move(*map)));
    maps.push_back(module->data_maps_.back().get());
  }
  Result<Program> program =
      Program::load(module->loader_.get(), verification, {maps.data(), maps.size()});
  if (!program.ok()) return program.error();
  module->program_ = std::make_unique<Program>(std::move(*program));
  return module;
}

Result<std::unique_ptr<Module>> Module::load(std::unique_ptr<DataLoader> loader,
                                             Program::Verification verification) {
  return load(std::move(loader), {}, LoadMode::Mmap, verification);
}

std::vector<std::string> Module::method_names() const {
  std::vector<std::string> names;
  for (size_t i = 0; i < program_->num_methods(); ++i) {
    Result<const char*> name = program_->get_method_name(i);
    if (name.ok()) names.emplace_back(*name);
  }
  return names;
}

Result<MethodMeta> Module::method_meta(const std::string& name) const {
  return program_->method_meta(name.c_str());
}

Result<Method*> Module::method(const std::string& name, EventTracer* event_tracer) {
  Result<LoadedMethod*> loaded = loaded_method(name, event_tracer);
  if (!loaded.ok()) return loaded.error();
  return (*loaded)->method.get();
}

Error Module::load_method(const std::string& name, EventTracer* event_tracer) {
  Result<LoadedMethod*> loaded = loaded_method(name, event_tracer);
  return loaded.ok() ? Error::Ok : loaded.error();
}

bool Module::is_method_loaded(const std::string& name) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return methods_.count(name) != 0;
}

bool Module::unload_method(const std::string& name) {
  const std::lock_guard<std::mutex> lock(mutex_);
  return methods_.erase(name) != 0;
}

Result<Module::LoadedMethod*> Module::loaded_method(const std::string& name,
                                                    EventTracer* event_tracer) {
  const std::lock_guard<std::mutex> lock(mutex_);
  auto found = methods_.find(name);
  if (found != methods_.end()) {
    return found->second.get();
  }
  Result<MethodMeta> meta = program_->method_meta(name.c_str());
  if (!meta.ok()) return meta.error();

  const PrintableName shown(name.c_str());  // may come from a file
  auto loaded = std::make_unique<LoadedMethod>();
  loaded->name = name;
  for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
    Result<int64_t> size = meta->memory_planned_buffer_size(i);
    if (!size.ok()) return size.error();
    const size_t bytes = size_t(*size);
    EMBER_CHECK_OR_RETURN(uint64_t(*size) <= kMaxPlannedBufferBytes,
                          Error::MemoryAllocationFailed,
                          "method '%s': planned buffer %zu wants %lld bytes, more than "
                          "Module's limit of %llu",
                          shown.c_str(), i, static_cast<long long>(*size),
                          static_cast<unsigned long long>(kMaxPlannedBufferBytes));
    CBuffer buffer(static_cast<uint8_t*>(std::calloc(bytes == 0 ? 1 : bytes, 1)));
    EMBER_CHECK_OR_RETURN(buffer != nullptr, Error::MemoryAllocationFailed,
                          "method '%s': cannot allocate planned buffer %zu of %zu bytes",
                          shown.c_str(), i, bytes);
    if (prefault_planned_) prefault(buffer.get(), bytes);
    loaded->planned_spans.emplace_back(buffer.get(), bytes);
    loaded->planned.push_back(std::move(buffer));
  }
  loaded->planned_memory = std::make_unique<HierarchicalAllocator>(
      Span<Span<uint8_t>>(loaded->planned_spans.data(), loaded->planned_spans.size()));
  // calloc maps large zeroed blocks lazily: untouched temp space costs nothing.
  loaded->temp_pool.reset(static_cast<uint8_t*>(std::calloc(kTempPoolSize, 1)));
  EMBER_CHECK_OR_RETURN(loaded->temp_pool != nullptr, Error::MemoryAllocationFailed,
                        "cannot allocate the temp pool");
  loaded->temp_allocator =
      std::make_unique<MemoryAllocator>(loaded->temp_pool.get(), kTempPoolSize);

  // Exactly what the method needs (MethodMeta::method_allocator_bytes()),
  // allocated once. calloc's blocks are aligned to max_align_t, the base
  // alignment that figure assumes.
  const size_t pool_size = meta->method_allocator_bytes();
  loaded->method_pool.reset(static_cast<uint8_t*>(std::calloc(pool_size, 1)));
  EMBER_CHECK_OR_RETURN(loaded->method_pool != nullptr, Error::MemoryAllocationFailed,
                        "method '%s': cannot allocate a method pool of %zu bytes",
                        shown.c_str(), pool_size);
  loaded->method_allocator =
      std::make_unique<MemoryAllocator>(loaded->method_pool.get(), pool_size);
  loaded->memory_manager = std::make_unique<MemoryManager>(
      loaded->method_allocator.get(), loaded->planned_memory.get(),
      loaded->temp_allocator.get());
  Result<Method> method =
      program_->load_method(name.c_str(), loaded->memory_manager.get(), event_tracer);
  if (!method.ok()) return method.error();
  loaded->method = std::make_unique<Method>(std::move(*method));
  EMBER_RETURN_IF_ERROR(give_outputs_memory(*loaded->method, &loaded->outputs));
  if (prepare_operands_) {
    EMBER_RETURN_IF_ERROR(prepare_operands(*loaded->method, &loaded->prepared_operands));
  }
  loaded->held_inputs.resize(loaded->method->inputs_size());
  LoadedMethod* raw = loaded.get();
  methods_[name] = std::move(loaded);
  return raw;
}

size_t Module::method_allocator_used(const std::string& name) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  auto found = methods_.find(name);
  return found == methods_.end() ? 0 : found->second->method_allocator->used();
}

}  // namespace ember
