// One-dimensional discrete Fourier transforms of any length, the maths of
// the spectral operators (aten::_fft_r2c, _fft_c2r, _fft_c2c).
//
//   forward:  X[k] = sum_j x[j] * exp(-2*pi*i*j*k / n)
//   inverse:  x[j] = sum_k X[k] * exp(+2*pi*i*j*k / n)   (not divided by n)
//
// Complex values are (re, im) pairs of T (float or double), as Ember's
// ComplexFloat and ComplexDouble tensors store them. fft_r2c and fft_c2r
// are the transforms of real signals, in terms of the complex one.
//
// How a length runs:
//   - every prime factor of n is at most kFftMaxDirectFactor: mixed-radix
//     Cooley-Tukey (decimation in time), with butterflies written out for
//     radix 4, 2, 3 and 5 and a direct p-point DFT for the other primes;
//   - otherwise Bluestein's chirp-z algorithm: the transform as a
//     convolution, computed with power-of-two transforms of length
//     m >= 2n - 1.
// Twiddle factors are computed in double precision with the angle reduced
// to [0, pi/4] by symmetry, then rounded to T.
//
// Memory: nothing is allocated. The caller asks fft_plan_bytes(n) for the
// size of a plan's memory (twiddles; for Bluestein also the chirp, its
// spectrum and two work lines) and hands that memory to fft_plan_init;
// it must stay alive and untouched while the plan is used. A plan is used
// by one thread at a time (Bluestein's work lines are in it).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::math {

// Largest prime factor the mixed-radix path takes as one direct DFT step;
// a length with a larger prime factor runs Bluestein's algorithm.
constexpr size_t kFftMaxDirectFactor = 31;

// Most factors a length can have (2^40 is beyond any tensor's size).
constexpr size_t kFftMaxFactors = 40;

template <typename T>
struct FftPlan {
  size_t n = 0;          // transform length
  size_t core_n = 0;     // mixed-radix length: n, or Bluestein's m
  size_t factor_count = 0;
  uint32_t factors[kFftMaxFactors] = {};  // of core_n, applied outermost first
  const T* twiddles = nullptr;            // core_n pairs: exp(-2*pi*i*k / core_n)
  // Bluestein only (null otherwise):
  const T* chirp = nullptr;           // n pairs: exp(-pi*i*k^2 / n)
  const T* chirp_spectrum = nullptr;  // m pairs: forward DFT of the
                                      // convolution kernel, divided by m
  T* work = nullptr;                  // 2 * m pairs of scratch
};

// Bytes of memory a plan of length n needs (a multiple of sizeof(T)); 0
// when n is 0 or the size would not fit size_t.
template <typename T>
size_t fft_plan_bytes(size_t n);

// Lays out the plan for length n in `memory` (at least fft_plan_bytes(n)
// bytes, aligned for T) and computes its tables. False when n is 0,
// `bytes` is too small or `memory` is misaligned.
template <typename T>
bool fft_plan_init(FftPlan<T>* plan, size_t n, void* memory, size_t bytes);

// out = the forward (inverse: the unnormalized inverse) DFT of `in`; both
// plan.n contiguous pairs, not overlapping.
template <typename T>
void fft_execute(const FftPlan<T>& plan, const T* in, T* out, bool inverse);

// The forward DFT of n = plan.n real values `in`: out = its first
// `out_count` (<= n) pairs. The rest follow by symmetry: X[n-k] =
// conj(X[k]). work: 4 * n values of T.
template <typename T>
void fft_r2c(const FftPlan<T>& plan, const T* in, T* out, size_t out_count, T* work);

// fft_r2c of two real signals at once, with one complex transform of
// a + i*b: A[k] = (Z[k] + conj(Z[n-k])) / 2, B[k] = (Z[k] - conj(Z[n-k])) / 2i.
// Half the work of two fft_r2c calls; the same accuracy. work: 4 * n.
template <typename T>
void fft_r2c_pair(const FftPlan<T>& plan, const T* in_a, const T* in_b, T* out_a, T* out_b,
                  size_t out_count, T* work);

// The inverse of fft_r2c: the real part of the unnormalized inverse DFT of
// the spectrum whose first n/2 + 1 pairs are `in` (n = plan.n) and whose
// others are X[n-k] = conj(X[k]). Only the real parts of X[0] and, for
// even n, X[n/2] count: a real signal's spectrum has no imaginary part
// there. out: n values. work: 4 * n values of T.
template <typename T>
void fft_c2r(const FftPlan<T>& plan, const T* in, T* out, T* work);

}  // namespace ember::math
