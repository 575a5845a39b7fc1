// Product tool: the Cortex-M runner (scripts/run_cortex_m.sh runs it under QEMU).
// ember_baremetal_runner: runs .pte / .bpte files on a Cortex-M board under
// QEMU (or on hardware with a semihosting debugger) and verifies every
// bundled test case. Files are read from the host over semihosting, so one
// firmware image serves every model; or one model is linked into the image
// (EMBER_BAREMETAL_MODEL at configure time) with its pools sized at build
// time from a memory header (EMBER_BAREMETAL_MEMORY_HEADER).
//
//   ember_baremetal_runner [flags] FILE...
//     --manifest=PATH --dir=DIR   the op suite: every case of a MANIFEST
//                                 (examples/export/export_op_suite.py's
//                                 format), DIR/<case>.bpte, with its
//                                 tolerances: by output dtype as on the
//                                 host (test/op_suite/op_suite_tolerance.h)
//                                 unless the line states them
//     --shard=I/N                 only cases I, I+N, ... of the manifest
//     --method=NAME               only this method
//     --rtol=X --atol=X           tolerances (upstream's defaults)
//     --cycles                    per-operator cycle counts (DWT)
//     --kernel_prepare=0          load without the kernel Prepare step
//                                 (every call checked when it runs)
//     --header                    print the memory header of the first FILE
//     --shrink=method|planned     one byte less than MethodMeta states for
//                                 that pool: the load must fail cleanly
//     --temp=BYTES                temp allocator size (default 1 MiB)
//
// Prints a line per test case and "N passed, M failed" at the end; exit
// status 0 when every case passed, 1 when one failed, 2 for bad usage or
// an unreadable file. Static memory only: the arena and the file buffer
// are fixed arrays (sizes below), every pool carved from the arena at the
// size the program states.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "bundled_program/bundled_program.h"
#include "examples/baremetal/run_program.h"
#include "examples/memory_plan/memory_header.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "runtime/core/error_message.h"
#include "runtime/executor/program.h"
#include "runtime/kernel/operator_registry.h"

#ifndef EMBER_BAREMETAL_ARENA_BYTES
#define EMBER_BAREMETAL_ARENA_BYTES (8u << 20)
#endif
#ifndef EMBER_BAREMETAL_FILE_BYTES
#define EMBER_BAREMETAL_FILE_BYTES (8u << 20)
#endif

#ifdef EMBER_BAREMETAL_LINKED_MODEL
extern "C" const unsigned char ember_model_data[];
extern "C" const unsigned int ember_model_size;
#endif
#ifdef EMBER_BAREMETAL_MEMORY_HEADER
#include EMBER_BAREMETAL_MEMORY_HEADER
#endif

