// Programs and methods for Python: loading (file, bytes, .bpte), execute,
// and bundled verification.
#include <cstdlib>
#include <cstring>

#include "extension/data_loader/buffer_data_loader.h"
#include "python/src/py_ember.h"
#include "runtime/core/error_message.h"

namespace ember_py {

using ember::Error;

std::shared_mutex g_pool_lock;

void throw_error(const std::string& what, Error error) {
  const char* message = ember::last_error_message();
  std::string text = what + ": " + ember::error_name(error);
  if (message[0] != '\0') text += std::string(": ") + message;
  throw EmberException(error, text);
}

namespace {

// A name read from a file, escaped for a message.
std::string shown(const std::string& name) {
  return ember::PrintableName(name.c_str()).c_str();
}

// Alignment of owned program bytes: enough for every segment the loader
// hands out, and for the program embedded in a .bpte.
constexpr size_t kBytesAlignment = 64;

}  // namespace

void PyProgram::take_bytes(const void* data, size_t size) {
  const size_t rounded = (size + kBytesAlignment - 1) / kBytesAlignment * kBytesAlignment;
  void* copy = std::aligned_alloc(kBytesAlignment, rounded == 0 ? kBytesAlignment : rounded);
  if (copy == nullptr) throw std::bad_alloc();
  if (size != 0) std::memcpy(copy, data, size);
  bytes_.data = {static_cast<uint8_t*>(copy), std::free};
  bytes_.size = size;
}

void PyProgram::load_module(std::unique_ptr<ember::DataLoader> loader,
                            const std::vector<std::string>& data_files,
                            ember::Program::Verification verification,
                            const std::string& what) {
  ember::clear_error_message();
  ember::Result<std::unique_ptr<ember::Module>> module =
      ember::Module::load(std::move(loader), data_files, ember::Module::LoadMode::Mmap,
                          verification);
  if (!module.ok()) throw_error("loading " + what, module.error());
  module_ = std::move(*module);
}

std::shared_ptr<PyProgram> PyProgram::from_bytes(py::bytes bytes,
                                                 const std::vector<std::string>& data_files,
                                                 ember::Program::Verification verification) {
  std::shared_ptr<PyProgram> p(new PyProgram());
  const std::string_view view = bytes;
  p->take_bytes(view.data(), view.size());
  py::gil_scoped_release nogil;
  // Module opens a .pte or a .bpte alike, in place in the owned bytes.
  p->load_module(std::make_unique<ember::BufferDataLoader>(p->bytes_.data.get(), p->bytes_.size),
                 data_files, verification, "the program");
  return p;
}

std::shared_ptr<PyProgram> PyProgram::from_file(const std::string& path,
                                                const std::vector<std::string>& data_files,
                                                ember::Program::Verification verification) {
  // Memory-mapped once; a .bpte's embedded program is loaded in place.
  std::shared_ptr<PyProgram> p(new PyProgram());
  py::gil_scoped_release nogil;
  ember::clear_error_message();
  ember::Result<std::unique_ptr<ember::Module>> module =
      ember::Module::load(path, data_files, ember::Module::LoadMode::Mmap, verification);
  if (!module.ok()) throw_error("loading '" + path + "'", module.error());
  p->module_ = std::move(*module);
  return p;
}

std::string PyProgram::get_method_name(size_t index) const {
  ember::Result<const char*> name = module_->program().get_method_name(index);
  if (!name.ok()) throw py::index_error("method index " + std::to_string(index) + " out of range");
  return *name;
}

ember::MethodMeta PyProgram::method_meta(const std::string& name) const {
  ember::clear_error_message();
  ember::Result<ember::MethodMeta> meta = module_->program().method_meta(name.c_str());
  if (!meta.ok()) throw_error("method '" + shown(name) + "'", meta.error());
  return *meta;
}

std::shared_ptr<PyMethod> PyProgram::load_method(const std::string& name) {
  py::gil_scoped_release nogil;
  std::lock_guard<std::mutex> lock(load_mutex_);
  for (const auto& entry : methods_) {
    if (entry.first == name) return entry.second;
  }
  ember::clear_error_message();
  ember::Result<ember::Method*> method = module_->method(name);
  if (!method.ok()) throw_error("loading method '" + shown(name) + "'", method.error());
  auto loaded = std::make_shared<PyMethod>(shared_from_this(), *method);
  methods_.emplace_back(name, loaded);
  return loaded;
}

const ember::BundledProgram& PyProgram::bundle() const {
  if (module_->bundle() == nullptr) {
    throw EmberException(Error::InvalidState,
                         "the program is not a bundled program (.bpte): it has no test cases");
  }
  return *module_->bundle();
}

std::vector<std::string> PyProgram::bundled_method_names() const {
  std::vector<std::string> names;
  for (size_t i = 0; i < bundle().num_method_suites(); ++i) {
    names.emplace_back(bundle().suite_method_name(i));
  }
  return names;
}

size_t PyProgram::num_test_cases(const std::string& method_name) const {
  ember::clear_error_message();
  ember::Result<size_t> n = bundle().num_test_cases(method_name.c_str());
  if (!n.ok()) throw_error("test cases of method '" + shown(method_name) + "'", n.error());
  return *n;
}

// ---- PyMethod ----

py::list PyMethod::outputs_locked() const {
  py::list out;
  for (size_t i = 0; i < method_->outputs_size(); ++i) out.append(to_python(method_->get_output(i)));
  return out;
}

py::list PyMethod::execute(py::sequence inputs) {
  const ember::MethodMeta meta = method_->method_meta();
  const size_t count = py::len(inputs);
  if (count != method_->inputs_size()) {
    throw py::value_error("method '" + shown(name()) + "' takes " +
                          std::to_string(method_->inputs_size()) + " inputs, got " +
                          std::to_string(count));
  }
  InputTensors tensors;
  std::vector<ember::EValue> values;
  values.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    ember::Result<ember::Tag> tag = meta.input_tag(i);
    if (!tag.ok()) throw_error("method '" + shown(name()) + "' input " + std::to_string(i), tag.error());
    ember::Result<ember::TensorInfo> info = *tag == ember::Tag::Tensor
                                                ? meta.input_tensor_meta(i)
                                                : ember::Result<ember::TensorInfo>(Error::NotFound);
    values.push_back(tensors.convert(inputs[i], i, *tag, info.ok() ? &*info : nullptr));
  }
  py::list out;
  {
    py::gil_scoped_release nogil;
    std::shared_lock<std::shared_mutex> pool(g_pool_lock);
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = 0; i < count; ++i) {
      check(method_->set_input(values[i], i), "setting input " + std::to_string(i));
    }
    check(method_->execute(), "executing method '" + shown(name()) + "'");
    py::gil_scoped_acquire gil;
    out = outputs_locked();
  }
  return out;
}

