#include "conformance/case_result.h"

#include <cmath>
#include <limits>

namespace ember::conformance {
namespace {

using nlohmann::json;

// JSON has no infinities or NaN; they travel as strings.
json number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

template <typename V>
json count_map(const std::map<std::string, V>& m) {
  json out = json::object();
  for (const auto& [name, count] : m) out[name] = count;
  return out;
}

json facts_json(const ProgramFacts& f) {
  return json{{"pte_bytes", f.pte_bytes},
              {"kernel_calls", f.kernel_calls},
              {"delegate_calls", f.delegate_calls},
              {"undelegated_ops", count_map(f.undelegated_ops)},
              {"delegated_ops", count_map(f.delegated_ops)},
              {"delegate_blobs", f.delegate_blobs},
              {"delegate_blob_bytes", f.delegate_blob_bytes},
              {"constant_bytes", f.constant_bytes},
              {"delegated_percent", number(f.delegated_percent)},
              {"backends", f.backends}};
}

json aot_json(const AotFacts& a) {
  return json{{"present", a.present},
              {"flow", a.flow},
              {"params", a.params},
              {"quantize_time_s", number(a.quantize_time_s)},
              {"lower_time_s", number(a.lower_time_s)},
              {"delegated_nodes", a.delegated_nodes},
              {"undelegated_nodes", a.undelegated_nodes},
              {"delegated_ops", count_map(a.delegated_ops)},
              {"undelegated_ops", count_map(a.undelegated_ops)}};
}

json config_json(const CaseConfig& c) {
  return json{{"threads", c.threads},
              {"backends", c.backends},
              {"loader", c.loader},
              {"verification", c.verification},
              {"executions", c.executions}};
}

json output_json(const OutputStats& o) {
  return json{{"max_abs", number(o.max_abs)},
              {"max_rel", number(o.max_rel)},
              {"mae", number(o.mae)},
              {"sqnr_db", number(o.sqnr_db)},
              {"ok", o.ok}};
}

// Reads members of one object without throwing; the first problem is
// kept in *error with the member's path.
class Reader {
 public:
  Reader(const json& obj, std::string path, std::string* error)
      : obj_(obj), path_(std::move(path)), error_(error) {}

  bool ok() const { return ok_; }

  // The member, or null when it is absent (the caller keeps its default).
  const json* find(const char* key) {
    if (!ok_) return nullptr;
    auto it = obj_.find(key);
    return it == obj_.end() ? nullptr : &*it;
  }

  void fail(const char* key, const char* want) {
    if (!ok_) return;
    ok_ = false;
    *error_ = "member '" + path_ + key + "' is not " + want;
  }

  void get(const char* key, std::string* out) {
    const json* v = find(key);
    if (!v) return;
    if (!v->is_string()) return fail(key, "a string");
    *out = v->get_ref<const std::string&>();
  }

  void get(const char* key, bool* out) {
    const json* v = find(key);
    if (!v) return;
    if (!v->is_boolean()) return fail(key, "a boolean");
    *out = v->get<bool>();
  }

  void get(const char* key, double* out) {
    const json* v = find(key);
    if (!v) return;
    if (!read_double(*v, out)) fail(key, "a number");
  }

  void get(const char* key, int* out) {
    int64_t wide = *out;
    get(key, &wide);
    if (ok_ && (wide < std::numeric_limits<int>::min() ||
                wide > std::numeric_limits<int>::max())) {
      fail(key, "an int");
      return;
    }
    *out = int(wide);
  }

  void get(const char* key, int64_t* out) {
    const json* v = find(key);
    if (!v) return;
    if (v->is_number_unsigned() &&
        v->get<uint64_t>() <= uint64_t(std::numeric_limits<int64_t>::max())) {
      *out = int64_t(v->get<uint64_t>());
    } else if (v->is_number_integer() && !v->is_number_unsigned()) {
      *out = v->get<int64_t>();
    } else {
      fail(key, "an integer");
    }
  }

  void get(const char* key, uint64_t* out) {
    const json* v = find(key);
    if (!v) return;
    if (v->is_number_unsigned()) {
      *out = v->get<uint64_t>();
    } else if (v->is_number_integer() && v->get<int64_t>() >= 0) {
      *out = uint64_t(v->get<int64_t>());
    } else {
      fail(key, "a non-negative integer");
    }
  }

  void get(const char* key, std::vector<std::string>* out) {
    const json* v = find(key);
    if (!v) return;
    if (!v->is_array()) return fail(key, "an array of strings");
    out->clear();
    for (const json& e : *v) {
      if (!e.is_string()) return fail(key, "an array of strings");
      out->push_back(e.get<std::string>());
    }
  }

  template <typename V>
  void get(const char* key, std::map<std::string, V>* out) {
    const json* v = find(key);
    if (!v) return;
    if (!v->is_object()) return fail(key, "an object of counts");
    out->clear();
    Reader counts(*v, path_ + key + ".", error_);
    for (auto it = v->begin(); it != v->end(); ++it) {
      V value{};
      counts.get(it.key().c_str(), &value);
      if (!counts.ok()) {
        ok_ = false;
        return;
      }
      (*out)[it.key()] = value;
    }
  }

  // An object member read by `read(Reader&)`.
  template <typename F>
  void object(const char* key, F read) {
    const json* v = find(key);
    if (!v) return;
    if (!v->is_object()) return fail(key, "an object");
    Reader inner(*v, path_ + key + ".", error_);
    read(inner);
    if (!inner.ok()) ok_ = false;
  }

