#!/usr/bin/env python3
# Check tool: Ember against upstream's runtime on Whisper's log-mel preprocessor.
"""Runs upstream's Whisper log-mel preprocessor program in Ember and in
upstream's Python runtime on the same seeded random audio and prints how
far apart the two results are.

Usage (from the repository root, after building executor_runner):

    python examples/export/compare_mel_spectrogram.py [--pte FILE]
        [--lengths 1000,16000,93680,480000] [--atol 1e-5]
        [--runner build/examples/executor_runner]

Without --pte the program is exported first, as upstream's own exporter
writes it (executorch.extension.audio.mel_spectrogram: 80 mel bins, 30 s
chunks, max_audio_len 30, XNNPACK-delegated), into a temporary directory.
The program pads each input to whole 30 s chunks, runs _fft_r2c (3001
frames of 400 samples per chunk), abs of the complex spectrum, the mel
matrix product and log10. Exits 1 when a result differs from upstream's
by more than --atol anywhere (outputs are log-mel values around 1).
The test suite's portable twin, with PyTorch's values:
test/models/ops/mel_spectrogram__whisper_short.bpte.
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np


def export(path):
    from executorch.extension.audio.mel_spectrogram import export_processor

    export_processor(output_file=path, feature_size=80, max_audio_len=30)


def run_ember(runner, pte, audio, workdir):
    inp = os.path.join(workdir, "audio.npy")
    np.save(inp, audio)
    prefix = os.path.join(workdir, "ember")
    result = subprocess.run([runner, f"--model_path={pte}", f"--inputs={inp}",
                             f"--output_file={prefix}", "--print_output=none"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"executor_runner failed:\n{result.stdout}\n{result.stderr}")
    return np.load(prefix + "-0.npy")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pte")
    parser.add_argument("--lengths", default="1000,16000,93680,480000")
    parser.add_argument("--atol", type=float, default=1e-5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--runner", default="build/examples/executor_runner")
    args = parser.parse_args()

    import torch
    from executorch.runtime import Runtime

    with tempfile.TemporaryDirectory() as workdir:
        pte = args.pte or os.path.join(workdir, "mel.pte")
        if not args.pte:
            export(pte)
        method = Runtime.get().load_program(pte).load_method("forward")
        rng = np.random.default_rng(args.seed)
        worst = 0.0
        for n in [int(v) for v in args.lengths.split(",")]:
            audio = (rng.standard_normal(n) * 0.1).astype(np.float32)
            upstream = method.execute([torch.from_numpy(audio)])[0].numpy()
            ember = run_ember(args.runner, pte, audio, workdir)
            if ember.shape != upstream.shape:
                sys.exit(f"{n} samples: Ember's shape {ember.shape}, upstream's {upstream.shape}")
            diff = np.abs(ember.astype(np.float64) - upstream.astype(np.float64))
            worst = max(worst, float(diff.max()))
            print(f"{n:7d} samples -> {list(ember.shape)}: max |Ember - upstream| "
                  f"{diff.max():.3e}, mean {diff.mean():.3e}, values in "
                  f"[{upstream.min():.3f}, {upstream.max():.3f}]")
    print(f"worst {worst:.3e} (atol {args.atol:g})")
    return 0 if worst <= args.atol else 1


if __name__ == "__main__":
    sys.exit(main())
