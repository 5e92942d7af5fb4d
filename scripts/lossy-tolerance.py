#!/usr/bin/env python3
"""Measures the tolerance a lossy screen recording needs (docs/capturing.md).

Renders the bundled scenarios with NavReel, encodes each frame sequence the way a simulator
recording is encoded (H.264 with x264 at CRF 23, 4:2:0 chroma, BT.709, 60 fps; and HEVC with
x265 at CRF 28, its default), decodes it with `navreel compare` and prints, per perceptual
threshold, the worst share of mismatched pixels in any frame. Nothing is downloaded.

Usage: scripts/lossy-tolerance.py [--navreel PATH] [--scenario NAME ...]
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile

X264 = ["-c:v", "libx264", "-preset", "medium", "-crf", "23", "-pix_fmt", "yuv420p"]
X265 = ["-c:v", "libx265", "-crf", "28", "-pix_fmt", "yuv420p", "-tag:v", "hvc1", "-x265-params", "log-level=none"]
# 4:2:0 needs even sizes: drop the last row or column; BT.709 as the simulator tags its videos.
FILTER = ["-vf", "crop=trunc(iw/2)*2:trunc(ih/2)*2:0:0,scale=out_color_matrix=bt709:out_range=tv",
          "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]
THRESHOLDS = [0.1, 0.15, 0.2]


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser()
    parser.add_argument("--navreel", default=os.path.join(root, ".build/release/navreel"))
    parser.add_argument("--scenario", action="append", default=[])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        frames = os.path.join(tmp, "frames")
        run([args.navreel, "render", *args.scenario, "--scenarios", os.path.join(root, "Fixtures/scenarios"), "--out", frames, "--quiet"])
        folders = sorted(dp for dp, dn, fn in os.walk(frames) if any(f.endswith(".png") for f in fn))
        worst = {}
        for codec, settings in [("h264 crf23", X264), ("hevc crf28", X265)]:
            for folder in folders:
                name = os.path.relpath(folder, frames)
                if len({size(os.path.join(folder, f)) for f in os.listdir(folder) if f.endswith(".png")}) > 1:
                    continue  # rotates: a video has one size
                video = os.path.join(tmp, name.replace("/", "_") + ".mp4")
                run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-framerate", "60", "-i", os.path.join(folder, "%04d.png"),
                     *settings, *FILTER, video])
                for t in THRESHOLDS:
                    out = subprocess.run([args.navreel, "compare", "--actual", video, "--expected", folder, "--report", os.path.join(tmp, "r"),
                                          "--perceptual", str(t), "--max-diff-ratio", "1", "--crop-expected", crop(folder, video, args.navreel),
                                          "--json", "-", "--quiet"], capture_output=True, text=True)
                    if out.returncode not in (0, 1):
                        sys.exit(f"{name}: navreel compare exited {out.returncode}: {out.stderr}")
                    result = json.loads(out.stdout)
                    ratios = [f["comparison"]["mismatched"] / (f["comparison"]["width"] * f["comparison"]["height"])
                              for r in result["runs"] for f in r["frames"] if "comparison" in f]
                    key = (codec, t)
                    w, n, over5, over10 = worst.get(key, (0.0, 0, 0, 0))
                    worst[key] = (max(w, max(ratios, default=0)), n + len(ratios),
                                  over5 + sum(1 for r in ratios if r > 0.005), over10 + sum(1 for r in ratios if r > 0.01))
        print("| encoding | perceptual | worst frame: mismatched pixels | frames over 0.5 % | frames over 1 % |")
        print("|---|---|---|---|---|")
        for (codec, t), (w, n, over5, over10) in sorted(worst.items()):
            print(f"| {codec} | {t} | {w * 100:.3f} % | {over5} of {n} | {over10} of {n} |")


def size(png):
    with open(png, "rb") as f:
        head = f.read(24)
    return struct.unpack(">II", head[16:24])


def crop(folder, video, navreel):
    """The expected frames cropped to the even size the encoder kept."""
    first = sorted(f for f in os.listdir(folder) if f.endswith(".png"))[0]
    width, height = size(os.path.join(folder, first))
    return f"0,0,{width // 2 * 2},{height // 2 * 2}"


if __name__ == "__main__":
    main()
