#!/usr/bin/env python3
"""Writes the PNG seed corpus (Fuzz/corpus/png): one small file for each kind of PNG the decoder
handles, so that the fuzzer starts from every code path rather than finding them. Standard library
only; chunk layout from the PNG specification (sections 5, 7, 8, 11)."""
import os, struct, zlib

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "png")

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

def png(width, height, depth, color, rows, interlace=0, extra=b"", before_idat=b""):
    ihdr = struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, interlace)
    raw = b"".join(b"\x00" + r for r in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + before_idat
            + chunk(b"IDAT", zlib.compress(raw, 9)) + extra + chunk(b"IEND", b""))

def adam7_rows(width, height, bpp_bytes, pixel):
    """Rows of each Adam7 pass (PNG specification 8.2), each pixel `pixel(x, y)` bytes."""
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    rows = []
    for x0, y0, dx, dy in passes:
        xs = range(x0, width, dx)
        if not xs:
            continue
        for y in range(y0, height, dy):
            rows.append(b"".join(pixel(x, y) for x in xs))
    return rows

seeds = {
    # grey, 1 bit: 8 pixels a byte
    "grey1.png": png(10, 3, 1, 0, [bytes([0b10110011, 0b01000000])] * 3),
    # grey + alpha, 8 bits
    "greyalpha8.png": png(4, 2, 8, 4, [bytes([0, 255, 128, 128, 255, 0, 40, 200])] * 2),
    # RGB, 16 bits
    "rgb16.png": png(2, 2, 16, 2, [bytes(range(12)), bytes(range(12, 24))]),
    # palette with tRNS, 4 bits
    "palette4-trns.png": png(5, 2, 4, 3, [bytes([0x01, 0x23, 0x40])] * 2,
                             before_idat=chunk(b"PLTE", bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9, 250, 250, 250]))
                             + chunk(b"tRNS", bytes([0, 128]))),
    # RGBA, 8 bits, Adam7
    "rgba8-adam7.png": png(9, 9, 8, 6, adam7_rows(9, 9, 4, lambda x, y: bytes([x * 20, y * 20, 7, 255 - x])), interlace=1),
    # text chunks: tEXt, zTXt (compressed), iTXt
    "text.png": png(1, 1, 8, 2, [b"\x10\x20\x30"],
                    extra=chunk(b"tEXt", b"navreel.frame\x000")
                    + chunk(b"zTXt", b"navreel.note\x00\x00" + zlib.compress(b"hello " * 20))
                    + chunk(b"iTXt", b"Title\x00\x00\x00en\x00Title\x00bar")),
}
os.makedirs(OUT, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
print(f"{len(seeds)} seeds in {OUT}")
