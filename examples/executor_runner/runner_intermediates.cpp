#include "examples/executor_runner/runner_intermediates.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <utility>

#include "bundled_program/bundled_program.h"
#include "extension/npy/npy.h"
#include "extension/runner_util/inputs.h"
#include "runtime/core/error_message.h"

namespace ember::runner {
namespace {

const char* numpy_dtype_name(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return "float32";
    case ScalarType::Double: return "float64";
    case ScalarType::Half: return "float16";
    case ScalarType::BFloat16: return "bfloat16";
    case ScalarType::Long: return "int64";
    case ScalarType::Int: return "int32";
    case ScalarType::Short: return "int16";
    case ScalarType::Char: return "int8";
    case ScalarType::Byte: return "uint8";
    case ScalarType::Bool: return "bool";
    case ScalarType::UInt16: return "uint16";
    case ScalarType::UInt32: return "uint32";
    case ScalarType::UInt64: return "uint64";
    default: return scalar_type_name(t);
  }
}

// The types element_as_double reads.
bool widens_to_double(ScalarType t) {
  switch (t) {
    case ScalarType::Float: case ScalarType::Double: case ScalarType::Half:
    case ScalarType::BFloat16: case ScalarType::Long: case ScalarType::Int:
    case ScalarType::Short: case ScalarType::Char: case ScalarType::Byte:
    case ScalarType::Bool: case ScalarType::UInt16: case ScalarType::UInt32:
    case ScalarType::UInt64:
      return true;
    default:
      return false;
  }
}

// Characters a file name keeps; the rest become '_'.
std::string file_safe(const std::string& raw) {
  std::string out;
  for (const char c : raw) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                      (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    out += keep ? c : '_';
  }
  return out;
}

std::string file_name(const std::string& method, int64_t chain, int64_t instruction,
                      const std::string& op, const std::string& output) {
  std::string name = op.compare(0, 6, "aten::") == 0 ? op.substr(6) : op;
  if (name.empty()) name = "unknown";
  char index[32];
  snprintf(index, sizeof(index), "c%lld_i%04lld", static_cast<long long>(chain),
           static_cast<long long>(instruction));
  return file_safe(method) + "__" + index + "__" + file_safe(name) + "__o" + output + ".npy";
}

size_t block_end(const devtools::EventRecorder& recorder, size_t b) {
  return b + 1 < recorder.num_blocks() ? recorder.block(b + 1).first_event
                                       : recorder.num_events();
}

nlohmann::ordered_json frame_json(const StackFrame& f) {
  if (!f.present) return nullptr;
  return {{"file", f.file}, {"line", f.line}, {"name", f.name}, {"context", f.context}};
}

// The elements of a contiguous buffer, widened to double.
std::vector<double> widen(ScalarType dtype, const void* data, int64_t numel) {
  std::vector<double> out(size_t(numel > 0 ? numel : 0));
  if (out.empty()) return out;
  SizesType size = SizesType(numel);
  DimOrderType dim_order = 0;
  StridesType stride = 1;
  TensorImpl impl(dtype, 1, &size, const_cast<void*>(data), &dim_order, &stride);
  const Tensor t(&impl);
  for (int64_t i = 0; i < numel; ++i) out[size_t(i)] = element_as_double(t, i);
  return out;
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

nlohmann::json number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

}  // namespace

IntermediateSet collect_intermediates(const devtools::EventRecorder& recorder,
                                      const Program& program, const std::string& method,
                                      size_t block) {
  IntermediateSet set;
  const Span<const uint8_t> debug = recorder.debug_buffer();
  std::set<std::pair<int64_t, int64_t>> visited;
  std::pair<int64_t, int64_t> current(-2, -2);
  bool repeat = false;
  size_t next_output = 0;
  InstructionInfo info;
  for (size_t i = recorder.block(block).first_event; i < block_end(recorder, block); ++i) {
    const devtools::RecordedEvent e = recorder.event(i);
    if (e.kind != devtools::RecordedEventKind::Debug || e.value.is_program_output ||
        e.chain_index == kUnsetChainIndex || e.instruction_id == kUnsetInstructionId) {
      continue;
    }
    if (e.name != nullptr || e.delegate_debug_id_str != nullptr ||
        e.delegate_debug_id_int != kUnsetDelegateDebugId) {
      set.delegate_step_outputs += 1;
      continue;
    }
    const std::pair<int64_t, int64_t> at(e.chain_index, e.instruction_id);
    if (at != current) {
      current = at;
      repeat = !visited.insert(at).second;
      set.repeated_visits += repeat ? 1 : 0;
      next_output = 0;
      info = instruction_info(program, method, at.first, at.second);
    }
    if (repeat) continue;
    const size_t k = next_output++;
    if (e.value.tag != Tag::Tensor && e.value.tag != Tag::ListTensor) {
      set.non_tensor_values += 1;
      continue;
    }
    for (size_t j = 0; j < e.value.num_tensors; ++j) {
      const devtools::RecordedTensor t = recorder.tensor(i, j);
      Intermediate it;
      it.method = method;
      it.chain = at.first;
      it.instruction = at.second;
      it.output = std::to_string(k);
      it.output_index = int64_t(k);
      if (e.value.tag == Tag::ListTensor) {
        it.output += "." + std::to_string(j);
        it.element = int64_t(j);
      }
      it.key = method + "/c" + std::to_string(at.first) + "/i" + std::to_string(at.second) +
               "/o" + it.output;
      it.kind = info.kind.empty() ? "unknown" : info.kind;
      it.op = info.op;
      it.frame = info.frame;
      it.file = file_name(method, at.first, at.second, info.op, it.output);
      it.dtype = t.dtype;
      it.shape.assign(t.sizes.begin(), t.sizes.end());
      it.nbytes = t.nbytes;
      if (t.offset >= 0 && size_t(t.offset) <= debug.size() &&
          t.nbytes <= debug.size() - size_t(t.offset)) {
        it.data = debug.data() + t.offset;
        it.stored = true;
      } else {
        it.stored = t.nbytes == 0;
        set.not_stored += it.stored ? 0 : 1;
      }
      set.entries.push_back(std::move(it));
    }
  }
  return set;
}

Error write_intermediates(const std::string& dir, const std::string& program_name,
                          const IntermediateSet& set, size_t* written, size_t* skipped) {
  *written = 0;
  *skipped = 0;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  EMBER_CHECK_OR_RETURN(!ec, Error::AccessFailed, "cannot create directory '%s': %s",
                        dir.c_str(), ec.message().c_str());
  std::vector<nlohmann::ordered_json> entries;
  for (const Intermediate& it : set.entries) {
    if (!it.stored || npy_descr(it.dtype).empty()) {
      *skipped += 1;
      continue;
    }
    std::vector<SizesType> shape(it.shape.begin(), it.shape.end());
    const uint8_t empty = 0;
    const std::vector<uint8_t> bytes = to_npy(it.dtype, shape, it.data ? it.data : &empty);
    const std::string path = (std::filesystem::path(dir) / it.file).string();
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    EMBER_CHECK_OR_RETURN(out.good(), Error::AccessFailed, "cannot write '%s'", path.c_str());
    nlohmann::ordered_json e = {{"key", it.key},
                                {"file", it.file},
                                {"method", it.method},
                                {"chain", it.chain},
                                {"instruction", it.instruction},
                                {"output", it.output_index}};
    if (it.element >= 0) e["element"] = it.element;
    e["kind"] = it.kind;
    e["operator"] = it.op;
    e["dtype"] = numpy_dtype_name(it.dtype);
    e["shape"] = it.shape;
    e["stack_frame"] = frame_json(it.frame);
    entries.push_back(std::move(e));
    *written += 1;
  }
  // One entry per line, keys in the documented order.
  const auto text = [](const nlohmann::ordered_json& j) {
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  const std::string path = (std::filesystem::path(dir) / "index.json").string();
  std::ofstream out(path);
  out << "{\"format\": \"ember-intermediates-1\", \"program\": "
      << text(nlohmann::ordered_json(program_name)) << ",\n \"entries\": [";
  for (size_t i = 0; i < entries.size(); ++i) {
    out << (i ? ",\n  " : "\n  ") << text(entries[i]);
  }
  out << "\n ]}\n";
  EMBER_CHECK_OR_RETURN(out.good(), Error::AccessFailed, "cannot write '%s'", path.c_str());
  return Error::Ok;
}

Result<ComparisonReport> compare_intermediates(const std::string& golden_dir,
                                               const IntermediateSet& set, double rtol,
                                               double atol) {
  const std::string index_path = (std::filesystem::path(golden_dir) / "index.json").string();
  std::ifstream in(index_path);
  EMBER_CHECK_OR_RETURN(in.good(), Error::AccessFailed, "cannot open '%s'",
                        index_path.c_str());
  const nlohmann::json index = nlohmann::json::parse(in, nullptr, false);
  EMBER_CHECK_OR_RETURN(!index.is_discarded() && index.is_object() &&
                            index.contains("entries") && index["entries"].is_array(),
                        Error::InvalidArgument,
                        "'%s' is not an intermediates index (a JSON object with an "
                        "\"entries\" array)",
                        index_path.c_str());
  std::map<std::string, std::string> golden;  // key -> file
  size_t n = 0;
  for (const nlohmann::json& e : index["entries"]) {
    EMBER_CHECK_OR_RETURN(e.is_object() && e.contains("key") && e["key"].is_string() &&
                              e.contains("file") && e["file"].is_string(),
                          Error::InvalidArgument,
                          "'%s': entry %zu has no string \"key\" and \"file\"",
                          index_path.c_str(), n);
    golden[e["key"].get<std::string>()] = e["file"].get<std::string>();
    ++n;
  }

  ComparisonReport report;
  for (const Intermediate& it : set.entries) {
    Comparison c;
    c.key = printable(it.key);
    c.op = printable(it.op);
    c.chain = it.chain;
    c.instruction = it.instruction;
    c.frame = frame_text(it.frame);
    c.numel = 1;
    for (const int64_t s : it.shape) c.numel *= s;
    const auto found = golden.find(it.key);
    if (!it.stored) {
      c.status = "not stored";
      report.not_stored += 1;
    } else if (found == golden.end()) {
      c.status = "no golden";
      report.no_golden += 1;
    } else {
      Result<NpyArray> g = read_npy((std::filesystem::path(golden_dir) / found->second).string());
      std::vector<int64_t> golden_shape;
      if (g.ok()) golden_shape.assign(g->shape.begin(), g->shape.end());
      if (!g.ok()) {
        c.status = "FAIL";
        c.reason = "cannot read golden '" + printable(found->second) +
                   "': " + printable(last_error_message());
      } else if (golden_shape != it.shape) {
        c.status = "FAIL";
        c.reason = "shape " + shape_text(it.shape) + ", golden " + shape_text(golden_shape);
      } else if (!widens_to_double(it.dtype) || !widens_to_double(g->dtype)) {
        c.status = "FAIL";
        c.reason = std::string("cannot compare dtype ") + numpy_dtype_name(it.dtype) +
                   " with golden " + numpy_dtype_name(g->dtype);
      } else {
        const std::vector<double> a = widen(it.dtype, it.data, c.numel);
        const std::vector<double> b = widen(g->dtype, g->data.data(), c.numel);
        // Golden second: the tolerance is relative to the golden value,
        // |a - g| <= atol + rtol * |g|, and so is the relative error.
        OutputReport r;
        const bool ok =
            compare_tensor_data(ScalarType::Double, a.data(), b.data(), c.numel, rtol, atol, &r);
        c.status = ok ? "pass" : "FAIL";
        c.outside = r.num_outside_tolerance;
        c.max_abs = r.max_abs_error;
        c.max_rel = r.max_rel_error;
        c.mean_abs = r.mean_abs_error;
        c.sqnr_db = r.sqnr_db;  // the golden is the signal
      }
      if (c.status == "pass") {
        report.passed += 1;
      } else {
        report.failed += 1;
        if (report.first_failure < 0) report.first_failure = int64_t(report.rows.size());
      }
    }
    report.rows.push_back(std::move(c));
  }
  return report;
}

std::string divergence_text(const Comparison& c) {
  std::string text = c.key + " (" + (c.op.empty() ? "?" : c.op) + ", chain " +
                     std::to_string(c.chain) + " instruction " +
                     std::to_string(c.instruction) + ")";
  if (!c.reason.empty()) {
    text += ": " + c.reason;
  } else {
    char numbers[160];
    snprintf(numbers, sizeof(numbers),
             ": %lld of %lld elements outside tolerance, max abs error %.6g, SQNR %.2f dB",
             static_cast<long long>(c.outside), static_cast<long long>(c.numel), c.max_abs,
             c.sqnr_db);
    text += numbers;
  }
  text += c.frame.empty() ? "; source: unknown (no stack frame for this instruction in the "
                            "program; programs exported with "
                            "ExecutorchBackendConfig(emit_stacktrace=True) carry them)"
                          : "; source: " + c.frame;
  return text;
}

void print_comparison(const ComparisonReport& report, double rtol, double atol, FILE* out) {
  size_t key_width = 3, op_width = 8;
  for (const Comparison& c : report.rows) {
    key_width = std::max(key_width, c.key.size());
    op_width = std::max(op_width, c.op.size());
  }
  fprintf(out,
          "\nIntermediate outputs compared with goldens (pass: |a-g| <= %g + %g*|g| for "
          "every element):\n",
          atol, rtol);
  fprintf(out, "  %-*s %-*s %12s %12s %12s %10s  %s\n", int(key_width), "key", int(op_width),
          "operator", "max abs", "max rel", "mean abs", "SQNR dB", "result");
  for (const Comparison& c : report.rows) {
    if (c.status == "pass" || (c.status == "FAIL" && c.reason.empty())) {
      fprintf(out, "  %-*s %-*s %12.4g %12.4g %12.4g %10.2f  %s\n", int(key_width),
              c.key.c_str(), int(op_width), c.op.c_str(), c.max_abs, c.max_rel, c.mean_abs,
              c.sqnr_db, c.status.c_str());
    } else {
      fprintf(out, "  %-*s %-*s %12s %12s %12s %10s  %s%s%s\n", int(key_width),
              c.key.c_str(), int(op_width), c.op.c_str(), "-", "-", "-", "-",
              c.status.c_str(), c.reason.empty() ? "" : ": ", c.reason.c_str());
    }
  }
  fprintf(out, "  %zu passed, %zu failed, %zu without golden, %zu not stored.\n",
          report.passed, report.failed, report.no_golden, report.not_stored);
  if (report.first_failure >= 0) {
    fprintf(out, "First divergence: %s\n",
            divergence_text(report.rows[size_t(report.first_failure)]).c_str());
  } else if (report.passed > 0) {
    fprintf(out, "No divergence: every compared output is within tolerance.\n");
  }
}

nlohmann::json comparison_json(const ComparisonReport& report, double rtol, double atol) {
  nlohmann::json rows = nlohmann::json::array();
  for (const Comparison& c : report.rows) {
    nlohmann::json j = {{"key", c.key},
                        {"operator", c.op},
                        {"chain", c.chain},
                        {"instruction", c.instruction},
                        {"status", c.status},
                        {"source", c.frame.empty() ? nlohmann::json(nullptr)
                                                   : nlohmann::json(c.frame)}};
    if (!c.reason.empty()) j["reason"] = c.reason;
    if (c.reason.empty() && (c.status == "pass" || c.status == "FAIL")) {
      j["numel"] = c.numel;
      j["outside_tolerance"] = c.outside;
      j["max_abs_error"] = number(c.max_abs);
      j["max_rel_error"] = number(c.max_rel);
      j["mean_abs_error"] = number(c.mean_abs);
      j["sqnr_db"] = number(c.sqnr_db);
    }
    rows.push_back(j);
  }
  nlohmann::json j = {{"rtol", rtol},
                      {"atol", atol},
                      {"passed", report.passed},
                      {"failed", report.failed},
                      {"no_golden", report.no_golden},
                      {"not_stored", report.not_stored},
                      {"rows", rows}};
  j["first_divergence"] =
      report.first_failure >= 0
          ? nlohmann::json(divergence_text(report.rows[size_t(report.first_failure)]))
          : nlohmann::json(nullptr);
  return j;
}

}  // namespace ember::runner
