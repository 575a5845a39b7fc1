// llama::gated_delta_rule.out and its deprecated name
// llama::channelwise_gated_delta_rule.out (kernels/llm/op_gated_delta_rule.cpp,
// maths in kernels/llm/gated_delta_rule.cpp). The expected values below come
// from upstream's recurrence in float64
// (examples/export/export_gated_delta_rule.py --cpp); longer sequences,
// batches and a state carried in a mutable buffer run against upstream in
// test/models/llm_ops (llm_ops_fixture_test). Here: the small case, state
// carried across calls, threading, empty shapes and the argument checks.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "llama::gated_delta_rule.out";
constexpr const char* kAlias = "llama::channelwise_gated_delta_rule.out";

// B=1, H=2 query heads over Hkv=1 state head, T=3, K=3, V=2
// (export_gated_delta_rule.py --cpp).
const std::vector<float> kQuery = {0.55f, 0.15f, -0.1f, -0.49f, -0.07f, -0.3f, 0.03f, -0.03f,
    0.58f, -0.12f, -0.02f, -0.56f, 0.54f, 0.18f, 0.09f, 0.53f, 0.23f, 0.01f};
const std::vector<float> kKey = {-0.52f, 0.55f, -0.65f, -0.25f, -0.77f, 0.58f, -0.58f, 0.81f, 0.0f};
const std::vector<float> kValue = {0.62f, 0.86f, 0.91f, 1.22f, -1.24f, 0.73f};
const std::vector<float> kDecay = {0.73f, 0.84f, 0.92f, 0.51f, 0.93f, 0.55f, 0.65f, 0.93f, 0.98f};
const std::vector<float> kScalarDecay = {0.65f, 0.55f, 0.71f};
const std::vector<float> kBeta = {0.41f, 0.17f, 0.47f};
const std::vector<float> kState = {-0.05f, -1.56f, 0.33f, 0.38f, 0.14f, -1.08f};
const std::vector<float> kOut = {-0.021600518f, -0.44766518f, 0.014255823f, 0.3826524f,
    0.081968136f, -0.2016733f, 0.01736273f, 0.5924063f, -0.019848917f, -0.34688234f, 0.08595666f,
    -0.23738198f};
const std::vector<float> kFinal = {0.31288972f, -0.5219173f, -0.35193157f, 0.18411349f,
    0.106937066f, -0.31119376f};
const std::vector<float> kOutScalar = {-0.025706653f, -0.43571824f, 0.03639425f, 0.35609078f,
    0.052526906f, -0.10900881f, 0.04134765f, 0.46567544f, -0.05291169f, -0.3489561f, 0.035957724f,
    -0.2644909f};
const std::vector<float> kFinalScalar = {0.2700631f, -0.5608355f, -0.46825853f, 0.14897487f,
    0.052374583f, -0.1512319f};

using TensorPtr = std::unique_ptr<OwnedTensor>;

TensorPtr floats(std::vector<SizesType> sizes, const std::vector<float>& v) {
  return tensor<float>(ScalarType::Float, std::move(sizes), v);
}

// Token t of [rows, seq, width] values: [rows, 1, width].
std::vector<float> token(const std::vector<float>& x, size_t rows, size_t seq, size_t width,
                         size_t t) {
  std::vector<float> out;
  for (size_t r = 0; r < rows; ++r) {
    const auto at = x.begin() + long((r * seq + t) * width);
    out.insert(out.end(), at, at + long(width));
  }
  return out;
}

