// aten::_native_batch_norm_legit.out and .no_stats_out
// (kernels/portable/op__native_batch_norm_legit.cpp). Training with
// running statistics cannot be exported (torch.export functionalizes it),
// so its values are checked here against numbers PyTorch printed for
// _native_batch_norm_legit(x, w, b, rm, rv, True, 0.2, 1e-5); the
// no_stats form is in the op suite (instance_norm*, batch_norm_legit_*).
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

const std::vector<double> kX = {
    0, 1.08484629589, 2.02286373488, 2.68709605704, 7.98764253361, 7.88382560893,
    7.38969641671, 6.57213302506, -1.45821119632, -2.56188399063, -3.58950842273,
    -4.40200034653, -2.88939279172, -2.98571947731, -2.67794303828, -2.00771957183,
    3.93423932004, 5.02044392022, 6.10388153172, 7.03791395643, 0.696124287435,
    0.989426844222, 0.878124501679, 0.377281509726};
const std::vector<double> kOut = {
    0.65939858154, 1.40490834742, 2.04951686384, 2.50597939209, 0.43726797696,
    0.476308546284, 0.662126851365, 0.969573256322, -1.31921346255, -2.40530643945,
    -3.41656238808, -4.21611255981, -1.32620117748, -1.39239717694, -1.1808922459,
    -0.720312584566, 1.96155864187, 1.55308915462, 1.1456601992, 0.794415373384,
    0.800806756162, 1.08943745239, 0.979907985713, 0.487042655616};
const std::vector<double> kSaveMean = {-0.595746098915, 6.49122203909, -1.13383085164};
const std::vector<double> kSaveInvstd = {0.458135417404, 0.752104137975, 0.492035765716};
const std::vector<double> kRunningMean = {-0.039149219783, 1.13824440782, 0.0132338296715};
const std::vector<double> kRunningVar = {1.88901358222, 2.00407644045, 1.34412075779};

void expect_near(const std::vector<double>& got, const std::vector<double>& want,
                 double tol) {
  expect_near_vec(got, want, tol);
}

// Batch statistics, save_mean / save_invstd, the in-place running update
// (unbiased variance, momentum 0.2) and the output, in Double and Float.
TEST(NativeBatchNormLegit, TrainingMatchesPyTorch) {
  for (ScalarType type : {ScalarType::Double, ScalarType::Float}) {
    const double tol = type == ScalarType::Double ? 1e-9 : 2e-5;
    auto x = from_doubles(type, {2, 3, 4}, kX);
    auto w = from_doubles(type, {3}, {1.5, -0.5, 2.0});
    auto b = from_doubles(type, {3}, {0.25, 1.0, -1.0});
    auto rm = from_doubles(type, {3}, {0.1, -0.2, 0.3});
    auto rv = from_doubles(type, {3}, {1.0, 2.0, 0.5});
    auto out = empty(type, {2, 3, 4});
    auto sm = empty(type, {3}), si = empty(type, {3});
    ASSERT_EQ(call_kernel("aten::_native_batch_norm_legit.out",
                          {*x, *w, *b, *rm, *rv, true, 0.2, 1e-5, *out, *sm, *si, *out,
                           *sm, *si}),
              Error::Ok)
        << last_error_message();
    expect_near(to_doubles(*out), kOut, tol);
    expect_near(to_doubles(*sm), kSaveMean, tol);
    expect_near(to_doubles(*si), kSaveInvstd, tol);
    expect_near(to_doubles(*rm), kRunningMean, tol);
    expect_near(to_doubles(*rv), kRunningVar, tol);
  }
}

// Half and BFloat16 run the same maths (stats in double).
TEST(NativeBatchNormLegit, TrainingHalfAndBFloat16) {
  for (ScalarType type : {ScalarType::Half, ScalarType::BFloat16}) {
    auto x = from_doubles(type, {2, 3, 4}, kX);
    auto rm = from_doubles(type, {3}, {0.1, -0.2, 0.3});
    auto rv = from_doubles(type, {3}, {1.0, 2.0, 0.5});
    auto w = from_doubles(type, {3}, {1.5, -0.5, 2.0});
    auto b = from_doubles(type, {3}, {0.25, 1.0, -1.0});
    auto out = empty(type, {2, 3, 4});
    auto sm = empty(type, {3}), si = empty(type, {3});
    ASSERT_EQ(call_kernel("aten::_native_batch_norm_legit.out",
                          {*x, *w, *b, *rm, *rv, true, 0.2, 1e-5,
                           *out, *sm, *si, *out, *sm, *si}),
              Error::Ok)
        << last_error_message();
    expect_near(to_doubles(*out), kOut, 0.1);
    expect_near(to_doubles(*rm), kRunningMean, 0.05);
  }
}

