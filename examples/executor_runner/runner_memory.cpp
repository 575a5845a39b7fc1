#include "examples/executor_runner/runner_memory.h"

#include <cstring>
#include <fstream>

#include "backends/xnnpack/xnnpack_backend.h"

namespace ember::runner {

long status_kib(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const size_t n = std::strlen(field);
  while (std::getline(in, line)) {
    if (line.compare(0, n, field) == 0 && line.size() > n && line[n] == ':') {
      return std::atol(line.c_str() + n + 1);
    }
  }
  return 0;
}

namespace {

double mib(double kib) { return kib / 1024.0; }

}  // namespace

void MemoryReport::sample(const std::string& stage) {
  samples_.push_back({stage, status_kib("VmRSS"), status_kib("RssAnon"), status_kib("RssFile"),
                      status_kib("VmHWM")});
}

void MemoryReport::print(FILE* out, const Module& module, const std::vector<std::string>& methods,
                         size_t file_bytes) const {
  if (samples_.empty()) return;
  fprintf(out, "Memory (MiB; RSS = anonymous + file-backed pages of this process):\n");
  fprintf(out, "  %-34s %8s %8s %8s %8s\n", "stage", "RSS", "anon", "file", "peak");
  for (const Sample& s : samples_) {
    fprintf(out, "  %-34s %8.1f %8.1f %8.1f %8.1f\n", s.stage.c_str(), mib(s.rss_kib),
            mib(s.anon_kib), mib(s.file_kib), mib(s.peak_kib));
  }
  const Sample& first = samples_.front();
  const long peak = samples_.back().peak_kib;
  fprintf(out, "  peak growth over '%s': %.1f MiB (the program file: %.1f MiB)\n",
          first.stage.c_str(), mib(peak - first.rss_kib), file_bytes / 1048576.0);
  for (const std::string& name : methods) {
    Result<MethodMeta> meta = module.method_meta(name);
    if (!meta.ok()) continue;
    double planned = 0;
    for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
      Result<int64_t> bytes = meta->memory_planned_buffer_size(i);
      if (bytes.ok()) planned += double(*bytes);
    }
    fprintf(out, "  method '%s': planned buffers %.2f MiB (%zu), method allocator %.2f MiB used\n",
            name.c_str(), planned / 1048576.0, meta->num_memory_planned_buffers(),
            module.method_allocator_used(name) / 1048576.0);
  }
  const xnnpack::MemoryStats x = xnnpack::memory_stats();
  if (x.delegates > 0) {
    fprintf(out, "  XNNPACK delegates (%zu): packed weights %.1f MiB; program constants "
            "released once packed %.1f MiB; workspaces %zu\n", x.delegates,
            x.packed_weight_bytes / 1048576.0, x.released_constant_bytes / 1048576.0,
            x.workspaces);
  }
}

}  // namespace ember::runner
