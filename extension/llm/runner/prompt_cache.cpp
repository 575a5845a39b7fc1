// TextLlmRunner's sessions: save_session(), restore_session() and
// generate_from_cache() (text_llm_runner.h), on the format of
// session_file.h and the state and identity of session_state.h.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>

#include "extension/llm/runner/text_llm_runner.h"
#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

using ull = unsigned long long;

// Writes the session into a file of this process's own beside `path`
// ("<path>.tmp.<pid>"), then renames it over `path`: a reader never sees
// half a file, two processes saving at once never write into one file, and
// a failed save leaves the old one.
Error write_file(const std::string& path, const std::function<Error(const SessionSink&)>& write) {
  const std::string temp = path + ".tmp." + std::to_string(long(getpid()));
  std::ofstream out(temp, std::ios::binary | std::ios::trunc);
  Error err = Error::AccessFailed;
  if (out) {
    err = write([&](const void* data, size_t size) {
      out.write(static_cast<const char*>(data), std::streamsize(size));
      return bool(out);
    });
    out.close();
  }
  if (err != Error::Ok || !out) {
    std::remove(temp.c_str());
    set_error_message("cannot write %s", PrintableName(temp.c_str()).c_str());
    return Error::AccessFailed;
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    std::remove(temp.c_str());
    set_error_message("cannot rename %s to %s", PrintableName(temp.c_str()).c_str(),
                      PrintableName(path.c_str()).c_str());
    return Error::AccessFailed;
  }
  return Error::Ok;
}

// A session file mapped read-only, its pages populated at once (a read()
// into fresh memory costs a page fault per 4 KiB of the caches, about as
// much as the rest of a restore). The mapping is private and never
// written; as with Module's default loader (MmapDataLoader), a file that
// another process truncates in place while it is mapped raises SIGBUS on
// the lost pages. Sessions are never truncated in place by the runner: it
// writes a new file and renames it over the old one (write_file above).
class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile() {
    if (data_ != nullptr) munmap(data_, size_);
  }
  // Maps `path` when it is a regular file of at most `max_bytes` (so that
  // no file, a directory or the wrong path given for a session, costs more
  // than a session of the program can take).
  Error map(const std::string& path, uint64_t max_bytes);
  Span<const uint8_t> bytes() const {
    return Span<const uint8_t>(static_cast<const uint8_t*>(data_), size_);
  }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

Error MappedFile::map(const std::string& path, uint64_t max_bytes) {
  const PrintableName shown(path.c_str());
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  EMBER_CHECK_OR_RETURN(fd >= 0, Error::AccessFailed, "cannot open %s: %s", shown.c_str(),
                        std::strerror(errno));
  struct stat st;
  const bool stated = fstat(fd, &st) == 0;
  const int stat_errno = errno;
  if (!stated || !S_ISREG(st.st_mode) || uint64_t(st.st_size) > max_bytes) {
    close(fd);
    EMBER_CHECK_OR_RETURN(stated, Error::AccessFailed, "cannot stat %s: %s", shown.c_str(),
                          std::strerror(stat_errno));
    EMBER_CHECK_OR_RETURN(S_ISREG(st.st_mode), Error::AccessFailed,
                          "cannot read %s: not a regular file", shown.c_str());
    set_error_message("the file is %llu bytes; a session of this program takes at most %llu",
                      ull(st.st_size), ull(max_bytes));
    return Error::InvalidArgument;
  }
  size_ = size_t(st.st_size);  // <= max_bytes, which fits in memory
  int flags = MAP_PRIVATE;
#ifdef MAP_POPULATE
  flags |= MAP_POPULATE;
#endif
  void* data = size_ > 0 ? mmap(nullptr, size_, PROT_READ, flags, fd, 0) : nullptr;
  const int map_errno = errno;
  close(fd);
  EMBER_CHECK_OR_RETURN(size_ == 0 || data != MAP_FAILED, Error::AccessFailed,
                        "cannot map %s: %s", shown.c_str(), std::strerror(map_errno));
  data_ = size_ > 0 ? data : nullptr;
  return Error::Ok;
}

// InvalidArgument naming the first difference when `held` (what `holder`
// holds: "the KV cache", "the session") is not a prefix of `prompt`;
// `advice` ends the message.
Error check_prefix(const char* holder, const std::vector<uint64_t>& held,
                   const std::vector<uint64_t>& prompt, const char* advice) {
  size_t i = 0;
  while (i < held.size() && i < prompt.size() && held[i] == prompt[i]) ++i;
  if (i == held.size()) return Error::Ok;
  if (i == prompt.size()) {
    set_error_message("%s holds %llu tokens, more than the prompt's %llu (which they start)%s",
                      holder, ull(held.size()), ull(prompt.size()), advice);
  } else {
    set_error_message("%s's %llu tokens do not start the prompt's %llu: token %llu is id %llu "
                      "there, %llu in the prompt%s",
                      holder, ull(held.size()), ull(prompt.size()), ull(i), ull(held[i]),
                      ull(prompt[i]), advice);
  }
  return Error::InvalidArgument;
}

}  // namespace

