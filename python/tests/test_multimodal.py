"""ember.llm's MultimodalRunner and Seq2SeqRunner (run after `pip install .`)
on the tiny optimum-executorch exports of test/models/multimodal: upstream's
greedy tokens (reference.json) from numpy inputs and from files, pieces as
the prompt formats put them, errors as exceptions. Skipped when the build
has no LLM extension."""

import json
import os
import unittest
from pathlib import Path

import numpy as np

import ember

REPO = Path(os.environ.get("EMBER_REPO", Path(__file__).resolve().parents[2]))
MM = REPO / "test" / "models" / "multimodal"
MARGIN_BOUND = 0.1  # as test_llm.py: compare up to upstream's first near tie


def decided(run):
    margins = run["logit_margins"]
    return next((i for i, m in enumerate(margins) if m <= MARGIN_BOUND), len(margins))


def reference(model):
    return json.loads((MM / model / "reference.json").read_text(encoding="utf-8"))


@unittest.skipUnless(ember._ember.HAS_LLM, "built without the LLM extension")
class Multimodal(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        from ember import llm
        cls.llm = llm

    def runner(self, model):
        return self.llm.MultimodalRunner(str(MM / model / "model.pte"),
                                         str(MM / model / "tokenizer.model"))

    def config(self, run):
        return self.llm.GenerationConfig(temperature=0.0, num_bos=run["num_bos"],
                                         max_new_tokens=run["max_new_tokens"])

    def test_image_prompt_gives_upstreams_tokens(self):
        for model in ("gemma3", "llava"):
            run = reference(model)["greedy"][0]
            image = np.load(MM / model / "image.npy")
            pieces = [self.llm.make_text_input(run["pieces"][0]["text"]),
                      self.llm.make_image_input(image),
                      self.llm.make_text_input(run["pieces"][2]["text"])]
            runner = self.runner(model)
            self.assertTrue(runner.has_vision)
            text = []
            runner.generate(pieces, self.config(run), token_callback=text.append)
            n = decided(run)
            with self.subTest(model=model):
                self.assertGreaterEqual(n, 2)
                self.assertEqual(runner.last_generated_ids[:n], run["generated_ids"][:n])
                self.assertTrue(all(isinstance(t, str) for t in text))

    def test_audio_from_wav_through_the_preprocessor(self):
        run = reference("voxtral")["greedy"][1]  # text only: decided for 5 steps
        runner = self.runner("voxtral")
        self.assertTrue(runner.has_audio)
        runner.generate([self.llm.make_text_input(run["pieces"][0]["text"])], self.config(run))
        n = decided(run)
        self.assertEqual(runner.last_generated_ids[:n], run["generated_ids"][:n])
        audio = self.llm.audio_input_from_file(str(MM / "voxtral" / "audio.wav"),
                                               str(MM / "voxtral" / "preprocessor.pte"))
        self.assertEqual(audio.shape, [1, 128, 200])
        want = np.load(MM / "voxtral" / "audio_features.npy")
        self.assertEqual(list(want.shape), audio.shape)

    def test_prompt_formats(self):
        image = self.llm.make_image_input(np.zeros((3, 32, 32), dtype=np.float32))
        pieces = self.llm.build_multimodal_prompt("gemma3", "Hi", image=image)
        self.assertEqual([p.kind for p in pieces], ["text", "image", "text"])
        self.assertEqual(pieces[2].text, "Hi<end_of_turn>\n<start_of_turn>model\n")
        with self.assertRaises(ember.EmberError):
            self.llm.build_multimodal_prompt("voxtral", "Hi", image=image)

    def test_errors_are_exceptions(self):
        runner = self.runner("voxtral")
        image = self.llm.make_image_input(np.zeros((3, 32, 32), dtype=np.float32))
        with self.assertRaisesRegex(ember.EmberError, "vision_encoder"):
            runner.generate([image], self.llm.GenerationConfig(temperature=0.0))
        with self.assertRaises(ember.EmberError):
            self.llm.MultimodalRunner(str(REPO / "test" / "models" / "llm" / "tiny_llama_config.pte"),
                                      str(MM / "gemma3" / "tokenizer.model"))


@unittest.skipUnless(ember._ember.HAS_LLM, "built without the LLM extension")
class Speech(unittest.TestCase):
    def test_whisper_tokens_from_features_and_from_the_wav(self):
        from ember import llm
        ref = reference("whisper")
        asr = llm.Seq2SeqRunner(str(MM / "whisper" / "model.pte"),
                                str(MM / "whisper" / "tokenizer.json"))
        self.assertTrue(asr.has_sampler)
        for run in ref["greedy"]:
            n = decided(run)
            if "wav" in run:
                ids = asr.transcribe_file(str(MM / "whisper" / run["wav"]),
                                          str(MM / "whisper" / "preprocessor.pte"),
                                          max_new_tokens=run["max_new_tokens"])
            else:
                features = np.load(MM / "whisper" / run["features"])
                ids = asr.transcribe(features, max_new_tokens=run["max_new_tokens"])
            with self.subTest(run=run["name"]):
                self.assertEqual(ids[0], run["start_id"])
                self.assertEqual(ids[1:1 + n], run["generated_ids"][:n])
        # the tiny tokenizer has no time tokens: one segment of all the text
        segments = asr.timed_segments
        self.assertEqual(len(segments), 1)
        self.assertEqual(segments[0][:2], (0.0, 0.0))
        with self.assertRaisesRegex(ember.EmberError, "processor"):
            asr.transcribe_file(str(MM / "whisper" / "audio.wav"))


if __name__ == "__main__":
    unittest.main()
