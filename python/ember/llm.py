"""Text generation from Python, named as upstream's
``executorch.extension.llm.runner``:

.. code-block:: python

    from ember.llm import GenerationConfig, TextLLMRunner

    runner = TextLLMRunner("llama.pte", "tokenizer.model")
    config = GenerationConfig(temperature=0.0, num_bos=1, max_new_tokens=64)
    runner.generate("Once upon a time", config, token_callback=print)

``token_callback`` receives ``str`` pieces of whole UTF-8 characters;
``runner.last_prompt_ids`` and ``runner.last_generated_ids`` give the token
ids of the last ``generate()``. ``stop()`` may be called from another
thread (``generate()`` releases the GIL while the model runs). See
docs/llm.md. Present when Ember was built with its LLM extension
(``libsentencepiece-dev`` and ``libpcre2-dev`` installed at build time).
"""

from . import _ember

if not _ember.HAS_LLM:
    raise ImportError("this build of ember has no LLM extension: install libsentencepiece-dev "
                      "and libpcre2-dev, then reinstall ember")

GenerationConfig = _ember.llm.GenerationConfig
Stats = _ember.llm.Stats
TextLLMRunner = _ember.llm.TextLLMRunner
Tokenizer = _ember.llm.Tokenizer
load_tokenizer = _ember.llm.load_tokenizer
MultimodalRunner = _ember.llm.MultimodalRunner
MultimodalInput = _ember.llm.MultimodalInput
make_text_input = _ember.llm.make_text_input
make_token_input = _ember.llm.make_token_input
make_image_input = _ember.llm.make_image_input
make_audio_input = _ember.llm.make_audio_input
audio_input_from_file = _ember.llm.audio_input_from_file
build_multimodal_prompt = _ember.llm.build_multimodal_prompt
Seq2SeqRunner = _ember.llm.Seq2SeqRunner

__all__ = ["GenerationConfig", "Stats", "TextLLMRunner", "Tokenizer", "load_tokenizer",
           "MultimodalRunner", "MultimodalInput", "make_text_input", "make_token_input",
           "make_image_input", "make_audio_input", "audio_input_from_file",
           "build_multimodal_prompt", "Seq2SeqRunner"]
