#include "runtime/platform/format.h"

#include <cstdint>
#include <cstdio>

namespace ember {
namespace {

// Output that counts everything and stores what fits.
struct Sink {
  char* out;
  size_t size;
  size_t length = 0;

  void put(char c) {
    if (length + 1 < size) out[length] = c;
    ++length;
  }
  void put(const char* s, size_t n) {
    for (size_t i = 0; i < n; ++i) put(s[i]);
  }
  void pad(char c, size_t n) {
    for (size_t i = 0; i < n; ++i) put(c);
  }
};

struct Spec {
  bool left = false, plus = false, space = false, alt = false, zero = false;
  size_t width = 0;
  int precision = -1;  // -1: none
  enum Length { kNone, kHH, kH, kL, kLL, kZ, kJ, kT, kLongDouble } length = kNone;
  char conversion = 0;
};

// Parses flags, width, precision and length at `p` (just after '%').
const char* parse_spec(const char* p, Spec& spec, va_list& args) {
  for (;; ++p) {
    if (*p == '-') spec.left = true;
    else if (*p == '+') spec.plus = true;
    else if (*p == ' ') spec.space = true;
    else if (*p == '#') spec.alt = true;
    else if (*p == '0') spec.zero = true;
    else break;
  }
  if (*p == '*') {
    const int w = va_arg(args, int);
    if (w < 0) spec.left = true;
    spec.width = size_t(w < 0 ? -static_cast<long>(w) : w);
    ++p;
  } else {
    while (*p >= '0' && *p <= '9') spec.width = spec.width * 10 + size_t(*p++ - '0');
  }
  if (*p == '.') {
    ++p;
    if (*p == '*') {
      const int v = va_arg(args, int);
      spec.precision = v < 0 ? -1 : v;
      ++p;
    } else {
      spec.precision = 0;
      while (*p >= '0' && *p <= '9') spec.precision = spec.precision * 10 + (*p++ - '0');
    }
  }
  switch (*p) {
    case 'h': spec.length = p[1] == 'h' ? Spec::kHH : Spec::kH; p += p[1] == 'h' ? 2 : 1; break;
    case 'l': spec.length = p[1] == 'l' ? Spec::kLL : Spec::kL; p += p[1] == 'l' ? 2 : 1; break;
    case 'z': spec.length = Spec::kZ; ++p; break;
    case 'j': spec.length = Spec::kJ; ++p; break;
    case 't': spec.length = Spec::kT; ++p; break;
    case 'L': spec.length = Spec::kLongDouble; ++p; break;
    default: break;
  }
  spec.conversion = *p;
  return *p != '\0' ? p + 1 : p;
}

intmax_t signed_argument(const Spec& spec, va_list& args) {
  switch (spec.length) {
    case Spec::kHH: return static_cast<signed char>(va_arg(args, int));
    case Spec::kH: return static_cast<short>(va_arg(args, int));
    case Spec::kL: return va_arg(args, long);
    case Spec::kLL: return va_arg(args, long long);
    case Spec::kZ: return va_arg(args, ptrdiff_t);  // the signed size_t
    case Spec::kJ: return va_arg(args, intmax_t);
    case Spec::kT: return va_arg(args, ptrdiff_t);
    default: return va_arg(args, int);
  }
}

uintmax_t unsigned_argument(const Spec& spec, va_list& args) {
  switch (spec.length) {
    case Spec::kHH: return static_cast<unsigned char>(va_arg(args, unsigned));
    case Spec::kH: return static_cast<unsigned short>(va_arg(args, unsigned));
    case Spec::kL: return va_arg(args, unsigned long);
    case Spec::kLL: return va_arg(args, unsigned long long);
    case Spec::kZ: return va_arg(args, size_t);
    case Spec::kJ: return va_arg(args, uintmax_t);
    case Spec::kT: return static_cast<uintmax_t>(va_arg(args, ptrdiff_t));
    default: return va_arg(args, unsigned);
  }
}

// Writes `body` (already converted) with its sign/prefix, padded to width.
void emit_padded(Sink& sink, const Spec& spec, const char* prefix, size_t prefix_size,
                 size_t leading_zeros, const char* body, size_t body_size) {
  const size_t content = prefix_size + leading_zeros + body_size;
  const size_t fill = spec.width > content ? spec.width - content : 0;
  if (!spec.left && !spec.zero) sink.pad(' ', fill);
  sink.put(prefix, prefix_size);
  if (!spec.left && spec.zero) sink.pad('0', fill);
  sink.pad('0', leading_zeros);
  sink.put(body, body_size);
  if (spec.left) sink.pad(' ', fill);
}

void emit_integer(Sink& sink, Spec spec, bool negative, uintmax_t magnitude) {
  const char conv = spec.conversion;
  const unsigned base = conv == 'o' ? 8 : (conv == 'x' || conv == 'X' || conv == 'p') ? 16 : 10;
  const char* digits = conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
  char buffer[3 * sizeof(uintmax_t)];
  size_t n = 0;
  for (uintmax_t v = magnitude; v != 0; v /= base) buffer[sizeof(buffer) - ++n] = digits[v % base];
  // The digit reversal happened in place: the digits end the buffer.
  const char* body = buffer + sizeof(buffer) - n;
  size_t leading_zeros = 0;
  if (spec.precision >= 0) {
    spec.zero = false;
    if (size_t(spec.precision) > n) leading_zeros = size_t(spec.precision) - n;
  } else if (n == 0) {
    leading_zeros = 1;  // "0"
  }
  char prefix[2];
  size_t prefix_size = 0;
  if (negative) prefix[prefix_size++] = '-';
  else if (spec.plus && (conv == 'd' || conv == 'i')) prefix[prefix_size++] = '+';
  else if (spec.space && (conv == 'd' || conv == 'i')) prefix[prefix_size++] = ' ';
  if ((spec.alt || conv == 'p') && base == 16 && (magnitude != 0 || conv == 'p')) {
    prefix[prefix_size++] = '0';
    prefix[prefix_size++] = conv == 'X' ? 'X' : 'x';
  } else if (spec.alt && base == 8 && leading_zeros == 0) {
    leading_zeros = 1;
  }
  if (spec.left) spec.zero = false;
  emit_padded(sink, spec, prefix, prefix_size, leading_zeros, body, n);
}

void emit_string(Sink& sink, Spec spec, const char* s) {
  if (s == nullptr) s = "(null)";
  size_t n = 0;
  while (s[n] != '\0' && (spec.precision < 0 || n < size_t(spec.precision))) ++n;
  spec.zero = false;
  emit_padded(sink, spec, nullptr, 0, 0, s, n);
}

// One floating-point conversion through the C library, with a C89 spec.
void emit_double(Sink& sink, const Spec& spec, double value) {
  char c89[16];
  size_t k = 0;
  c89[k++] = '%';
  if (spec.left) c89[k++] = '-';
  if (spec.plus) c89[k++] = '+';
  if (spec.space) c89[k++] = ' ';
  if (spec.alt) c89[k++] = '#';
  if (spec.zero) c89[k++] = '0';
  c89[k++] = '*';
  c89[k++] = '.';
  c89[k++] = '*';
  c89[k++] = spec.conversion;
  c89[k] = '\0';
  char text[128];
  const int width = spec.width > 100 ? 100 : int(spec.width);
  const int precision = spec.precision < 0 ? 6 : (spec.precision > 60 ? 60 : spec.precision);
  const int n = snprintf(text, sizeof(text), c89, width, precision, value);
  if (n > 0) sink.put(text, size_t(n) < sizeof(text) ? size_t(n) : sizeof(text) - 1);
}

}  // namespace

size_t vformat_text(char* out, size_t size, const char* fmt, va_list args_in) {
  Sink sink{out, size};
  va_list args;
  va_copy(args, args_in);
  for (const char* p = fmt; *p != '\0';) {
    if (*p != '%') {
      sink.put(*p++);
      continue;
    }
    Spec spec;
    p = parse_spec(p + 1, spec, args);
    switch (spec.conversion) {
      case 'd':
      case 'i': {
        const intmax_t v = signed_argument(spec, args);
        emit_integer(sink, spec, v < 0, v < 0 ? uintmax_t(0) - uintmax_t(v) : uintmax_t(v));
        break;
      }
      case 'u': case 'o': case 'x': case 'X':
        emit_integer(sink, spec, false, unsigned_argument(spec, args));
        break;
      case 'p':
        emit_integer(sink, spec, false, uintptr_t(va_arg(args, void*)));
        break;
      case 'c': {
        const char c = char(va_arg(args, int));
        spec.zero = false;
        emit_padded(sink, spec, nullptr, 0, 0, &c, 1);
        break;
      }
      case 's': emit_string(sink, spec, va_arg(args, const char*)); break;
      case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
        emit_double(sink, spec, spec.length == Spec::kLongDouble
                                    ? double(va_arg(args, long double))
                                    : va_arg(args, double));
        break;
      case '%': sink.put('%'); break;
      case 'n': (void)va_arg(args, void*); break;
      default:  // unknown or cut short: print the text as it is
        break;
    }
  }
  va_end(args);
  if (size > 0) out[sink.length < size ? sink.length : size - 1] = '\0';
  return sink.length;
}

size_t format_text(char* out, size_t size, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  const size_t n = vformat_text(out, size, fmt, args);
  va_end(args);
  return n;
}

}  // namespace ember
