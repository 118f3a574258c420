#!/usr/bin/env python3
"""Coverage figures and the uncovered lines (docs/coverage.md).

Reads the merged Verilator counters (rtl.dat) and the kernels' lcov
tracefile, prints the RTL's line, branch and toggle figures per file of hw/
and the kernels' line and branch figures per file, then checks every
uncovered line against the kept list (tests/coverage/uncovered.md): a line
missing from the list, or listed but now covered, fails the check (exit 1).

RTL points are Verilator's (5.006): a block point (v_line, v_branch) is a
run of statements, its lines in the point's S key; a branch is a block that
is one arm of an if, else-if or case; a toggle point is one bit of a signal
going both ways. Each is counted once per source point, over every instance
in every model. A source line is covered when every block holding it ran.
The test bench (hw/tb/) is not counted."""
import argparse
import collections
import json
import os
import re
import sys

BRANCH_COMMENTS = {"if", "else", "elsif", "case", "case-default"}


def parse_dat(path):
    """Verilator coverage file: a list of (keys, count)."""
    points = []
    with open(path, encoding="latin-1") as f:
        for line in f:
            m = re.match(r"^C '(.*)' (\d+)$", line.rstrip("\n"))
            if not m:
                continue
            keys = {}
            for part in m.group(1).split("\x01")[1:]:
                k, _, v = part.partition("\x02")
                keys[k] = v
            points.append((keys, int(m.group(2))))
    return points


def lines_of(keys):
    """The source lines a point stands for: its S list, else its own line."""
    out = set()
    for part in keys.get("S", "").split(","):
        if "-" in part:
            a, b = part.split("-")
            out.update(range(int(a), int(b) + 1))
        elif part:
            out.add(int(part))
    if not out:
        out.add(int(keys.get("l", 0)))
    return out


def rel(path, root):
    path = os.path.normpath(path if os.path.isabs(path) else os.path.join(root, path))
    return os.path.relpath(path, root)


def source_line(root, file, line, cache={}):
    if file not in cache:
        try:
            with open(os.path.join(root, file), encoding="utf-8", errors="replace") as f:
                cache[file] = f.read().split("\n")
        except OSError:
            cache[file] = []
    text = cache[file]
    return text[line - 1].strip() if 0 < line <= len(text) else ""


def rtl_figures(points, root):
    """Per file of hw/: source points (file, line, column, kind, comment),
    each covered when any instance in any model hit it; and the source lines
    of the block and branch points, each covered when every point that holds
    it was hit (verilator_coverage --annotate marks the others)."""
    src = {}
    for keys, count in points:
        f = rel(keys.get("f", "?"), root)
        if not f.startswith("hw/") or f.startswith("hw/tb/"):
            continue
        kind = keys.get("page", "").split("/")[0]
        key = (f, int(keys.get("l", 0)), int(keys.get("n", 0)), kind, keys.get("o", ""))
        hit = src.get(key, (False, None))[0] or count > 0
        src[key] = (hit, keys)
    per = collections.defaultdict(lambda: collections.Counter())
    line_hits = collections.defaultdict(dict)  # file -> line -> covered
    for (f, _, _, kind, comment), (hit, keys) in src.items():
        if kind in ("v_line", "v_branch"):
            per[f]["block"] += 1
            per[f]["block_hit"] += hit
            if comment in BRANCH_COMMENTS:
                per[f]["branch"] += 1
                per[f]["branch_hit"] += hit
            for ln in lines_of(keys):
                line_hits[f][ln] = line_hits[f].get(ln, True) and hit
        elif kind == "v_toggle":
            per[f]["toggle"] += 1
            per[f]["toggle_hit"] += hit
    for f, lines in line_hits.items():
        per[f]["line"] = len(lines)
        per[f]["line_hit"] = sum(lines.values())
    uncovered = [(f, ln) for f, lines in line_hits.items() for ln, hit in lines.items() if not hit]
    return per, uncovered


