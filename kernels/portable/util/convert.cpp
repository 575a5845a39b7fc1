#include "kernels/portable/util/convert.h"

#include "kernels/portable/util/dtype_util.h"

namespace ember {

namespace {

template <typename S, typename D>
void convert_loop(const S* src, int64_t ss, D* dst, int64_t ds, int64_t n) {
  if (ss == 1 && ds == 1) {
    for (int64_t i = 0; i < n; ++i) {
      dst[i] = cast_value<D>(src[i]);
    }
  } else if (ss == 0 && ds == 1) {
    const D v = cast_value<D>(src[0]);
    for (int64_t i = 0; i < n; ++i) {
      dst[i] = v;
    }
  } else {
    for (int64_t i = 0; i < n; ++i) {
      dst[i * ds] = cast_value<D>(src[i * ss]);
    }
  }
}

// Bool source: read bytes and normalize, since a byte other than 0 or 1 is
// not a valid bool (planned memory may alias other data into the tensor).
template <typename D>
void convert_bool_loop(const uint8_t* src, int64_t ss, D* dst, int64_t ds, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    dst[i * ds] = cast_value<D>(src[i * ss] != 0);
  }
}

template <typename S>
bool convert_from(const S* src, int64_t ss, void* dst, ScalarType dt,
                  int64_t ds, int64_t n) {
  return visit_storage_dtype(dt, [&](auto tag) {
    using D = typename decltype(tag)::type;
    convert_loop(src, ss, static_cast<D*>(dst), ds, n);
  });
}

}  // namespace

bool convert_elements(const void* src, ScalarType src_type, int64_t src_stride,
                      void* dst, ScalarType dst_type, int64_t dst_stride,
                      int64_t n) {
  if (!is_supported_storage_type(dst_type)) {
    return false;
  }
  if (src_type == ScalarType::Bool) {
    return visit_storage_dtype(dst_type, [&](auto tag) {
      using D = typename decltype(tag)::type;
      convert_bool_loop(static_cast<const uint8_t*>(src), src_stride,
                        static_cast<D*>(dst), dst_stride, n);
    });
  }
  return visit_storage_dtype(src_type, [&](auto tag) {
    using S = typename decltype(tag)::type;
    (void)convert_from(static_cast<const S*>(src), src_stride, dst, dst_type,
                       dst_stride, n);
  });
}

}  // namespace ember
