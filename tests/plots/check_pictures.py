#!/usr/bin/python3
"""Every picture named is there as PNG and SVG, and is a picture of data.

  check_pictures.py DIR STEM [STEM ...]    (a STEM may be a glob: swap-b0-*)
  check_pictures.py --self-test            the checks reject empty pictures

PNG (decoded with matplotlib.image.imread): at least 300 x 150 pixels, at
least 16 distinct colours, and at least 0.3% of the pixels in colour (the
data are drawn in colour; axes, grid, text and the dark hatching are grey,
so a figure with axes and labels but no data fails). SVG (parsed as XML): at
least 3 drawn paths in a colour, and at least 5 text elements (SVG text, as
lightrail-plot writes it), two of them words (axis labels, a title). Exit 1 naming the file
and the check that failed.
"""
import glob
import os
import re
import sys
import tempfile
import xml.etree.ElementTree as ET

import matplotlib

matplotlib.use("Agg")
import matplotlib.image as mpimg  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

plt.rcParams["svg.fonttype"] = "none"  # text as text, as lightrail-plot writes it

SVG = "{http://www.w3.org/2000/svg}"
COLOUR = re.compile(r"(?:fill|stroke)\s*:\s*#([0-9a-fA-F]{6})")


def check_png(path):
    img = mpimg.imread(path)
    if img.ndim != 3 or img.shape[2] not in (3, 4):
        return "not an RGB(A) image: shape %s" % (img.shape,)
    h, w = img.shape[:2]
    if w < 300 or h < 150:
        return "%d x %d pixels, under 300 x 150" % (w, h)
    rgb = img[:, :, :3]
    if rgb.dtype != np.float32:
        rgb = rgb.astype(np.float32) / 255.0
    distinct = len(np.unique((rgb * 255).astype(np.uint8).reshape(-1, 3), axis=0))
    if distinct < 16:
        return "%d distinct colours, under 16" % distinct
    saturation = rgb.max(axis=2) - rgb.min(axis=2)
    coloured = float((saturation > 0.15).mean())
    if coloured < 0.003:
        return "%.3f%% of the pixels in colour, under 0.3%% (no data drawn?)" % (100 * coloured)
    return None


def check_svg(path):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        return "not XML: %s" % e
    if root.tag != SVG + "svg":
        return "root element is %s, not svg" % root.tag
    coloured = 0
    for el in root.iter():
        if el.tag not in (SVG + "path", SVG + "rect", SVG + "polygon", SVG + "use"):
            continue
        for hexa in COLOUR.findall(el.get("style", "")):
            r, g, b = (int(hexa[i:i + 2], 16) for i in (0, 2, 4))
            if max(r, g, b) - min(r, g, b) > 38:
                coloured += 1
                break
    if coloured < 3:
        return "%d paths drawn in a colour, under 3 (no data drawn?)" % coloured
    texts = ["".join(t.itertext()) for t in root.iter(SVG + "text")]
    if len(texts) < 5:
        return "%d text elements, under 5 (no axes?)" % len(texts)
    labels = [t for t in texts if re.search(r"[A-Za-z]{4,}", t)]
    if len(labels) < 2:
        return "under 2 texts in words (axis labels, a title): %s" % texts[:10]
    return None


def check(directory, stems):
    problems, seen = [], 0
    for stem in stems:
        pngs = sorted(glob.glob(os.path.join(directory, stem + ".png")))
        if not pngs:
            problems.append("%s: no %s.png" % (directory, stem))
            continue
        for png in pngs:
            svg = png[:-4] + ".svg"
            seen += 1
            for path, fn in ((png, check_png), (svg, check_svg)):
                if not os.path.exists(path):
                    problems.append("%s: missing" % path)
                    continue
                why = fn(path)
                if why:
                    problems.append("%s: %s" % (path, why))
    return problems, seen


def self_test():
    """An empty axes with labels, and a blank image, must both fail."""
    with tempfile.TemporaryDirectory() as d:
        fig, ax = plt.subplots(figsize=(6, 3))
        ax.set_xlabel("time (ns)")
        ax.set_ylabel("offset (ps)")
        ax.set_title("nothing drawn")
        for ext in ("png", "svg"):
            fig.savefig(os.path.join(d, "empty.%s" % ext))
        plt.close(fig)
        plt.imsave(os.path.join(d, "blank.png"), np.ones((200, 400, 3)))
        with open(os.path.join(d, "blank.svg"), "w") as f:
            f.write('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200"></svg>')
        fig, ax = plt.subplots(figsize=(6, 3))
        ax.plot([0, 1, 2], [0, 1, 4], color="tab:blue")
        ax.fill_between([0, 1, 2], [0, 0, 1], [1, 2, 5], color="tab:orange")
        ax.set_xlabel("time (ns)")
        ax.set_ylabel("offset (ps)")
        for ext in ("png", "svg"):
            fig.savefig(os.path.join(d, "data.%s" % ext))
        plt.close(fig)
        failed = []
        for stem in ("empty", "blank"):
            problems, _ = check(d, [stem])
            if len(problems) != 2:
                failed.append("%s: %d of its 2 files rejected (%s)" % (stem, len(problems), problems))
        problems, _ = check(d, ["data"])
        if problems:
            failed.append("a picture of data was rejected: %s" % problems)
        problems, _ = check(d, ["absent"])
        if not problems:
            failed.append("a missing picture was not reported")
    for f in failed:
        print("FAIL: " + f)
    if not failed:
        print("PASS: empty, blank and missing pictures are rejected; one of data passes")
    return 1 if failed else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    problems, seen = check(sys.argv[1], sys.argv[2:])
    for p in problems:
        print("FAIL: " + p)
    if not problems:
        print("PASS: %d pictures (PNG and SVG) in %s" % (seen, sys.argv[1]))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
