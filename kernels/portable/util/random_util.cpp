// The stream counter of random_util.h.
#include "kernels/portable/util/random_util.h"

#include <atomic>

namespace ember {
namespace {

std::atomic<uint64_t> g_seed{kDefaultRandomSeed};
std::atomic<uint64_t> g_next_stream{0};

}  // namespace

RandomStream next_random_stream() {
  const uint64_t n = g_next_stream.fetch_add(1, std::memory_order_relaxed);
  // Key = one SplitMix64 step over (seed, n), so neighbouring streams'
  // sequences do not overlap in any useful sense.
  RandomStream base{g_seed.load(std::memory_order_relaxed)};
  return RandomStream{random_bits(base, n)};
}

void reset_random_streams(uint64_t seed) {
  g_seed.store(seed, std::memory_order_relaxed);
  g_next_stream.store(0, std::memory_order_relaxed);
}

}  // namespace ember