// One call's tensors; out and final_state_out start at 7 so that a test
// sees whether a refused call wrote them.
struct Call {
  TensorPtr q, k, v, decay, beta, state, out, final_state;
  Call(int B, int H, int Hkv, int T, int K, int V, bool scalar_decay) {
    const auto fill = [](std::vector<SizesType> s, double scale) {
      size_t n = 1;
      for (SizesType d : s) n *= size_t(d);
      return from_doubles(ScalarType::Float, s, wave(n, scale));
    };
    q = fill({B, H, T, K}, 0.3);
    k = fill({B, Hkv, T, K}, 0.4);
    v = fill({B, Hkv, T, V}, 1.0);
    std::vector<SizesType> gate = {B, Hkv, T};
    if (!scalar_decay) gate.push_back(K);
    decay = fill(gate, 0.2);
    float* d = decay->data<float>();
    for (int64_t i = 0; i < decay->tensor().numel(); ++i) d[i] += 0.75f;  // (0.55, 0.95)
    beta = fill({B, Hkv, T}, 0.3);
    float* b = beta->data<float>();
    for (int64_t i = 0; i < beta->tensor().numel(); ++i) b[i] += 0.5f;  // (0.2, 0.8)
    state = fill({B, Hkv, K, V}, 1.0);
    out = floats({B, H, T, V}, std::vector<float>(size_t(B * H * T * V), 7.0f));
    final_state = floats({B, Hkv, K, V}, std::vector<float>(size_t(B * Hkv * K * V), 7.0f));
  }
  Call(TensorPtr q_, TensorPtr k_, TensorPtr v_, TensorPtr decay_, TensorPtr beta_,
       TensorPtr state_)
      : q(std::move(q_)), k(std::move(k_)), v(std::move(v_)), decay(std::move(decay_)),
        beta(std::move(beta_)), state(std::move(state_)) {
    const auto qs = sizes_of(*q), ss = sizes_of(*state);
    out = floats({qs[0], qs[1], qs[2], ss[3]},
                 std::vector<float>(size_t(qs[0] * qs[1] * qs[2] * ss[3]), 7.0f));
    final_state = floats(ss, std::vector<float>(size_t(state->tensor().numel()), 7.0f));
  }
  // The boxed call as the emitter writes it: the eight schema values, then
  // the (out, final_state_out) list.
  Error run(const char* op = kOp) {
    return call_kernel(op, {*q, *k, *v, *decay, *beta, *state, *out, *final_state,
                            Arg::tensors({out->tensor(), final_state->tensor()})});
  }
  bool outputs_untouched() const {
    for (const OwnedTensor* t : {out.get(), final_state.get()}) {
      for (float x : t->values<float>()) {
        if (x != 7.0f) return false;
      }
    }
    return true;
  }
};

// The small case with one decay layout.
Call small(bool scalar_decay) {
  return Call(floats({1, 2, 3, 3}, kQuery), floats({1, 1, 3, 3}, kKey),
              floats({1, 1, 3, 2}, kValue),
              scalar_decay ? floats({1, 1, 3}, kScalarDecay) : floats({1, 1, 3, 3}, kDecay),
              floats({1, 1, 3}, kBeta), floats({1, 1, 3, 2}, kState));
}

TEST(GatedDeltaRule, ChannelwiseDecayMatchesUpstreamReference) {
  Call c = small(false);
  ASSERT_EQ(c.run(), Error::Ok) << last_error_message();
  expect_near_vec(c.out->values<float>(), kOut, 1e-6);
  expect_near_vec(c.final_state->values<float>(), kFinal, 1e-6);
  EXPECT_EQ(c.state->values<float>(), kState);  // initial_state is only read
}

TEST(GatedDeltaRule, ScalarDecayMatchesUpstreamReference) {
  Call c = small(true);
  ASSERT_EQ(c.run(), Error::Ok) << last_error_message();
  expect_near_vec(c.out->values<float>(), kOutScalar, 1e-6);
  expect_near_vec(c.final_state->values<float>(), kFinalScalar, 1e-6);
}

TEST(GatedDeltaRule, DeprecatedNameRunsTheSameOperator) {
  Call c = small(false);
  ASSERT_EQ(c.run(kAlias), Error::Ok) << last_error_message();
  expect_near_vec(c.out->values<float>(), kOut, 1e-6);
  expect_near_vec(c.final_state->values<float>(), kFinal, 1e-6);
}

TEST(GatedDeltaRule, TakesTheOutputsAgainInsteadOfTheList) {
  Call c = small(false);
  ASSERT_EQ(call_kernel(kOp, {*c.q, *c.k, *c.v, *c.decay, *c.beta, *c.state, *c.out,
                              *c.final_state, *c.out, *c.final_state}),
            Error::Ok)
      << last_error_message();
  expect_near_vec(c.out->values<float>(), kOut, 1e-6);
}

