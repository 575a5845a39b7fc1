// Opening a .bpte (or a plain .pte) and loading test inputs into a method. Output comparison
// lives in verify_outputs.cpp.
#include "bundled_program/bundled_program.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "bundled_program/bundled_program_internal.h"
#include "schema/bundled_program_schema_generated.h"
#include "runtime/platform/format.h"

namespace ember {

namespace fb = ::ember_bundled_fb;

namespace {

uint32_t vector_size(const flatbuffers::Vector<flatbuffers::Offset<fb::Value>>* v) {
  return v == nullptr ? 0 : v->size();
}

// Checks one test value. `where` is "suite 0 ('forward') test case 3 input 1".
Error check_value(const fb::Value* value, const char* where) {
  EMBER_CHECK_OR_RETURN(value != nullptr, Error::InvalidProgram,
                        "bundled program: %s: value is null", where);
  switch (value->val_type()) {
    case fb::ValueUnion::Int:
    case fb::ValueUnion::Bool:
    case fb::ValueUnion::Double:
      EMBER_CHECK_OR_RETURN(value->val() != nullptr, Error::InvalidProgram,
                            "bundled program: %s: scalar value is missing", where);
      return Error::Ok;
    case fb::ValueUnion::Tensor:
      break;
    default:
      set_error_message("bundled program: %s: unknown value type %u", where,
                        unsigned(value->val_type()));
      return Error::InvalidProgram;
  }
  const fb::Tensor* t = value->val_as_Tensor();
  EMBER_CHECK_OR_RETURN(t != nullptr, Error::InvalidProgram,
                        "bundled program: %s: tensor is missing", where);
  const int raw_type = int(t->scalar_type());
  EMBER_CHECK_OR_RETURN(is_valid_scalar_type(raw_type) &&
                            element_size(ScalarType(raw_type)) != 0,
                        Error::InvalidProgram,
                        "bundled program: %s: unknown scalar type %d", where, raw_type);
  const size_t dim = t->sizes() == nullptr ? 0 : t->sizes()->size();
  EMBER_CHECK_OR_RETURN(dim <= kMaxTensorDim, Error::InvalidProgram,
                        "bundled program: %s: %zu dims, at most %zu are supported",
                        where, dim, kMaxTensorDim);
  uint64_t numel = 1;
  for (size_t d = 0; d < dim; ++d) {
    const int32_t s = t->sizes()->Get(flatbuffers::uoffset_t(d));
    EMBER_CHECK_OR_RETURN(s >= 0, Error::InvalidProgram,
                          "bundled program: %s: size %d at dim %zu is negative", where,
                          int(s), d);
    numel *= uint64_t(s);  // <= 2^31 per dim, checked against data below
    EMBER_CHECK_OR_RETURN(numel <= (uint64_t(1) << 40), Error::InvalidProgram,
                          "bundled program: %s: the shape has too many elements", where);
  }
  const uint64_t nbytes = numel * element_size(ScalarType(raw_type));
  const uint64_t have = t->data() == nullptr ? 0 : t->data()->size();
  EMBER_CHECK_OR_RETURN(have >= nbytes, Error::InvalidProgram,
                        "bundled program: %s: %" PRIu64 " data bytes, the %s shape "
                        "needs %" PRIu64,
                        where, have, scalar_type_name(ScalarType(raw_type)), nbytes);
  // A Bool tensor is read as bool by the kernels: only 0 and 1 are values
  // (found by fuzz/bundled_program_fuzzer).
  if (ScalarType(raw_type) == ScalarType::Bool) {
    for (uint64_t k = 0; k < nbytes; ++k) {
      EMBER_CHECK_OR_RETURN(t->data()->Get(flatbuffers::uoffset_t(k)) <= 1,
                            Error::InvalidProgram,
                            "bundled program: %s: Bool byte %" PRIu64 " is %u, not 0 or 1",
                            where, k, unsigned(t->data()->Get(flatbuffers::uoffset_t(k))));
    }
  }
  const size_t order_size = t->dim_order() == nullptr ? 0 : t->dim_order()->size();
  if (order_size != 0) {
    EMBER_CHECK_OR_RETURN(order_size == dim, Error::InvalidProgram,
                          "bundled program: %s: dim_order has %zu entries for %zu dims",
                          where, order_size, dim);
    EMBER_CHECK_OR_RETURN(
        is_valid_dim_order({t->dim_order()->data(), order_size}), Error::InvalidProgram,
        "bundled program: %s: dim_order is not a permutation of the dims", where);
  }
  return Error::Ok;
}

Error check_values(const flatbuffers::Vector<flatbuffers::Offset<fb::Value>>* values,
                   size_t suite, const char* method, size_t test_case,
                   const char* kind) {
  for (uint32_t i = 0; i < vector_size(values); ++i) {
    char where[192];
    format_text(where, sizeof(where), "suite %zu ('%s') test case %zu %s %u", suite,
             PrintableName(method).c_str(), test_case, kind, unsigned(i));
    EMBER_RETURN_IF_ERROR(check_value(values->Get(i), where));
  }
  return Error::Ok;
}

Error check_bundle(const fb::BundledProgram* root) {
  EMBER_CHECK_OR_RETURN(root->program() != nullptr, Error::InvalidProgram,
                        "bundled program: the embedded program is missing");
  const auto* suites = root->method_test_suites();
  const uint32_t num_suites = suites == nullptr ? 0 : suites->size();
  for (uint32_t s = 0; s < num_suites; ++s) {
    const fb::BundledMethodTestSuite* suite = suites->Get(s);
    EMBER_CHECK_OR_RETURN(suite != nullptr, Error::InvalidProgram,
                          "bundled program: test suite %u is null", unsigned(s));
    EMBER_CHECK_OR_RETURN(suite->method_name() != nullptr, Error::InvalidProgram,
                          "bundled program: test suite %u has no method name", unsigned(s));
    const char* method = suite->method_name()->c_str();
    const auto* cases = suite->test_cases();
    const uint32_t num_cases = cases == nullptr ? 0 : cases->size();
    for (uint32_t c = 0; c < num_cases; ++c) {
      const fb::BundledMethodTestCase* test_case = cases->Get(c);
      EMBER_CHECK_OR_RETURN(test_case != nullptr, Error::InvalidProgram,
                            "bundled program: suite %u ('%s') test case %u is null", unsigned(s),
                            PrintableName(method).c_str(), unsigned(c));
      EMBER_RETURN_IF_ERROR(check_values(test_case->inputs(), s, method, c, "input"));
      EMBER_RETURN_IF_ERROR(
          check_values(test_case->expected_outputs(), s, method, c, "expected output"));
    }
  }
  return Error::Ok;
}

}  // namespace

namespace bundled_detail {

Result<const fb::BundledMethodTestCase*> find_test_case(const BundledProgram& bundle,
                                                        const char* method_name,
                                                        size_t testset_index) {
  const auto* suites = bundle.flatbuffer()->method_test_suites();
  const uint32_t num_suites = suites == nullptr ? 0 : suites->size();
  for (uint32_t s = 0; s < num_suites; ++s) {
    const fb::BundledMethodTestSuite* suite = suites->Get(s);
    if (std::strcmp(suite->method_name()->c_str(), method_name) != 0) {
      continue;
    }
    const auto* cases = suite->test_cases();
    const size_t num_cases = cases == nullptr ? 0 : cases->size();
    EMBER_CHECK_OR_RETURN(testset_index < num_cases, Error::InvalidArgument,
                          "bundled program: test case %zu of method '%s' is out of "
                          "range (the suite has %zu test case%s)",
                          testset_index, PrintableName(method_name).c_str(), num_cases,
                          num_cases == 1 ? "" : "s");
    return cases->Get(flatbuffers::uoffset_t(testset_index));
  }
  set_error_message("bundled program: no test suite for method '%s' (%u suite%s:",
                    PrintableName(method_name).c_str(), unsigned(num_suites),
                    num_suites == 1 ? "" : "s");
  for (uint32_t s = 0; s < num_suites; ++s) {
    append_error_message(" '%s'",
                         PrintableName(suites->Get(s)->method_name()->c_str()).c_str());
  }
  append_error_message(")");
  return Error::NotFound;
}

}  // namespace bundled_detail

bool is_bundled_program(const void* data, size_t size) {
  return data != nullptr && size >= 8 && fb::BundledProgramBufferHasIdentifier(data);
}

Result<BundledProgram> BundledProgram::from(const void* data, size_t size) {
  clear_error_message();
  EMBER_CHECK_OR_RETURN(is_bundled_program(data, size), Error::NotSupported,
                        "not a bundled program: the file identifier is not 'BP08' "
                        "(%zu bytes)",
                        size);
  flatbuffers::Verifier::Options options;
  options.max_depth = 64;
  options.max_tables = 100000000;
  options.check_alignment = true;
  flatbuffers::Verifier verifier(static_cast<const uint8_t*>(data), size, options);
  EMBER_CHECK_OR_RETURN(fb::VerifyBundledProgramBuffer(verifier), Error::InvalidProgram,
                        "malformed or truncated bundled program: the flatbuffer "
                        "(%zu bytes) failed structural verification",
                        size);
  const fb::BundledProgram* root = fb::GetBundledProgram(data);
  EMBER_RETURN_IF_ERROR(check_bundle(root));
  return BundledProgram(data, size, root);
}

uint32_t BundledProgram::version() const { return root_->version(); }

const void* BundledProgram::program_data() const { return root_->program()->data(); }

size_t BundledProgram::program_size() const { return root_->program()->size(); }

size_t BundledProgram::num_method_suites() const {
  return root_->method_test_suites() == nullptr ? 0 : root_->method_test_suites()->size();
}

const char* BundledProgram::suite_method_name(size_t index) const {
  return root_->method_test_suites()
      ->Get(flatbuffers::uoffset_t(index))
      ->method_name()
      ->c_str();
}

Result<size_t> BundledProgram::num_test_cases(const char* method_name) const {
  for (size_t s = 0; s < num_method_suites(); ++s) {
    const fb::BundledMethodTestSuite* suite =
        root_->method_test_suites()->Get(flatbuffers::uoffset_t(s));
    if (std::strcmp(suite->method_name()->c_str(), method_name) == 0) {
      return size_t(suite->test_cases() == nullptr ? 0 : suite->test_cases()->size());
    }
  }
  set_error_message("bundled program: no test suite for method '%s'",
                    PrintableName(method_name).c_str());
  return Error::NotFound;
}

Result<ProgramView> ProgramView::open(const void* data, size_t size) {
  clear_error_message();
  EMBER_CHECK_OR_RETURN(data != nullptr || size == 0, Error::InvalidArgument,
                        "ProgramView::open: null data with %zu bytes", size);
  ProgramView view;
  view.program_data_ = data;
  view.program_size_ = size;
  if (!is_bundled_program(data, size)) {
    return view;
  }
  Result<BundledProgram> bundle = BundledProgram::from(data, size);
  if (!bundle.ok()) {
    return bundle.error();
  }
  view.bundled_ = true;
  view.bundle_ = *bundle;
  view.program_data_ = bundle->program_data();
  view.program_size_ = bundle->program_size();
  return view;
}

namespace {

// What MemoryAllocator::allocate(n, 16) may use beyond n.
constexpr size_t kCaseAlignment = 16;

}  // namespace

size_t bundled_case_memory_bytes(const Method& method) {
  const MethodMeta meta = method.method_meta();
  size_t bytes = kCaseAlignment;
  for (size_t i = 0; i < method.inputs_size(); ++i) {
    Result<TensorInfo> info = meta.input_tensor_meta(i);
    if (info.ok()) bytes += info->nbytes() + kCaseAlignment;
  }
  for (size_t i = 0; i < method.outputs_size(); ++i) {
    Result<TensorInfo> info = meta.output_tensor_meta(i);
    if (info.ok() && !info->is_memory_planned()) bytes += info->nbytes() + kCaseAlignment;
  }
  return bytes;
}

Result<BundledTensor> bundled_expected_tensor(const BundledProgram& bundle,
                                              const char* method_name,
                                              size_t testset_index, size_t output_index) {
  Result<const fb::BundledMethodTestCase*> test_case =
      bundled_detail::find_test_case(bundle, method_name, testset_index);
  if (!test_case.ok()) {
    return test_case.error();
  }
  const auto* outputs = (*test_case)->expected_outputs();
  const size_t count = vector_size(outputs);
  EMBER_CHECK_OR_RETURN(output_index < count, Error::InvalidArgument,
                        "bundled program: method '%s' test case %zu has %zu expected "
                        "output%s, no output %zu",
                        PrintableName(method_name).c_str(), testset_index, count,
                        count == 1 ? "" : "s", output_index);
  // Checked by BundledProgram::from(): known dtype, enough data bytes.
  const fb::Tensor* t = outputs->Get(flatbuffers::uoffset_t(output_index))->val_as_Tensor();
  EMBER_CHECK_OR_RETURN(t != nullptr, Error::InvalidArgument,
                        "bundled program: method '%s' test case %zu expected output %zu "
                        "is a scalar",
                        PrintableName(method_name).c_str(), testset_index, output_index);
  BundledTensor view;
  view.dtype = ScalarType(t->scalar_type());
  view.dim = t->sizes() == nullptr ? 0 : t->sizes()->size();
  view.sizes = t->sizes() == nullptr ? nullptr : t->sizes()->data();
  // from() bounded the element count and checked the data holds it.
  uint64_t numel = 1;
  for (size_t d = 0; d < view.dim; ++d) numel *= uint64_t(view.sizes[d]);
  view.nbytes = size_t(numel * element_size(view.dtype));
  view.data = t->data() == nullptr ? nullptr : t->data()->data();
  return view;
}

namespace {

// Sets input `index` from a bundled tensor. Sizes, dim order and strides
// live on the stack: set_input copies the shape into the method's own
// tensor and either copies the data or keeps only the data pointer.
Error set_tensor_input(Method& method, const fb::Tensor* t, size_t index,
                       MemoryAllocator* allocator) {
  const ScalarType type = ScalarType(t->scalar_type());
  const size_t dim = t->sizes() == nullptr ? 0 : t->sizes()->size();
  SizesType sizes[kMaxTensorDim];
  DimOrderType dim_order[kMaxTensorDim];
  StridesType strides[kMaxTensorDim];
  const bool has_order = t->dim_order() != nullptr && t->dim_order()->size() != 0;
  for (size_t d = 0; d < dim; ++d) {
    sizes[d] = t->sizes()->Get(flatbuffers::uoffset_t(d));
    dim_order[d] = has_order ? t->dim_order()->Get(flatbuffers::uoffset_t(d))
                             : DimOrderType(d);
  }
  TensorImpl impl(type, dim, sizes, nullptr, dim_order, strides);
  const void* bytes = t->data() == nullptr ? nullptr : t->data()->data();
  void* data = const_cast<void*>(bytes);
  if (allocator != nullptr && impl.nbytes() != 0) {
    data = allocator->allocate(impl.nbytes(), 16);
    EMBER_CHECK_OR_RETURN(data != nullptr, Error::MemoryAllocationFailed,
                          "input %zu: the allocator cannot hold its %zu bytes", index,
                          impl.nbytes());
    std::memcpy(data, bytes, impl.nbytes());
  } else if (impl.nbytes() != 0) {
    EMBER_CHECK_OR_RETURN(
        reinterpret_cast<uintptr_t>(data) % impl.element_size() == 0,
        Error::InvalidArgument,
        "input %zu: the bundled data is not aligned for %s; pass an allocator or "
        "align the bundle to %zu bytes",
        index, scalar_type_name(type), kBundledProgramAlignment);
  }
  impl.set_data(data);
  return method.set_input(EValue(Tensor(&impl)), index);
}

// Gives each output the program leaves to the application, and that has
// no memory yet, a buffer from `allocator`.
Error give_outputs_memory(Method& method, MemoryAllocator* allocator) {
  const MethodMeta meta = method.method_meta();
  for (size_t i = 0; i < method.outputs_size(); ++i) {
    const EValue& out = method.get_output(i);
    if (!out.is_tensor() || out.to_tensor().const_data_ptr() != nullptr) continue;
    Result<TensorInfo> info = meta.output_tensor_meta(i);
    if (!info.ok()) return info.error();
    if (info->is_memory_planned() || info->nbytes() == 0) continue;
    void* buffer = allocator->allocate(info->nbytes(), 16);
    EMBER_CHECK_OR_RETURN(buffer != nullptr, Error::MemoryAllocationFailed,
                          "output %zu: the allocator cannot hold its %zu bytes", i,
                          info->nbytes());
    EMBER_RETURN_IF_ERROR(method.set_output_data_ptr(buffer, info->nbytes(), i));
  }
  return Error::Ok;
}

Error set_one_input(Method& method, const fb::Value* value, size_t index,
                    MemoryAllocator* allocator) {
  switch (value->val_type()) {
    case fb::ValueUnion::Tensor:
      return set_tensor_input(method, value->val_as_Tensor(), index, allocator);
    case fb::ValueUnion::Int:
      return method.set_input(EValue(int64_t(value->val_as_Int()->int_val())), index);
    case fb::ValueUnion::Bool:
      return method.set_input(EValue(bool(value->val_as_Bool()->bool_val())), index);
    case fb::ValueUnion::Double:
      return method.set_input(EValue(double(value->val_as_Double()->double_val())),
                              index);
    default:
      // Rejected by BundledProgram::from().
      set_error_message("input %zu: unknown value type", index);
      return Error::InvalidProgram;
  }
}

}  // namespace

Error load_bundled_input(Method& method, const BundledProgram& bundle,
                         size_t testset_index, MemoryAllocator* allocator) {
  clear_error_message();
  const char* name = method.name();
  const PrintableName shown(name);  // read from the file
  Result<const fb::BundledMethodTestCase*> test_case =
      bundled_detail::find_test_case(bundle, name, testset_index);
  if (!test_case.ok()) {
    return test_case.error();
  }
  const auto* inputs = (*test_case)->inputs();
  const size_t count = vector_size(inputs);
  EMBER_CHECK_OR_RETURN(count == method.inputs_size(), Error::InvalidArgument,
                        "bundled program: method '%s' test case %zu has %zu input%s, "
                        "the method takes %zu",
                        shown.c_str(), testset_index, count, count == 1 ? "" : "s",
                        method.inputs_size());
  for (size_t i = 0; i < count; ++i) {
    const Error err =
        set_one_input(method, inputs->Get(flatbuffers::uoffset_t(i)), i, allocator);
    if (err != Error::Ok) {
      prefix_error_message(error_name(err),
                           "bundled program: method '%s' test case %zu input %zu",
                           shown.c_str(),
                           testset_index, i);
      return err;
    }
  }
  if (allocator != nullptr) {
    const Error err = give_outputs_memory(method, allocator);
    if (err != Error::Ok) {
      prefix_error_message(error_name(err), "bundled program: method '%s' test case %zu",
                           shown.c_str(), testset_index);
      return err;
    }
  }
  // Runs traced from now on say which test case's inputs they ran on.
  if (method.event_tracer() != nullptr) {
    method.event_tracer()->set_bundled_input_index(int32_t(testset_index));
  }
  return Error::Ok;
}

Error load_bundled_input(Method& method, const void* bundle_data, size_t bundle_size,
                         size_t testset_index, MemoryAllocator* allocator) {
  Result<BundledProgram> bundle = BundledProgram::from(bundle_data, bundle_size);
  if (!bundle.ok()) {
    return bundle.error();
  }
  return load_bundled_input(method, *bundle, testset_index, allocator);
}

}  // namespace ember
