"""Small, distinct PNG photos written with zlib alone (no imaging package)."""

import struct
import zlib


def _chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def write_png(path, rng, width=None, height=None):
    """Writes an RGB PNG of seeded noise over a gradient, so every photo differs."""
    width = width or rng.randint(64, 360)
    height = height or rng.randint(64, 280)
    rows = []
    base = [rng.randrange(256) for _ in range(3)]
    for y in range(height):
        row = bytearray([0])  # filter: none
        for x in range(width):
            noise = rng.getrandbits(24)
            row += bytes(((base[0] + x + (noise & 0x3F)) & 0xFF,
                          (base[1] + y + ((noise >> 8) & 0x3F)) & 0xFF,
                          (base[2] + x + y + ((noise >> 16) & 0x3F)) & 0xFF))
        rows.append(bytes(row))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    data = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + \
        _chunk(b"IDAT", zlib.compress(b"".join(rows), 6)) + _chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(data)
    return path
