"""Cases for the spectral operators (_fft_r2c, _fft_c2r, _fft_c2c), the
complex abs, and Whisper's log-mel preprocessor that needs them.

Programs take and return real tensors: the complex results go through
view_as_real_copy (or abs), so upstream's Python runtime, which takes no
complex inputs, can check every case too. torch.fft's frontends decide
the operator arguments (rfft/rfft2 -> _fft_r2c, fft of a real input ->
_fft_r2c with onesided=False, irfft/irfft2 -> _fft_c2r, ifft ->
_fft_c2c). _fft_c2c is not core ATen: kept with preserve_ops. The edge
verifier refuses abs with a complex input and a real result (its dtype
check wants them equal), so those programs are exported with
_check_ir_validity=False, as upstream's own mel_spectrogram exporter
does. The C++ kernel tests (test/kernels/portable/op__fft_*_test.cpp)
cover what these cannot: complex inputs, every normalization, dim orders,
refusals. Upstream's runtime (executorch 1.5.1) has no _fft_c2c kernel
and its _fft_r2c takes only the last dim, onesided: --check reports
fft_c2c__*, fft_r2c__f32_rfft_odd_dim0 and fft_r2c__f32_fft_full as failed.

mel_spectrogram__whisper_short: upstream's WhisperAudioProcessor
(executorch.extension.audio.mel_spectrogram; n_fft 400, hop 160, as
Whisper) with 16 mel bins and 1-second chunks instead of 80 and 30 (a
smaller program, the same operators) on 0.1 s of audio padded to one
chunk: [1600] -> [1, 16, 100]. Portable only, like every case here;
upstream's exporter also delegates parts to XNNPACK (docs/what_works.md
gives that program's comparison)."""

import torch

from op_suite.registry import fn_case, op_case

torch.manual_seed(29)

A = torch.ops.aten
NO_IR_CHECK = {"_check_ir_validity": False}


def _r(*shape, dtype=torch.float32):
    return torch.randn(*shape).to(dtype)


def _real(z):
    return A.view_as_real_copy.default(z) * 1.0


# ------------------------------------------------------------ _fft_r2c
fn_case("fft_r2c__f32_rfft_ortho", ["aten::_fft_r2c.out"],
        lambda x: _real(torch.fft.rfft(x, norm="ortho")), [(_r(3, 8),), (_r(3, 8),)])
fn_case("fft_r2c__f32_rfft_odd_dim0", ["aten::_fft_r2c.out"],
        lambda x: _real(torch.fft.rfft(x, dim=0)), [(_r(7, 3),)])
fn_case("fft_r2c__f64_rfft2_forward", ["aten::_fft_r2c.out"],
        lambda x: _real(torch.fft.rfft2(x, norm="forward")), [(_r(4, 6, dtype=torch.float64),)])
fn_case("fft_r2c__f32_fft_full", ["aten::_fft_r2c.out"],
        lambda x: _real(torch.fft.fft(x)), [(_r(2, 7),)])
# A prime length. PyTorch's own float result is up to 4.5e-6 off the exact
# DFT here (Ember's 3.8e-6; outputs up to 21): atol 1e-5.
fn_case("fft_r2c__f32_bluestein_97", ["aten::_fft_r2c.out"],
        lambda x: _real(torch.fft.rfft(x)), [(_r(97),)], atol=1e-5)

# ------------------------------------------------------------ _fft_c2r
fn_case("fft_c2r__f32_irfft_odd", ["aten::_fft_c2r.out"],
        lambda x: torch.fft.irfft(torch.fft.rfft(x), n=9), [(_r(3, 8),), (_r(3, 8),)])
fn_case("fft_c2r__f64_irfft2", ["aten::_fft_c2r.out"],
        lambda x: torch.fft.irfft2(torch.fft.rfft2(x), s=(4, 6), norm="ortho"),
        [(_r(4, 6, dtype=torch.float64),)])

# ------------------------------------------------------------ _fft_c2c
fn_case("fft_c2c__f32_ifft_dim0", ["aten::_fft_c2c.out"],
        lambda x: _real(torch.fft.ifft(torch.fft.fft(x), dim=0)), [(_r(5, 4),)],
        preserve_ops=[A._fft_c2c.default])
fn_case("fft_c2c__f64_fft2", ["aten::_fft_c2c.out"],
        lambda x: _real(torch.fft.fft2(torch.fft.fft(x, dim=0), norm="ortho")),
        [(_r(3, 5, dtype=torch.float64),)], preserve_ops=[A._fft_c2c.default])

# ------------------------------------------------------ abs of complex
fn_case("abs__c64_magnitude", ["aten::abs.out"], lambda x: torch.fft.rfft(x).abs(),
        [(_r(4, 10),)], edge_options=NO_IR_CHECK)


# --------------------------------------------- Whisper's log-mel spectrogram
def _whisper_short():
    from executorch.extension.audio.mel_spectrogram import WhisperAudioProcessor

    return WhisperAudioProcessor(feature_size=16, chunk_length=1, max_audio_len=1)


op_case("mel_spectrogram__whisper_short", ["aten::_fft_r2c.out", "aten::abs.out"],
        _whisper_short, [(_r(1600) * 0.1,)], edge_options=NO_IR_CHECK)