namespace {

using ember::baremetal::say;

alignas(32) __attribute__((section(".bulk.arena"))) uint8_t g_arena[EMBER_BAREMETAL_ARENA_BYTES];
alignas(32) __attribute__((section(".bulk.file"))) uint8_t g_file[EMBER_BAREMETAL_FILE_BYTES];

#if defined(EMBER_BAREMETAL_MEMORY_HEADER) && defined(EMBER_MODEL_METHOD0_METHOD_ALLOCATOR_BYTES)
// Sized at build time from the memory header, exactly.
alignas(16) uint8_t g_method_pool[EMBER_MODEL_METHOD0_METHOD_ALLOCATOR_BYTES];
alignas(16) uint8_t g_planned[EMBER_MODEL_METHOD0_PLANNED_TOTAL_BYTES + 1];
#define EMBER_HAVE_STATIC_POOLS 1
#endif

// Reads `path` over semihosting into g_file; 0 when it cannot.
size_t read_file(const char* path, size_t* needed) {
  *needed = 0;
  FILE* f = std::fopen(path, "rb");
  if (f == nullptr) return 0;
  size_t total = 0;
  for (;;) {
    const size_t room = sizeof(g_file) - total;
    const size_t n = std::fread(g_file + total, 1, room, f);
    total += n;
    if (n < room) break;
    // Full: count what does not fit, to say how big the file is.
    char spill[256];
    size_t more = 0;
    for (size_t k; (k = std::fread(spill, 1, sizeof(spill), f)) > 0;) more += k;
    std::fclose(f);
    *needed = total + more;
    return more == 0 ? total : 0;
  }
  std::fclose(f);
  return total;
}

struct Flags {
  ember::baremetal::RunOptions run{ember::kDefaultBundledRtol, ember::kDefaultBundledAtol};
  const char* manifest = nullptr;
  const char* dir = ".";
  size_t shard = 0, shards = 1;
  bool header = false;
};

bool parse_flag(const char* arg, Flags& flags) {
  const auto value = [arg](const char* name) -> const char* {
    const size_t n = std::strlen(name);
    return std::strncmp(arg, name, n) == 0 ? arg + n : nullptr;
  };
  const char* v = nullptr;
  if ((v = value("--manifest="))) flags.manifest = v;
  else if ((v = value("--dir="))) flags.dir = v;
  else if ((v = value("--method="))) flags.run.method = v;
  else if ((v = value("--rtol="))) flags.run.rtol = std::strtod(v, nullptr);
  else if ((v = value("--atol="))) flags.run.atol = std::strtod(v, nullptr);
  else if ((v = value("--temp="))) flags.run.temp_bytes = std::strtoul(v, nullptr, 10);
  else if ((v = value("--shard="))) {
    char* end = nullptr;
    flags.shard = std::strtoul(v, &end, 10);
    flags.shards = end != nullptr && *end == '/' ? std::strtoul(end + 1, nullptr, 10) : 0;
    if (flags.shards == 0 || flags.shard >= flags.shards) return false;
  } else if ((v = value("--shrink="))) {
    if (std::strcmp(v, "method") == 0) flags.run.shrink = 'm';
    else if (std::strcmp(v, "planned") == 0) flags.run.shrink = 'p';
    else return false;
  } else if (std::strcmp(arg, "--cycles") == 0) flags.run.cycles = true;
  else if (std::strcmp(arg, "--kernel_prepare=0") == 0) ember::set_kernel_prepare_enabled(false);
  else if (std::strcmp(arg, "--header") == 0) flags.header = true;
  else return false;
  return true;
}

void tally(ember::baremetal::RunCounts& total, const ember::baremetal::RunCounts& one) {
  total.passed += one.passed;
  total.failed += one.failed;
}

size_t g_too_big = 0;
// One file: read it, run it (or print its memory header).
ember::baremetal::RunCounts run_file(const char* path, const Flags& flags,
                                     const ember::baremetal::RunOptions& options,
                                     ember::MemoryAllocator& arena) {
  ember::baremetal::RunCounts counts;
  size_t needed = 0;
  const size_t size = read_file(path, &needed);
  if (size == 0) {
    if (needed > 0) {
      ++g_too_big;
      say("%s: DOES NOT FIT: %zu bytes, the board's file buffer holds %zu\n", path, needed,
          sizeof(g_file));
    } else {
      say("%s: cannot read the file\n", path);
      counts.failed = 1;
    }
    return counts;
  }
  if (flags.header) {
    ember::Result<ember::ProgramView> view = ember::ProgramView::open(g_file, size);
    if (!view.ok()) {
      say("%s: %s\n", path, ember::last_error_message());
      counts.failed = 1;
      return counts;
    }
    ember::BufferDataLoader loader(view->program_data(), view->program_size());
    ember::Result<ember::Program> p = ember::Program::load(&loader);
    if (!p.ok() || ember::write_memory_report(*p, path, ember::MemoryReportFormat::kCHeader,
                                              [](void*, const char* t) { std::fputs(t, stdout); },
                                              nullptr) != ember::Error::Ok) {
      say("%s: %s\n", path, ember::last_error_message());
      counts.failed = 1;
    }
    return counts;
  }
  say("%s:\n", path);
  arena.reset();
  return ember::baremetal::run_program(g_file, size, path, options, arena);
}

// The op suite: "<case> rtol=<x|-> atol=<x|-> ops=..." lines.
int run_manifest(const Flags& flags, ember::MemoryAllocator& arena,
                 ember::baremetal::RunCounts& total) {
  FILE* f = std::fopen(flags.manifest, "r");
  if (f == nullptr) {
    say("%s: cannot read the manifest\n", flags.manifest);
    return 2;
  }
  char line[1024];
  size_t index = 0;
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    if (line[0] == '#' || line[0] == '\n') continue;
    if (index++ % flags.shards != flags.shard) continue;
    char name[256], rtol[32], atol[32];
    if (std::sscanf(line, "%255s rtol=%31s atol=%31s", name, rtol, atol) != 3) continue;
    ember::baremetal::RunOptions options = flags.run;
    options.op_suite_tolerance = true;  // "-": by output dtype
    options.rtol = std::strcmp(rtol, "-") != 0 ? std::strtod(rtol, nullptr) : -1.0;
    options.atol = std::strcmp(atol, "-") != 0 ? std::strtod(atol, nullptr) : -1.0;
    char path[512];
    std::snprintf(path, sizeof(path), "%s/%s.bpte", flags.dir, name);
    tally(total, run_file(path, flags, options, arena));
  }
  std::fclose(f);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  const char* files[32];
  size_t num_files = 0;
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-' && argv[i][1] == '-') {
      if (!parse_flag(argv[i], flags)) {
        say("unknown or malformed flag: %s\n", argv[i]);
        return 2;
      }
    } else if (num_files < sizeof(files) / sizeof(files[0])) {
      files[num_files++] = argv[i];
    }
  }
  ember::MemoryAllocator arena(g_arena, sizeof(g_arena));
  ember::baremetal::RunCounts total;
#ifdef EMBER_BAREMETAL_LINKED_MODEL
  if (num_files == 0 && flags.manifest == nullptr) {
    ember::baremetal::StaticPools pools;
#ifdef EMBER_HAVE_STATIC_POOLS
    pools = {g_method_pool, sizeof(g_method_pool), g_planned, sizeof(g_planned) - 1};
    say("linked model: static pools from the memory header (method allocator %zu bytes, "
        "planned %zu bytes)\n",
        pools.method_pool_size, pools.planned_size);
#endif
    tally(total, ember::baremetal::run_program(ember_model_data, ember_model_size, "linked model",
                                               flags.run, arena, &pools));
  }
#endif
  if (flags.manifest != nullptr) {
    const int status = run_manifest(flags, arena, total);
    if (status != 0) return status;
  }
  for (size_t i = 0; i < num_files; ++i) tally(total, run_file(files[i], flags, flags.run, arena));
  if (flags.header) return total.failed == 0 ? 0 : 2;
  if (total.passed + total.failed + g_too_big == 0) {
    say("nothing to run: give FILE... or --manifest\n");
    return 2;
  }
  say("%zu passed, %zu failed, %zu did not fit the board's memory\n", total.passed,
      total.failed, g_too_big);
  return total.failed == 0 ? 0 : 1;
}
