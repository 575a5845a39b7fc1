// Product tool: lists the operators programs need, for a selective build.
// ember_list_ops: the operators that programs need, for a selective build.
//
//   ember_list_ops model.pte [more.pte model.bpte ...]
//       prints the union of the programs' operators, one per line, sorted,
//       as the registry keys them ("aten::add.out", "aten::copy_");
//   ember_list_ops --kernel_files model.pte
//       adds, after a tab, the source file that registers each operator
//       (kernels/portable/op_add.cpp), "(prim op, always built)" after a
//       kernels/prim_ops file, or "-" where no Ember kernel registers it;
//   ember_list_ops --output=ops.txt model.pte
//       writes the list to ops.txt instead of stdout (--kernel_files still
//       prints its table), after '#' comment lines naming the programs;
//       CMake reads it with -DEMBER_SELECT_OPS_FILE=ops.txt.
//
// The operators are every entry of every method's operator table (what
// loading resolves, called or not), read by conformance/program_facts,
// which checks the bytes with the runtime's own loader first. The
// operator -> file table is generated from the kernel sources by
// kernels/selective_build.cmake, the same scan that picks the files of a
// selective build. Operators without an Ember kernel are also named on
// stderr. Exit status 0, or 1 with "error: ..." on stderr when a program
// cannot be read, 2 for bad usage.
#include <gflags/gflags.h>

#include <cstdio>
#include <cstring>
#include <set>
#include <string>

#include "conformance/program_facts.h"
#include "runtime/core/error_message.h"

DEFINE_bool(kernel_files, false, "Print each operator's kernel source file after a tab.");
DEFINE_string(output, "", "Write the operator list to this file (for EMBER_SELECT_OPS_FILE).");

namespace {

struct KernelSource {
  const char* op;
  const char* file;
};

constexpr KernelSource kKernelSources[] = {
#include "list_ops_kernel_table.inc"
};

// The file registering `op`, or null.
const char* kernel_source(const std::string& op) {
  for (const KernelSource& k : kKernelSources) {
    if (op == k.op) return k.file;
  }
  return nullptr;
}

std::string shown(const std::string& text) {
  char out[1024];
  ember::printable_name(text.c_str(), out, sizeof(out));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  gflags::SetUsageMessage("ember_list_ops [--kernel_files] [--output=FILE] PROGRAM...");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (argc < 2) {
    std::fprintf(stderr, "usage: ember_list_ops [--kernel_files] [--output=FILE] "
                         "PROGRAM.pte|PROGRAM.bpte...\n");
    return 2;
  }
  std::set<std::string> ops;
  for (int i = 1; i < argc; ++i) {
    ember::Result<ember::conformance::ProgramFacts> facts =
        ember::conformance::program_facts_from_file(argv[i]);
    if (!facts.ok()) {
      std::fprintf(stderr, "error: %s: %s\n", shown(argv[i]).c_str(), ember::last_error_message());
      return 1;
    }
    ops.insert(facts->operators.begin(), facts->operators.end());
  }

  for (const std::string& op : ops) {
    if (kernel_source(op) == nullptr) {
      std::fprintf(stderr, "warning: no Ember kernel registers %s\n", op.c_str());
    }
  }
  if (!FLAGS_output.empty()) {
    FILE* out = std::fopen(FLAGS_output.c_str(), "w");
    bool ok = out != nullptr;
    if (ok) {
      std::fprintf(out, "# Operators of");
      for (int i = 1; i < argc; ++i) std::fprintf(out, " %s", shown(argv[i]).c_str());
      std::fprintf(out, "\n# written by ember_list_ops, for cmake "
                        "-DEMBER_SELECT_OPS_FILE=<this file>\n");
      for (const std::string& op : ops) std::fprintf(out, "%s\n", op.c_str());
      ok = std::fclose(out) == 0;
    }
    if (!ok) {
      std::fprintf(stderr, "error: cannot write '%s'\n", shown(FLAGS_output).c_str());
      return 1;
    }
    if (!FLAGS_kernel_files) return 0;
  }
  for (const std::string& op : ops) {
    const char* file = kernel_source(op);
    if (!FLAGS_kernel_files) {
      std::printf("%s\n", op.c_str());
    } else if (file == nullptr) {
      std::printf("%s\t-\n", op.c_str());
    } else {
      const bool prim = std::strncmp(file, "kernels/prim_ops/", 17) == 0;
      std::printf("%s\t%s%s\n", op.c_str(), file, prim ? " (prim op, always built)" : "");
    }
  }
  return 0;
}
