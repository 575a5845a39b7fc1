// One case under one configuration (see case_runner.h).
#include "conformance/case_runner.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bundled_program/bundled_program.h"
#include "conformance/program_facts.h"
#include "extension/file_util/read_file.h"
#include "extension/module/module.h"
#include "extension/runner_util/inputs.h"
#include "runtime/backend/backend.h"
#include "runtime/core/error_message.h"
#include "runtime/platform/threadpool.h"

namespace ember::conformance {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// A file named in a message: its name, not where the tree lives.
std::string file_name(const std::string& path) { return fs::path(path).filename().string(); }

std::string error_text(const std::string& what, Error error) {
  const char* message = last_error_message();
  return printable(what + ": " + error_name(error) + (message[0] ? std::string(": ") + message : ""));
}

// A program chosen to run, loaded (Module opens a .bpte or a .pte alike).
struct Loaded {
  std::string path;
  std::unique_ptr<Module> module;
  const BundledProgram* bundle = nullptr;  // the module's; null for a golden .pte
};

Result<Loaded> load_program(const std::string& path, CaseKind kind, const CaseConfig& config,
                            std::string* error) {
  Loaded l;
  l.path = path;
  const Program::Verification verification = config.verification == "internal"
                                                 ? Program::Verification::InternalConsistency
                                                 : Program::Verification::Minimal;
  Module::LoadMode mode = Module::LoadMode::Mmap;
  if (!Module::parse_load_mode(config.loader, &mode)) {
    *error = printable("unknown loader '" + config.loader + "'");
    return Error::InvalidArgument;
  }
  Result<std::unique_ptr<Module>> m = Module::load(path, mode, verification);
  if (!m.ok()) {
    *error = error_text("loading " + file_name(path), m.error());
    return m.error();
  }
  l.module = std::move(*m);
  l.bundle = l.module->bundle();
  if (kind == CaseKind::Bundled && l.bundle == nullptr) {
    *error = printable(file_name(path) + " is not a bundled program (identifier 'BP08')");
    return Error::InvalidProgram;
  }
  return l;
}

// Delegate ids the program's methods call, and whether each one is
// registered and available here.
struct DelegateUse {
  std::vector<std::string> ids;
  std::vector<std::string> missing;
};

DelegateUse delegates_of(Program& program) {
  DelegateUse use;
  for (size_t m = 0; m < program.num_methods(); ++m) {
    Result<const char*> name = program.get_method_name(m);
    if (!name.ok()) continue;
    Result<MethodMeta> meta = program.method_meta(*name);
    if (!meta.ok()) continue;
    for (size_t b = 0; b < meta->num_backends(); ++b) {
      Result<const char*> id = meta->get_backend_name(b);
      if (!id.ok()) continue;
      const std::string s = *id;
      if (std::find(use.ids.begin(), use.ids.end(), s) != use.ids.end()) continue;
      use.ids.push_back(s);
      const BackendInterface* backend = find_backend(*id);
      if (backend == nullptr || !backend->is_available()) use.missing.push_back(s);
    }
  }
  return use;
}

// "XnnpackBackend" -> "xnnpack"; no delegate -> "portable".
std::string inferred_flow(const DelegateUse& use) {
  if (use.ids.empty()) return "portable";
  std::string id = use.ids.front();
  const std::string suffix = "Backend";
  if (id.size() > suffix.size() && id.compare(id.size() - suffix.size(), suffix.size(), suffix) == 0) {
    id.resize(id.size() - suffix.size());
  }
  std::transform(id.begin(), id.end(), id.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return printable(id);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Golden inputs read from the .bin files, as tensors shaped by MethodMeta.
class GoldenInputs {
 public:
  // Reads NAME_input[_i].bin for every tensor input; false with *error.
  bool read(const Method& m, const std::string& stem, std::string* error) {
    const MethodMeta meta = m.method_meta();
    const size_t n = meta.num_inputs();
    for (size_t i = 0; i < n; ++i) {
      Result<Tag> tag = meta.input_tag(i);
      if (!tag.ok() || *tag != Tag::Tensor) continue;
      Result<TensorInfo> info = meta.input_tensor_meta(i);
      if (!info.ok()) {
        *error = error_text("input " + std::to_string(i), info.error());
        return false;
      }
      const std::string path =
          stem + "_input" + (n == 1 ? std::string() : "_" + std::to_string(i)) + ".bin";
      Result<std::vector<uint8_t>> bytes = read_file(path);
      if (!bytes.ok()) {
        *error = error_text("reading golden input " + file_name(path), bytes.error());
        return false;
      }
      if (bytes->size() != info->nbytes()) {
        *error = printable("golden input " + file_name(path) + " has " + std::to_string(bytes->size()) +
                         " bytes; input " + std::to_string(i) + " takes " +
                         std::to_string(info->nbytes()));
        return false;
      }
      Result<Tensor> t = buffers_.make_filled(*info, 0.0);
      if (!t.ok()) {
        *error = error_text("input " + std::to_string(i), t.error());
        return false;
      }
      data_.push_back(std::move(*bytes));
      tensors_.emplace_back(i, *t);
    }
    return true;
  }
  // Copies the bytes into the tensors and sets them (again before every
  // execution: an output may share an input's planned memory).
  Error set(Method& m) {
    for (size_t j = 0; j < tensors_.size(); ++j) {
      const Tensor& t = tensors_[j].second;
      if (!data_[j].empty()) std::memcpy(t.mutable_data_ptr(), data_[j].data(), data_[j].size());
      EMBER_RETURN_IF_ERROR(m.set_input(EValue(t), tensors_[j].first));
    }
    return Error::Ok;
  }

 private:
  InputBuffers buffers_;
  std::vector<std::vector<uint8_t>> data_;
  std::vector<std::pair<size_t, Tensor>> tensors_;
};

// Statistics of one output against its expected bytes (g second: the
// tolerance and the relative error are relative to the expected value).
Tolerance tolerance_for(const CaseSpec& spec, ScalarType dtype) {
  Tolerance t = default_tolerance(spec.kind, dtype);
  if (spec.rtol >= 0) t.rtol = spec.rtol;
  if (spec.atol >= 0) t.atol = spec.atol;
  return t;
}

std::string outside_message(size_t j, const OutputStats& s, const Tolerance& t) {
  char text[160];
  snprintf(text, sizeof(text), "output %zu outside tolerance (max abs error %.6g, rtol %g, atol %g)",
           j, s.max_abs, t.rtol, t.atol);
  return text;
}

OutputStats compare_output(const Tensor& out, const void* expected, double rtol, double atol) {
  OutputReport r;
  compare_tensor_data(out.scalar_type(), out.const_data_ptr(), expected, out.numel(), rtol, atol,
                      &r);
  OutputStats s;
  s.max_abs = r.max_abs_error;
  s.max_rel = r.max_rel_error;
  s.mae = r.mean_abs_error;
  s.sqnr_db = r.sqnr_db;
  s.ok = r.passed;
  return s;
}

// The planted mismatch: the first element of output 0 changed.
void plant_mismatch(const Method& m) {
  if (m.outputs_size() == 0 || !m.get_output(0).is_tensor()) return;
  const Tensor t = m.get_output(0).to_tensor();
  if (t.numel() == 0 || t.mutable_data_ptr() == nullptr) return;
  if (t.scalar_type() == ScalarType::Float) {
    t.mutable_data_ptr<float>()[0] += 1.0f;
  } else {
    static_cast<uint8_t*>(t.mutable_data_ptr())[0] ^= 0x5a;
  }
}

void plant_before_execute(Plant plant) {
  if (plant == Plant::Crash) {
    std::signal(SIGSEGV, SIG_DFL);
    std::raise(SIGSEGV);
  }
  if (plant == Plant::Hang) {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

// One subtest: where its inputs and expected outputs are.
struct Subtest {
  std::string method;
  size_t index = 0;  // bundled test case index
  std::string label;
};

std::vector<Subtest> list_subtests(const Loaded& l) {
  std::vector<Subtest> list;
  if (l.bundle == nullptr) {
    list.push_back(Subtest{"forward", 0, ""});
    return list;
  }
  for (size_t s = 0; s < l.bundle->num_method_suites(); ++s) {
    const std::string method = l.bundle->suite_method_name(s);
    Result<size_t> n = l.bundle->num_test_cases(method.c_str());
    if (!n.ok()) continue;
    for (size_t k = 0; k < *n; ++k) {
      const std::string label =
          method == "forward" ? std::to_string(k) : printable(method) + ":" + std::to_string(k);
      list.push_back(Subtest{method, k, label});
    }
  }
  if (list.size() == 1) list[0].label = "";
  return list;
}

// Compares the outputs of a bundled subtest. The bundle's own check finds
// kind, dtype and shape mismatches; tensor values are then compared
// against the expected value (see compare_output).
bool verify_bundled(Module& module, Method& m, const BundledProgram& bundle,
                    const Subtest& st, const CaseSpec& spec, CaseResult* r) {
  // Scalars are compared here, at the double tolerance.
  const Tolerance scalar = tolerance_for(spec, ScalarType::Double);
  Result<VerifyReport> verified = module.verify_outputs(st.method, st.index, scalar.rtol,
                                                        scalar.atol);
  if (!verified.ok()) {
    r->error = error_text("verifying", verified.error());
    return false;
  }
  const std::vector<OutputReport>& reports = verified->outputs;
  bool all = true;
  for (size_t j = 0; j < reports.size(); ++j) {
    const OutputReport& rep = reports[j];
    OutputStats s;
    const Tolerance tol = tolerance_for(
        spec, m.get_output(j).is_tensor() ? m.get_output(j).to_tensor().scalar_type()
                                          : ScalarType::Double);
    if (rep.mismatch != OutputMismatch::None && rep.mismatch != OutputMismatch::Values) {
      s.ok = false;
      if (r->error.empty()) {
        r->error = "output " + std::to_string(j) + ": " + output_mismatch_name(rep.mismatch);
      }
    } else if (Result<BundledTensor> g =
                   rep.is_tensor && m.get_output(j).is_tensor()
                       ? bundled_expected_tensor(bundle, st.method.c_str(), st.index, j)
                       : Result<BundledTensor>(Error::NotFound);
               g.ok()) {
      s = compare_output(m.get_output(j).to_tensor(), g->data, tol.rtol, tol.atol);
    } else {
      s = OutputStats{rep.max_abs_error, rep.max_rel_error, rep.mean_abs_error, rep.sqnr_db,
                      rep.passed};
    }
    if (!s.ok && r->error.empty()) r->error = outside_message(j, s, tol);
    all = all && s.ok;
    r->outputs.push_back(s);
  }
  return all;
}

// Compares the outputs of the golden subtest with NAME_expected_output[_i].bin.
bool verify_golden(const Method& m, const std::string& stem, const CaseSpec& spec,
                   CaseResult* r) {
  const size_t n = m.outputs_size();
  bool all = true;
  for (size_t j = 0; j < n; ++j) {
    const EValue& v = m.get_output(j);
    if (!v.is_tensor()) continue;
    const Tensor t = v.to_tensor();
    const std::string path =
        stem + "_expected_output" + (n == 1 ? std::string() : "_" + std::to_string(j)) + ".bin";
    Result<std::vector<uint8_t>> bytes = read_file(path);
    OutputStats s;
    if (!bytes.ok()) {
      s.ok = false;
      if (r->error.empty()) r->error = error_text("reading " + file_name(path), bytes.error());
    } else if (bytes->size() != t.nbytes() || t.const_data_ptr() == nullptr) {
      s.ok = false;
      if (r->error.empty()) {
        r->error = printable("output " + std::to_string(j) + " has " + std::to_string(t.nbytes()) +
                           " bytes; " + file_name(path) + " has " + std::to_string(bytes->size()));
      }
    } else {
      const Tolerance tol = tolerance_for(spec, t.scalar_type());
      s = compare_output(t, bytes->data(), tol.rtol, tol.atol);
      if (!s.ok && r->error.empty()) r->error = outside_message(j, s, tol);
    }
    all = all && s.ok;
    r->outputs.push_back(s);
  }
  return all;
}

std::string stem_of(const std::string& path) {
  const fs::path p(path);
  return (p.parent_path() / p.stem()).string();
}

}  // namespace

std::string printable(const std::string& text) {
  std::string out;
  for (const unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f) {
      out += char(c);
    } else {
      char hex[5];
      snprintf(hex, sizeof(hex), "\\x%02x", c);
      out += hex;
    }
  }
  return out;
}

Tolerance default_tolerance(CaseKind kind, ScalarType dtype) {
  if (kind == CaseKind::Golden) return Tolerance{4e-2, 1e-1};
  switch (dtype) {
    case ScalarType::Float: return Tolerance{1e-5, 1e-6};
    case ScalarType::Double: return Tolerance{1e-10, 1e-12};
    case ScalarType::Half: return Tolerance{1e-3, 1e-3};
    case ScalarType::BFloat16: return Tolerance{1e-2, 1e-2};
    default: return Tolerance{0.0, 0.0};
  }
}

bool test_faults_enabled() {
  const char* v = std::getenv("EMBER_CONFORMANCE_TEST_FAULTS");
  return v != nullptr && std::strcmp(v, "1") == 0;
}

bool parse_plant(const std::string& text, Plant* plant) {
  if (text.empty()) *plant = Plant::None;
  else if (text == "crash") *plant = Plant::Crash;
  else if (text == "hang") *plant = Plant::Hang;
  else if (text == "mismatch") *plant = Plant::Mismatch;
  else return false;
  return true;
}

const char* plant_name(Plant plant) {
  switch (plant) {
    case Plant::Crash: return "crash";
    case Plant::Hang: return "hang";
    case Plant::Mismatch: return "mismatch";
    case Plant::None: break;
  }
  return "";
}

std::string config_params(const CaseConfig& c) {
  return "threads=" + std::to_string(c.threads) + " backends=" + c.backends +
         " loader=" + c.loader + " verification=" + c.verification +
         " executions=" + std::to_string(c.executions);
}

bool check_config(const CaseConfig& c, std::string* error) {
  if (c.threads < 1) *error = "threads must be at least 1";
  else if (c.executions < 1) *error = "executions must be at least 1";
  else if (c.backends != "all" && c.backends != "portable") *error = "backends must be all or portable";
  else if (Module::LoadMode mode; !Module::parse_load_mode(c.loader, &mode))
    *error = std::string("loader must be ") + Module::load_mode_names();
  else if (c.verification != "minimal" && c.verification != "internal")
    *error = "verification must be minimal or internal";
  else return true;
  return false;
}

std::string portable_twin(const std::string& path, CaseKind kind) {
  const std::string twin =
      stem_of(path) + (kind == CaseKind::Bundled ? ".portable.bpte" : ".portable.pte");
  std::error_code ec;
  return fs::is_regular_file(twin, ec) ? twin : std::string();
}

AotFacts read_sidecar(const std::string& path, std::string* error) {
  AotFacts aot;
  const std::string sidecar = stem_of(path) + ".aot.json";
  std::error_code ec;
  if (!fs::is_regular_file(sidecar, ec)) return aot;
  std::ifstream in(sidecar);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    *error = printable("sidecar " + sidecar + " is not a JSON object");
    return aot;
  }
  auto text = [&](const char* key, std::string* out) {
    if (j.contains(key) && j[key].is_string()) *out = printable(j[key].get<std::string>());
  };
  auto number = [&](const char* key, double* out) {
    if (j.contains(key) && j[key].is_number()) *out = j[key].get<double>();
  };
  auto count = [&](const char* key, int64_t* out) {
    if (j.contains(key) && j[key].is_number_integer()) *out = j[key].get<int64_t>();
  };
  auto ops = [&](const char* key, std::map<std::string, int64_t>* out) {
    if (!j.contains(key) || !j[key].is_object()) return;
    for (const auto& [name, n] : j[key].items()) {
      if (n.is_number_integer()) (*out)[printable(name)] = n.get<int64_t>();
    }
  };
  aot.present = true;
  text("flow", &aot.flow);
  text("params", &aot.params);
  number("quantize_time_s", &aot.quantize_time_s);
  number("lower_time_s", &aot.lower_time_s);
  count("delegated_nodes", &aot.delegated_nodes);
  count("undelegated_nodes", &aot.undelegated_nodes);
  ops("delegated_ops", &aot.delegated_ops);
  ops("undelegated_ops", &aot.undelegated_ops);
  return aot;
}

namespace {

// run_case() in phases: apply the configuration, choose and load the
// program (steps 1-2), describe it, then run each subtest (step 3).

// A case that ends with one result (a bad configuration, a load failure, a
// skip).
struct Stop {
  std::string result;
  std::string detail;
  std::string error;
};

// One result for the whole case, after an empty subtest list.
void report_single(CaseResult r, const Stop& stop, const SubtestCountFn& on_count,
                   const ResultFn& on_result) {
  r.result = stop.result;
  r.detail = stop.detail;
  r.error = stop.error;
  on_count({});
  on_result(r);
}

// What every result of the case starts from: its ids, configuration and
// sidecar (a sidecar that cannot be parsed sets *sidecar_error).
CaseResult case_base(const CaseSpec& spec, const CaseConfig& config,
                     std::string* sidecar_error) {
  CaseResult base;
  base.test_id = spec.id;
  base.test_case = spec.name;
  base.config = config;
  base.params = config_params(config);
  base.aot = read_sidecar(spec.path, sidecar_error);
  return base;
}

// Checks the configuration and sizes the shared thread pool.
bool apply_config(const CaseConfig& config, Stop* stop) {
  std::string error;
  if (!check_config(config, &error)) {
    *stop = Stop{"Fail", "PTE Load Failed", error};
    return false;
  }
  if (set_num_threads(size_t(config.threads)) != Error::Ok) {
    *stop = Stop{"Fail", "PTE Load Failed",
                 printable(std::string("cannot set threads: ") + last_error_message())};
    return false;
  }
  return true;
}

// The sidecar's flow, else the one the program's delegates imply.
std::string flow_of(const AotFacts& aot, const DelegateUse& use) {
  return aot.present && !aot.flow.empty() ? aot.flow : inferred_flow(use);
}

// The portable twin runs instead when a delegate the program names is
// missing, or when backends=portable and the program calls one.
bool wants_twin(const DelegateUse& use, const CaseConfig& config) {
  return !use.missing.empty() || (config.backends == "portable" && !use.ids.empty());
}

std::string skip_reason(const DelegateUse& use) {
  return use.missing.empty()
             ? "backends=portable and the program uses " + printable(use.ids.front()) +
                   "; no portable twin"
             : "backend " + printable(use.missing.front()) + " is not available; no portable twin";
}

// The program run: the case's or its twin's, loaded.
struct ChosenProgram {
  std::string path;
  Loaded loaded;
  DelegateUse use;   // the delegates it calls
  double load_ms = 0.0;  // its load (the last attempt's)
};

// Steps 1-2: loads the case, else its portable twin. False with *stop when
// neither can run (with base->flow set for a skip).
bool choose_program(const CaseSpec& spec, const CaseConfig& config, CaseResult* base,
                    ChosenProgram* chosen, Stop* stop) {
  chosen->path = spec.path;
  for (int attempt = 0;; ++attempt) {
    std::string error;
    const auto start = Clock::now();
    Result<Loaded> l = load_program(chosen->path, spec.kind, config, &error);
    chosen->load_ms = ms_since(start);
    if (!l.ok()) {
      *stop = Stop{"Fail", "PTE Load Failed", error};
      return false;
    }
    chosen->use = delegates_of(l->module->program());
    if (!wants_twin(chosen->use, config)) {
      chosen->loaded = std::move(*l);
      return true;
    }
    const std::string twin = attempt == 0 ? portable_twin(spec.path, spec.kind) : std::string();
    if (twin.empty()) {
      base->flow = flow_of(base->aot, chosen->use);
      *stop = Stop{"Skip", "Backend Not Available", skip_reason(chosen->use)};
      return false;
    }
    chosen->path = twin;
  }
}

// The program's facts, read from its bytes (the bundle's, else the file's).
void add_program_facts(const Loaded& loaded, const std::string& path, CaseResult* base) {
  const void* data = loaded.bundle ? loaded.bundle->program_data() : nullptr;
  size_t size = loaded.bundle ? loaded.bundle->program_size() : 0;
  std::vector<uint8_t> bytes;
  if (data == nullptr) {
    Result<std::vector<uint8_t>> read = read_file(path);
    if (read.ok()) {
      bytes = std::move(*read);
      data = bytes.data();
      size = bytes.size();
    }
  }
  if (data == nullptr) return;
  Result<ProgramFacts> facts = program_facts(data, size);
  if (facts.ok()) {
    base->facts = std::move(*facts);
  } else if (base->error.empty()) {
    base->error = error_text("program facts", facts.error());
  }
}

// What every result of a loaded case carries: load time, flow, params,
// the program's facts, whether it is delegated, the sidecar's error.
void describe_program(const ChosenProgram& chosen, const std::string& sidecar_error,
                      CaseResult* base) {
  base->load_ms = chosen.load_ms;
  base->flow = flow_of(base->aot, chosen.use);
  if (base->aot.present && !base->aot.params.empty() &&
      base->params.find(base->aot.params) == std::string::npos) {
    base->params = base->aot.params + " " + base->params;
  }
  add_program_facts(chosen.loaded, chosen.path, base);
  base->delegated = !chosen.use.ids.empty() || base->facts.delegate_calls > 0;
  if (!sidecar_error.empty() && base->error.empty()) base->error = sidecar_error;
}

// What every subtest of a case shares.
struct SubtestRun {
  const CaseSpec& spec;
  const CaseConfig& config;
  const Loaded& loaded;
  const CaseResult& base;
  Plant plant;
  std::map<std::string, double> method_load_ms;  // each method's first load
};

CaseResult failed(CaseResult r, const std::string& detail, const std::string& message) {
  r.result = "Fail";
  r.detail = detail;
  r.error = message;
  return r;
}

// Loading a method initializes its delegates: part of the load time,
// counted for each subtest of the method (the first one pays it).
Result<Method*> load_method(SubtestRun& run, const std::string& name, double* load_ms) {
  const auto method_start = Clock::now();
  Result<Method*> method = run.loaded.module->method(name);
  if (run.method_load_ms.count(name) == 0) run.method_load_ms[name] = ms_since(method_start);
  *load_ms = run.base.load_ms + run.method_load_ms[name];
  return method;
}

// Sets the inputs and executes, `executions` times; each execute's time
// goes into *times. Stops at the first error.
Error execute_timed(Method& m, const std::function<Error()>& set_inputs, int executions,
                    Plant plant, std::vector<double>* times) {
  Error err = Error::Ok;
  for (int e = 0; e < executions && err == Error::Ok; ++e) {
    err = set_inputs();
    if (err != Error::Ok) break;
    plant_before_execute(plant);
    const auto start = Clock::now();
    err = m.execute();
    times->push_back(ms_since(start));
  }
  return err;
}

// Step 3 for one subtest: inputs, timed executions, outputs compared.
CaseResult run_subtest(SubtestRun& run, const Subtest& st) {
  CaseResult r = run.base;
  r.subtest = st.label;
  if (!st.label.empty()) r.test_id = run.spec.id + "[" + st.label + "]";
  Result<Method*> method = load_method(run, st.method, &r.load_ms);
  if (!method.ok()) {
    return failed(std::move(r), "PTE Load Failed",
                  error_text("loading method '" + st.method + "'", method.error()));
  }
  Method& m = **method;
  GoldenInputs golden_inputs;
  std::function<Error()> set_inputs;
  if (run.loaded.bundle != nullptr) {
    set_inputs = [&]() { return run.loaded.module->load_bundled_input(st.method, st.index); };
  } else {
    std::string input_error;
    if (!golden_inputs.read(m, stem_of(run.spec.path), &input_error)) {
      return failed(std::move(r), "PTE Run Failed", input_error);
    }
    set_inputs = [&]() { return golden_inputs.set(m); };
  }
  std::vector<double> times;
  const Error err = execute_timed(m, set_inputs, run.config.executions, run.plant, &times);
  if (err != Error::Ok) {
    return failed(std::move(r), "PTE Run Failed",
                  error_text("executing '" + st.method + "'", err));
  }
  r.exec_min_ms = *std::min_element(times.begin(), times.end());
  r.exec_median_ms = median(times);
  if (run.plant == Plant::Mismatch) plant_mismatch(m);
  const bool ok = run.loaded.bundle != nullptr
                      ? verify_bundled(*run.loaded.module, m, *run.loaded.bundle, st, run.spec, &r)
                      : verify_golden(m, stem_of(run.spec.path), run.spec, &r);
  r.result = ok ? "Pass" : "Fail";
  r.detail = ok ? "" : "Output Mismatch";
  if (ok && r.error == run.base.error) r.error = run.base.error;
  return r;
}

}  // namespace

void run_case(const CaseSpec& spec, const CaseConfig& config, size_t first_subtest,
              const SubtestCountFn& on_count, const ResultFn& on_result) {
  std::string sidecar_error;
  CaseResult base = case_base(spec, config, &sidecar_error);
  Stop stop;
  ChosenProgram chosen;
  if (!apply_config(config, &stop) || !choose_program(spec, config, &base, &chosen, &stop)) {
    return report_single(base, stop, on_count, on_result);
  }
  describe_program(chosen, sidecar_error, &base);

  const std::vector<Subtest> subtests = list_subtests(chosen.loaded);
  if (subtests.empty()) {
    return report_single(base, Stop{"Fail", "PTE Run Failed", "the bundle has no test cases"},
                         on_count, on_result);
  }
  std::vector<std::string> labels;
  for (const Subtest& st : subtests) labels.push_back(st.label);
  on_count(labels);
  SubtestRun run{spec, config, chosen.loaded, base,
                 test_faults_enabled() ? spec.plant : Plant::None, {}};
  for (size_t i = first_subtest; i < subtests.size(); ++i) {
    on_result(run_subtest(run, subtests[i]));
  }
}

}  // namespace ember::conformance
