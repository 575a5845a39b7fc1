// Discovery, manifest, matrix, shards and child processes (see suite.h).
#include "conformance/suite.h"

#include <fcntl.h>
#include <fnmatch.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

extern char** environ;

namespace ember::conformance {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool parse_number(const std::string& text, double* value) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || end != text.c_str() + text.size() || !(v >= 0.0)) return false;
  *value = v;
  return true;
}

// rtol / atol from the MANIFEST lines of one directory: name -> values.
struct DirTolerance {
  std::optional<double> rtol, atol;
};
using DirManifest = std::map<std::string, DirTolerance>;

DirManifest read_dir_manifest(const fs::path& dir) {
  DirManifest m;
  std::ifstream in(dir / "MANIFEST");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string name, word;
    if (!(words >> name) || name[0] == '#') continue;
    DirTolerance t;
    while (words >> word) {
      double v = 0.0;
      if (word.rfind("rtol=", 0) == 0 && parse_number(word.substr(5), &v)) t.rtol = v;
      if (word.rfind("atol=", 0) == 0 && parse_number(word.substr(5), &v)) t.atol = v;
    }
    m[name] = t;
  }
  return m;
}

bool golden_case(const fs::path& pte) {
  const fs::path stem = pte.parent_path() / pte.stem();
  std::error_code ec;
  return fs::is_regular_file(stem.string() + "_expected_output.bin", ec) ||
         fs::is_regular_file(stem.string() + "_expected_output_0.bin", ec);
}

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGTRAP: return "SIGTRAP";
    case SIGPIPE: return "SIGPIPE";
    case SIGSYS: return "SIGSYS";
    default: return nullptr;
  }
}

std::string describe_signal(int sig) {
  const char* name = signal_name(sig);
  return name != nullptr ? std::string(name) : "signal " + std::to_string(sig);
}

// What one child process produced.
struct ChildOutput {
  std::string out, err;
  bool timed_out = false;
  bool spawned = false;
  int status = 0;  // waitpid status
  std::string spawn_error;
};

ChildOutput run_child(const std::vector<std::string>& args, double timeout_s) {
  ChildOutput r;
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    r.spawn_error = std::string("pipe: ") + strerror(errno);
    return r;
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    r.spawn_error = std::string("pipe: ") + strerror(errno);
    close(out_pipe[0]);
    close(out_pipe[1]);
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Its own process group, so that a timeout kills whatever it started.
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, argv[0], &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (rc != 0) {
    r.spawn_error = "cannot start '" + args[0] + "': " + strerror(rc);
    close(out_pipe[0]);
    close(err_pipe[0]);
    return r;
  }
  r.spawned = true;
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_s);
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  char buffer[65536];
  while (open_fds > 0) {
    const double left =
        std::chrono::duration<double, std::milli>(deadline - Clock::now()).count();
    if (left <= 0) {
      r.timed_out = true;
      break;
    }
    const int n = poll(fds, 2, int(std::min(left, 1000.0)) + 1);
    if (n < 0 && errno != EINTR) break;
    for (pollfd& p : fds) {
      if (p.fd < 0 || (p.revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t got = read(p.fd, buffer, sizeof(buffer));
      if (got > 0) {
        std::string& to = &p == &fds[0] ? r.out : r.err;
        to.append(buffer, size_t(got));
        // Keep only the end of a chatty child's stderr.
        if (&p == &fds[1] && to.size() > 65536) to.erase(0, to.size() - 16384);
      } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        close(p.fd);
        p.fd = -1;
        --open_fds;
      }
    }
  }
  if (r.timed_out) kill(-pid, SIGKILL);
  for (pollfd& p : fds) {
    if (p.fd >= 0) close(p.fd);
  }
  while (waitpid(pid, &r.status, 0) < 0 && errno == EINTR) {
  }
  if (r.timed_out) kill(-pid, SIGKILL);  // anything the child left in its group
  return r;
}

std::string last_lines(const std::string& text, size_t max_chars) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  if (t.size() > max_chars) t = "..." + t.substr(t.size() - max_chars);
  std::replace(t.begin(), t.end(), '\n', ' ');
  return printable(t);
}

std::string format_seconds(double s) {
  char text[32];
  snprintf(text, sizeof(text), "%g", s);
  return text;
}

}  // namespace

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ',')) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