 private:
  static bool read_double(const json& v, double* out) {
    if (v.is_number()) {
      *out = v.get<double>();
      return true;
    }
    if (v.is_null()) {  // what a plain dump makes of a non-finite value
      *out = std::numeric_limits<double>::quiet_NaN();
      return true;
    }
    if (!v.is_string()) return false;
    const std::string& s = v.get_ref<const std::string&>();
    if (s == "nan") {
      *out = std::numeric_limits<double>::quiet_NaN();
    } else if (s == "inf") {
      *out = std::numeric_limits<double>::infinity();
    } else if (s == "-inf") {
      *out = -std::numeric_limits<double>::infinity();
    } else {
      return false;
    }
    return true;
  }

  const json& obj_;
  std::string path_;
  std::string* error_;
  bool ok_ = true;
};

void read_facts(Reader& r, ProgramFacts* f) {
  r.get("pte_bytes", &f->pte_bytes);
  r.get("kernel_calls", &f->kernel_calls);
  r.get("delegate_calls", &f->delegate_calls);
  r.get("undelegated_ops", &f->undelegated_ops);
  r.get("delegated_ops", &f->delegated_ops);
  r.get("delegate_blobs", &f->delegate_blobs);
  r.get("delegate_blob_bytes", &f->delegate_blob_bytes);
  r.get("constant_bytes", &f->constant_bytes);
  r.get("delegated_percent", &f->delegated_percent);
  r.get("backends", &f->backends);
}

void read_aot(Reader& r, AotFacts* a) {
  r.get("present", &a->present);
  r.get("flow", &a->flow);
  r.get("params", &a->params);
  r.get("quantize_time_s", &a->quantize_time_s);
  r.get("lower_time_s", &a->lower_time_s);
  r.get("delegated_nodes", &a->delegated_nodes);
  r.get("undelegated_nodes", &a->undelegated_nodes);
  r.get("delegated_ops", &a->delegated_ops);
  r.get("undelegated_ops", &a->undelegated_ops);
}

void read_config(Reader& r, CaseConfig* c) {
  r.get("threads", &c->threads);
  r.get("backends", &c->backends);
  r.get("loader", &c->loader);
  r.get("verification", &c->verification);
  r.get("executions", &c->executions);
}

void read_output(Reader& r, OutputStats* o) {
  r.get("max_abs", &o->max_abs);
  r.get("max_rel", &o->max_rel);
  r.get("mae", &o->mae);
  r.get("sqnr_db", &o->sqnr_db);
  r.get("ok", &o->ok);
}

}  // namespace

nlohmann::json to_json(const CaseResult& r) {
  json outputs = json::array();
  for (const OutputStats& o : r.outputs) outputs.push_back(output_json(o));
  return json{{"test_id", r.test_id},
              {"test_case", r.test_case},
              {"subtest", r.subtest},
              {"flow", r.flow},
              {"params", r.params},
              {"config", config_json(r.config)},
              {"result", r.result},
              {"detail", r.detail},
              {"delegated", r.delegated},
              {"facts", facts_json(r.facts)},
              {"aot", aot_json(r.aot)},
              {"outputs", outputs},
              {"load_ms", number(r.load_ms)},
              {"exec_min_ms", number(r.exec_min_ms)},
              {"exec_median_ms", number(r.exec_median_ms)},
              {"error", r.error},
              {"xfail", r.xfail},
              {"xfail_reason", r.xfail_reason}};
}

bool from_json(const nlohmann::json& j, CaseResult* out, std::string* error) {
  std::string scratch;
  if (error == nullptr) error = &scratch;
  if (!j.is_object()) {
    *error = "a case result must be a JSON object";
    return false;
  }
  CaseResult r;
  Reader reader(j, "", error);
  reader.get("test_id", &r.test_id);
  reader.get("test_case", &r.test_case);
  reader.get("subtest", &r.subtest);
  reader.get("flow", &r.flow);
  reader.get("params", &r.params);
  reader.object("config", [&](Reader& c) { read_config(c, &r.config); });
  reader.get("result", &r.result);
  reader.get("detail", &r.detail);
  reader.get("delegated", &r.delegated);
  reader.object("facts", [&](Reader& f) { read_facts(f, &r.facts); });
  reader.object("aot", [&](Reader& a) { read_aot(a, &r.aot); });
  if (const json* outputs = reader.find("outputs")) {
    if (!outputs->is_array()) {
      reader.fail("outputs", "an array");
    } else {
      for (size_t i = 0; i < outputs->size() && reader.ok(); ++i) {
        const json& o = (*outputs)[i];
        const std::string path = "outputs[" + std::to_string(i) + "].";
        if (!o.is_object()) {
          *error = "member '" + path.substr(0, path.size() - 1) + "' is not an object";
          return false;
        }
        Reader item(o, path, error);
        OutputStats stats;
        read_output(item, &stats);
        if (!item.ok()) return false;
        r.outputs.push_back(stats);
      }
    }
  }
  reader.get("load_ms", &r.load_ms);
  reader.get("exec_min_ms", &r.exec_min_ms);
  reader.get("exec_median_ms", &r.exec_median_ms);
  reader.get("error", &r.error);
  reader.get("xfail", &r.xfail);
  reader.get("xfail_reason", &r.xfail_reason);
  if (!reader.ok()) return false;
  *out = std::move(r);
  return true;
}

}  // namespace ember::conformance
