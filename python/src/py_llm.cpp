// ember._ember.llm: text generation from Python (extension/llm), named as
// upstream's executorch.extension.llm.runner (TextLLMRunner,
// GenerationConfig, Stats). Built when the C++ build has the LLM extension
// (EMBER_BUILD_LLM); python/ember/llm.py re-exports it.
//
// generate() releases the GIL while the model runs and takes it back for
// each callback, so stop() works from another Python thread.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "extension/llm/runner/text_llm_runner.h"
#include "python/src/py_ember.h"

namespace ember_py {
namespace {

using ember::llm::GenerationConfig;
using ember::llm::Stats;
using ember::llm::TextLlmRunner;
using ember::llm::Tokenizer;

std::unique_ptr<Tokenizer> open_tokenizer(const std::string& path) {
  ember::clear_error_message();
  auto tokenizer = ember::llm::load_tokenizer(path);
  if (!tokenizer.ok()) throw_error("load_tokenizer", tokenizer.error());
  return std::move(*tokenizer);
}

// A runner with the GIL-aware calls the binding needs.
class PyTextLlmRunner {
 public:
  PyTextLlmRunner(const std::string& model_path, const std::string& tokenizer_path,
                  const std::vector<std::string>& data_paths) {
    std::unique_ptr<Tokenizer> tokenizer = open_tokenizer(tokenizer_path);
    py::gil_scoped_release nogil;
    auto runner = TextLlmRunner::create(model_path, data_paths, std::move(tokenizer));
    if (!runner.ok()) {
      py::gil_scoped_acquire gil;
      throw_error("TextLLMRunner(" + model_path + ")", runner.error());
    }
    runner_ = std::move(*runner);
  }

  void generate(const std::string& prompt, const GenerationConfig& config,
                const std::function<void(const std::string&)>& on_token,
                const std::function<void(const Stats&)>& on_stats) {
    ember::Error err;
    {
      py::gil_scoped_release nogil;
      err = runner_->generate(
          prompt, config,
          [&](const std::string& text) {
            if (!on_token) return;
            py::gil_scoped_acquire gil;
            on_token(text);
          },
          [&](const Stats& stats) {
            if (!on_stats) return;
            py::gil_scoped_acquire gil;
            on_stats(stats);
          });
    }
    check(err, "generate");
  }

  void prefill(const std::string& prompt, const GenerationConfig& config) {
    ember::Error err;
    {
      py::gil_scoped_release nogil;
      err = runner_->prefill(prompt, config);
    }
    check(err, "prefill");
  }

  TextLlmRunner& runner() { return *runner_; }