bool load_manifest(const std::string& path, Manifest* manifest, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot open manifest '" + printable(path) + "'";
    return false;
  }
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    *error = "manifest '" + printable(path) + "' is not a JSON object";
    return false;
  }
  if (!j.contains("cases")) return true;
  if (!j["cases"].is_object()) {
    *error = "manifest '" + printable(path) + "': \"cases\" must be an object";
    return false;
  }
  for (const auto& [glob, e] : j["cases"].items()) {
    const std::string where = "manifest '" + printable(path) + "' case '" + printable(glob) + "'";
    if (!e.is_object()) {
      *error = where + " must be an object";
      return false;
    }
    ManifestEntry entry;
    for (const auto& [key, v] : e.items()) {
      if (key == "rtol" || key == "atol" || key == "timeout_s") {
        if (!v.is_number() || !(v.get<double>() >= 0.0)) {
          *error = where + ": \"" + key + "\" must be a non-negative number";
          return false;
        }
        (key == "rtol" ? entry.rtol : key == "atol" ? entry.atol : entry.timeout_s) =
            v.get<double>();
      } else if (key == "xfail" || key == "plant") {
        if (!v.is_string()) {
          *error = where + ": \"" + key + "\" must be a string";
          return false;
        }
        (key == "xfail" ? entry.xfail : entry.plant) = v.get<std::string>();
      } else {
        *error = where + ": unknown key '" + printable(key) + "'";
        return false;
      }
    }
    manifest->entries.emplace_back(glob, entry);
  }
  return true;
}

ManifestEntry manifest_entry(const Manifest& manifest, const std::string& id,
                             const std::string& name) {
  ManifestEntry merged;
  const std::string without_ext = fs::path(id).replace_extension().string();
  for (const auto& [glob, e] : manifest.entries) {
    const bool match = fnmatch(glob.c_str(), id.c_str(), 0) == 0 ||
                       fnmatch(glob.c_str(), without_ext.c_str(), 0) == 0 ||
                       fnmatch(glob.c_str(), name.c_str(), 0) == 0;
    if (!match) continue;
    if (e.rtol) merged.rtol = e.rtol;
    if (e.atol) merged.atol = e.atol;
    if (e.timeout_s) merged.timeout_s = e.timeout_s;
    if (e.xfail) merged.xfail = e.xfail;
    if (e.plant) merged.plant = e.plant;
  }
  return merged;
}

bool discover_cases(const std::string& root, const Manifest& manifest,
                    std::vector<SuiteCase>* cases, std::string* error) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    *error = "cases directory '" + printable(root) + "' is not a directory";
    return false;
  }
  std::vector<std::pair<std::string, fs::path>> found;  // relative id, path
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const fs::path& p = it->path();
    const std::string file = p.filename().string();
    const bool bpte = ends_with(file, ".bpte");
    const bool pte = ends_with(file, ".pte");
    if (!bpte && !pte) continue;
    if (file.find(".portable.") != std::string::npos) continue;  // twins
    if (pte && !golden_case(p)) continue;
    found.emplace_back(fs::relative(p, root, ec).generic_string(), p);
  }
  if (ec) {
    *error = "reading '" + printable(root) + "': " + ec.message();
    return false;
  }
  std::sort(found.begin(), found.end());
  std::map<fs::path, DirManifest> dir_manifests;
  for (const auto& [id, path] : found) {
    SuiteCase c;
    c.spec.path = path.string();
    c.spec.id = printable(id);
    c.spec.name = path.stem().string();
    c.spec.kind = ends_with(id, ".bpte") ? CaseKind::Bundled : CaseKind::Golden;
    const fs::path dir = path.parent_path();
    if (dir_manifests.count(dir) == 0) dir_manifests[dir] = read_dir_manifest(dir);
    const DirManifest& dm = dir_manifests[dir];
    if (const auto found_tol = dm.find(c.spec.name); found_tol != dm.end()) {
      if (found_tol->second.rtol) c.spec.rtol = *found_tol->second.rtol;
      if (found_tol->second.atol) c.spec.atol = *found_tol->second.atol;
    }
    const ManifestEntry e = manifest_entry(manifest, id, c.spec.name);
    if (e.rtol) c.spec.rtol = *e.rtol;
    if (e.atol) c.spec.atol = *e.atol;
    c.xfail = e.xfail;
    c.timeout_s = e.timeout_s;
    if (e.plant && !parse_plant(*e.plant, &c.spec.plant)) {
      *error = "manifest: unknown plant '" + printable(*e.plant) + "' for case '" + c.spec.id + "'";
      return false;
    }
    c.spec.name = printable(c.spec.name);
    cases->push_back(std::move(c));
  }
  return true;
}

