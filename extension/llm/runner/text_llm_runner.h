// TextLlmRunner: prompt in, streamed text out, for decoder-only LLMs that
// upstream's exporter wrote (export_llama or export_llm), shaped like
// upstream's TextLLMRunner so an app can switch:
//
//   auto tok = load_tokenizer("tokenizer.model");
//   auto runner = TextLlmRunner::create("llama.pte", {}, std::move(*tok));
//   GenerationConfig config;
//   config.temperature = 0;
//   (*runner)->generate("Once upon a time", config,
//                       [](const std::string& text) { std::cout << text; });
//
// The KV cache's position is kept across generate() calls, so a chat's
// next turn reuses the cache; reset() starts over. Prefill runs the whole
// prompt in one call when the program takes a dynamic sequence length (in
// chunks of what the token input takes when longer), token by token
// otherwise. Generation
// stops at an EOS id (unless ignore_eos), at the resolved max_new_tokens,
// or when stop() is called (from any thread). A prompt that does not fit
// the context left is an InvalidArgument with a message saying how much
// is used, never a truncation, unless GenerationConfig::keep_first_tokens
// asks for a context trim: then the conversation's first tokens and its
// most recent ones are kept, the middle dropped, and what is kept is
// prefilled again from position 0 with the state as loaded (context_trim.h).
//
// A session (the KV caches, the position and the token ids they hold) can
// be saved to a file and restored, in this runner or a later one of the same
// program, after reset() too; generate_from_cache() then prefills only the
// part of a prompt the cache does not already hold: ember_llm's
// --prompt_cache (docs/llm.md). Upstream's runner has no such thing; the
// file format is in session_file.h.
//
// Differences from upstream, on purpose: the library prints nothing (the
// callback gets the text; ember_llm prints it); the callback gets whole
// UTF-8 characters only (byte pieces are joined, see utf8_stream.h);
// sampling takes a seed (GenerationConfig::seed).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "extension/llm/runner/context_trim.h"
#include "extension/llm/runner/generation_config.h"
#include "extension/llm/runner/metadata.h"
#include "extension/llm/runner/session_state.h"
#include "extension/llm/runner/stats.h"
#include "extension/llm/tokenizer/tokenizer.h"
#include "extension/module/module.h"

namespace ember::llm {

class Sampler;

class TextLlmRunner {
 public:
  using TokenCallback = std::function<void(const std::string&)>;
  using StatsCallback = std::function<void(const Stats&)>;
  // Called once the prompt is in the KV cache, before decoding.
  using PromptCallback = std::function<void()>;

  // Opens the program (with its .ptd data files) and reads its metadata;
  // the method itself loads on load() or the first generate().
  static Result<std::unique_ptr<TextLlmRunner>> create(
      const std::string& model_path, const std::vector<std::string>& data_paths,
      std::unique_ptr<Tokenizer> tokenizer, const std::string& method_name = "forward");

  ~TextLlmRunner();

  bool is_loaded() const;
  Error load();
  // Records the method's load and every forward call (profiling events)
  // into `tracer` (not owned; it must outlive the runner). Set it before
  // load() or the first generate(); InvalidState after.
  Error set_event_tracer(EventTracer* tracer);

  // Continues the conversation with `prompt` (encode() with `config`).
  // With config.keep_first_tokens set, a prompt that (with
  // config.context_margin positions for the answer) does not fit after
  // what the cache holds trims the conversation first (plan_context_trim):
  // the cache is emptied, the state buffers put back as they were when the
  // method loaded, and the kept tokens (the first ones, the most recent
  // ones, the prompt) are prefilled from position 0, as on a fresh runner;
  // last_prompt_ids() are then the kept tokens, and
  // Stats::num_dropped_context_tokens says how many were dropped.
  // InvalidArgument, with nothing changed, for a keep count or margin too
  // large for the context (whether or not a trim is needed), or, without
  // keep_first_tokens, for a prompt that does not fit.
  Error generate(const std::string& prompt, const GenerationConfig& config,
                 TokenCallback on_token = {}, StatsCallback on_stats = {});
  // generate() for a prompt given as token ids, taken as they are (the
  // config's num_bos and num_eos are not applied, and nothing is echoed).
  // InvalidArgument for no ids or an id outside the vocabulary.
  Error generate_tokens(const std::vector<uint64_t>& prompt_ids, const GenerationConfig& config,
                        TokenCallback on_token = {}, StatsCallback on_stats = {});
  // Runs the prompt into the KV cache without generating (the position
  // moves past it); a later generate() continues from there.
  Error prefill(const std::string& prompt, const GenerationConfig& config);
  // A generate() with warming set and nothing reported, then reset().
  Error warmup(const std::string& prompt, int32_t max_new_tokens);
  // Ends a generate() in progress after its current token; safe from any
  // thread.
  void stop() { stop_requested_.store(true); }
  // Forgets the conversation: the position goes back to 0, stats cleared.
  void reset();

