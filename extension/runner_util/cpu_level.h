// The runners' --cpu_features flag: one way for every command-line tool to
// cap the CPU features Ember's kernels and XNNPACK use (the same levels as
// the EMBER_CPU_FEATURES environment variable; runtime/platform/
// cpu_features.h).
#pragma once

namespace ember::runner {

// The flag's help text: what it does and the known level names.
const char* cpu_features_flag_help();

// Applies `level` (empty: leave the environment's or the default), then
// checks EMBER_CPU_FEATURES. Prints what it decided to stderr when the
// level is not "native" or was capped to the host's. Returns 0, or 2 after
// printing an error that lists the known levels. Call before loading.
int apply_cpu_features_flag(const char* level);

// Prints one line per level to stdout, tab-separated: its name; "host"
// when this CPU has every feature of it ("native" always), else "lacks:"
// and the features it lacks; the features it would use here; which CPUs
// it stands for. The CPU-feature matrix (scripts/cpu_matrix.sh) reads it.
void print_cpu_levels();

}  // namespace ember::runner
