#!/usr/bin/env python3
"""Draws the images the bundled scenarios use (Fixtures/images), at 3x as an app ships them for
iPhone (name@3x.png: NavReel reads the scale from the name, as UIKit does). Each is drawn at 4x
its point size and reduced to 3x with a Lanczos filter, so edges are smooth. Deterministic; rerun
to regenerate: scripts/fixture-images.py. Needs: pip install pillow"""
from pathlib import Path
from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "Fixtures" / "images"
OUT.mkdir(parents=True, exist_ok=True)


SCALE = 3          # pixels per point in the files
DRAW = 4           # pixels per point while drawing, before the reduction


def s(v):
    """Points to drawing pixels."""
    return round(v * DRAW)


def canvas(w, h, fill):
    return Image.new("RGBA", (s(w), s(h)), fill)


def save(img, name):
    w, h = img.width * SCALE // DRAW, img.height * SCALE // DRAW
    img.resize((w, h), Image.LANCZOS).save(OUT / f"{name}@{SCALE}x.png", optimize=True)


# Wood-grain bar background (stretched over the bar).
w, h = 195, 48
img = canvas(w, h, (133, 94, 66, 255))
d = ImageDraw.Draw(img)
for y in range(0, h, 3):
    shade = 110 + (y * 37) % 40
    d.line([(0, s(y)), (s(w), s(y + (y % 7) - 3))], fill=(shade + 30, shade, shade - 40, 255), width=s(1))
for x in range(10, w, 47):
    d.ellipse([s(x), s(18), s(x + 14), s(26)], outline=(90, 60, 40, 255), width=s(1))
save(img, "wood")

# A 24 x 24 tile for `imageMode: tile`.
img = canvas(24, 24, (255, 244, 230, 255))
d = ImageDraw.Draw(img)
d.rectangle([0, 0, s(12) - 1, s(12) - 1], fill=(255, 214, 170, 255))
d.rectangle([s(12), s(12), s(24) - 1, s(24) - 1], fill=(255, 214, 170, 255))
d.ellipse([s(8), s(8), s(16), s(16)], fill=(255, 149, 0, 255))
save(img, "pattern")

# A translucent image bar (alpha < 1: the content shows through, no blur).
img = canvas(64, 16, (0, 0, 0, 0))
d = ImageDraw.Draw(img)
for x in range(s(64)):
    d.line([(x, 0), (x, s(16))], fill=(0, 80 + x * 2 // DRAW, 200, 150))
save(img, "glass")

# Header photo for the scroll-driven alpha screen: sky, sun and hills.
w, h = 390, 260
img = canvas(w, h, (0, 0, 0, 255))
d = ImageDraw.Draw(img)
for y in range(s(h)):
    t = y / s(h)
    d.line([(0, y), (s(w), y)], fill=(int(40 + 160 * t), int(120 + 90 * t), int(230 - 40 * t), 255))
d.ellipse([s(270), s(40), s(330), s(100)], fill=(255, 220, 120, 255))
d.polygon([(s(x), s(y)) for x, y in [(0, 200), (90, 140), (190, 210), (300, 130), (390, 190), (390, 260), (0, 260)]], fill=(46, 125, 70, 255))
d.polygon([(s(x), s(y)) for x, y in [(0, 235), (120, 190), (260, 240), (390, 215), (390, 260), (0, 260)]], fill=(30, 90, 50, 255))
save(img, "header")

# Stretchable back buttons (cap insets in the scenarios): a pill, an arrow tag, a square one.
def pill(fill, name, arrow=False, radius=14):
    img = canvas(44, 30, (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if arrow:
        d.polygon([(s(x), s(y)) for x, y in [(0, 15), (14, 0), (44, 0), (44, 30), (14, 30)]], fill=fill)
        d.ellipse([s(16), s(12), s(22), s(18)], fill=(255, 255, 255, 200))
    else:
        d.rounded_rectangle([0, 0, s(44) - 1, s(30) - 1], radius=s(radius), fill=fill)
    save(img, name)

pill((255, 59, 48, 255), "back-pill")
pill((88, 86, 214, 255), "back-arrow", arrow=True)
pill((52, 199, 89, 255), "back-square", radius=4)
print("wrote", sorted(p.name for p in OUT.iterdir()))
