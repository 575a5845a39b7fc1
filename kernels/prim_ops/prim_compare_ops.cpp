// Comparison prim ops: executorch_prim::{eq,ne,gt,lt,ge,le}.Scalar.
//
// Args: [a, b, out]; out is overwritten with a Bool. As upstream: Int and
// Double compare with each other (an Int is converted to double when mixed),
// Bool compares only with Bool, any other pairing fails with InvalidType.
// Upstream registers eq/gt/lt/ge/le; ne.Scalar is an Ember addition with the
// same rules, for exporters that emit it.
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

enum class Cmp { Eq, Ne, Gt, Lt, Ge, Le };

template <Cmp kCmp, typename T>
bool apply(T a, T b) {
  switch (kCmp) {
    case Cmp::Eq: return a == b;
    case Cmp::Ne: return a != b;
    case Cmp::Gt: return a > b;
    case Cmp::Lt: return a < b;
    case Cmp::Ge: return a >= b;
    case Cmp::Le: return a <= b;
  }
  return false;
}

template <Cmp kCmp>
void compare(KernelContext& ctx, Span<EValue*> args, const char* op) {
  KernelArgs checked(ctx, args, op, 3);
  if (!checked.ok()) {
    return;
  }
  const EValue& a = checked.value(0);
  const EValue& b = checked.value(1);
  bool result = false;
  if (a.is_int() && b.is_int()) {
    result = apply<kCmp>(a.to_int(), b.to_int());
  } else if ((a.is_int() || a.is_double()) && (b.is_int() || b.is_double())) {
    const double x = a.is_int() ? double(a.to_int()) : a.to_double();
    const double y = b.is_int() ? double(b.to_int()) : b.to_double();
    result = apply<kCmp>(x, y);
  } else if (a.is_bool() && b.is_bool()) {
    result = apply<kCmp>(a.to_bool(), b.to_bool());
  } else {
    checked.fail(Error::InvalidType, "cannot compare %s with %s",
                 tag_name(a.tag()), tag_name(b.tag()));
    return;
  }
  *args[2] = EValue(result);
}

constexpr char kEq[] = "executorch_prim::eq.Scalar";
constexpr char kNe[] = "executorch_prim::ne.Scalar";
constexpr char kGt[] = "executorch_prim::gt.Scalar";
constexpr char kLt[] = "executorch_prim::lt.Scalar";
constexpr char kGe[] = "executorch_prim::ge.Scalar";
constexpr char kLe[] = "executorch_prim::le.Scalar";

void eq_scalar(KernelContext& c, Span<EValue*> a) { compare<Cmp::Eq>(c, a, kEq); }
void ne_scalar(KernelContext& c, Span<EValue*> a) { compare<Cmp::Ne>(c, a, kNe); }
void gt_scalar(KernelContext& c, Span<EValue*> a) { compare<Cmp::Gt>(c, a, kGt); }
void lt_scalar(KernelContext& c, Span<EValue*> a) { compare<Cmp::Lt>(c, a, kLt); }
void ge_scalar(KernelContext& c, Span<EValue*> a) { compare<Cmp::Ge>(c, a, kGe); }
void le_scalar(KernelContext& c, Span<EValue*> a) { compare<Cmp::Le>(c, a, kLe); }

}  // namespace

EMBER_REGISTER_KERNEL(kEq, eq_scalar);
EMBER_REGISTER_KERNEL(kNe, ne_scalar);
EMBER_REGISTER_KERNEL(kGt, gt_scalar);
EMBER_REGISTER_KERNEL(kLt, lt_scalar);
EMBER_REGISTER_KERNEL(kGe, ge_scalar);
EMBER_REGISTER_KERNEL(kLe, le_scalar);

}  // namespace ember
