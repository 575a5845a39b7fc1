// Mixed-radix and Bluestein DFTs (fft.h).
//
// Mixed radix, for n = f_0 * f_1 * ... * f_{K-1}: the input is first
// copied in digit-reversed order (output position sum_i q_i * m_i, with
// m_i = f_{i+1} * ... * f_{K-1}, takes input element sum_i q_i * s_i, with
// s_i = f_0 * ... * f_{i-1}), which places the length-1 transforms of the
// decimated sequences side by side. Then, level by level from i = K-1 up
// to 0, every block of n_i = f_i * m_i elements combines its f_i sub-
// transforms of length m_i in place:
//   X[k + r*m_i] = sum_q (w_{n_i}^(q*k) * Y_q[k]) * w_{f_i}^(q*r),
// w_L = exp(-2*pi*i / L), read from the one table of n roots as
// w_n^(q*k*n/n_i). The inverse transform is conj(forward(conj(x))).
//
// Bluestein: with q*k = (q^2 + k^2 - (k-q)^2) / 2 and c_j = exp(-pi*i*j^2/n),
//   X[k] = c_k * sum_q (x_q * c_q) * conj(c_(k-q)),
// a linear convolution, computed as a cyclic one of length m >= 2n - 1
// (a power of two) with the mixed-radix transform.
#include "kernels/math/fft.h"

#include <cmath>

