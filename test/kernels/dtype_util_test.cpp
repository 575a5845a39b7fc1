// The dtype visitors (kernels/portable/util/dtype_util.h): each visits
// exactly the set its name says, and hands `f` the C++ type of the dtype it
// was given.
#include "kernels/portable/util/dtype_util.h"

#include <gtest/gtest.h>

#include <type_traits>
#include <vector>

namespace ember {
namespace {

// Every valid ScalarType, in enum order.
std::vector<ScalarType> all_scalar_types() {
  std::vector<ScalarType> types;
  for (int raw = 0; raw < 64; ++raw) {
    if (is_valid_scalar_type(raw)) {
      types.push_back(static_cast<ScalarType>(raw));
    }
  }
  return types;
}

// The types `visit` accepts; fails the test when it calls `f` with a
// TypeTag whose C++ type is not the dtype it was given, or returns true
// without calling `f`.
template <typename Visit>
std::vector<ScalarType> visited_set(Visit visit) {
  std::vector<ScalarType> accepted;
  for (ScalarType t : all_scalar_types()) {
    int calls = 0;
    const bool ok = visit(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      EXPECT_EQ(scalar_type_of<T>(), t) << scalar_type_name(t);
      ++calls;
    });
    EXPECT_EQ(calls, ok ? 1 : 0) << scalar_type_name(t);
    if (ok) {
      accepted.push_back(t);
    }
  }
  return accepted;
}

TEST(DtypeVisit, FloatOrDouble) {
  EXPECT_EQ(visited_set([](ScalarType t, auto f) { return visit_float_or_double_dtype(t, f); }),
            (std::vector<ScalarType>{ScalarType::Float, ScalarType::Double}));
}

TEST(DtypeVisit, FloatDoubleHalfBFloat16) {
  EXPECT_EQ(visited_set([](ScalarType t, auto f) {
              return visit_float_double_half_bfloat16_dtype(t, f);
            }),
            (std::vector<ScalarType>{ScalarType::Half, ScalarType::Float, ScalarType::Double,
                                     ScalarType::BFloat16}));
}

TEST(DtypeVisit, ComputeIsStorageWithoutReducedFloats) {
  const std::vector<ScalarType> storage =
      visited_set([](ScalarType t, auto f) { return visit_storage_dtype(t, f); });
  const std::vector<ScalarType> compute =
      visited_set([](ScalarType t, auto f) { return visit_compute_dtype(t, f); });
  EXPECT_EQ(storage.size(), 10u);
  std::vector<ScalarType> expected;
  for (ScalarType t : storage) {
    if (t != ScalarType::Half && t != ScalarType::BFloat16) {
      expected.push_back(t);
    }
  }
  EXPECT_EQ(compute, expected);
}

TEST(DtypeVisit, OpMathWidensReducedFloatsOnly) {
  static_assert(std::is_same<OpMath<double>, double>::value, "");
  static_assert(std::is_same<OpMath<float>, float>::value, "");
  static_assert(std::is_same<OpMath<Half>, float>::value, "");
  static_assert(std::is_same<OpMath<BFloat16>, float>::value, "");
}

}  // namespace
}  // namespace ember