// One value per channel: the unbiased variance divides by zero, so the
// running variance becomes NaN (as in PyTorch); the output is 0 up to the
// rounding of x * scale + shift with scale = 1 / sqrt(eps) (PyTorch's is
// off by as much).
TEST(NativeBatchNormLegit, SingleValuePerChannelGivesNanRunningVar) {
  auto x = from_doubles(ScalarType::Float, {1, 2}, {3.0, -4.0});
  auto rm = from_doubles(ScalarType::Float, {2}, {0, 0});
  auto rv = from_doubles(ScalarType::Float, {2}, {1, 1});
  auto out = empty(ScalarType::Float, {1, 2});
  auto sm = empty(ScalarType::Float, {2}), si = empty(ScalarType::Float, {2});
  ASSERT_EQ(call_kernel("aten::_native_batch_norm_legit.out",
                        {*x, Arg::none(), Arg::none(), *rm, *rv, true, 0.1, 1e-5, *out,
                         *sm, *si, *out, *sm, *si}),
            Error::Ok);
  expect_near(to_doubles(*out), {0.0, 0.0}, 1e-4);
  expect_near(to_doubles(*rm), {0.3, -0.4}, 1e-6);
  EXPECT_TRUE(std::isnan(to_doubles(*rv)[0]));
  expect_near(to_doubles(*si), {1.0 / std::sqrt(1e-5), 1.0 / std::sqrt(1e-5)}, 1e-2);
}

// training = false normalizes with the running statistics, leaves them
// alone and resizes save_mean / save_invstd to [0], as the no_training
// operator does.
TEST(NativeBatchNormLegit, EvalUsesRunningStatistics) {
  auto x = from_doubles(ScalarType::Float, {2, 3, 4}, kX);
  auto rm = from_doubles(ScalarType::Float, {3}, {0.1, -0.2, 0.3});
  auto rv = from_doubles(ScalarType::Float, {3}, {1.0, 2.0, 0.5});
  auto out = empty(ScalarType::Float, {2, 3, 4});
  auto ref = empty(ScalarType::Float, {2, 3, 4});
  auto sm = dynamic_out(ScalarType::Float, {3}), si = dynamic_out(ScalarType::Float, {3});
  auto e1 = dynamic_out(ScalarType::Float, {3}), e2 = dynamic_out(ScalarType::Float, {3});
  ASSERT_EQ(call_kernel("aten::_native_batch_norm_legit.out",
                        {*x, Arg::none(), Arg::none(), *rm, *rv, false, 0.1, 1e-5, *out,
                         *sm, *si, *out, *sm, *si}),
            Error::Ok)
      << last_error_message();
  ASSERT_EQ(call_kernel("aten::_native_batch_norm_legit_no_training.out",
                        {*x, Arg::none(), Arg::none(), *rm, *rv, 0.1, 1e-5, *ref, *e1,
                         *e2, *ref, *e1, *e2}),
            Error::Ok);
  EXPECT_EQ(to_doubles(*out), to_doubles(*ref));
  EXPECT_EQ(sizes_of(*sm), std::vector<SizesType>{0});
  EXPECT_EQ(sizes_of(*si), std::vector<SizesType>{0});
  expect_near(to_doubles(*rm), {0.1, -0.2, 0.3}, 1e-7);
}

