// The stream counter of random_util.h.
#include "kernels/portable/util/random_util.h"

#if EMBER_THREADS
#include <atomic>
#endif

namespace ember {
namespace {

#if EMBER_THREADS
// Several threads may draw streams at once.
std::atomic<uint64_t> g_seed{kDefaultRandomSeed};
std::atomic<uint64_t> g_next_stream{0};

uint64_t take_stream() { return g_next_stream.fetch_add(1, std::memory_order_relaxed); }
uint64_t seed() { return g_seed.load(std::memory_order_relaxed); }
void reset(uint64_t s) {
  g_seed.store(s, std::memory_order_relaxed);
  g_next_stream.store(0, std::memory_order_relaxed);
}
#else
// One thread (EMBER_THREADS off): plain counters, since 32-bit cores such
// as Cortex-M have no 64-bit atomics.
uint64_t g_seed = kDefaultRandomSeed;
uint64_t g_next_stream = 0;

uint64_t take_stream() { return g_next_stream++; }
uint64_t seed() { return g_seed; }
void reset(uint64_t s) {
  g_seed = s;
  g_next_stream = 0;
}
#endif

}  // namespace

RandomStream next_random_stream() {
  const uint64_t n = take_stream();
  // Key = one SplitMix64 step over (seed, n), so neighbouring streams'
  // sequences do not overlap in any useful sense.
  RandomStream base{seed()};
  return RandomStream{random_bits(base, n)};
}

void reset_random_streams(uint64_t s) { reset(s); }

}  // namespace ember
