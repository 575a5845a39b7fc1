"""Writes the tiny image and audio files under test/models/media.

The files are made by encoders other than the one Ember decodes with (PIL
for PNG, JPEG and BMP; Python's wave module and SciPy for WAV; NumPy for
.npy), so extension/llm/runner/image_loader_test.cpp and wav_loader_test.cpp
check Ember's readers against an independent writer. The pixel and sample
patterns are formulas the tests restate; nothing here is random.

    python test/models/media/make_media.py OUT_DIR

Needs numpy, Pillow and SciPy (the pyenv of README.md's fixtures has them).
The fuzz targets (scripts/fuzz.sh) seed their corpora from these files.
"""

import argparse
import struct
import wave
import zlib
from pathlib import Path

import numpy as np
from PIL import Image
from scipy.io import wavfile


def pixel(c, y, x):
    # image_loader_test.cpp: pattern_pixel().
    return (c * 80 + y * 30 + x * 10) % 256


def rgb_pattern(h, w):
    return np.array([[[pixel(c, y, x) for c in range(3)] for x in range(w)] for y in range(h)],
                    dtype=np.uint8)


def smooth_pattern(h, w):
    # Slow gradients a JPEG encoder keeps within a few levels.
    # image_loader_test.cpp: smooth_pixel().
    return np.array([[[40 + c * 60 + y * 4 + x * 3 for c in range(3)] for x in range(w)]
                     for y in range(h)], dtype=np.uint8)


def png_chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def write_png16(path, rgb16):
    # A 16-bit RGB PNG written by hand (Pillow writes 16-bit only for
    # one channel): filter 0 on every row, big-endian samples.
    h, w, _ = rgb16.shape
    rows = b"".join(b"\0" + rgb16[y].astype(">u2").tobytes() for y in range(h))
    ihdr = struct.pack(">IIBBBBB", w, h, 16, 2, 0, 0, 0)
    data = (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) +
            png_chunk(b"IDAT", zlib.compress(rows)) + png_chunk(b"IEND", b""))
    path.write_bytes(data)


def write_images(out):
    Image.fromarray(rgb_pattern(3, 4), "RGB").save(out / "rgb_4x3.png")
    gray = np.array([[(y * 3 + x) * 20 for x in range(3)] for y in range(2)], dtype=np.uint8)
    Image.fromarray(gray, "L").save(out / "gray_3x2.png")
    rgba = np.concatenate([rgb_pattern(2, 2), np.full((2, 2, 1), 77, np.uint8)], axis=2)
    Image.fromarray(rgba, "RGBA").save(out / "rgba_2x2.png")
    # 16-bit samples: pattern * 256 + 200, so the top byte is the pattern.
    write_png16(out / "rgb16_2x3.png", rgb_pattern(3, 2).astype(np.uint16) * 256 + 200)
    Image.fromarray(smooth_pattern(8, 8), "RGB").save(out / "rgb_8x8.jpg", quality=95,
                                                      subsampling=0)
    Image.fromarray(smooth_pattern(8, 8), "RGB").save(out / "rgb_8x8_progressive.jpg",
                                                      quality=95, subsampling=0,
                                                      progressive=True)
    # A restart marker after every MCU, and a comment segment holding the
    # bytes of a DHT marker (the loader walks JPEG segments before stb).
    Image.fromarray(smooth_pattern(12, 12), "RGB").save(
        out / "rgb_12x12_restart.jpg", quality=95, subsampling=0, restart_marker_blocks=1,
        comment=b"\xff\xc4\xff\xff\xff\xff")
    Image.fromarray(rgb_pattern(3, 5), "RGB").save(out / "rgb_5x3.bmp")  # rows padded to 16
    Image.fromarray(gray, "L").save(out / "gray_3x2.bmp")  # 8-bit palette
    chw = np.transpose(rgb_pattern(2, 4), (2, 0, 1)).copy()
    np.save(out / "image_chw_u8.npy", chw)
    nchw = (chw[None, :, :, :2].astype(np.float32) / 255.0 - 0.5).astype(np.float32)
    np.save(out / "image_nchw_f32.npy", nchw)


def sample(i, ch):
    # wav_loader_test.cpp: the integer samples are round(amp * wave(i, ch))
    # for each width's amplitude, wave() being this function.
    return ((i * 7 + ch * 3) % 17 - 8) / 8.0


def frames(n, channels, amp, dtype):
    return np.array([[round(amp * sample(i, c)) for c in range(channels)] for i in range(n)],
                    dtype=dtype)


def write_wave_module(path, width, channels, data_bytes, rate):
    with wave.open(str(path), "wb") as f:
        f.setnchannels(channels)
        f.setsampwidth(width)
        f.setframerate(rate)
        f.writeframes(data_bytes)


def write_extensible(path, pcm24):
    # By hand: WAVE_FORMAT_EXTENSIBLE, 24 valid bits in 32-bit containers
    # (left-justified), stereo at 16 kHz, and an odd-sized LIST chunk (with
    # its pad byte) between fmt and data.
    channels, container, valid, rate = 2, 32, 24, 16000
    block = channels * container // 8
    guid_tail = bytes.fromhex("000000001000800000aa00389b71")
    fmt = struct.pack("<HHIIHHHHI", 0xFFFE, channels, rate, rate * block, block, container,
                      22, valid, 0x3) + struct.pack("<H", 1) + guid_tail
    data = (pcm24.astype("<i4") * 256).tobytes()
    body = (b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt +
            b"LIST" + struct.pack("<I", 5) + b"INFOx" + b"\0" +
            b"data" + struct.pack("<I", len(data)) + data)
    path.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)


def write_audio(out):
    n = 17
    # 8-bit WAV is unsigned: 128 + value.
    write_wave_module(out / "pcm8_mono.wav", 1, 1,
                      (frames(n, 1, 127, np.int16) + 128).astype(np.uint8).tobytes(), 8000)
    write_wave_module(out / "pcm16_mono.wav", 2, 1, frames(n, 1, 32767, "<i2").tobytes(), 16000)
    write_wave_module(out / "pcm16_stereo.wav", 2, 2, frames(n, 2, 32767, "<i2").tobytes(), 16000)
    pcm24 = frames(n, 2, 8388607, np.int32)
    pcm24_bytes = b"".join(int(v).to_bytes(3, "little", signed=True) for v in pcm24.flatten())
    write_wave_module(out / "pcm24_stereo.wav", 3, 2, pcm24_bytes, 44100)
    wavfile.write(out / "pcm32_mono.wav", 22050, frames(n, 1, 2147483647, np.int32)[:, 0])
    floats = np.array([[sample(i, c) * 0.5 for c in range(3)] for i in range(n)], np.float32)
    wavfile.write(out / "float32_3ch.wav", 48000, floats)
    write_extensible(out / "extensible_24in32_list.wav", frames(n, 2, 8388607, np.int32))
    # Raw float32, little-endian, as upstream's voxtral runner reads .bin.
    np.array([sample(i, 0) for i in range(n)], "<f4").tofile(out / "raw_float32.bin")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    write_images(args.out)
    write_audio(args.out)


if __name__ == "__main__":
    main()