TEST(NativeBatchNormLegit, NoStatsWithoutTrainingRefused) {
  auto x = from_doubles(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto out = empty(ScalarType::Float, {2, 3});
  auto sm = empty(ScalarType::Float, {3}), si = empty(ScalarType::Float, {3});
  EXPECT_EQ(call_kernel("aten::_native_batch_norm_legit.no_stats_out",
                        {*x, Arg::none(), Arg::none(), false, 0.1, 1e-5,
                         *out, *sm, *si, *out, *sm, *si}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("running statistics"));
}

TEST(NativeBatchNormLegit, EmptyInputRefusedInTraining) {
  auto x = empty(ScalarType::Float, {0, 3, 2});
  auto out = empty(ScalarType::Float, {0, 3, 2});
  auto sm = empty(ScalarType::Float, {3}), si = empty(ScalarType::Float, {3});
  EXPECT_EQ(call_kernel("aten::_native_batch_norm_legit.no_stats_out",
                        {*x, Arg::none(), Arg::none(), true, 0.1, 1e-5,
                         *out, *sm, *si, *out, *sm, *si}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("nonempty"));
}

TEST(NativeBatchNormLegit, BadArgumentsRefused) {
  auto x = from_doubles(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto out = empty(ScalarType::Float, {2, 3});
  auto sm = empty(ScalarType::Float, {3}), si = empty(ScalarType::Float, {3});
  auto rm_double = from_doubles(ScalarType::Double, {3}, {0, 0, 0});
  auto rv = from_doubles(ScalarType::Float, {3}, {1, 1, 1});
  auto w4 = from_doubles(ScalarType::Float, {4}, {1, 1, 1, 1});
  // Running statistics of another dtype.
  EXPECT_EQ(call_kernel("aten::_native_batch_norm_legit.out",
                        {*x, Arg::none(), Arg::none(), *rm_double, *rv, true, 0.1, 1e-5,
                         *out, *sm, *si, *out, *sm, *si}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("running_mean"));
  // A weight with the wrong channel count.
  EXPECT_EQ(call_kernel("aten::_native_batch_norm_legit.no_stats_out",
                        {*x, *w4, Arg::none(), true, 0.1, 1e-5,
                         *out, *sm, *si, *out, *sm, *si}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("weight"));
  // Integer input; a 1-D input.
  auto xi = from_doubles(ScalarType::Int, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto outi = empty(ScalarType::Int, {2, 3});
  EXPECT_EQ(call_kernel("aten::_native_batch_norm_legit.no_stats_out",
                        {*xi, Arg::none(), Arg::none(), true, 0.1, 1e-5,
                         *outi, *sm, *si, *outi, *sm, *si}),
            Error::InvalidArgument);
  auto x1 = from_doubles(ScalarType::Float, {3}, {1, 2, 3});
  auto out1 = empty(ScalarType::Float, {3});
  EXPECT_EQ(call_kernel("aten::_native_batch_norm_legit.no_stats_out",
                        {*x1, Arg::none(), Arg::none(), true, 0.1, 1e-5,
                         *out1, *sm, *si, *out1, *sm, *si}),
            Error::InvalidArgument);
  // save_mean of another dtype.
  auto sm_d = empty(ScalarType::Double, {3});
  EXPECT_EQ(call_kernel("aten::_native_batch_norm_legit.no_stats_out",
                        {*x, Arg::none(), Arg::none(), true, 0.1, 1e-5,
                         *out, *sm_d, *si, *out, *sm_d, *si}),
            Error::InvalidArgument);
}

// Prepared (kernel prepare at load): the no_training form gives the same
// bytes as a plain call, with and without weight and bias; a Prepare that
// fails (running_var's length, out dtype) fails the same at run.
TEST(NativeBatchNormLegit, NoTrainingPreparedLikeRun) {
  const char* op = "aten::_native_batch_norm_legit_no_training.out";
  for (ScalarType type : {ScalarType::Float, ScalarType::Double, ScalarType::BFloat16}) {
    auto in = from_doubles(type, {2, 3, 4}, wave(24, 3));
    auto w = from_doubles(type, {3}, wave(3, 1));
    auto b = from_doubles(type, {3}, wave(3, 0.5));
    auto rm = from_doubles(type, {3}, {0.1, -0.2, 0.3});
    auto rv = from_doubles(type, {3}, {0.5, 1.5, 2.5});
    auto out = empty(type, {2, 3, 4});
    auto s1 = empty(type, {0}), s2 = empty(type, {0});
    EXPECT_TRUE(expect_prepared_like_run(
                    op, {*in, *w, *b, *rm, *rv, 0.1, 1e-5, *out, *s1, *s2, *out, *s1, *s2})
                    .stopped);
    EXPECT_TRUE(expect_prepared_like_run(op, {*in, Arg::none(), Arg::none(), *rm, *rv, 0.1,
                                              1e-5, *out, *s1, *s2, *out, *s1, *s2})
                    .stopped);
    // eps is a value, used as given at every call.
    expect_prepared_on_changed_args(
        op, {*in, *w, *b, *rm, *rv, 0.1, 1e-5, *out, *s1, *s2, *out, *s1, *s2},
        {*in, *w, *b, *rm, *rv, 0.1, 0.25, *out, *s1, *s2, *out, *s1, *s2});
    auto rv4 = from_doubles(type, {4}, {1, 1, 1, 1});
    EXPECT_EQ(expect_prepared_like_run(
                  op, {*in, *w, *b, *rm, *rv4, 0.1, 1e-5, *out, *s1, *s2, *out, *s1, *s2})
                  .error,
              Error::InvalidArgument);
  }
  auto in = from_doubles(ScalarType::Float, {2, 3}, wave(6, 1));
  auto rm = from_doubles(ScalarType::Float, {3}, {0, 0, 0});
  auto rv = from_doubles(ScalarType::Float, {3}, {1, 1, 1});
  auto out = empty(ScalarType::Double, {2, 3});
  auto s = empty(ScalarType::Float, {0});
  EXPECT_EQ(expect_prepared_like_run(op, {*in, Arg::none(), Arg::none(), *rm, *rv, 0.1, 1e-5,
                                          *out, *s, *s, *out, *s, *s})
                .error,
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