TEST(GatedDeltaRule, StateCarriesAcrossOneTokenCalls) {
  // Three decoding calls, each starting from the state the last one left,
  // give the outputs and final state of the one three-token call.
  for (bool scalar : {false, true}) {
    SCOPED_TRACE(scalar ? "scalar decay" : "channelwise decay");
    const std::vector<float>& decay = scalar ? kScalarDecay : kDecay;
    const size_t gates = scalar ? 1 : 3;
    std::vector<float> state = kState, out(12);
    for (size_t t = 0; t < 3; ++t) {
      std::vector<SizesType> gate = {1, 1, 1};
      if (!scalar) gate.push_back(3);
      Call c(floats({1, 2, 1, 3}, token(kQuery, 2, 3, 3, t)),
             floats({1, 1, 1, 3}, token(kKey, 1, 3, 3, t)),
             floats({1, 1, 1, 2}, token(kValue, 1, 3, 2, t)),
             floats(gate, token(decay, 1, 3, gates, t)), floats({1, 1, 1}, {kBeta[t]}),
             floats({1, 1, 3, 2}, state));
      ASSERT_EQ(c.run(), Error::Ok) << last_error_message();
      state = c.final_state->values<float>();
      const std::vector<float> step = c.out->values<float>();
      for (size_t h = 0; h < 2; ++h) {
        for (size_t j = 0; j < 2; ++j) out[(h * 3 + t) * 2 + j] = step[h * 2 + j];
      }
    }
    expect_near_vec(out, scalar ? kOutScalar : kOut, 1e-6);
    expect_near_vec(state, scalar ? kFinalScalar : kFinal, 1e-6);
  }
}

TEST(GatedDeltaRule, ResizesBoundedDynamicOutputs) {
  Call c = small(false);
  c.out = dynamic_out(ScalarType::Float, {2, 2, 8, 2});
  c.final_state = dynamic_out(ScalarType::Float, {2, 1, 3, 2});
  ASSERT_EQ(c.run(), Error::Ok) << last_error_message();
  EXPECT_EQ(sizes_of(*c.out), (std::vector<SizesType>{1, 2, 3, 2}));
  EXPECT_EQ(sizes_of(*c.final_state), (std::vector<SizesType>{1, 1, 3, 2}));
  expect_near_vec(c.out->values<float>(), kOut, 1e-6);
}

TEST(GatedDeltaRule, ThreadsDoNotChangeTheResult) {
  // Enough work for the state heads to go to the pool: the same bits as
  // one thread, batch 2, 3 query heads per state head, odd head dims.
  auto [one, two] = one_and_two_threads([] {
    Call c(2, 6, 2, 37, 17, 33, false);
    EXPECT_EQ(c.run(), Error::Ok) << last_error_message();
    std::vector<double> all = to_doubles(*c.out), s = to_doubles(*c.final_state);
    all.insert(all.end(), s.begin(), s.end());
    return all;
  });
  expect_bitwise_equal(one, two);
  for (double x : one) ASSERT_TRUE(std::isfinite(x));
}

TEST(GatedDeltaRule, EmptyShapes) {
  // No tokens: the state passes through. No key channels: zeros out.
  Call none(1, 2, 1, 0, 3, 2, false);
  ASSERT_EQ(none.run(), Error::Ok) << last_error_message();
  EXPECT_EQ(none.final_state->values<float>(), none.state->values<float>());
  Call no_k(1, 2, 1, 3, 0, 2, true);
  ASSERT_EQ(no_k.run(), Error::Ok) << last_error_message();
  EXPECT_EQ(no_k.out->values<float>(), std::vector<float>(12, 0.0f));
}

// Expects `c` refused with `error` and a message naming `needle`, its
// outputs untouched.
void expect_refused(Call& c, Error error, const char* needle) {
  EXPECT_EQ(c.run(), error) << needle;
  EXPECT_TRUE(message_has(needle)) << last_error_message();
  EXPECT_TRUE(c.outputs_untouched()) << needle;
}

TEST(GatedDeltaRule, RefusesOtherDtypes) {
  Call half_q = small(false);
  half_q.q = empty(ScalarType::Half, {1, 2, 3, 3});
  expect_refused(half_q, Error::InvalidArgument, "query must be Float");
  Call double_state = small(false);
  double_state.state = empty(ScalarType::Double, {1, 1, 3, 2});
  expect_refused(double_state, Error::InvalidArgument, "initial_state must be Float");
  Call half_out = small(false);
  half_out.out = empty(ScalarType::Half, {1, 2, 3, 2});
  EXPECT_EQ(half_out.run(), Error::InvalidArgument);
  EXPECT_TRUE(message_has("out must be Float"));
}