Error TextLlmRunner::find_state() {
  EMBER_RETURN_IF_ERROR(load());
  if (has_state_) return Error::Ok;
  Result<Method*> method = module_->method(method_);
  if (!method.ok()) return method.error();
  Result<std::vector<StateBuffer>> state = find_state_buffers(module_->program(), **method);
  if (!state.ok()) return state.error();
  state_ = std::move(*state);
  has_state_ = true;
  return Error::Ok;
}

Result<SessionLayout> TextLlmRunner::session_layout() {
  EMBER_RETURN_IF_ERROR(find_state());
  if (!has_session_layout_) {
    Result<uint64_t> identity = program_identity(model_path_, data_paths_, method_, state_);
    if (!identity.ok()) return identity.error();
    Result<MethodMeta> meta = module_->method_meta(method_);
    if (!meta.ok()) return meta.error();
    Result<TensorInfo> logits = meta->output_tensor_meta(0);
    if (!logits.ok()) return logits.error();
    EMBER_CHECK_OR_RETURN(logits->sizes().size() > 0, Error::NotSupported,
                          "method '%s' returns a 0-d tensor, not logits", method_.c_str());
    num_logits_ = uint64_t(logits->sizes()[logits->sizes().size() - 1]);
    identity_ = *identity;
    has_session_layout_ = true;
  }
  SessionLayout layout;
  layout.identity = identity_;
  for (const StateBuffer& b : state_) layout.buffers.push_back(b.info);
  layout.max_tokens = uint64_t(meta_.max_context_len);
  layout.vocab_size = uint64_t(meta_.vocab_size);
  layout.num_logits = num_logits_;
  return layout;
}

Error TextLlmRunner::save_session(const std::string& path) {
  Result<SessionLayout> layout = session_layout();
  if (!layout.ok()) return layout.error();
  EMBER_CHECK_OR_RETURN(cache_ids_.empty() || logits_.size() == layout->num_logits,
                        Error::Internal,
                        "save_session: %llu logits after the last token, %llu expected",
                        ull(logits_.size()), ull(layout->num_logits));
  std::vector<const void*> data;
  for (const StateBuffer& b : state_) data.push_back(b.data);
  const std::vector<float> none;
  const std::vector<float>& logits = cache_ids_.empty() ? none : logits_;
  return write_file(path, [&](const SessionSink& sink) {
    return write_session(*layout, cache_ids_, logits, data, sink);
  });
}

Error TextLlmRunner::restore_session(const std::string& path) {
  return restore_file(path, nullptr);
}

Error TextLlmRunner::restore_session_for(const std::string& path, const std::string& prompt,
                                         const GenerationConfig& config) {
  Result<std::vector<uint64_t>> ids = encode(prompt, config);
  if (!ids.ok()) return ids.error();
  Result<std::vector<uint64_t>> kept = trim_alone(std::move(*ids), config);
  if (!kept.ok()) return kept.error();
  return restore_file(path, &*kept);
}

Error TextLlmRunner::restore_session(Span<const uint8_t> file) {
  return restore_bytes(file, nullptr);
}

Error TextLlmRunner::restore_file(const std::string& path, const std::vector<uint64_t>* prompt) {
  Result<SessionLayout> layout = session_layout();
  if (!layout.ok()) return layout.error();
  MappedFile file;
  Error err = file.map(path, max_session_bytes(*layout));
  if (err == Error::Ok) err = restore_bytes(file.bytes(), prompt);
  if (err != Error::Ok) {
    prefix_error_message(error_name(err), "session file %s", PrintableName(path.c_str()).c_str());
  }
  return err;
}

Error TextLlmRunner::restore_bytes(Span<const uint8_t> file, const std::vector<uint64_t>* prompt) {
  Result<SessionLayout> layout = session_layout();
  if (!layout.ok()) return layout.error();
  Result<SessionView> view = parse_session(file, *layout);
  if (!view.ok()) return view.error();
  if (prompt != nullptr) {
    EMBER_RETURN_IF_ERROR(check_prefix("the session", view->tokens, *prompt, ""));
  }
  for (size_t i = 0; i < state_.size(); ++i) {
    std::memcpy(state_[i].data, view->buffers[i], size_t(state_[i].info.nbytes));
  }
  cache_ids_ = std::move(view->tokens);
  turn_starts_.clear();  // not in the file
  if (!cache_ids_.empty()) logits_ = std::move(view->logits);
  return Error::Ok;
}

Error TextLlmRunner::generate_from_cache(const std::string& prompt,
                                         const GenerationConfig& config, TokenCallback on_token,
                                         StatsCallback on_stats, PromptCallback on_prompt_done) {
  EMBER_RETURN_IF_ERROR(begin_generation(prompt, config));
  const size_t asked = prompt_ids_.size();
  Result<std::vector<uint64_t>> kept = trim_alone(prompt_ids_, config);
  if (!kept.ok()) return kept.error();
  prompt_ids_ = std::move(*kept);
  stats_.num_dropped_context_tokens = int64_t(asked - prompt_ids_.size());
  EMBER_RETURN_IF_ERROR(check_prefix("the KV cache", cache_ids_, prompt_ids_,
                                     "; reset() first, or generate() to continue the "
                                     "conversation"));
  turn_starts_.assign(1, 0);
  return run_prompt(prompt, 0, cache_ids_.size(), config, on_token, on_stats, on_prompt_done);
}

}  // namespace ember::llm
