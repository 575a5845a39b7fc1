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
// CoreSight registers (ARMv7-M / ARMv8-M architecture manuals).
volatile uint32_t& reg(uintptr_t address) { return *reinterpret_cast<volatile uint32_t*>(address); }
constexpr uintptr_t kDemcr = 0xE000EDFC;     // Debug Exception and Monitor Control
constexpr uint32_t kDemcrTrcena = 1u << 24;  // enables the DWT
constexpr uintptr_t kDwtCtrl = 0xE0001000;
constexpr uint32_t kDwtNoCycCnt = 1u << 25;  // read-only: no cycle counter
constexpr uint32_t kDwtCycCntEna = 1u << 0;
constexpr uintptr_t kDwtCycCnt = 0xE0001004;

bool g_dwt_started = false;
bool g_dwt_present = false;
uint32_t g_dwt_last = 0;
uint64_t g_dwt_high = 0;

uint64_t default_now() { return dwt_cycles(); }
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

bool dwt_cycle_counter_start() {
#if EMBER_M_PROFILE
  if (!g_dwt_started) {
    g_dwt_started = true;
    reg(kDemcr) |= kDemcrTrcena;
    g_dwt_present = (reg(kDwtCtrl) & kDwtNoCycCnt) == 0;
    if (g_dwt_present) {
      reg(kDwtCycCnt) = 0;
      reg(kDwtCtrl) |= kDwtCycCntEna;
    }
  }
  return g_dwt_present;
#else
  return false;
#endif
}

uint64_t dwt_cycles() {
#if EMBER_M_PROFILE
  if (!dwt_cycle_counter_start()) return 0;
  const uint32_t now = reg(kDwtCycCnt);
  if (now < g_dwt_last) g_dwt_high += uint64_t(1) << 32;
  g_dwt_last = now;
  return g_dwt_high | now;
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

bool clock_available() {
#if EMBER_M_PROFILE
  if (g_now == default_now) return dwt_cycle_counter_start();
#endif
  return true;
}

}  // namespace ember