std::vector<CaseConfig> config_matrix(const SuiteOptions& o) {
  std::vector<CaseConfig> matrix;
  for (int threads : o.threads) {
    for (const std::string& backends : o.backends) {
      for (const std::string& loader : o.loaders) {
        for (const std::string& verification : o.verifications) {
          for (int executions : o.executions) {
            matrix.push_back(CaseConfig{threads, backends, loader, verification, executions});
          }
        }
      }
    }
  }
  return matrix;
}

std::vector<WorkItem> shard_items(size_t num_cases, const std::vector<CaseConfig>& matrix,
                                  int shard_index, int shard_count) {
  const size_t total = num_cases * matrix.size();
  const size_t first = total * size_t(shard_index - 1) / size_t(shard_count);
  const size_t end = total * size_t(shard_index) / size_t(shard_count);
  std::vector<WorkItem> items;
  for (size_t k = first; k < end; ++k) {
    items.push_back(WorkItem{k / matrix.size(), matrix[k % matrix.size()]});
  }
  return items;
}

std::vector<CaseResult> run_item(const SuiteOptions& options, const SuiteCase& c,
                                 const CaseConfig& config) {
  std::vector<CaseResult> results;
  const double timeout_s = c.timeout_s ? *c.timeout_s : options.timeout_s;
  // What the parent knows without loading the program, for results it
  // makes itself.
  CaseResult base;
  base.test_id = c.spec.id;
  base.test_case = c.spec.name;
  base.config = config;
  base.params = config_params(config);
  std::string sidecar_error;
  base.aot = read_sidecar(c.spec.path, &sidecar_error);
  base.flow = base.aot.flow;

  std::vector<std::string> labels;
  bool have_labels = false;
  size_t next = 0;
  for (;;) {
    char rtol[40], atol[40];
    snprintf(rtol, sizeof(rtol), "--rtol=%.17g", c.spec.rtol);
    snprintf(atol, sizeof(atol), "--atol=%.17g", c.spec.atol);
    std::vector<std::string> args = {
        options.self_exe,
        "--run_one=" + c.spec.path,
        "--case_id=" + c.spec.id,
        std::string("--case_kind=") + (c.spec.kind == CaseKind::Bundled ? "bundled" : "golden"),
        rtol,
        atol,
        "--first_subtest=" + std::to_string(next),
        "--threads=" + std::to_string(config.threads),
        "--backends=" + config.backends,
        "--loader=" + config.loader,
        "--verification=" + config.verification,
        "--executions=" + std::to_string(config.executions),
    };
    if (c.spec.plant != Plant::None && test_faults_enabled()) {
      args.push_back(std::string("--plant=") + plant_name(c.spec.plant));
    }
    const ChildOutput child = run_child(args, timeout_s);
    size_t got = 0;
    std::istringstream lines(child.out);
    std::string line;
    std::string parse_error;
    while (std::getline(lines, line)) {
      if (line.empty()) continue;
      const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.is_object()) {
        parse_error = "the child wrote a line that is not JSON: " + last_lines(line, 200);
        continue;
      }
      if (j.contains("subtests")) {
        labels.clear();
        if (j["subtests"].is_array()) {
          for (const auto& l : j["subtests"]) labels.push_back(l.is_string() ? l.get<std::string>() : "");
        }
        have_labels = true;
        continue;
      }
      CaseResult r;
      std::string error;
      if (!from_json(j, &r, &error)) {
        parse_error = "the child's result does not parse: " + printable(error);
        continue;
      }
      results.push_back(std::move(r));
      ++got;
    }
    const size_t expected = have_labels ? (labels.empty() ? 1 : labels.size() - next) : 1;
    const bool clean = child.spawned && !child.timed_out && WIFEXITED(child.status) &&
                       WEXITSTATUS(child.status) == 0;
    if (clean && got >= expected) break;
    if (got >= expected && !results.empty()) {
      // Every result came, then the child died (at exit): a crash all the
      // same, charged to its last subtest.
      CaseResult& last = results.back();
      last.result = "Fail";
      last.detail = child.timed_out ? "Timeout" : "Process Crash";
      last.error = "after its results, the child " +
                   (child.timed_out ? std::string("did not exit in time")
                    : WIFSIGNALED(child.status)
                        ? "was killed by " + describe_signal(WTERMSIG(child.status))
                        : "exited with status " + std::to_string(WEXITSTATUS(child.status)));
      break;
    }
    // The subtest the child was on when it stopped.
    const size_t failed = next + got;
    CaseResult r = base;
    if (have_labels && failed < labels.size() && !labels[failed].empty()) {
      r.subtest = printable(labels[failed]);
      r.test_id = c.spec.id + "[" + r.subtest + "]";
    }
    r.result = "Fail";
    const std::string tail = child.err.empty() ? "" : "; stderr: " + last_lines(child.err, 400);
    if (!child.spawned) {
      r.detail = "Process Crash";
      r.error = printable(child.spawn_error);
    } else if (child.timed_out) {
      r.detail = "Timeout";
      r.error = "no result within " + format_seconds(timeout_s) + " s; killed" + tail;
    } else if (WIFSIGNALED(child.status)) {
      r.detail = "Process Crash";
      r.error = "killed by " + describe_signal(WTERMSIG(child.status)) + tail;
    } else {
      r.detail = "Process Crash";
      r.error = "exited with status " + std::to_string(WEXITSTATUS(child.status)) +
                " without a result" + (parse_error.empty() ? "" : " (" + parse_error + ")") +
                tail;
    }
    results.push_back(std::move(r));
    // Go on with the subtests after the one that failed, in a new child.
    if (!child.spawned || !have_labels || labels.empty() || failed + 1 >= labels.size()) break;
    next = failed + 1;
  }
  for (CaseResult& r : results) apply_expected_failure(c, &r);
  return results;
}

