// The random numbers of aten::rand.out and aten::randn.out.
//
// Where the seed comes from: upstream's portable rand/randn seed a fresh
// std::mt19937 from std::random_device on every call (nondeterministic,
// and mt19937's 5 KB state). Ember instead numbers the calls: every call
// takes the next value of one process-wide atomic counter as its stream
// number, and element i of stream s is SplitMix64's output at position
// i + 1 of the sequence keyed by mix(seed, s). The seed is
// kDefaultRandomSeed until reset_random_streams() sets another one (and
// restarts the count). So a program's random values are the same on every
// run in a fresh process (given the same order of calls), they are not
// PyTorch's values, and they must not be used for cryptography.
//
// Thread safety: the counter is atomic, so concurrent calls (from several
// methods or threads) each get a distinct stream; which call gets which
// number then follows the interleaving. An element's value depends only on
// (seed, stream, index), so the fill may be split across threads. No heap,
// no locks. reset_random_streams() may race only with itself.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

constexpr uint64_t kDefaultRandomSeed = 0x5EED0FE3BE25ull;

// A random stream: the key that SplitMix64 counts from.
struct RandomStream {
  uint64_t key;
};

// The next call's stream (thread-safe).
RandomStream next_random_stream();

// Sets the seed and restarts the stream count at 0 (for embedders and
// tests that want to reproduce a run).
void reset_random_streams(uint64_t seed);

// 64 random bits: element `i` of stream `s`.
inline uint64_t random_bits(RandomStream s, uint64_t i) {
  uint64_t z = s.key + (i + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Uniform in [0, 1) on a grid of 2^-bits (bits <= 53), so the value is
// exact in any float type with at least `bits` significand bits and can
// never round up to 1.
inline double random_unit(uint64_t bits64, int bits) {
  return double(bits64 >> (64 - bits)) * (1.0 / double(uint64_t(1) << bits));
}

// The significand bits of T (with the implicit one): the grid rand uses.
template <typename T>
constexpr int significand_bits() {
  if constexpr (std::is_same<T, double>::value) {
    return 53;
  } else if constexpr (std::is_same<T, float>::value) {
    return 24;
  } else if constexpr (std::is_same<T, Half>::value) {
    return 11;
  } else {
    static_assert(std::is_same<T, BFloat16>::value, "a floating type");
    return 8;
  }
}

// The boxed body shared by rand.out and randn.out (`name`, schema
// (SymInt[] size, *, Tensor(a!) out)): checks size and out (contiguous,
// Float, Double, Half or BFloat16), resizes out to size, takes the call's
// stream and calls fill(stream, numel, T* data) with out's element type.
template <typename Fill>
void random_out_boxed(KernelContext& ctx, Span<EValue*> args, const char* name, Fill fill) {
  KernelArgs a(ctx, args, name, 3);
  const Span<int64_t> size = a.int_list(0);
  const Tensor out = a.tensor(1);
  Shape shape;
  if (!a.ok() || !to_shape(a, size, "size", &shape) || !check_contiguous(a, out, "out")) {
    return;
  }
  const ScalarType type = out.scalar_type();
  const bool floating = visit_float_double_half_bfloat16_dtype(type, [](auto) {});
  if (!floating) {
    a.fail(Error::InvalidArgument,
           "out must be Float, Double, Half or BFloat16, got %s", scalar_type_name(type));
    return;
  }
  if (!resize_out(a, out, shape.span())) {
    return;
  }
  const RandomStream stream = next_random_stream();
  visit_float_double_half_bfloat16_dtype(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill(stream, out.numel(), out.mutable_data_ptr<T>());
  });
}

}  // namespace ember
