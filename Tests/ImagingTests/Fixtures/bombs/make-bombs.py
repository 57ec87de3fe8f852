#!/usr/bin/env python3
"""Writes the decompression-bomb PNGs used by DecompressionBombTests (committed; rerun to
regenerate). Each is small on disk and expands enormously when inflated."""
import struct
import zlib


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width: int, height: int, color_type: int, chunks: list) -> bytes:
    header = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + b"".join(chunks) + chunk(b"IEND", b"")


def deflate_zeros(count: int) -> bytes:
    compressor = zlib.compressobj(9)
    block = bytes(1 << 20)
    out = []
    while count > 0:
        n = min(count, len(block))
        out.append(compressor.compress(block[:n]))
        count -= n
    out.append(compressor.flush())
    return b"".join(out)


# 16384 x 4200 grayscale, all zero: 69 M pixels (276 MB as RGBA) in ~67 KB; over the default
# decoded-pixel limit (2^26).
width, height = 16384, 4200
with open("huge-zero-gray.png", "wb") as f:
    f.write(png(width, height, 0, [chunk(b"IDAT", deflate_zeros((width + 1) * height))]))

# 1 x 1 RGB whose IDAT stream goes on for 64 MiB of zeros after the image's 4 bytes.
with open("idat-overflow.png", "wb") as f:
    f.write(png(1, 1, 2, [chunk(b"IDAT", deflate_zeros(4 + (64 << 20)))]))

# 8 x 8 gray image with a zTXt chunk that inflates to 64 MiB.
pixels = zlib.compress(b"".join(b"\x00" + bytes(range(0, 64, 8)) for _ in range(8)), 9)
ztxt = b"Comment\x00\x00" + deflate_zeros(64 << 20)
with open("ztxt-bomb.png", "wb") as f:
    f.write(png(8, 8, 0, [chunk(b"zTXt", ztxt), chunk(b"IDAT", pixels)]))

# 8 x 8 gray image with an iCCP profile that inflates to 64 MiB.
iccp = b"bomb\x00\x00" + deflate_zeros(64 << 20)
with open("iccp-bomb.png", "wb") as f:
    f.write(png(8, 8, 0, [chunk(b"iCCP", iccp), chunk(b"IDAT", pixels)]))
