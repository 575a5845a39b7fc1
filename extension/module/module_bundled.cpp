// Module and bundled programs (.bpte): opening the bundle's bytes when one
// is loaded (ProgramView::open), setting a test case's inputs into memory
// the Module owns, and comparing the outputs, all through the
// bundled_program library.
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
  Result<ProgramView> view = ProgramView::open(data, *size);
  if (!view.ok()) return view.error();
  EMBER_CHECK_OR_RETURN(view->is_bundled(), Error::InvalidProgram,
                        "the bundled program's identifier changed while it was read");
  bundle_ = std::make_unique<BundledProgram>(*view->bundle());
  // The embedded program's segment offsets are relative to its own bytes.
  loader_ = std::make_unique<BufferDataLoader>(view->program_data(), view->program_size());
  return Error::Ok;
}

Result<const BundledProgram*> Module::require_bundle(const char* what) const {
  EMBER_CHECK_OR_RETURN(bundle_ != nullptr, Error::InvalidState,
                        "%s: the module was not loaded from a bundled program (.bpte)", what);
  return bundle_.get();
}

Error Module::load_bundled_input(const std::string& method_name, size_t testset_index) {
  Result<const BundledProgram*> bundle = require_bundle("load_bundled_input");
  if (!bundle.ok()) return bundle.error();
  Result<LoadedMethod*> found = loaded_method(method_name);
  if (!found.ok()) return found.error();
  LoadedMethod& loaded = **found;
  Method& method = *loaded.method;
  if (loaded.bundle_input_allocator == nullptr) {
    loaded.bundle_input_pool.resize(bundled_case_memory_bytes(method));
    loaded.bundle_input_allocator = std::make_unique<MemoryAllocator>(
        loaded.bundle_input_pool.data(), loaded.bundle_input_pool.size());
  }
  // Every input is replaced by the test case's: the pool starts over.
  loaded.bundle_input_allocator->reset();
  for (TensorPtr& held : loaded.held_inputs) held.reset();
  return ember::load_bundled_input(method, **bundle, testset_index,
                                   loaded.bundle_input_allocator.get());
}

Result<VerifyReport> Module::verify_outputs(const std::string& method_name,
                                            size_t testset_index, double rtol, double atol) {
  Result<const BundledProgram*> bundle = require_bundle("verify_outputs");
  if (!bundle.ok()) return bundle.error();
  Result<LoadedMethod*> found = loaded_method(method_name);
  if (!found.ok()) return found.error();
  Method& method = *(*found)->method;
  // Find the test case first: verify_method_outputs' NotFound then means
  // an output outside tolerance, not a missing suite.
  Result<size_t> cases = (*bundle)->num_test_cases(method_name.c_str());
  if (!cases.ok()) return cases.error();
  EMBER_CHECK_OR_RETURN(testset_index < *cases, Error::InvalidArgument,
                        "bundled program: test case %zu of method '%s' is out of range (the "
                        "suite has %zu test case%s)",
                        testset_index, PrintableName(method_name.c_str()).c_str(), *cases,
                        *cases == 1 ? "" : "s");
  VerifyReport report;
  report.method_name = method_name;
  report.testset_index = testset_index;
  report.outputs.resize(method.outputs_size());
  const Error err = verify_method_outputs(method, **bundle, testset_index, rtol, atol,
                                          report.outputs.data(), report.outputs.size());
  // NotFound after the test case was found: an output failed.
  if (err != Error::Ok && err != Error::NotFound) return err;
  report.passed = err == Error::Ok;
  if (!report.passed) report.message = last_error_message();
  return report;
}

Result<VerifyReport> Module::verify(size_t testset_index, double rtol, double atol,
                                    const std::string& method_name) {
  EMBER_RETURN_IF_ERROR(load_bundled_input(method_name, testset_index));
  Result<LoadedMethod*> found = loaded_method(method_name);
  if (!found.ok()) return found.error();
  EMBER_RETURN_IF_ERROR((*found)->method->execute());
  return verify_outputs(method_name, testset_index, rtol, atol);
}

}  // namespace ember