  // The prompt's token ids as generate() runs them (BOS/EOS as `config`
  // asks). InvalidArgument for an empty prompt or a bad BOS/EOS count.
  Result<std::vector<uint64_t>> encode(const std::string& prompt,
                                       const GenerationConfig& config) const;

  // --- Sessions: a prompt cache (prompt_cache.cpp; format: session_file.h) ---
  //
  // The token ids the KV cache holds, in position order (position() of them:
  // every prompt and fed token since reset() or restore_session()).
  const std::vector<uint64_t>& cached_ids() const { return cache_ids_; }
  // Writes the session to `path` (through a temporary file renamed over it):
  // the method's state buffers (session_state.h: the KV caches, and any
  // other state it keeps between calls), cached_ids() (the position) and
  // the logits the last of them gave. Loads the method if needed.
  // NotSupported when the method keeps no state; AccessFailed when the file
  // cannot be written or the program's files cannot be read (for its
  // identity).
  Error save_session(const std::string& path);
  // Reads a session file, checks all of it against this program and method
  // (parse_session() in session_file.h: size, magic, version, checksum,
  // identity, every buffer's dtype and size, the token count and ids), and
  // only then copies the caches in and sets the position and cached_ids()
  // to the session's; on any error nothing has changed. Any time: after
  // reset(), or in the middle of a conversation (which it replaces).
  // The file is mapped, not copied: as with Module's default loader, a
  // file another process truncates in place meanwhile raises SIGBUS
  // (save_session() never does: it renames a new file over the old one).
  // AccessFailed when the file cannot be opened or is not a regular file;
  // InvalidArgument when it is larger than any session of this program;
  // the errors of parse_session(); each with a message that names the file.
  Error restore_session(const std::string& path);
  // The same, from a session file's bytes in memory.
  Error restore_session(Span<const uint8_t> file);
  // restore_session() for a prompt cache: restores only a session whose
  // tokens start `prompt`'s (encode() with `config`), so that
  // generate_from_cache() of that prompt prefills only its rest (the
  // prompt as the context trim keeps it, when config asks for one).
  // InvalidArgument, naming the first token that differs, for any other
  // session, with nothing changed (the state of a program whose state is
  // not indexed by position, LFM2's or Qwen3.5's, included).
  Error restore_session_for(const std::string& path, const std::string& prompt,
                            const GenerationConfig& config);
  // generate() for a prompt that starts at position 0 rather than after the
  // conversation, when the KV cache may already hold its beginning: the
  // tokens of cached_ids() must be a prefix of the prompt's (encode()), and
  // only the prompt's tokens after them are prefilled (none when the cache
  // holds the whole prompt: the first new token comes from the logits its
  // last token gave, kept with the session). On an empty cache it is
  // generate(). Nothing is rewound or run twice, so programs whose state
  // is not indexed by position (a convolution's or a recurrence's) are
  // served as exactly as KV caches. InvalidArgument, with nothing run and
  // the cache as it was, when the cached ids do not start the prompt (the
  // message names the first one that differs) or the prompt does not fit
  // the context. `on_prompt_done` is called once the prompt is in the cache
  // (position() == its length), after the first new token went to
  // `on_token` and before decoding: save_session() there stores the prompt,
  // not the generated text. Stats::num_cached_prompt_tokens says how many
  // tokens were not prefilled. With config.keep_first_tokens set, a prompt
  // that does not fit the context is trimmed first (plan_context_trim, with
  // no turns known: its first tokens and its most recent ones), and the
  // cached ids must start the kept tokens.
  Error generate_from_cache(const std::string& prompt, const GenerationConfig& config,
                            TokenCallback on_token = {}, StatsCallback on_stats = {},
                            PromptCallback on_prompt_done = {});

  int64_t position() const { return int64_t(cache_ids_.size()); }
  const LlmMetadata& metadata() const { return meta_; }
  const Tokenizer& tokenizer() const { return *tokenizer_; }
  const Stats& stats() const { return stats_; }
  // The program and its loaded method (for memory reports).
  const Module& module() const { return *module_; }
  // The token ids of the last generate(): its prompt (BOS/EOS included; after
  // a context trim, every token kept, prefilled from position 0) and every
  // new token, the first one (from prefill) included.
  const std::vector<uint64_t>& last_prompt_ids() const { return prompt_ids_; }
  const std::vector<uint64_t>& last_generated_ids() const { return generated_ids_; }

 private:
  TextLlmRunner() = default;