def parse_lcov(path, root):
    per = collections.defaultdict(lambda: collections.Counter())
    uncovered = []
    f = None
    with open(path) as fh:
        for line in fh:
            line = line.strip()
            if line.startswith("SF:"):
                f = rel(line[3:], root)
            elif line.startswith("DA:"):
                ln, cnt = line[3:].split(",")[:2]
                per[f]["line"] += 1
                per[f]["line_hit"] += int(cnt) > 0
                if int(cnt) == 0:
                    uncovered.append((f, int(ln)))
            elif line.startswith("BRDA:"):
                taken = line[5:].split(",")[3]
                per[f]["branch"] += 1
                per[f]["branch_hit"] += taken not in ("-", "0")
    return per, uncovered


def pct(hit, total):
    return f"{100.0 * hit / total:5.1f}% ({hit}/{total})" if total else "    -"


def table(title, per, cols):
    print(title)
    print(f"  {'file':34}" + "".join(f"{c:>22}" for c in cols))
    total = collections.Counter()
    for f in sorted(per):
        total.update(per[f])
        print(f"  {f:34}" + "".join(f"{pct(per[f][c + '_hit'], per[f][c]):>22}" for c in cols))
    print(f"  {'total':34}" + "".join(f"{pct(total[c + '_hit'], total[c]):>22}" for c in cols))
    return {c: {"hit": total[c + "_hit"], "total": total[c]} for c in cols}


def norm(text):
    return " ".join(text.split())


def parse_kept(path):
    """Entries `- FILE:LINE ``CODE`` REASON` -> list of (file, line, code, reason)."""
    kept = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.startswith("- "):
                continue
            m = re.match(r"^- (\S+?):(\d+) ``(.*?)`` (.+)$", line.rstrip("\n"))
            if not m:
                sys.exit(f"{path}:{n}: expected - FILE:LINE ``CODE`` REASON")
            kept.append((m.group(1), int(m.group(2)), norm(m.group(3)), m.group(4)))
    return kept


def check(uncovered, kept, root):
    """Uncovered lines against the kept list, matched on file and code (line
    numbers move when others edit the file). Returns the problems."""
    want = collections.Counter((f, norm(source_line(root, f, ln))) for f, ln in uncovered)
    have = collections.Counter((f, code) for f, _, code, _ in kept)
    problems = []
    for f, ln in sorted(uncovered):
        key = (f, norm(source_line(root, f, ln)))
        if want[key] > have[key]:
            problems.append(f"not in the kept list: - {f}:{ln} ``{key[1]}`` REASON")
    for f, ln, code, _ in kept:
        if have[(f, code)] > want[(f, code)]:
            problems.append(f"listed but covered (or gone): {f}:{ln} ``{code}``")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--rtl", required=True)
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--kept", required=True)
    ap.add_argument("--json")
    a = ap.parse_args()

    rtl, rtl_unc = rtl_figures(parse_dat(a.rtl), a.root)
    fig = {"rtl": table("RTL (Verilator; hw/*.sv over every model and instance)", rtl,
                        ["line", "branch", "block", "toggle"])}
    print()
    ker, ker_unc = parse_lcov(a.kernels, a.root)
    fig["kernels"] = table("HLS kernels (gcov over their C-simulation tests)", ker, ["line", "branch"])
    print()
    unc = sorted(set(rtl_unc)) + sorted(set(ker_unc))
    problems = check(unc, parse_kept(a.kept), a.root)
    fig["uncovered_lines"] = len(unc)
    fig["problems"] = problems
    if a.json:
        with open(a.json, "w") as f:
            json.dump(fig, f, indent=2)
    print(f"uncovered lines: {len(rtl_unc)} RTL, {len(ker_unc)} kernel; kept list: {a.kept}")
    for p in problems:
        print("  " + p)
    if problems:
        print(f"FAIL: {len(problems)} difference(s) between the uncovered lines and the kept list")
        return 1
    print("PASS: every uncovered line is in the kept list with its reason")
    return 0


if __name__ == "__main__":
    sys.exit(main())