TEST(GatedDeltaRule, RefusesWrongRanksAndShapes) {
  struct Bad {
    const char* needle;
    void (*change)(Call&);
  };
  const Bad cases[] = {
      {"must be 4-D", [](Call& c) { c.q = floats({2, 3, 3}, kQuery); }},
      {"decay must be", [](Call& c) { c.decay = floats({1, 3}, kScalarDecay); }},
      {"beta must be", [](Call& c) { c.beta = floats({1, 1, 1, 3}, kBeta); }},
      {"key has shape", [](Call& c) { c.k = floats({1, 1, 9, 1}, kKey); }},
      {"value has shape", [](Call& c) { c.v = floats({1, 1, 2, 3}, kValue); }},
      {"decay has shape", [](Call& c) { c.decay = floats({1, 1, 1, 3}, {1, 1, 1}); }},
      {"decay has shape", [](Call& c) { c.decay = floats({1, 1, 2}, {1, 1}); }},
      {"beta has shape", [](Call& c) { c.beta = floats({1, 1, 2}, {1, 1}); }},
      {"initial_state has shape", [](Call& c) { c.state = floats({1, 1, 2, 3}, kState); }},
      {"not a positive multiple",
       [](Call& c) {
         c.q = floats({1, 1, 3, 3}, token(kQuery, 1, 1, 9, 0));
         c.k = floats({1, 2, 3, 3}, std::vector<float>(18, 0.1f));
         c.v = floats({1, 2, 3, 2}, std::vector<float>(12, 0.1f));
         c.decay = floats({1, 2, 3, 3}, std::vector<float>(18, 0.5f));
         c.beta = floats({1, 2, 3}, std::vector<float>(6, 0.5f));
         c.state = floats({1, 2, 3, 2}, std::vector<float>(12, 0.0f));
       }},
      {"not a positive multiple",
       [](Call& c) {
         c.k = empty(ScalarType::Float, {1, 0, 3, 3});
         c.v = empty(ScalarType::Float, {1, 0, 3, 2});
         c.decay = empty(ScalarType::Float, {1, 0, 3});
         c.beta = empty(ScalarType::Float, {1, 0, 3});
         c.state = empty(ScalarType::Float, {1, 0, 3, 2});
       }},
  };
  for (const Bad& b : cases) {
    Call c = small(false);
    b.change(c);
    expect_refused(c, Error::InvalidArgument, b.needle);
  }
}

TEST(GatedDeltaRule, RefusesAFinalStateSharingInitialStateMemory) {
  Call same = small(false);
  EXPECT_EQ(call_kernel(kOp, {*same.q, *same.k, *same.v, *same.decay, *same.beta, *same.state,
                              *same.out, *same.state, *same.out, *same.state}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("shares memory with initial_state"));
  EXPECT_EQ(same.state->values<float>(), kState);
  // Overlapping by part: a view four floats into the state's storage.
  Call part = small(false);
  SizesType sizes[] = {1, 1, 3, 2};
  DimOrderType order[] = {0, 1, 2, 3};
  StridesType strides[4];
  TensorImpl view(ScalarType::Float, 4, sizes, part.state->data<float>() + 4, order, strides);
  EXPECT_EQ(call_kernel(kOp, {*part.q, *part.k, *part.v, *part.decay, *part.beta, *part.state,
                              *part.out, Tensor(&view), *part.out, Tensor(&view)}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("shares memory with initial_state"));
}

TEST(GatedDeltaRule, RefusesLayoutsOutputsAndArgumentsItCannotTake) {
  Call strided = small(false);
  strided.k = empty(ScalarType::Float, {1, 1, 3, 3}, ShapeDynamism::Static, {0, 1, 3, 2});
  expect_refused(strided, Error::NotSupported, "key has a non-contiguous dim order");
  Call small_out = small(false);
  small_out.out = floats({1, 2, 2, 2}, std::vector<float>(8, 7.0f));  // static, wrong shape
  EXPECT_NE(small_out.run(), Error::Ok);
  EXPECT_TRUE(message_has("cannot resize out")) << last_error_message();
  Call c = small(false);
  EXPECT_EQ(call_kernel(kOp, {*c.q, *c.k, *c.v, *c.decay, *c.beta, *c.state, *c.out,
                              *c.final_state}),
            Error::InvalidProgram);
  EXPECT_EQ(call_kernel(kOp, {*c.q, *c.k, *c.v, *c.decay, int64_t(1), *c.state, *c.out,
                              *c.final_state, *c.out, *c.final_state}),
            Error::InvalidType);
  EXPECT_TRUE(c.outputs_untouched());
}

}  // namespace
}  // namespace ember::testing