  // Checks `prompt_ids_` fit at `start` (the position where the prompt
  // begins; its first `reused` tokens are the cache's last ones already),
  // prefills the rest and decodes: the part generate() and
  // generate_from_cache() share.
  Error run_prompt(const std::string& prompt, int64_t start, size_t reused,
                   const GenerationConfig& config, const TokenCallback& on_token,
                   const StatsCallback& on_stats, const PromptCallback& on_prompt_done);
  // Loads, clears the stop flag, starts the stats and encodes the prompt
  // into prompt_ids_ (or takes `ids` when given).
  Error begin_generation(const std::string& prompt, const GenerationConfig& config,
                         const std::vector<uint64_t>* ids = nullptr);
  // generate() and generate_tokens() once prompt_ids_ is set: the turn is
  // noted, the conversation trimmed if asked and needed, then run_prompt.
  Error continue_conversation(const std::string& echo, const GenerationConfig& config,
                              const TokenCallback& on_token, const StatsCallback& on_stats);
  // The state buffers (state_), found once after the method loads.
  // NotSupported when the method keeps no state.
  Error find_state();

  // --- The context trim (context_trim.cpp) ---
  // plan_context_trim() for `prompt` after what the cache holds
  // (`after_cache`, with the turns noted) or alone from position 0.
  Result<ContextTrim> plan_trim(const std::vector<uint64_t>& prompt, bool after_cache,
                                const GenerationConfig& config) const;
  // `prompt` alone as the trim keeps it (itself when keep_first_tokens is -1
  // or it fits).
  Result<std::vector<uint64_t>> trim_alone(std::vector<uint64_t> prompt,
                                           const GenerationConfig& config) const;
  // With keep_first_tokens set, trims the conversation when prompt_ids_
  // does not fit after the cache: prompt_ids_ becomes the kept tokens, the
  // cache is emptied and the state put back as loaded (restart_state), so
  // that run_prompt prefills them from position 0. On an error before
  // that, nothing has changed.
  Error trim_after_cache(const GenerationConfig& config);
  // Empties the cache and puts the state buffers back as loaded (reset()
  // only rewinds the position, as upstream's does).
  Error restart_state();
  // Notes that a turn (a prompt) begins at `start` in the cache.
  void note_turn_start(int64_t start);
  // The state buffers, the identity and the bounds a session must match
  // (found once, after the method loads).
  Result<SessionLayout> session_layout();
  // restore_session() of a file or of bytes; with `prompt`, only a session
  // whose tokens start it.
  Error restore_file(const std::string& path, const std::vector<uint64_t>* prompt);
  Error restore_bytes(Span<const uint8_t> file, const std::vector<uint64_t>* prompt);
  // One forward call on `tokens` at `start_pos`; the last row of logits
  // goes to logits_.
  Error step(const std::vector<int64_t>& tokens, int64_t start_pos);
  // Runs `tokens` into the cache after cached_ids() (position() moves past
  // them); returns the first new token (greedy).
  Result<uint64_t> prefill_tokens(const std::vector<uint64_t>& tokens);
  Result<int64_t> decode_loop(uint64_t first, int32_t max_new, const GenerationConfig& config,
                              const TokenCallback& emit);
  Result<uint64_t> sample(const GenerationConfig& config);

  std::unique_ptr<Tokenizer> tokenizer_;
  std::unique_ptr<Module> module_;
  std::string method_;
  std::string model_path_;
  std::vector<std::string> data_paths_;
  LlmMetadata meta_;
  bool takes_cache_positions_ = false;  // input 1 is [n] positions, not [1] start
  int64_t token_capacity_ = 1;          // input 0's [1, n] upper bound
  size_t num_inputs_ = 0;
  // The token at each KV-cache position, so position() is its size.
  std::vector<uint64_t> cache_ids_;
  // Where turns begin in cache_ids_, ascending: each generate()'s and
  // prefill()'s prompt since reset(); a restored session's turns are not
  // known (the context trim keeps whole turns where it knows them).
  std::vector<int64_t> turn_starts_;
  // Found on the first save or restore (session_layout()).
  std::vector<StateBuffer> state_;
  bool has_state_ = false;
  uint64_t identity_ = 0;
  uint64_t num_logits_ = 0;  // the last dim of the method's output
  bool has_session_layout_ = false;
  std::atomic<bool> stop_requested_{false};
  EventTracer* event_tracer_ = nullptr;
  Stats stats_;
  std::vector<float> logits_;
  std::unique_ptr<Sampler> sampler_;
  float sampler_temperature_ = -1.0f;
  std::vector<uint64_t> prompt_ids_;
  std::vector<uint64_t> generated_ids_;
};

}  // namespace ember::llm
