#include "extension/runner_util/cpu_level.h"

#include <cstdio>
#include <string>

#include "runtime/core/error_message.h"
#include "runtime/platform/cpu_features.h"

namespace ember::runner {

const char* cpu_features_flag_help() {
  static const std::string help = [] {
    std::string text =
        "Cap the CPU features the kernels and the XNNPACK delegate use (as the "
        "EMBER_CPU_FEATURES environment variable): one of";
    size_t count = 0;
    const CpuLevel* levels = cpu_levels(&count);
    for (size_t i = 0; i < count; ++i) text += std::string(i ? ", " : " ") + levels[i].name;
    return text + ". Empty: the environment's, else native (all the CPU has).";
  }();
  return help.c_str();
}

int apply_cpu_features_flag(const char* level) {
  if (level != nullptr && level[0] != '\0' && set_cpu_level(level) != Error::Ok) {
    std::fprintf(stderr, "error: --cpu_features: %s\n", last_error_message());
    return 2;
  }
  if (cpu_level_status() != Error::Ok) {
    std::fprintf(stderr, "error: %s\n", last_error_message());
    return 2;
  }
  if (cpu_cap_note()[0] != '\0') std::fprintf(stderr, "note: %s\n", cpu_cap_note());
  const char* name = cpu_level_name();
  if (std::string(name) != "native") {
    char features[256];
    format_cpu_features(cpu_features(), features, sizeof(features));
    std::fprintf(stderr, "CPU level %s: %s\n", name, features);
  }
  return 0;
}

void print_cpu_levels() {
  size_t count = 0;
  const CpuLevel* levels = cpu_levels(&count);
  const uint32_t host = host_cpu_features();
  for (size_t i = 0; i < count; ++i) {
    const CpuLevel& l = levels[i];
    const bool native = i + 1 == count;
    const uint32_t missing = native ? 0 : l.features & ~host;
    char lacks[256] = "host";
    if (missing != 0) {
      char names[200];
      format_cpu_features(missing, names, sizeof(names));
      std::snprintf(lacks, sizeof(lacks), "lacks: %s", names);
    }
    char in_use[200];
    format_cpu_features(host & l.features, in_use, sizeof(in_use));
    std::printf("%s\t%s\t%s\t%s\n", l.name, lacks, in_use, l.stands_for);
  }
}

}  // namespace ember::runner
