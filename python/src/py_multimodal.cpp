// ember._ember.llm's multimodal and speech runners (extension/llm):
// MultimodalRunner with make_text_input / make_image_input /
// make_audio_input / make_token_input, as upstream's
// executorch.extension.llm.runner names them, and Seq2SeqRunner for
// Whisper-style programs. Images and features come in as numpy arrays
// (copied), or from files through the library's readers.
//
// generate() and transcribe() release the GIL while the model runs and take
// it back for each callback, so stop() works from another Python thread.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <optional>

#include "extension/llm/runner/media_inputs.h"
#include "extension/llm/runner/multimodal_prompt.h"
#include "extension/llm/runner/multimodal_runner.h"
#include "extension/llm/runner/seq2seq_runner.h"
#include "extension/llm/runner/timestamps.h"
#include "python/src/py_ember.h"

namespace ember_py {
namespace {

using ember::TensorPtr;
using ember::llm::GenerationConfig;
using ember::llm::MultimodalInput;
using ember::llm::MultimodalRunner;
using ember::llm::Seq2SeqRunner;
using ember::llm::Stats;
using ember::llm::TranscribeConfig;

template <typename T>
TensorPtr owned_copy(const py::array& given) {
  auto a = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(given);
  if (!a) throw py::type_error("expected a numeric array");
  std::vector<ember::SizesType> sizes(a.shape(), a.shape() + a.ndim());
  std::vector<T> values(a.data(), a.data() + a.size());
  auto t = ember::make_tensor_ptr(std::move(sizes), std::move(values));
  if (!t.ok()) throw_error("array", t.error());
  return *t;
}

// uint8 arrays stay uint8 (an encoder that takes bytes); anything else is
// float32.
TensorPtr array_tensor(const py::array& given) {
  if (given.dtype().is(py::dtype::of<uint8_t>())) return owned_copy<uint8_t>(given);
  return owned_copy<float>(given);
}

std::unique_ptr<ember::llm::Tokenizer> tokenizer_at(const std::string& path) {
  ember::clear_error_message();
  auto tokenizer = ember::llm::load_tokenizer(path);
  if (!tokenizer.ok()) throw_error("load_tokenizer", tokenizer.error());
  return std::move(*tokenizer);
}

// A callback that takes the GIL for Python. It refers to `f` (no copy: a
// Python callable's reference count may only change under the GIL), which
// must outlive it.
template <typename Arg>
std::function<void(const Arg&)> with_gil(const std::function<void(const Arg&)>& f) {
  if (!f) return {};
  const std::function<void(const Arg&)>* callable = &f;
  return [callable](const Arg& a) {
    py::gil_scoped_acquire gil;
    (*callable)(a);
  };
}

class PyMultimodalRunner {
 public:
  PyMultimodalRunner(const std::string& model_path, const std::string& tokenizer_path,
                     const std::vector<std::string>& data_paths) {
    auto tokenizer = tokenizer_at(tokenizer_path);
    py::gil_scoped_release nogil;
    auto runner = MultimodalRunner::create(model_path, data_paths, std::move(tokenizer));
    if (!runner.ok()) {
      py::gil_scoped_acquire gil;
      throw_error("MultimodalRunner(" + model_path + ")", runner.error());
    }
    runner_ = std::move(*runner);
  }

  void generate(const std::vector<MultimodalInput>& inputs, const GenerationConfig& config,
                const std::function<void(const std::string&)>& on_token,
                const std::function<void(const Stats&)>& on_stats) {
    ember::Error err;
    {
      py::gil_scoped_release nogil;
      err = runner_->generate(inputs, config, with_gil(on_token), with_gil(on_stats));
    }
    check(err, "generate");
  }

  void prefill(const std::vector<MultimodalInput>& inputs, const GenerationConfig& config) {
    ember::Error err;
    {
      py::gil_scoped_release nogil;
      err = runner_->prefill(inputs, config);
    }
    check(err, "prefill");
  }

  MultimodalInput image_from_file(const std::string& path, const std::string& preset) {
    ember::clear_error_message();
    auto t = ember::llm::load_image_tensor(path, preset, runner_->module(),
                                           MultimodalRunner::kVisionEncoder);
    if (!t.ok()) throw_error("image_input_from_file(" + path + ")", t.error());
    return MultimodalInput::from_image(*t);
  }

  MultimodalRunner& runner() { return *runner_; }

