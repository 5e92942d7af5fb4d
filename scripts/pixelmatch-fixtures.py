#!/usr/bin/env python3
"""Ground truth for `--metric pixelmatch`.

    scripts/pixelmatch-fixtures.py generate   # (re)draw the image pairs and record pixelmatch's counts
    scripts/pixelmatch-fixtures.py verify     # recount with pixelmatch and compare with expected.json

The pairs are drawn with Pillow (anti-aliased text and shapes, tint changes, noise, alpha) and
counted by the PyPI `pixelmatch` package, an independent implementation of the reference
algorithm. NavReel's tests assert that its pixelmatch mode gives exactly these counts.
Needs: pip install pillow pixelmatch
"""
import json
import random
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from pixelmatch.contrib.PIL import pixelmatch

HERE = Path(__file__).resolve().parent.parent / "Tests" / "CompareTests" / "Fixtures" / "pixelmatch"
THRESHOLDS = [0.0, 0.05, 0.1, 0.2, 0.5]
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def bar(tint, dx=0, title="Favorites", size=(160, 64)):
    """A small navigation bar drawn at 4x and downsampled: anti-aliased edges everywhere."""
    s = 4
    w, h = size
    img = Image.new("RGBA", (w * s, h * s), (248, 248, 248, 255))
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 15 * s)
    d.text(((40 + dx) * s, 22 * s), title, font=font, fill=(0, 0, 0, 255))
    d.line([(14 * s, 24 * s), (8 * s, 32 * s), (14 * s, 40 * s)], fill=tint, width=2 * s)   # chevron
    d.ellipse([(132 + dx) * s, 22 * s, (150 + dx) * s, 40 * s], outline=tint, width=2 * s)
    d.rectangle([0, (h - 1) * s, w * s, h * s], fill=(178, 178, 178, 255))  # hairline
    return img.resize(size, Image.LANCZOS)


def noise(seed, size=(96, 64), alpha=False):
    rng = random.Random(seed)
    img = Image.new("RGBA", size)
    img.putdata([(rng.randrange(256), rng.randrange(256), rng.randrange(256),
                  rng.randrange(256) if alpha else 255) for _ in range(size[0] * size[1])])
    return img


def translucent(alpha_shift):
    img = Image.new("RGBA", (80, 60), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    for i in range(8):
        d.rectangle([i * 10, 0, i * 10 + 9, 59], fill=(30 * i, 255 - 30 * i, 128, min(255, 20 + 30 * i + alpha_shift)))
    d.ellipse([20, 10, 60, 50], fill=(255, 255, 255, 90 + alpha_shift))
    return img


PAIRS = {
    "text-shift": lambda: (bar((0, 122, 255)), bar((0, 122, 255), dx=1)),
    "tint-change": lambda: (bar((0, 122, 255)), bar((10, 132, 255))),
    "title-change": lambda: (bar((0, 122, 255)), bar((0, 122, 255), title="Favourites")),
    "noise": lambda: (noise(1), noise(2)),
    "noise-alpha": lambda: (noise(3, alpha=True), noise(4, alpha=True)),
    "translucent": lambda: (translucent(0), translucent(12)),
    "identical": lambda: (bar((0, 122, 255)), bar((0, 122, 255))),
    "one-pixel": lambda: (noise(5), noise(5).copy()),
}


def count(a, b, threshold, include_aa):
    return pixelmatch(a, b, None, threshold=threshold, includeAA=include_aa)


def table():
    rows = []
    for name in sorted(PAIRS):
        a = Image.open(HERE / f"{name}-a.png").convert("RGBA")
        b = Image.open(HERE / f"{name}-b.png").convert("RGBA")
        for t in THRESHOLDS:
            for include_aa in (False, True):
                rows.append({"pair": name, "threshold": t, "includeAA": include_aa,
                             "mismatched": count(a, b, t, include_aa)})
    return rows


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "verify"
    if mode == "generate":
        HERE.mkdir(parents=True, exist_ok=True)
        for name, make in PAIRS.items():
            a, b = make()
            if name == "one-pixel":
                b.putpixel((10, 10), (0, 0, 0, 255))
            a.save(HERE / f"{name}-a.png")
            b.save(HERE / f"{name}-b.png")
        (HERE / "expected.json").write_text(json.dumps(table(), indent=1) + "\n")
        print(f"wrote {len(PAIRS)} pairs and expected.json to {HERE}")
    else:
        expected = json.loads((HERE / "expected.json").read_text())
        got = table()
        wrong = [(e, g["mismatched"]) for e, g in zip(expected, got) if e != g]
        print(f"pixelmatch: {len(got) - len(wrong)} passed, {len(wrong)} failed")
        for e, g in wrong:
            print(f"  {e}: pixelmatch now counts {g}")
        sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
