// The process-wide CPU feature cap: the level table, host detection, and
// the one decision (see cpu_features.h).
#include "runtime/platform/cpu_features.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

#include "runtime/platform/error_message.h"
#include "runtime/platform/format.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define EMBER_CPU_X86 1
#else
#define EMBER_CPU_X86 0
#endif

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#define EMBER_CPU_ARM64_LINUX 1
#else
#define EMBER_CPU_ARM64_LINUX 0
#endif

namespace ember {
namespace {

constexpr uint32_t kAll = 0xFFFFFFFFu;

// ---- The levels, lowest first. Each holds the one before it. -----------
#if EMBER_CPU_X86
constexpr uint32_t kAvx2Set = kCpuX86Sse4 | kCpuX86Avx | kCpuX86Avx2;
constexpr uint32_t kAvx512Set = kAvx2Set | kCpuX86Avx512;
constexpr uint32_t kGfniSet = kAvx512Set | kCpuX86Avx512Vnni | kCpuX86Avx512Vbmi | kCpuX86Gfni;
constexpr CpuLevel kLevels[] = {
    {"baseline", 0, "SSE2 only: every x86-64 CPU"},
    {"sse4", kCpuX86Sse4, "SSSE3 and SSE4.1 (Nehalem, Bulldozer)"},
    {"avx", kCpuX86Sse4 | kCpuX86Avx, "AVX and F16C (Sandy/Ivy Bridge)"},
    {"avx2", kAvx2Set, "AVX2 and FMA3 (Haswell to Comet Lake, Zen 1 to Zen 3)"},
    {"avxvnni", kAvx2Set | kCpuX86AvxVnni, "AVX2 with AVX-VNNI (Alder Lake and later client cores)"},
    {"avx512", kAvx512Set, "AVX-512 F/BW/DQ/VL (Skylake-SP)"},
    {"avx512vnni", kAvx512Set | kCpuX86Avx512Vnni, "AVX-512 with VNNI (Cascade Lake)"},
    {"avx512vnnigfni", kGfniSet, "AVX-512 with VNNI, VBMI and GFNI (Ice Lake-SP, Zen 4)"},
    {"avx512avxvnni", kGfniSet | kCpuX86AvxVnni, "the above with AVX-VNNI (Zen 5)"},
    {"avx512fp16", kGfniSet | kCpuX86AvxVnni | kCpuX86Avx512Fp16,
     "the above with AVX-512-FP16 (Sapphire Rapids without AMX)"},
    {"amx", kGfniSet | kCpuX86AvxVnni | kCpuX86Avx512Fp16 | kCpuX86Amx,
     "the above with AMX-INT8 (Sapphire Rapids and later Xeons)"},
    {"native", kAll, "everything this CPU has (the default)"},
};
#elif defined(__aarch64__)
constexpr CpuLevel kLevels[] = {
    {"baseline", 0, "NEON only: every AArch64 CPU (Cortex-A53, A72)"},
    {"dotprod", kCpuArmDot, "NEON with dot product"},
    {"fp16", kCpuArmDot | kCpuArmFp16, "dot product and fp16 arithmetic (Cortex-A55, A76)"},
    {"i8mm", kCpuArmDot | kCpuArmFp16 | kCpuArmI8mm | kCpuArmBf16,
     "the above with i8mm and bf16 (Cortex-A510, A710, X2)"},
    {"native", kAll, "everything this CPU has (the default)"},
};
#else
constexpr CpuLevel kLevels[] = {
    {"baseline", 0, "no dispatch on this target"},
    {"native", kAll, "everything this CPU has (the default)"},
};
#endif
constexpr size_t kLevelCount = sizeof(kLevels) / sizeof(kLevels[0]);
const CpuLevel& native_level() { return kLevels[kLevelCount - 1]; }

// ---- Host detection. ------------------------------------------------------
#if EMBER_CPU_X86
bool bit(uint32_t word, int n) { return ((word >> n) & 1u) != 0; }

uint64_t read_xcr0() {
  uint32_t lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (uint64_t(hi) << 32) | lo;
}

uint32_t detect_host() {
  uint32_t a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  const bool osxsave = bit(c, 27);
  const uint64_t xcr0 = osxsave ? read_xcr0() : 0;
  const bool os_avx = (xcr0 & 0x6) == 0x6;        // XMM and YMM state
  const bool os_avx512 = (xcr0 & 0xE6) == 0xE6;   // and opmask, ZMM
  const bool os_amx = (xcr0 & 0x60000) == 0x60000;  // tile config, data
  uint32_t f = 0;
  if (bit(c, 9) && bit(c, 19)) f |= kCpuX86Sse4;
  const bool avx = os_avx && bit(c, 28) && bit(c, 29);
  const bool fma = bit(c, 12);
  if (avx && (f & kCpuX86Sse4)) f |= kCpuX86Avx;
  uint32_t b7 = 0, c7 = 0, d7 = 0, a71 = 0;
  if (__get_cpuid_count(7, 0, &a, &b7, &c7, &d7)) {
    uint32_t bb, cc, dd;
    if (a >= 1) __get_cpuid_count(7, 1, &a71, &bb, &cc, &dd);
  }
  if ((f & kCpuX86Avx) && fma && bit(b7, 5)) f |= kCpuX86Avx2;
  if ((f & kCpuX86Avx2) && bit(a71, 4)) f |= kCpuX86AvxVnni;
  const bool skx = bit(b7, 16) && bit(b7, 17) && bit(b7, 30) && bit(b7, 31);
  if ((f & kCpuX86Avx2) && os_avx512 && skx) f |= kCpuX86Avx512;
  if (f & kCpuX86Avx512) {
    if (bit(c7, 1)) f |= kCpuX86Avx512Vbmi;
    if (bit(c7, 11)) f |= kCpuX86Avx512Vnni;
    if (bit(d7, 23)) f |= kCpuX86Avx512Fp16;
    if (os_amx && bit(d7, 24) && bit(d7, 25)) f |= kCpuX86Amx;
  }
  if (bit(c7, 8)) f |= kCpuX86Gfni;
  return f;
}
#elif EMBER_CPU_ARM64_LINUX
uint32_t detect_host() {
  // Linux's HWCAP bits (asm/hwcap.h), spelled out so old headers build.
  const unsigned long hw = getauxval(AT_HWCAP);
  const unsigned long hw2 = getauxval(AT_HWCAP2);
  uint32_t f = 0;
  if (hw & (1ul << 20)) f |= kCpuArmDot;    // HWCAP_ASIMDDP
  if (hw & (1ul << 10)) f |= kCpuArmFp16;   // HWCAP_ASIMDHP
  if (hw & (1ul << 22)) f |= kCpuArmSve;    // HWCAP_SVE
  if (hw2 & (1ul << 13)) f |= kCpuArmI8mm;  // HWCAP2_I8MM
  if (hw2 & (1ul << 14)) f |= kCpuArmBf16;  // HWCAP2_BF16
  return f;
}
#else
uint32_t detect_host() { return 0; }
#endif

// ---- The decision. ----------------------------------------------------------
struct Decision {
  const CpuLevel* level = nullptr;  // null: EMBER_CPU_FEATURES named none
  uint32_t features = 0;
  char bad_name[64] = {};
  char note[256] = {};
};

std::atomic<bool> g_decided{false};
const CpuLevel* g_requested = nullptr;  // set_cpu_level's, before the decision

const CpuLevel* find_level(const char* name) {
  for (const CpuLevel& l : kLevels) {
    if (std::strcmp(l.name, name) == 0) return &l;
  }
  return nullptr;
}

// Appends `word` to the list in `out` (`used` bytes so far), after
// `separator` unless it is the first; false once `out` is full.
bool append_word(char* out, size_t size, size_t* used, const char* separator, const char* word) {
  if (*used >= size) return false;
  *used += format_text(out + *used, size - *used, "%s%s", *used ? separator : "", word);
  return *used < size;
}

void write_known_levels(char* out, size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (const CpuLevel& l : kLevels) {
    if (!append_word(out, size, &used, ", ", l.name)) break;
  }
}

Decision decide() {
  Decision d;
  const char* env = std::getenv("EMBER_CPU_FEATURES");
  d.level = g_requested;
  if (d.level == nullptr && env != nullptr && env[0] != '\0') {
    d.level = find_level(env);
    if (d.level == nullptr) printable_name(env, d.bad_name, sizeof(d.bad_name));
  }
  if (d.level == nullptr && d.bad_name[0] == '\0') d.level = &native_level();
  const uint32_t host = host_cpu_features();
  const uint32_t wanted = d.level != nullptr ? d.level->features : 0;
  d.features = host & wanted;
  const uint32_t missing = wanted & ~host;
  if (d.level != nullptr && d.level != &native_level() && missing != 0) {
    char names[160];
    format_cpu_features(missing, names, sizeof(names));
    format_text(d.note, sizeof(d.note),
                "CPU level '%s' asks for features this CPU lacks (%s): capped to the CPU's",
                d.level->name, names);
  }
  return d;
}

const Decision& decision() {
  static const Decision d = decide();
  g_decided.store(true, std::memory_order_release);
  return d;
}

}  // namespace

const CpuLevel* cpu_levels(size_t* count) {
  *count = kLevelCount;
  return kLevels;
}

uint32_t host_cpu_features() {
  static const uint32_t host = detect_host();
  return host;
}

Error set_cpu_level(const char* name) {
  const CpuLevel* level = name != nullptr ? find_level(name) : nullptr;
  if (level == nullptr) {
    char known[256];
    write_known_levels(known, sizeof(known));
    set_error_message("unknown CPU level '%s'; known: %s", PrintableName(name ? name : "").c_str(),
                      known);
    return Error::InvalidArgument;
  }
  if (g_decided.load(std::memory_order_acquire)) {
    set_error_message("the CPU level is decided at the first program load or kernel call; "
                      "set it before (it is '%s')", cpu_level_name());
    return Error::InvalidState;
  }
  g_requested = level;
  return Error::Ok;
}

uint32_t cpu_features() { return decision().features; }

const char* cpu_level_name() {
  const Decision& d = decision();
  return d.level != nullptr ? d.level->name : "baseline";
}

Error cpu_level_status() {
  const Decision& d = decision();
  if (d.level != nullptr) return Error::Ok;
  char known[256];
  write_known_levels(known, sizeof(known));
  set_error_message("EMBER_CPU_FEATURES='%s' names no CPU level; known: %s", d.bad_name, known);
  return Error::InvalidArgument;
}

const char* cpu_cap_note() { return decision().note; }

void format_cpu_features(uint32_t features, char* out, size_t size) {
  static constexpr struct {
    uint32_t bit;
    const char* name;
  } kNames[] = {
      {kCpuX86Sse4, "sse4"},          {kCpuX86Avx, "avx"},
      {kCpuX86Avx2, "avx2"},          {kCpuX86AvxVnni, "avxvnni"},
      {kCpuX86Avx512, "avx512"},      {kCpuX86Avx512Vbmi, "avx512vbmi"},
      {kCpuX86Avx512Vnni, "avx512vnni"}, {kCpuX86Gfni, "gfni"},
      {kCpuX86Avx512Fp16, "avx512fp16"}, {kCpuX86Amx, "amx"},
      {kCpuArmDot, "dotprod"},        {kCpuArmFp16, "fp16"},
      {kCpuArmI8mm, "i8mm"},          {kCpuArmBf16, "bf16"},
      {kCpuArmSve, "sve"},
  };
  if (size == 0) return;
  out[0] = '\0';
  size_t used = 0;
  for (const auto& n : kNames) {
    if ((features & n.bit) != 0 && !append_word(out, size, &used, " ", n.name)) return;
  }
  if (used == 0) format_text(out, size, "none beyond the baseline");
}

}  // namespace ember