namespace ember::math {
namespace {

template <typename T>
struct Cpx {
  T re;
  T im;
};

template <typename T>
inline Cpx<T> load(const T* p, size_t i) {
  return {p[2 * i], p[2 * i + 1]};
}
template <typename T>
inline void store(T* p, size_t i, Cpx<T> v) {
  p[2 * i] = v.re;
  p[2 * i + 1] = v.im;
}
template <typename T>
inline Cpx<T> operator+(Cpx<T> a, Cpx<T> b) {
  return {a.re + b.re, a.im + b.im};
}
template <typename T>
inline Cpx<T> operator-(Cpx<T> a, Cpx<T> b) {
  return {a.re - b.re, a.im - b.im};
}
template <typename T>
inline Cpx<T> operator*(Cpx<T> a, Cpx<T> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <typename T>
inline Cpx<T> scaled(Cpx<T> a, T s) {
  return {a.re * s, a.im * s};
}
// -i * a
template <typename T>
inline Cpx<T> times_minus_i(Cpx<T> a) {
  return {a.im, -a.re};
}
template <typename T>
inline Cpx<T> conj(Cpx<T> a) {
  return {a.re, -a.im};
}

// exp(-2*pi*i * k / n) for k < n, in double. The angle is taken in units
// of 2*pi / (8n) and folded into [0, pi/4] by the symmetries of sine and
// cosine, in integer arithmetic, so large k lose no accuracy.
void unit_root(uint64_t k, uint64_t n, double* re, double* im) {
  uint64_t a = 8 * k;  // angle = 2*pi * a / (8n), a < 8n
  double sin_sign = 1.0, cos_sign = 1.0;
  if (a > 4 * n) {  // theta -> 2*pi - theta
    a = 8 * n - a;
    sin_sign = -1.0;
  }
  if (a > 2 * n) {  // theta -> pi - theta
    a = 4 * n - a;
    cos_sign = -1.0;
  }
  const bool swap = a > n;  // theta -> pi/2 - theta
  if (swap) {
    a = 2 * n - a;
  }
  const double angle = 3.14159265358979323846 * double(a) / double(4 * n);
  double c = std::cos(angle), s = std::sin(angle);
  if (swap) {
    const double t = c;
    c = s;
    s = t;
  }
  *re = cos_sign * c;
  *im = -sin_sign * s;
}

// Splits n into factors: fours, a two, threes, fives, then other primes up
// to kFftMaxDirectFactor. False when something larger is left (or too many
// factors).
bool factorize(size_t n, uint32_t* factors, size_t* count) {
  size_t k = 0;
  auto take = [&](size_t p) {
    while (n % p == 0 && k < kFftMaxFactors) {
      factors[k++] = uint32_t(p);
      n /= p;
    }
  };
  take(4);
  take(2);
  take(3);
  take(5);
  for (size_t p = 7; p <= kFftMaxDirectFactor; p += 2) {
    take(p);
  }
  *count = k;
  return n == 1;
}

size_t next_power_of_two(size_t n) {
  size_t m = 1;
  while (m < n) {
    if (m > SIZE_MAX / 2) {
      return 0;
    }
    m *= 2;
  }
  return m;
}

// The core length and whether Bluestein runs, for length n; core 0: n is
// 0 or too large.
struct Layout {
  bool bluestein = false;
  size_t core = 0;
  uint32_t factors[kFftMaxFactors] = {};
  size_t factor_count = 0;
};

Layout layout_for(size_t n) {
  Layout l;
  if (n == 0) {
    return l;
  }
  if (factorize(n, l.factors, &l.factor_count)) {
    l.core = n;
    return l;
  }
  l.bluestein = true;
  l.core = n > SIZE_MAX / 2 ? 0 : next_power_of_two(2 * n - 1);
  if (l.core != 0) {
    (void)factorize(l.core, l.factors, &l.factor_count);
  }
  return l;
}

// ---------------------------------------------------------------- butterflies
// Each combines the p elements d[q*m], q < p, after multiplying element q by
// the twiddle tw[q*t] (t = 0: all ones), into d[r*m], r < p.

template <typename T>
inline Cpx<T> twiddled(const T* d, size_t m, size_t q, const T* tw, size_t t) {
  const Cpx<T> x = load(d, q * m);
  return t == 0 ? x : x * load(tw, q * t);
}

template <typename T>
void radix2(T* d, size_t m, const T* tw, size_t t) {
  const Cpx<T> a0 = load(d, 0), a1 = twiddled(d, m, 1, tw, t);
  store(d, 0, a0 + a1);
  store(d, m, a0 - a1);
}

template <typename T>
void radix3(T* d, size_t m, const T* tw, size_t t) {
  const T half = T(0.5), s = T(0.86602540378443864676);  // sin(2*pi/3)
  const Cpx<T> a0 = load(d, 0), a1 = twiddled(d, m, 1, tw, t), a2 = twiddled(d, m, 2, tw, t);
  const Cpx<T> sum = a1 + a2, diff = a1 - a2;
  const Cpx<T> mid = a0 - scaled(sum, half);
  const Cpx<T> rot = scaled(times_minus_i(diff), s);  // -i * sin * (a1 - a2)
  store(d, 0, a0 + sum);
  store(d, m, mid + rot);
  store(d, 2 * m, mid - rot);
}

template <typename T>
void radix4(T* d, size_t m, const T* tw, size_t t) {
  const Cpx<T> a0 = load(d, 0), a1 = twiddled(d, m, 1, tw, t), a2 = twiddled(d, m, 2, tw, t),
               a3 = twiddled(d, m, 3, tw, t);
  const Cpx<T> s02 = a0 + a2, d02 = a0 - a2, s13 = a1 + a3;
  const Cpx<T> r13 = times_minus_i(a1 - a3);
  store(d, 0, s02 + s13);
  store(d, m, d02 + r13);
  store(d, 2 * m, s02 - s13);
  store(d, 3 * m, d02 - r13);
}

template <typename T>
void radix5(T* d, size_t m, const T* tw, size_t t) {
  // cos and sin of 2*pi/5 and 4*pi/5
  const T c1 = T(0.30901699437494742410), c2 = T(-0.80901699437494742410);
  const T s1 = T(0.95105651629515357212), s2 = T(0.58778525229247312917);
  const Cpx<T> a0 = load(d, 0), a1 = twiddled(d, m, 1, tw, t), a2 = twiddled(d, m, 2, tw, t),
               a3 = twiddled(d, m, 3, tw, t), a4 = twiddled(d, m, 4, tw, t);
  const Cpx<T> t1 = a1 + a4, t2 = a2 + a3, d1 = a1 - a4, d2 = a2 - a3;
  const Cpx<T> e1 = a0 + scaled(t1, c1) + scaled(t2, c2);
  const Cpx<T> e2 = a0 + scaled(t1, c2) + scaled(t2, c1);
  const Cpx<T> o1 = times_minus_i(scaled(d1, s1) + scaled(d2, s2));
  const Cpx<T> o2 = times_minus_i(scaled(d1, s2) - scaled(d2, s1));
  store(d, 0, a0 + t1 + t2);
  store(d, m, e1 + o1);
  store(d, 4 * m, e1 - o1);
  store(d, 2 * m, e2 + o2);
  store(d, 3 * m, e2 - o2);
}

// A direct p-point DFT (p prime, <= kFftMaxDirectFactor). root_step = n / p:
// w_p^j is tw[j * root_step].
template <typename T>
void radix_direct(T* d, size_t m, size_t p, const T* tw, size_t t, size_t root_step) {
  Cpx<T> a[kFftMaxDirectFactor];
  for (size_t q = 0; q < p; ++q) {
    a[q] = twiddled(d, m, q, tw, t);
  }
  for (size_t r = 0; r < p; ++r) {
    Cpx<T> sum = a[0];
    size_t j = 0;  // q * r mod p
    for (size_t q = 1; q < p; ++q) {
      j += r;
      if (j >= p) {
        j -= p;
      }
      sum = sum + a[q] * load(tw, j * root_step);
    }
    store(d, r * m, sum);
  }
}

template <typename T>
void butterfly(T* d, size_t m, size_t p, const T* tw, size_t t, size_t n) {
  switch (p) {
    case 2: radix2(d, m, tw, t); break;
    case 3: radix3(d, m, tw, t); break;
    case 4: radix4(d, m, tw, t); break;
    case 5: radix5(d, m, tw, t); break;
    default: radix_direct(d, m, p, tw, t, n / p); break;
  }
}

// ------------------------------------------------------------- mixed radix

// out = in in digit-reversed order (see the top of the file), conjugated
// when `conj_in`.
template <typename T>
void digit_reverse_copy(const FftPlan<T>& plan, const T* in, T* out, bool conj_in) {
  const size_t count = plan.factor_count;
  size_t in_stride[kFftMaxFactors];
  size_t digit[kFftMaxFactors] = {};
  size_t s = 1;
  for (size_t i = 0; i < count; ++i) {
    in_stride[i] = s;
    s *= plan.factors[i];
  }
  const T sign = conj_in ? T(-1) : T(1);
  size_t src = 0;
  for (size_t dst = 0; dst < plan.core_n; ++dst) {
    out[2 * dst] = in[2 * src];
    out[2 * dst + 1] = sign * in[2 * src + 1];
    for (size_t i = count; i-- > 0;) {  // the last factor is the fastest digit
      src += in_stride[i];
      if (++digit[i] < plan.factors[i]) {
        break;
      }
      digit[i] = 0;
      src -= plan.factors[i] * in_stride[i];
    }
  }
}

// Forward transform of length plan.core_n: out = DFT(in or conj(in)).
template <typename T>
void mixed_radix(const FftPlan<T>& plan, const T* in, T* out, bool conj_in) {
  const size_t n = plan.core_n;
  digit_reverse_copy(plan, in, out, conj_in);
  size_t m = 1;  // length of the sub-transforms being combined
  for (size_t level = plan.factor_count; level-- > 0;) {
    const size_t p = plan.factors[level];
    const size_t span = p * m;
    const size_t step = n / span;
    for (size_t base = 0; base < n; base += span) {
      for (size_t k = 0; k < m; ++k) {
        butterfly(out + 2 * (base + k), m, p, plan.twiddles, k * step, n);
      }
    }
    m = span;
  }
}

template <typename T>
void conjugate(T* data, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    data[2 * i + 1] = -data[2 * i + 1];
  }
}

// ---------------------------------------------------------------- Bluestein

template <typename T>
void bluestein(const FftPlan<T>& plan, const T* in, T* out, bool conj_in) {
  const size_t n = plan.n, m = plan.core_n;
  T* a = plan.work;
  T* b = plan.work + 2 * m;
  for (size_t j = 0; j < n; ++j) {
    Cpx<T> x = load(in, j);
    if (conj_in) {
      x = conj(x);
    }
    store(a, j, x * load(plan.chirp, j));
  }
  for (size_t j = n; j < m; ++j) {
    store(a, j, Cpx<T>{T(0), T(0)});
  }
  mixed_radix(plan, a, b, false);
  for (size_t j = 0; j < m; ++j) {
    store(b, j, load(b, j) * load(plan.chirp_spectrum, j));
  }
  // Inverse transform as conj(forward(conj(b))); the spectrum carries 1/m.
  mixed_radix(plan, b, a, true);
  for (size_t k = 0; k < n; ++k) {
    store(out, k, load(plan.chirp, k) * conj(load(a, k)));
  }
}

// The chirp and the spectrum of the convolution kernel
// conj(c_|j|) wrapped cyclically, divided by m.
template <typename T>
void init_bluestein_tables(FftPlan<T>* plan, T* chirp, T* spectrum) {
  const size_t n = plan->n, m = plan->core_n;
  for (size_t j = 0; j < n; ++j) {
    // exp(-pi*i*j^2/n) = exp(-2*pi*i * (j^2 mod 2n) / 2n)
    const uint64_t sq = (uint64_t(j) * uint64_t(j)) % (2 * uint64_t(n));
    double re, im;
    unit_root(sq, 2 * uint64_t(n), &re, &im);
    chirp[2 * j] = T(re);
    chirp[2 * j + 1] = T(im);
  }
  T* kernel = plan->work;
  for (size_t j = 0; j < m; ++j) {
    store(kernel, j, Cpx<T>{T(0), T(0)});
  }
  for (size_t j = 0; j < n; ++j) {
    const Cpx<T> c = conj(load(chirp, j));
    store(kernel, j, c);
    if (j > 0) {
      store(kernel, m - j, c);
    }
  }
  mixed_radix(*plan, kernel, spectrum, false);
  const T inv_m = T(1) / T(m);
  for (size_t j = 0; j < m; ++j) {
    store(spectrum, j, scaled(load(spectrum, j), inv_m));
  }
}

// Size in T elements of each table, for length n.
struct Sizes {
  size_t twiddles = 0, chirp = 0, spectrum = 0, work = 0;
};

bool table_sizes(size_t n, Sizes* s) {
  const Layout l = layout_for(n);
  if (n == 0 || l.core == 0 || l.core > SIZE_MAX / 16) {
    return false;
  }
  s->twiddles = 2 * l.core;
  if (l.bluestein) {
    s->chirp = 2 * n;
    s->spectrum = 2 * l.core;
    s->work = 4 * l.core;
  }
  return true;
}

}  // namespace

template <typename T>
size_t fft_plan_bytes(size_t n) {
  Sizes s;
  if (!table_sizes(n, &s)) {
    return 0;
  }
  const size_t elements = s.twiddles + s.chirp + s.spectrum + s.work;
  return elements > SIZE_MAX / sizeof(T) ? 0 : elements * sizeof(T);
}

template <typename T>
bool fft_plan_init(FftPlan<T>* plan, size_t n, void* memory, size_t bytes) {
  const size_t need = fft_plan_bytes<T>(n);
  if (need == 0 || bytes < need || memory == nullptr ||
      reinterpret_cast<uintptr_t>(memory) % alignof(T) != 0) {
    return false;
  }
  const Layout l = layout_for(n);
  Sizes s;
  (void)table_sizes(n, &s);
  *plan = FftPlan<T>{};
  plan->n = n;
  plan->core_n = l.core;
  plan->factor_count = l.factor_count;
  for (size_t i = 0; i < l.factor_count; ++i) {
    plan->factors[i] = l.factors[i];
  }
  T* p = static_cast<T*>(memory);
  T* twiddles = p;
  for (size_t k = 0; k < l.core; ++k) {
    double re, im;
    unit_root(k, l.core, &re, &im);
    twiddles[2 * k] = T(re);
    twiddles[2 * k + 1] = T(im);
  }
  plan->twiddles = twiddles;
  if (l.bluestein) {
    T* chirp = p + s.twiddles;
    T* spectrum = chirp + s.chirp;
    plan->work = spectrum + s.spectrum;
    init_bluestein_tables(plan, chirp, spectrum);
    plan->chirp = chirp;
    plan->chirp_spectrum = spectrum;
  }
  return true;
}

template <typename T>
void fft_execute(const FftPlan<T>& plan, const T* in, T* out, bool inverse) {
  if (plan.chirp != nullptr) {
    bluestein(plan, in, out, inverse);
  } else {
    mixed_radix(plan, in, out, inverse);
  }
  if (inverse) {
    conjugate(out, plan.n);
  }
}

template <typename T>
void fft_r2c(const FftPlan<T>& plan, const T* in, T* out, size_t out_count, T* work) {
  const size_t n = plan.n;
  T* signal = work;
  T* spectrum = work + 2 * n;
  for (size_t j = 0; j < n; ++j) {
    store(signal, j, Cpx<T>{in[j], T(0)});
  }
  fft_execute(plan, signal, spectrum, false);
  for (size_t k = 0; k < out_count; ++k) {
    store(out, k, load(spectrum, k));
  }
}

template <typename T>
void fft_r2c_pair(const FftPlan<T>& plan, const T* in_a, const T* in_b, T* out_a, T* out_b,
                  size_t out_count, T* work) {
  const size_t n = plan.n;
  T* signal = work;
  T* spectrum = work + 2 * n;
  for (size_t j = 0; j < n; ++j) {
    store(signal, j, Cpx<T>{in_a[j], in_b[j]});
  }
  fft_execute(plan, signal, spectrum, false);
  const T half = T(0.5);
  for (size_t k = 0; k < out_count; ++k) {
    const Cpx<T> z = load(spectrum, k);
    const Cpx<T> mirror = conj(load(spectrum, k == 0 ? 0 : n - k));
    store(out_a, k, scaled(z + mirror, half));
    store(out_b, k, scaled(times_minus_i(z - mirror), half));  // (z - mirror) / 2i
  }
}

template <typename T>
void fft_c2r(const FftPlan<T>& plan, const T* in, T* out, T* work) {
  const size_t n = plan.n, half = n / 2 + 1;
  T* spectrum = work;
  T* signal = work + 2 * n;
  for (size_t k = 0; k < half; ++k) {
    store(spectrum, k, load(in, k));
  }
  for (size_t k = half; k < n; ++k) {
    store(spectrum, k, conj(load(in, n - k)));
  }
  // Taking the real part drops what the imaginary parts of X[0] and X[n/2]
  // (which have no conjugate partner) would add.
  fft_execute(plan, spectrum, signal, true);
  for (size_t j = 0; j < n; ++j) {
    out[j] = signal[2 * j];
  }
}

template size_t fft_plan_bytes<float>(size_t);
template size_t fft_plan_bytes<double>(size_t);
template bool fft_plan_init<float>(FftPlan<float>*, size_t, void*, size_t);
template bool fft_plan_init<double>(FftPlan<double>*, size_t, void*, size_t);
template void fft_execute<float>(const FftPlan<float>&, const float*, float*, bool);
template void fft_execute<double>(const FftPlan<double>&, const double*, double*, bool);
template void fft_r2c<float>(const FftPlan<float>&, const float*, float*, size_t, float*);
template void fft_r2c<double>(const FftPlan<double>&, const double*, double*, size_t, double*);
template void fft_r2c_pair<float>(const FftPlan<float>&, const float*, const float*, float*,
                                  float*, size_t, float*);
template void fft_r2c_pair<double>(const FftPlan<double>&, const double*, const double*, double*,
                                   double*, size_t, double*);
template void fft_c2r<float>(const FftPlan<float>&, const float*, float*, float*);
template void fft_c2r<double>(const FftPlan<double>&, const double*, double*, double*);

}  // namespace ember::math
