// KernelArgs (runtime/kernel/kernel_args.h), the argument checker every
// kernel library uses: its contract on its own, and the same fault giving
// the same Error and the same message shape from a portable operator and a
// prim op, called through the registry as the executor calls them.
#include "runtime/kernel/kernel_args.h"

#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "runtime/kernel/operator_registry.h"
#include "test/utils/tensor_factory.h"

namespace ember {
namespace {

using testing::OwnedTensor;

// The EValues of one boxed call, and the pointers a kernel receives.
class Boxed {
 public:
  Boxed(std::initializer_list<EValue> values) : values_(values) {
    for (EValue& v : values_) {
      pointers_.push_back(&v);
    }
  }
  Span<EValue*> args() { return {pointers_.data(), pointers_.size()}; }

 private:
  std::vector<EValue> values_;
  std::vector<EValue*> pointers_;
};

// Calls the registered kernel `name`.`overload` and returns its failure.
Error call(const char* name, const char* overload, Boxed& boxed) {
  OpFunction fn = find_kernel(name, overload);
  EXPECT_NE(fn, nullptr) << name << "." << overload << " is not registered";
  if (fn == nullptr) {
    return Error::OperatorMissing;
  }
  clear_error_message();
  KernelContext context;
  fn(context, boxed.args());
  return context.failure();
}

std::string message() { return last_error_message(); }

TEST(KernelArgs, WrongCountIsInvalidProgram) {
  Boxed boxed{EValue(int64_t(1))};
  KernelContext context;
  clear_error_message();
  KernelArgs a(context, boxed.args(), "test::op", 2);
  EXPECT_FALSE(a.ok());
  EXPECT_EQ(context.failure(), Error::InvalidProgram);
  EXPECT_EQ(message(), "test::op: expected 2 arguments (inputs and returns), got 1");
  // Nothing is read past the short list.
  EXPECT_EQ(a.int_value(1), 0);
  EXPECT_EQ(context.failure(), Error::InvalidProgram);
}

TEST(KernelArgs, WrongTagIsInvalidTypeAndTheFirstFaultWins) {
  Boxed boxed{EValue(1.5), EValue(true)};
  KernelContext context;
  KernelArgs a(context, boxed.args(), "test::op", 2);
  EXPECT_EQ(a.int_value(0), 0);
  EXPECT_FALSE(a.ok());
  EXPECT_EQ(context.failure(), Error::InvalidType);
  EXPECT_EQ(message(), "test::op: argument 0 should be Int, got Double");
  // Later accessors give defaults and keep the first message.
  EXPECT_FALSE(a.bool_value(1));
  EXPECT_EQ(message(), "test::op: argument 0 should be Int, got Double");
}

TEST(KernelArgs, TypedAccessorsReadWhatTheyCheck) {
  OwnedTensor t(ScalarType::Float, {2, 3});
  Boxed boxed{EValue(t.tensor()), EValue(int64_t(7)), EValue(int64_t(2)), EValue(),
              EValue(false)};
  KernelContext context;
  KernelArgs a(context, boxed.args(), "test::op", 5);
  EXPECT_EQ(a.tensor(0).numel(), 6);
  EXPECT_EQ(a.int_value(1), 7);
  EXPECT_EQ(a.double_value(2), 2.0);  // an integral Python float serialized as Int
  EXPECT_FALSE(a.optional_int(3).has_value());
  const Scalar s = a.scalar(4);
  EXPECT_TRUE(s.is_bool());
  EXPECT_TRUE(a.ok());
  EXPECT_EQ(context.failure(), Error::Ok);
}

TEST(KernelArgs, CheckTagAndWrongTypeForSetsNoAccessorCovers) {
  Boxed boxed{EValue(1.5), EValue()};
  KernelContext context;
  KernelArgs a(context, boxed.args(), "test::op", 2);
  EXPECT_TRUE(a.check_tag(0, Tag::Double));
  EXPECT_TRUE(a.ok());
  EXPECT_FALSE(a.wrong_type(1, "Int or Double"));
  EXPECT_EQ(context.failure(), Error::InvalidType);
  EXPECT_EQ(message(), "test::op: argument 1 should be Int or Double, got None");
  EXPECT_FALSE(a.check_tag(0, Tag::Double));  // false after any fault
}

TEST(KernelArgs, TensorWithoutStorage) {
  SizesType sizes[] = {4};
  DimOrderType dim_order[] = {0};
  StridesType strides[1];
  TensorImpl unbound(ScalarType::Float, 1, sizes, nullptr, dim_order, strides);
  Boxed boxed{EValue(Tensor(&unbound))};
  {
    // Kernels that read the data refuse it.
    KernelContext context;
    KernelArgs a(context, boxed.args(), "test::op", 1);
    a.tensor(0);
    EXPECT_EQ(context.failure(), Error::InvalidState);
    EXPECT_NE(message().find("argument 0 is a tensor with no storage"), std::string::npos)
        << message();
  }
  {
    // Ops that read only metadata or alias the data take it.
    KernelContext context;
    KernelArgs a(context, boxed.args(), "test::op", 1);
    EXPECT_EQ(a.tensor_maybe_unbound(0).numel(), 4);
    EXPECT_TRUE(a.ok());
  }
}

TEST(KernelArgs, FailWithCausePutsTheOperatorInFront) {
  Boxed boxed{EValue(int64_t(1))};
  KernelContext context;
  KernelArgs a(context, boxed.args(), "test::op", 1);
  set_error_message("cannot grow dim 0");
  EXPECT_FALSE(a.fail_with_cause(Error::NotSupported));
  EXPECT_FALSE(a.ok());
  EXPECT_EQ(context.failure(), Error::NotSupported);
  EXPECT_EQ(message(), "test::op: cannot grow dim 0");
}

// The same faults through a portable operator and prim ops: one Error per
// fault, one message shape.

TEST(KernelArgsAcrossLibraries, WrongTypeIsInvalidTypeEverywhere) {
  OwnedTensor a(ScalarType::Float, {2}), out(ScalarType::Float, {2});
  // aten::mul.out(Tensor self, Tensor other, *, Tensor(a!) out): an Int
  // where `other` goes.
  Boxed portable{EValue(a.tensor()), EValue(int64_t(3)), EValue(out.tensor()),
                 EValue(out.tensor())};
  EXPECT_EQ(call("aten::mul", "out", portable), Error::InvalidType);
  EXPECT_EQ(message(), "aten::mul.out: argument 1 should be Tensor, got Int");

  // aten::sym_size.int(Tensor self, int dim): a Double where `dim` goes.
  Boxed prim_tensor{EValue(a.tensor()), EValue(0.5), EValue(int64_t(0))};
  EXPECT_EQ(call("aten::sym_size", "int", prim_tensor), Error::InvalidType);
  EXPECT_EQ(message(), "aten::sym_size.int: argument 1 should be Int, got Double");

  // executorch_prim::add.Scalar: a Tensor where a number goes.
  Boxed prim_scalar{EValue(a.tensor()), EValue(int64_t(1)), EValue()};
  EXPECT_EQ(call("executorch_prim::add", "Scalar", prim_scalar), Error::InvalidType);
  EXPECT_EQ(message(),
            "executorch_prim::add.Scalar: argument 0 should be Int or Double, got Tensor");

  // executorch_prim::et_view.default(Tensor self, int[] size): an Int where
  // the size list goes.
  Boxed prim_view{EValue(a.tensor()), EValue(int64_t(2)), EValue(out.tensor())};
  EXPECT_EQ(call("executorch_prim::et_view", "default", prim_view), Error::InvalidType);
  EXPECT_EQ(message(),
            "executorch_prim::et_view.default: argument 1 should be IntList, got Int");
}

TEST(KernelArgsAcrossLibraries, WrongCountIsInvalidProgramEverywhere) {
  OwnedTensor a(ScalarType::Float, {2}), out(ScalarType::Float, {2});
  // The return value left out.
  Boxed portable{EValue(a.tensor()), EValue(a.tensor()), EValue(out.tensor())};
  EXPECT_EQ(call("aten::mul", "out", portable), Error::InvalidProgram);
  EXPECT_EQ(message(), "aten::mul.out: expected 4 arguments (inputs and returns), got 3");

  Boxed prim{EValue(a.tensor()), EValue(int64_t(0))};
  EXPECT_EQ(call("aten::sym_size", "int", prim), Error::InvalidProgram);
  EXPECT_EQ(message(), "aten::sym_size.int: expected 3 arguments (inputs and returns), got 2");
}

}  // namespace
}  // namespace ember
