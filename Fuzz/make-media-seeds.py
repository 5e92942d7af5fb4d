#!/usr/bin/env python3
"""Writes the media seed corpus (Fuzz/corpus/media) for fuzz-media: a few frames of a small moving
picture as a GIF, an APNG, H.264 in MP4 and in MOV, each prefixed with the two bytes the target
reads first (the file name's extension, then the sampling and crop). Needs ffmpeg and Pillow."""
import os, struct, subprocess, tempfile
from PIL import Image

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "media")
EXTENSIONS = ["gif", "apng", "png", "mp4", "mov", "m4v"]   # as Fuzz/fuzz-media/FuzzMedia.swift

def frames(folder, count=4, size=(12, 8)):
    for k in range(count):
        image = Image.new("RGB", size, (255, 255, 255))
        for y in range(3):
            for x in range(size[0]):
                image.putpixel((x, y), (0, 0, 255))
        image.putpixel(((k * 3) % size[0], 5), (0, 0, 0))
        image.save(os.path.join(folder, "%04d.png" % k))

def encode(folder, args, name):
    out = os.path.join(folder, name)
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-framerate", "10",
                    "-i", os.path.join(folder, "%04d.png")] + args + [out], check=True)
    with open(out, "rb") as f:
        return f.read()

os.makedirs(OUT, exist_ok=True)
with tempfile.TemporaryDirectory() as tmp:
    frames(tmp)
    h264 = ["-c:v", "libx264rgb", "-qp", "0", "-pix_fmt", "rgb24", "-g", "2"]
    seeds = {
        "gif": (encode(tmp, ["-c:v", "gif"], "a.gif"), [0, 6]),
        "apng": (encode(tmp, ["-c:v", "apng", "-plays", "0", "-f", "apng"], "a.apng"), [0, 2]),
        "mp4": (encode(tmp, h264, "a.mp4"), [0, 3]),
        "mov": (encode(tmp, h264, "a.mov"), [0, 5]),
    }
    # The MP4 again with a quarter turn in its track header's matrix (ISO/IEC 14496-12 8.3.2;
    # version 0 puts it 40 bytes after the box type), so the display-matrix path is fuzzed too.
    mp4 = seeds["mp4"][0]
    at = mp4.find(b"tkhd") + 4 + 40
    turn = struct.pack(">9i", 0, 65536, 0, -65536, 0, 0, 0, 0, 1 << 30)
    seeds["mp4-turned"] = (mp4[:at] + turn + mp4[at + 36:], [0, 3])
    for name, (data, modes) in seeds.items():
        for mode in modes:
            with open(os.path.join(OUT, "%s-%d" % (name, mode)), "wb") as f:
                f.write(bytes([EXTENSIONS.index(name.split("-")[0]), mode]) + data)