void apply_expected_failure(const SuiteCase& c, CaseResult* r) {
  if (!c.xfail) return;
  r->xfail = true;
  r->xfail_reason = printable(*c.xfail);
  if (r->result == "Pass") {
    r->result = "Fail";
    r->detail = "Unexpected Pass";
    if (r->error.empty()) r->error = "expected to fail: " + r->xfail_reason;
  }
}

bool run_suite(const SuiteOptions& options, std::vector<CaseResult>* results, std::string* error,
               void (*progress)(const CaseResult&)) {
  Manifest manifest;
  if (!options.manifest.empty() && !load_manifest(options.manifest, &manifest, error)) return false;
  std::vector<SuiteCase> cases;
  if (!discover_cases(options.cases_dir, manifest, &cases, error)) return false;
  const std::vector<CaseConfig> matrix = config_matrix(options);
  for (const WorkItem& item :
       shard_items(cases.size(), matrix, options.shard_index, options.shard_count)) {
    for (CaseResult& r : run_item(options, cases[item.case_index], item.config)) {
      if (progress != nullptr) progress(r);
      results->push_back(std::move(r));
    }
  }
  return true;
}

int suite_exit_status(const std::vector<CaseResult>& results) {
  for (const CaseResult& r : results) {
    if (r.result == "Fail" && !(r.xfail && r.detail != "Unexpected Pass")) return 1;
    if (r.result != "Pass" && r.result != "Skip" && r.result != "Fail") return 1;
  }
  return 0;
}

std::string summary_line(const std::vector<CaseResult>& results) {
  size_t passed = 0, failed = 0, expected = 0, skipped = 0;
  for (const CaseResult& r : results) {
    if (r.result == "Pass") ++passed;
    else if (r.result == "Skip") ++skipped;
    else if (r.xfail && r.detail != "Unexpected Pass") ++expected;
    else ++failed;
  }
  return std::to_string(results.size()) + " results: " + std::to_string(passed) + " passed, " +
         std::to_string(failed) + " failed, " + std::to_string(expected) +
         " expected failures, " + std::to_string(skipped) + " skipped";
}

}  // namespace ember::conformance