void PyMethod::set_bundled_input_locked(size_t testset_index) {
  (void)program_->bundle();  // InvalidState for a plain program
  ember::clear_error_message();
  check(program_->module().load_bundled_input(name(), testset_index),
        "loading test case " + std::to_string(testset_index) + " of method '" + shown(name()) +
            "'");
}

std::string PyMethod::run_bundled_case_locked(size_t testset_index) {
  set_bundled_input_locked(testset_index);
  const std::string what =
      "method '" + shown(name()) + "' test case " + std::to_string(testset_index);
  check(method_->execute(), "executing " + what);
  return what;
}

void PyMethod::load_bundled_input(size_t testset_index) {
  py::gil_scoped_release nogil;
  std::lock_guard<std::mutex> lock(mutex_);
  set_bundled_input_locked(testset_index);
}

py::list PyMethod::bundled_inputs(size_t testset_index) {
  py::gil_scoped_release nogil;
  std::lock_guard<std::mutex> lock(mutex_);
  set_bundled_input_locked(testset_index);
  py::gil_scoped_acquire gil;
  py::list out;
  for (size_t i = 0; i < method_->inputs_size(); ++i) out.append(to_python(method_->get_input(i)));
  return out;
}

namespace {

py::dict report_dict(const ember::OutputReport& r) {
  py::dict d;
  d["index"] = r.output_index;
  d["passed"] = r.passed;
  d["mismatch"] = ember::output_mismatch_name(r.mismatch);
  d["is_tensor"] = r.is_tensor;
  d["expected_dtype"] = ember::scalar_type_name(r.expected_dtype);
  d["actual_dtype"] = ember::scalar_type_name(r.actual_dtype);
  d["expected_rank"] = r.expected_rank;
  d["actual_rank"] = r.actual_rank;
  d["numel"] = r.numel;
  d["num_outside_tolerance"] = r.num_outside_tolerance;
  d["max_abs_error"] = r.max_abs_error;
  d["max_rel_error"] = r.max_rel_error;
  d["mean_abs_error"] = r.mean_abs_error;
  d["sqnr_db"] = r.sqnr_db;
  d["worst_index"] = r.worst_index;
  d["worst_expected"] = r.worst_expected;
  d["worst_actual"] = r.worst_actual;
  return d;
}

}  // namespace

py::dict PyMethod::verify(size_t testset_index, double rtol, double atol) {
  py::dict report;
  py::gil_scoped_release nogil;
  std::shared_lock<std::shared_mutex> pool(g_pool_lock);
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string what = run_bundled_case_locked(testset_index);
  ember::clear_error_message();
  ember::Result<ember::VerifyReport> verified =
      program_->module().verify_outputs(name(), testset_index, rtol, atol);
  // Outputs outside tolerance are a report; an Error is a failure to
  // compare at all.
  if (!verified.ok()) throw_error("verifying " + what, verified.error());
  py::gil_scoped_acquire gil;
  report["method"] = name();
  report["testset_index"] = testset_index;
  report["passed"] = verified->passed;
  report["rtol"] = rtol;
  report["atol"] = atol;
  report["message"] = verified->message;
  py::list outputs;
  for (const ember::OutputReport& r : verified->outputs) outputs.append(report_dict(r));
  report["outputs"] = outputs;
  return report;
}

py::list PyMethod::run_and_verify(size_t testset_index, double rtol, double atol) {
  py::list out;
  py::gil_scoped_release nogil;
  std::shared_lock<std::shared_mutex> pool(g_pool_lock);
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string what = run_bundled_case_locked(testset_index);
  {
    py::gil_scoped_acquire gil;
    out = outputs_locked();
  }
  ember::clear_error_message();
  ember::Result<ember::VerifyReport> verified =
      program_->module().verify_outputs(name(), testset_index, rtol, atol);
  if (!verified.ok()) throw_error("verifying " + what, verified.error());
  // Upstream raises when an output is outside tolerance (its code:
  // NotFound); the message names the output.
  if (!verified->passed) {
    throw EmberException(Error::NotFound, "verifying " + what + ": " +
                                              ember::error_name(Error::NotFound) + ": " +
                                              verified->message);
  }
  return out;
}

}  // namespace ember_py