 private:
  std::unique_ptr<MultimodalRunner> runner_;
};

class PySeq2SeqRunner {
 public:
  PySeq2SeqRunner(const std::string& model_path, const std::string& tokenizer_path,
                  const std::vector<std::string>& data_paths) {
    auto tokenizer = tokenizer_at(tokenizer_path);
    py::gil_scoped_release nogil;
    auto runner = Seq2SeqRunner::create(model_path, data_paths, std::move(tokenizer));
    if (!runner.ok()) {
      py::gil_scoped_acquire gil;
      throw_error("Seq2SeqRunner(" + model_path + ")", runner.error());
    }
    runner_ = std::move(*runner);
  }

  std::vector<uint64_t> transcribe(const TensorPtr& features, const TranscribeConfig& config,
                                   const std::function<void(const std::string&)>& on_token) {
    auto run = [&] {
      py::gil_scoped_release nogil;
      return runner_->transcribe(features, config, with_gil(on_token));
    };
    auto ids = run();
    if (!ids.ok()) throw_error("transcribe", ids.error());
    return *ids;
  }

  Seq2SeqRunner& runner() { return *runner_; }

 private:
  std::unique_ptr<Seq2SeqRunner> runner_;
};

TensorPtr features_from_file(const std::string& path, const std::string& processor_path) {
  ember::clear_error_message();
  auto run = [&] {
    py::gil_scoped_release nogil;
    return ember::llm::load_audio_features(path, processor_path);
  };
  auto t = run();
  if (!t.ok()) throw_error("audio features from " + path, t.error());
  return *t;
}

TranscribeConfig transcribe_config(int32_t max_new_tokens, float temperature,
                                   int64_t decoder_start_token_id,
                                   const std::vector<uint64_t>& forced_token_ids,
                                   const std::vector<uint64_t>& eos_ids, uint64_t seed) {
  TranscribeConfig c;
  c.max_new_tokens = max_new_tokens;
  c.temperature = temperature;
  c.decoder_start_token_id = decoder_start_token_id;
  c.forced_ids = forced_token_ids;
  c.eos_ids = eos_ids;
  c.seed = seed;
  return c;
}

void bind_inputs(py::module_& m) {
  py::class_<MultimodalInput>(m, "MultimodalInput")
      .def("is_text", [](const MultimodalInput& i) { return i.kind == MultimodalInput::Kind::kText; })
      .def("is_tokens",
           [](const MultimodalInput& i) { return i.kind == MultimodalInput::Kind::kTokens; })
      .def("is_image",
           [](const MultimodalInput& i) { return i.kind == MultimodalInput::Kind::kImage; })
      .def("is_audio",
           [](const MultimodalInput& i) { return i.kind == MultimodalInput::Kind::kAudio; })
      .def_property_readonly("kind", [](const MultimodalInput& i) {
        return ember::llm::input_kind_name(i.kind);
      })
      .def_property_readonly("text", [](const MultimodalInput& i) { return i.text; })
      .def_property_readonly("tokens", [](const MultimodalInput& i) { return i.tokens; })
      .def_property_readonly("shape", [](const MultimodalInput& i) {
        std::vector<int64_t> shape;
        if (i.tensor != nullptr) shape.assign(i.tensor->sizes().begin(), i.tensor->sizes().end());
        return shape;
      });
  m.def("make_text_input", &MultimodalInput::from_text, py::arg("text"));
  m.def("make_token_input", &MultimodalInput::from_tokens, py::arg("tokens"));
  m.def("make_image_input",
        [](const py::array& image) { return MultimodalInput::from_image(array_tensor(image)); },
        py::arg("image"), "An image as the vision encoder takes it: [3, H, W] uint8 or float.");
  m.def("make_audio_input",
        [](const py::array& f) { return MultimodalInput::from_audio(owned_copy<float>(f)); },
        py::arg("features"), "Audio features [batch, bins, frames] (float32).");
  m.def("audio_input_from_file",
        [](const std::string& path, const std::string& processor_path) {
          return MultimodalInput::from_audio(features_from_file(path, processor_path));
        },
        py::arg("path"), py::arg("processor_path") = "");
  m.def("build_multimodal_prompt",
        [](const std::string& format, const std::string& prompt,
           const std::optional<MultimodalInput>& image,
           const std::optional<MultimodalInput>& audio) {
          ember::clear_error_message();
          auto pieces = ember::llm::build_multimodal_prompt(
              format, prompt, image ? image->tensor : TensorPtr(),
              audio ? audio->tensor : TensorPtr());
          if (!pieces.ok()) throw_error("build_multimodal_prompt", pieces.error());
          return *pieces;
        },
        py::arg("format"), py::arg("prompt"), py::arg("image") = py::none(),
        py::arg("audio") = py::none());
}

}  // namespace

void bind_multimodal(py::module_& m) {
  bind_inputs(m);
  py::class_<PyMultimodalRunner>(m, "MultimodalRunner")
      .def(py::init<const std::string&, const std::string&, const std::vector<std::string>&>(),
           py::arg("model_path"), py::arg("tokenizer_path"),
           py::arg("data_paths") = std::vector<std::string>())
      .def("generate", &PyMultimodalRunner::generate, py::arg("inputs"), py::arg("config"),
           py::arg("token_callback") = nullptr, py::arg("stats_callback") = nullptr)
      .def("prefill", &PyMultimodalRunner::prefill, py::arg("inputs"), py::arg("config"))
      .def("image_input_from_file", &PyMultimodalRunner::image_from_file, py::arg("path"),
           py::arg("preset") = "")
      .def("stop", [](PyMultimodalRunner& r) { r.runner().stop(); })
      .def("reset", [](PyMultimodalRunner& r) { r.runner().reset(); })
      .def_property_readonly("position", [](PyMultimodalRunner& r) { return r.runner().position(); })
      .def_property_readonly("has_vision",
                             [](PyMultimodalRunner& r) { return r.runner().has_vision(); })
      .def_property_readonly("has_audio", [](PyMultimodalRunner& r) { return r.runner().has_audio(); })
      .def_property_readonly("last_prompt_ids",
                             [](PyMultimodalRunner& r) { return r.runner().last_prompt_ids(); })
      .def_property_readonly("last_generated_ids",
                             [](PyMultimodalRunner& r) { return r.runner().last_generated_ids(); })
      .def_property_readonly("stats", [](PyMultimodalRunner& r) { return r.runner().stats(); })
      .def_property_readonly("max_context_len", [](PyMultimodalRunner& r) {
        return r.runner().metadata().max_context_len;
      });

  py::class_<PySeq2SeqRunner>(m, "Seq2SeqRunner")
      .def(py::init<const std::string&, const std::string&, const std::vector<std::string>&>(),
           py::arg("model_path"), py::arg("tokenizer_path"),
           py::arg("data_paths") = std::vector<std::string>())
      .def("transcribe",
           [](PySeq2SeqRunner& r, const py::array& features, int32_t max_new_tokens,
              float temperature, int64_t start, const std::vector<uint64_t>& forced,
              const std::vector<uint64_t>& eos, uint64_t seed,
              const std::function<void(const std::string&)>& on_token) {
             return r.transcribe(owned_copy<float>(features),
                                 transcribe_config(max_new_tokens, temperature, start, forced, eos,
                                                   seed),
                                 on_token);
           },
           py::arg("features"), py::kw_only(), py::arg("max_new_tokens") = 128,
           py::arg("temperature") = 0.0f, py::arg("decoder_start_token_id") = -1,
           py::arg("forced_token_ids") = std::vector<uint64_t>(),
           py::arg("eos_ids") = std::vector<uint64_t>(), py::arg("seed") = 0,
           py::arg("token_callback") = nullptr)
      .def("transcribe_file",
           [](PySeq2SeqRunner& r, const std::string& path, const std::string& processor_path,
              int32_t max_new_tokens, float temperature, int64_t start,
              const std::vector<uint64_t>& forced, const std::vector<uint64_t>& eos,
              uint64_t seed, const std::function<void(const std::string&)>& on_token) {
             return r.transcribe(features_from_file(path, processor_path),
                                 transcribe_config(max_new_tokens, temperature, start, forced, eos,
                                                   seed),
                                 on_token);
           },
           py::arg("audio_path"), py::arg("processor_path") = "", py::kw_only(),
           py::arg("max_new_tokens") = 128, py::arg("temperature") = 0.0f,
           py::arg("decoder_start_token_id") = -1,
           py::arg("forced_token_ids") = std::vector<uint64_t>(),
           py::arg("eos_ids") = std::vector<uint64_t>(), py::arg("seed") = 0,
           py::arg("token_callback") = nullptr)
      .def_property_readonly("has_sampler", [](PySeq2SeqRunner& r) { return r.runner().has_sampler(); })
      .def_property_readonly("timed_segments",
                             [](PySeq2SeqRunner& r) {
                               py::list out;
                               for (const auto& s :
                                    ember::llm::timed_segments(r.runner().last_pieces())) {
                                 out.append(py::make_tuple(s.start_s, s.end_s,
                                                           py::bytes(s.text).attr("decode")(
                                                               "utf-8", "replace")));
                               }
                               return out;
                             },
                             "(start_s, end_s, text) of Whisper's time tokens in the last "
                             "transcription")
      .def_property_readonly("stats", [](PySeq2SeqRunner& r) { return r.runner().stats(); });
}

}  // namespace ember_py
