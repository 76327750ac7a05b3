"""The image gate: pixels read from the header before decoding, a byte limit, decodes bounded."""

from __future__ import annotations

import struct
import threading
import time
import zlib

import cv2
import numpy as np
import pytest

from vision import imagegate


def png_header_of(width: int, height: int, idat: bytes = b"") -> bytes:
    """A PNG declaring ``width`` x ``height`` 8-bit grey pixels, with ``idat`` as its (compressed) data."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


@pytest.fixture(scope="module")
def bomb_30000():
    """A real 30000x30000 grey PNG of black pixels: 0.9 MB on disk, 900 MB decoded."""
    squeeze, row, parts = zlib.compressobj(9), bytes(30001), []
    block = row * 500
    for _ in range(60):
        parts.append(squeeze.compress(block))
    parts.append(squeeze.flush())
    return png_header_of(30000, 30000, b"".join(parts))


def peak_rss_mb() -> float:
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def test_a_30000_square_png_of_09_mb_is_refused_fast_and_never_decoded(bomb_30000):
    assert 0.5e6 < len(bomb_30000) < 1.5e6
    before, started = peak_rss_mb(), time.perf_counter()
    with pytest.raises(imagegate.TooLarge, match="declares 900 megapixels: at most 50 megapixels"):
        imagegate.decode(bomb_30000)
    assert time.perf_counter() - started < 0.5
    assert peak_rss_mb() - before < 100                 # no 900 MB (or 2.7 GB) array was made


@pytest.mark.parametrize("width, height, says", [
    (50000, 50000, "declares 2,500 megapixels"),
    (10000, 6000, "is 10000x6000 pixels: at most 50 megapixels"),
])
def test_declared_sizes_over_the_limit_are_refused_from_the_header(width, height, says):
    with pytest.raises(imagegate.TooLarge, match=says):
        imagegate.check(png_header_of(width, height))


def test_the_byte_limit_and_what_is_no_image():
    with pytest.raises(imagegate.TooLarge, match="is 2.0 MB: at most 1 MB"):
        imagegate.check(bytes(2_000_000), max_bytes=1_000_000)
    for data in (b"", b"GIF89a broken", b"hello"):
        with pytest.raises(imagegate.NotAnImage):
            imagegate.decode(data)
    damaged = cv2.imencode(".png", np.zeros((50, 50, 3), np.uint8))[1].tobytes()[:60]
    with pytest.raises(imagegate.NotAnImage):
        imagegate.decode(damaged)


@pytest.mark.parametrize("ext", [".png", ".jpg", ".webp", ".bmp"])
def test_every_usual_format_passes_and_decodes(ext):
    image = np.full((120, 200, 3), 90, np.uint8)
    data = cv2.imencode(ext, image)[1].tobytes()
    assert imagegate.image_size(data) == (200, 120)
    assert imagegate.decode(data).shape == (120, 200, 3)


def test_a_big_photo_is_decoded_smaller_when_the_caller_needs_fewer_pixels():
    data = cv2.imencode(".jpg", np.zeros((3000, 4000, 3), np.uint8))[1].tobytes()
    assert imagegate.decode(data, max_side=2000).shape == (1500, 2000, 3)
    assert imagegate.decode(data, max_side=900).shape == (750, 1000, 3)


def test_decodes_at_once_are_bounded_and_the_rest_wait(monkeypatch):
    real, running, most, lock = cv2.imdecode, [0], [0], threading.Lock()

    def slow_decode(buf, flags):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1
        return real(buf, flags)

    monkeypatch.setattr(cv2, "imdecode", slow_decode)
    data = cv2.imencode(".png", np.zeros((64, 64, 3), np.uint8))[1].tobytes()
    results: list[object] = []
    threads = [threading.Thread(target=lambda: results.append(imagegate.decode(data).shape)) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [(64, 64, 3)] * 20 and most[0] == imagegate.DECODERS


def test_a_decode_that_cannot_get_a_decoder_in_time_is_refused_with_a_sentence(monkeypatch):
    held = [imagegate._decoders.acquire() for _ in range(imagegate.DECODERS)]
    try:
        data = cv2.imencode(".png", np.zeros((64, 64, 3), np.uint8))[1].tobytes()
        with pytest.raises(imagegate.DecodersBusy, match="busy reading other images"):
            imagegate.decode(data, wait=0.01)
    finally:
        for _ in held:
            imagegate._decoders.release()
