#!/usr/bin/env python3
"""Draws the images the bundled scenarios use (Fixtures/images). Deterministic; rerun to
regenerate: scripts/fixture-images.py. Needs: pip install pillow"""
from pathlib import Path
from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "Fixtures" / "images"
OUT.mkdir(parents=True, exist_ok=True)


def save(img, name):
    img.save(OUT / name, optimize=True)


# Wood-grain bar background (stretched over the bar).
w, h = 195, 48
img = Image.new("RGBA", (w, h), (133, 94, 66, 255))
d = ImageDraw.Draw(img)
for y in range(0, h, 3):
    shade = 110 + (y * 37) % 40
    d.line([(0, y), (w, y + (y % 7) - 3)], fill=(shade + 30, shade, shade - 40, 255), width=1)
for x in range(10, w, 47):
    d.ellipse([x, 18, x + 14, 26], outline=(90, 60, 40, 255))
save(img, "wood.png")

# A 24 x 24 tile for `imageMode: tile`.
img = Image.new("RGBA", (24, 24), (255, 244, 230, 255))
d = ImageDraw.Draw(img)
d.rectangle([0, 0, 11, 11], fill=(255, 214, 170, 255))
d.rectangle([12, 12, 23, 23], fill=(255, 214, 170, 255))
d.ellipse([8, 8, 15, 15], fill=(255, 149, 0, 255))
save(img, "pattern.png")

# A translucent image bar (alpha < 1: the content shows through, no blur).
img = Image.new("RGBA", (64, 16), (0, 0, 0, 0))
d = ImageDraw.Draw(img)
for x in range(64):
    d.line([(x, 0), (x, 15)], fill=(0, 80 + x * 2, 200, 150))
save(img, "glass.png")

# Header photo for the scroll-driven alpha screen: sky, sun and hills.
w, h = 390, 260
img = Image.new("RGBA", (w, h), (0, 0, 0, 255))
d = ImageDraw.Draw(img)
for y in range(h):
    t = y / h
    d.line([(0, y), (w, y)], fill=(int(40 + 160 * t), int(120 + 90 * t), int(230 - 40 * t), 255))
d.ellipse([270, 40, 330, 100], fill=(255, 220, 120, 255))
d.polygon([(0, 200), (90, 140), (190, 210), (300, 130), (390, 190), (390, 260), (0, 260)], fill=(46, 125, 70, 255))
d.polygon([(0, 235), (120, 190), (260, 240), (390, 215), (390, 260), (0, 260)], fill=(30, 90, 50, 255))
save(img, "header.png")

# Stretchable back buttons (cap insets in the scenarios): a pill, an arrow tag, a square one.
def pill(fill, name, arrow=False, radius=14):
    img = Image.new("RGBA", (44, 30), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if arrow:
        d.polygon([(0, 15), (14, 0), (43, 0), (43, 29), (14, 29)], fill=fill)
        d.ellipse([16, 12, 21, 17], fill=(255, 255, 255, 200))
    else:
        d.rounded_rectangle([0, 0, 43, 29], radius=radius, fill=fill)
    save(img, name)

pill((255, 59, 48, 255), "back-pill.png")
pill((88, 86, 214, 255), "back-arrow.png", arrow=True)
pill((52, 199, 89, 255), "back-square.png", radius=4)
print("wrote", sorted(p.name for p in OUT.iterdir()))
