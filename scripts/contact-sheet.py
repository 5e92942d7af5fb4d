#!/usr/bin/env python3
"""A contact sheet of rendered frames: every Nth frame of FOLDER (…/<scenario>/<device>), labelled.

    scripts/contact-sheet.py Baselines/wechat-pop/iphone-14 out.png [--every 6] [--columns 4] [--width 390]
Needs: pip install pillow"""
import argparse
from pathlib import Path
from PIL import Image, ImageDraw

ap = argparse.ArgumentParser()
ap.add_argument("folder")
ap.add_argument("out")
ap.add_argument("--every", type=int, default=6)
ap.add_argument("--columns", type=int, default=4)
ap.add_argument("--width", type=int, default=390, help="width of each frame on the sheet")
a = ap.parse_args()
frames = sorted(p for p in Path(a.folder).glob("[0-9][0-9][0-9][0-9].png"))[:: a.every]
if not frames:
    raise SystemExit(f"no frames in {a.folder}")
images = []
for f in frames:
    im = Image.open(f).convert("RGB")
    k = a.width / im.width
    images.append((f.stem, im.resize((a.width, max(1, round(im.height * k))), Image.LANCZOS)))
cell_h = max(im.height for _, im in images) + 18
rows = (len(images) + a.columns - 1) // a.columns
sheet = Image.new("RGB", (a.columns * (a.width + 8) + 8, rows * (cell_h + 8) + 8), (230, 230, 235))
d = ImageDraw.Draw(sheet)
for i, (name, im) in enumerate(images):
    x = 8 + (i % a.columns) * (a.width + 8)
    y = 8 + (i // a.columns) * (cell_h + 8)
    d.text((x, y), f"frame {name}", fill=(60, 60, 67))
    sheet.paste(im, (x, y + 16))
sheet.save(a.out)
print(f"{a.out}: {len(images)} frames")