 private:
  std::unique_ptr<TextLlmRunner> runner_;
};

}  // namespace

void bind_llm(py::module_& parent) {
  py::module_ m = parent.def_submodule("llm", "Text generation (extension/llm).");

  py::class_<GenerationConfig>(m, "GenerationConfig")
      .def(py::init([](bool echo, int32_t max_new_tokens, bool warming, int32_t seq_len,
                       float temperature, float topp, uint64_t seed, int32_t num_bos,
                       int32_t num_eos, bool ignore_eos) {
             GenerationConfig c;
             c.echo = echo;
             c.max_new_tokens = max_new_tokens;
             c.warming = warming;
             c.seq_len = seq_len;
             c.temperature = temperature;
             c.topp = topp;
             c.seed = seed;
             c.num_bos = num_bos;
             c.num_eos = num_eos;
             c.ignore_eos = ignore_eos;
             return c;
           }),
           py::kw_only(), py::arg("echo") = true, py::arg("max_new_tokens") = -1,
           py::arg("warming") = false, py::arg("seq_len") = -1, py::arg("temperature") = 0.8f,
           py::arg("topp") = 0.9f, py::arg("seed") = 0, py::arg("num_bos") = 0,
           py::arg("num_eos") = 0, py::arg("ignore_eos") = false)
      .def_readwrite("echo", &GenerationConfig::echo)
      .def_readwrite("max_new_tokens", &GenerationConfig::max_new_tokens)
      .def_readwrite("warming", &GenerationConfig::warming)
      .def_readwrite("seq_len", &GenerationConfig::seq_len)
      .def_readwrite("temperature", &GenerationConfig::temperature)
      .def_readwrite("topp", &GenerationConfig::topp)
      .def_readwrite("seed", &GenerationConfig::seed)
      .def_readwrite("num_bos", &GenerationConfig::num_bos)
      .def_readwrite("num_eos", &GenerationConfig::num_eos)
      .def_readwrite("ignore_eos", &GenerationConfig::ignore_eos)
      .def("resolve_max_new_tokens", &GenerationConfig::resolve_max_new_tokens,
           py::arg("max_context_len"), py::arg("num_tokens_occupied"));

  py::class_<Stats>(m, "Stats")
      .def_readonly("model_load_start_ms", &Stats::model_load_start_ms)
      .def_readonly("model_load_end_ms", &Stats::model_load_end_ms)
      .def_readonly("inference_start_ms", &Stats::inference_start_ms)
      .def_readonly("prompt_eval_end_ms", &Stats::prompt_eval_end_ms)
      .def_readonly("first_token_ms", &Stats::first_token_ms)
      .def_readonly("inference_end_ms", &Stats::inference_end_ms)
      .def_readonly("aggregate_sampling_time_ms", &Stats::aggregate_sampling_time_ms)
      .def_readonly("num_prompt_tokens", &Stats::num_prompt_tokens)
      .def_readonly("num_generated_tokens", &Stats::num_generated_tokens)
      .def("to_json_string", [](const Stats& s) { return ember::llm::stats_to_json_string(s); });

  py::class_<Tokenizer>(m, "Tokenizer")
      .def("encode",
           [](const Tokenizer& t, const std::string& text, int8_t bos, int8_t eos) {
             ember::clear_error_message();
             auto ids = t.encode(text, bos, eos);
             if (!ids.ok()) throw_error("encode", ids.error());
             return *ids;
           },
           py::arg("text"), py::arg("bos") = 0, py::arg("eos") = 0)
      .def("decode",
           [](const Tokenizer& t, uint64_t prev, uint64_t token) {
             ember::clear_error_message();
             auto bytes = t.decode(prev, token);
             if (!bytes.ok()) throw_error("decode", bytes.error());
             return py::bytes(*bytes);
           },
           py::arg("prev"), py::arg("token"))
      .def_property_readonly("vocab_size", &Tokenizer::vocab_size)
      .def_property_readonly("bos_tok", &Tokenizer::bos_tok)
      .def_property_readonly("eos_tok", &Tokenizer::eos_tok)
      .def_property_readonly("format", [](const Tokenizer& t) {
        return ember::llm::tokenizer_format_name(t.format());
      });
  m.def("load_tokenizer", &open_tokenizer, py::arg("path"));

  py::class_<PyTextLlmRunner>(m, "TextLLMRunner")
      .def(py::init<const std::string&, const std::string&, const std::vector<std::string>&>(),
           py::arg("model_path"), py::arg("tokenizer_path"),
           py::arg("data_paths") = std::vector<std::string>())
      .def("generate", &PyTextLlmRunner::generate, py::arg("prompt"), py::arg("config"),
           py::arg("token_callback") = nullptr, py::arg("stats_callback") = nullptr)
      .def("prefill", &PyTextLlmRunner::prefill, py::arg("prompt"), py::arg("config"))
      .def("stop", [](PyTextLlmRunner& r) { r.runner().stop(); })
      .def("reset", [](PyTextLlmRunner& r) { r.runner().reset(); })
      .def_property_readonly("position", [](PyTextLlmRunner& r) { return r.runner().position(); })
      .def_property_readonly("last_prompt_ids",
                             [](PyTextLlmRunner& r) { return r.runner().last_prompt_ids(); })
      .def_property_readonly("last_generated_ids",
                             [](PyTextLlmRunner& r) { return r.runner().last_generated_ids(); })
      .def("get_vocab_size",
           [](PyTextLlmRunner& r) { return r.runner().tokenizer().vocab_size(); })
      .def_property_readonly("max_context_len", [](PyTextLlmRunner& r) {
        return r.runner().metadata().max_context_len;
      });
  bind_multimodal(m);
}

}  // namespace ember_py
