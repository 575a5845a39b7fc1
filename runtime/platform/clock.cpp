#include "runtime/platform/clock.h"

#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
#define EMBER_M_PROFILE 1
#else
#define EMBER_M_PROFILE 0
#include <chrono>
#endif

namespace ember {
namespace {

#if EMBER_M_PROFILE
// System control space registers (ARMv7-M / ARMv8-M architecture manuals).
volatile uint32_t& reg(uintptr_t address) { return *reinterpret_cast<volatile uint32_t*>(address); }
constexpr uintptr_t kDemcr = 0xE000EDFC;     // Debug Exception and Monitor Control
constexpr uint32_t kDemcrTrcena = 1u << 24;  // enables the DWT
constexpr uintptr_t kDwtCtrl = 0xE0001000;
constexpr uint32_t kDwtNoCycCnt = 1u << 25;  // read-only: no cycle counter
constexpr uint32_t kDwtCycCntEna = 1u << 0;
constexpr uintptr_t kDwtCycCnt = 0xE0001004;
constexpr uintptr_t kSystCsr = 0xE000E010;   // SysTick control and status
constexpr uintptr_t kSystRvr = 0xE000E014;   // reload value
constexpr uintptr_t kSystCvr = 0xE000E018;   // current value (counts down)
constexpr uint32_t kSystickMask = 0xFFFFFF;  // 24 bits
constexpr uint32_t kSystickStartReads = 1u << 20;

enum class Counter : uint8_t { kUnknown, kDwt, kSysTick };
Counter g_counter = Counter::kUnknown;
uint32_t g_last = 0;
uint64_t g_high = 0;

// The DWT cycle counter where it counts (a core may have none, and QEMU's
// boards model the registers but not the count); else SysTick on the core
// clock, free-running from its 24-bit maximum.
void start_counter() {
  reg(kDemcr) |= kDemcrTrcena;
  if ((reg(kDwtCtrl) & kDwtNoCycCnt) == 0) {
    reg(kDwtCycCnt) = 0;
    reg(kDwtCtrl) |= kDwtCycCntEna;
    const uint32_t before = reg(kDwtCycCnt);
    for (volatile int i = 0; i < 64; ++i) {
    }
    if (reg(kDwtCycCnt) != before) {
      g_counter = Counter::kDwt;
      g_last = reg(kDwtCycCnt);
      return;
    }
  }
  reg(kSystRvr) = kSystickMask;
  reg(kSystCvr) = 0;
  reg(kSystCsr) = 0x5;  // ENABLE | CLKSOURCE (core clock), no interrupt
  // The count stays 0 until the first reload: one cycle on a core, but on
  // QEMU until its timer next runs (tens of microseconds), so wait for it
  // (bounded, for a SysTick without a clock).
  for (uint32_t i = 0; i < kSystickStartReads && (reg(kSystCvr) & kSystickMask) == 0; ++i) {
  }
  g_counter = Counter::kSysTick;
  g_last = reg(kSystCvr) & kSystickMask;
}

uint64_t default_now() { return core_cycles(); }
constexpr uint64_t kDefaultRate = 0;
#else
uint64_t default_now() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}
constexpr uint64_t kDefaultRate = 1000000000;
#endif

ClockFn g_now = default_now;
uint64_t g_rate = kDefaultRate;

}  // namespace

uint64_t core_cycles() {
#if EMBER_M_PROFILE
  if (g_counter == Counter::kUnknown) start_counter();
  if (g_counter == Counter::kDwt) {
    const uint32_t now = reg(kDwtCycCnt);
    g_high += uint32_t(now - g_last);  // modulo 2^32: one wrap at most between reads
    g_last = now;
    return g_high;
  }
  const uint32_t now = reg(kSystCvr) & kSystickMask;
  g_high += (g_last - now) & kSystickMask;  // counts down, modulo 2^24
  g_last = now;
  return g_high;
#else
  return 0;
#endif
}

void set_clock(ClockFn now, uint64_t ticks_per_second) {
  g_now = now != nullptr ? now : default_now;
  g_rate = now != nullptr ? ticks_per_second : kDefaultRate;
}

void set_clock_rate(uint64_t ticks_per_second) { g_rate = ticks_per_second; }

uint64_t clock_ticks() { return g_now(); }
uint64_t clock_ticks_per_second() { return g_rate; }


}  // namespace ember
