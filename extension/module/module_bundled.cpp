// Module and bundled programs (.bpte): keeping the bundle's bytes when one
// is loaded, and verify(), which runs a test case through the
// bundled_program library (the same calls executor_runner makes).
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "bundled_program/bundled_program.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "extension/module/module.h"
#include "extension/module/module_internal.h"
#include "runtime/core/error_message.h"

namespace ember {

Error Module::adopt_bundle(std::unique_ptr<DataLoader> file_loader) {
  Result<size_t> size = file_loader->size();
  if (!size.ok()) return size.error();
  Result<FreeableBuffer> bytes = file_loader->load(0, *size, SegmentKind::Program);
  if (!bytes.ok()) return bytes.error();
  bundle_loader_ = std::move(file_loader);
  bundle_bytes_ = std::move(*bytes);
  const void* data = bundle_bytes_.data();
  // The embedded program is aligned inside the bundle; keep it aligned in
  // memory too (a file loader's buffer may be aligned less).
  if (reinterpret_cast<uintptr_t>(data) % kBundledProgramAlignment != 0) {
    const size_t rounded = (*size + kBundledProgramAlignment - 1) / kBundledProgramAlignment *
                           kBundledProgramAlignment;
    void* copy = std::aligned_alloc(kBundledProgramAlignment, rounded);
    EMBER_CHECK_OR_RETURN(copy != nullptr, Error::MemoryAllocationFailed,
                          "cannot allocate %zu bytes for the bundled program", *size);
    std::memcpy(copy, data, *size);
    bundle_copy_ = std::unique_ptr<uint8_t, void (*)(void*)>(static_cast<uint8_t*>(copy),
                                                             std::free);
    bundle_bytes_.free();
    data = copy;
  }
  Result<BundledProgram> bundle = BundledProgram::from(data, *size);
  if (!bundle.ok()) return bundle.error();
  bundle_ = std::make_unique<BundledProgram>(*bundle);
  // The embedded program's segment offsets are relative to its own bytes.
  loader_ = std::make_unique<BufferDataLoader>(bundle_->program_data(), bundle_->program_size());
  return Error::Ok;
}

namespace {

// Bytes for every tensor input of `method` at its upper bound, with room
// to align each (what load_bundled_input copies the test case into).
size_t bundle_input_bytes(const Method& method) {
  const MethodMeta meta = method.method_meta();
  size_t bytes = 16;
  for (size_t i = 0; i < method.inputs_size(); ++i) {
    Result<TensorInfo> info = meta.input_tensor_meta(i);
    if (info.ok()) bytes += info->nbytes() + 16;
  }
  return bytes;
}

}  // namespace

Result<VerifyReport> Module::verify(size_t testset_index, double rtol, double atol,
                                    const std::string& method_name) {
  EMBER_CHECK_OR_RETURN(bundle_ != nullptr, Error::InvalidState,
                        "verify: the module was not loaded from a bundled program (.bpte)");
  Result<LoadedMethod*> found = loaded_method(method_name);
  if (!found.ok()) return found.error();
  LoadedMethod& loaded = **found;
  Method& method = *loaded.method;

  if (loaded.bundle_input_allocator == nullptr) {
    loaded.bundle_input_pool.resize(bundle_input_bytes(method));
    loaded.bundle_input_allocator = std::make_unique<MemoryAllocator>(
        loaded.bundle_input_pool.data(), loaded.bundle_input_pool.size());
  }
  // Every input is replaced by the test case's: the pool starts over.
  loaded.bundle_input_allocator->reset();
  for (TensorPtr& held : loaded.held_inputs) held.reset();
  EMBER_RETURN_IF_ERROR(load_bundled_input(method, *bundle_, testset_index,
                                           loaded.bundle_input_allocator.get()));
  EMBER_RETURN_IF_ERROR(method.execute());

  VerifyReport report;
  report.method_name = method_name;
  report.testset_index = testset_index;
  report.outputs.resize(method.outputs_size());
  const Error err = verify_method_outputs(method, *bundle_, testset_index, rtol, atol,
                                          report.outputs.data(), report.outputs.size());
  // NotFound after the test case was found and loaded: an output failed.
  if (err != Error::Ok && err != Error::NotFound) return err;
  report.passed = err == Error::Ok;
  if (!report.passed) report.message = last_error_message();
  return report;
}

}  // namespace ember
