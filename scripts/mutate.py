#!/usr/bin/python3
"""Mutation testing of hw/*.sv and hls/**/*.{cpp,hpp} (docs/mutation.md).

Generates mutants line by line, builds each in a scratch copy of the tree and
runs the tests that can reach its file (tests/mutation/map.json), cheapest
tier first, stopping at the first failing test. Prints the score and every
survivor; survivors listed in tests/mutation/survivors.json are reported as
explained, apart from the survivors nobody has looked at.
"""
import argparse
import fnmatch
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MUT_DIR = os.path.join(ROOT, "tests", "mutation")

# ----------------------------------------------------------------- generation

# Operators are matched longest first so `<<=` is never read as `<` `<=`.
OP_RE = re.compile(r"===|!==|<<<=|>>>=|<<=|>>=|<<<|>>>|<<|>>|<=|>=|==|!=|->|::|&&|\|\||[<>!=?:()\[\]]")
SV_DECL = re.compile(r"^\s*(input|output|inout|logic|wire|reg|bit|byte|int|integer|genvar|typedef|enum|module|"
                     r"endmodule|import|package|endpackage|function|endfunction|task|endtask|state_e|struct)\b")
SV_NUM = re.compile(r"(?<![\w.$'])(\d+)?'([sS]?)([dDhHbBoO])([0-9a-fA-F_]+)|(?<![\w.$'])'([01])(?![\w])|"
                    r"(?<![\w.$'])(\d+)(?![\w.'])")
CPP_NUM = re.compile(r"(?<![\w.])(0[xX][0-9a-fA-F']+|\d[\d']*)([uUlL]*)(?![\w.'])")
# A diagnostic or assertion line checks; it does not compute.
CHECK_LINE = re.compile(r"\bassert\b|static_assert|\$error|\$fatal|\$display|\$warning|\$info|\$finish|\bthrow\b")
CPP_DECL_NOINIT = re.compile(r"^\s*(struct|class|namespace|using|enum|template|typedef|public:|private:|case\b)")
SIMPLE = r"[\w.']+(?:::\w+)*(?:\[[^\[\]]*\])?"
SWAP_RE = re.compile(r"(?<![\w.\]\)'])(" + SIMPLE + r")(\s+)(-|/|%|<<|>>|<|<=|>|>=)(\s+)(" + SIMPLE + r")(?![\w.\[(':])")
TERN_RE = re.compile(r"\?\s*(" + SIMPLE + r")\s*:(?!:)\s*(" + SIMPLE + r")(?=\s*[;),]|\s*$)")


def strip_code(lines):
    """Per line: the code with comments and string literals blanked (same
    length, so columns still match the original)."""
    out, in_block = [], False
    for line in lines:
        buf, i, n = [], 0, len(line)
        while i < n:
            if in_block:
                j = line.find("*/", i)
                if j < 0:
                    buf.append(" " * (n - i))
                    i = n
                else:
                    buf.append(" " * (j + 2 - i))
                    i = j + 2
                    in_block = False
            elif line.startswith("/*", i):
                in_block = True
            elif line.startswith("//", i):
                buf.append(" " * (n - i))
                i = n
            elif line[i] == '"':
                j = i + 1
                while j < n and line[j] != '"':
                    j += 2 if line[j] == "\\" else 1
                buf.append('"' + " " * (min(j, n) - i - 1) + ('"' if j < n else ""))
                i = j + 1
            else:
                buf.append(line[i])
                i += 1
        out.append("".join(buf)[:n].ljust(n))
    return out


def depth_at(code, pos):
    d = 0
    for ch in code[:pos]:
        if ch == "(":
            d += 1
        elif ch == ")":
            d -= 1
    return d


def sv_int(width, base, digits):
    return int(digits.replace("_", ""), {"d": 10, "h": 16, "b": 2, "o": 8}[base.lower()])


def sv_fmt(width, signed, base, value):
    b = base.lower()
    body = {"d": str(value), "h": format(value, "x"), "b": format(value, "b"), "o": format(value, "o")}[b]
    return "%s'%s%s%s" % (width or "", signed, base, body)


def line_mutants(line, code, lang, prev_code):
    """Mutants of one line: (operator, new_line). `code` is the line with
    comments and strings blanked; only its code columns are changed."""
    s = code.strip()
    if not s or s.startswith("#") or s.startswith("`") or CHECK_LINE.search(code):
        return []
    muts = []

    def sub(a, b, text):  # the line with code columns a..b replaced
        return line[:a] + text + line[b:]

    sv_decl = lang == "sv" and SV_DECL.match(code)
    cpp_decl = lang == "cpp" and CPP_DECL_NOINIT.match(code)
    if cpp_decl:
        return []
    toks = [(m.start(), m.end(), m.group()) for m in OP_RE.finditer(code)]

    # rel / eq: comparison and boundary changes.
    for a, b, t in toks:
        if t in ("<", ">", "<=", ">="):
            if lang == "sv" and t == "<=" and depth_at(code, a) <= 0:
                continue  # a nonblocking assignment, not a comparison
            if lang == "cpp" and not (code[a - 1:a].isspace() and code[b:b + 1].isspace()):
                continue  # template brackets: clang-format spaces binary operators
            if sv_decl and "=" not in code:
                continue
            new = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}[t]
            muts.append(("rel", sub(a, b, new)))
        elif t in ("==", "!="):
            muts.append(("eq", sub(a, b, "!=" if t == "==" else "==")))

    # bit / const: numbers inside [] are bit indices (not on declarations,
    # where they are widths); others are constants, +-1.
    num_re = SV_NUM if lang == "sv" else CPP_NUM
    bracket_spans = []
    d0 = None
    depth = 0
    for i, ch in enumerate(code):
        if ch == "[":
            if depth == 0:
                d0 = i
                # A width after a type keyword is a declaration, not an index.
                if lang == "sv" and re.search(r"\b(logic|bit|wire|reg|int|signed|unsigned)\s*$", code[:i]):
                    d0 = None
            depth += 1
        elif ch == "]" and depth:
            depth -= 1
            if depth == 0 and d0 is not None:
                bracket_spans.append((d0, i))
    cpp_array_decl = lang == "cpp" and re.match(r"^\s*(static\s+)?(const\s+)?[\w:<>]+\s+\w+\[", code)
    for m in num_re.finditer(code):
        a, b = m.span()
        in_bracket = any(lo < a and b <= hi for lo, hi in bracket_spans)
        in_width = lang == "sv" and not in_bracket and re.search(r"\b(logic|bit|wire|reg)\s*\[[^\]]*$", code[:a])
        if in_width:
            continue
        if lang == "sv":
            if m.group(4) is not None:
                width, signed, base, digits = m.group(1), m.group(2), m.group(3), m.group(4)
                if "x" in digits.lower() or "z" in digits.lower():
                    continue
                v = sv_int(width, base, digits)
                top = (1 << int(width)) - 1 if width else None
                values = [x for x in (v - 1, v + 1) if x >= 0 and (top is None or x <= top)]
                texts = [sv_fmt(width, signed, base, x) for x in values]
            elif m.group(5) is not None:
                texts = ["'1" if m.group(5) == "0" else "'0"]
            else:
                v = int(m.group(6))
                texts = [str(x) for x in (v - 1, v + 1) if x >= 0]
        else:
            digits, suffix = m.group(1), m.group(2)
            v = int(digits.replace("'", ""), 0)
            hexa = digits.lower().startswith("0x")
            texts = [(hex(x) if hexa else str(x)) + suffix for x in (v - 1, v + 1) if x >= 0]
        if in_bracket:
            if sv_decl or cpp_array_decl:
                continue
            v_txt = texts[0]  # one mutant per index: n - 1 (n + 1 for 0)
            muts.append(("bit", sub(a, b, v_txt)))
        else:
            if lang == "sv" and sv_decl and "=" not in code:
                continue
            for t in texts:
                muts.append(("const", sub(a, b, t)))

    # neg: a condition negated, or a `!` dropped.
    for m in re.finditer(r"\b(if|while)\s*\(", code):
        start = m.end() - 1
        d = 0
        for j in range(start, len(code)):
            if code[j] == "(":
                d += 1
            elif code[j] == ")":
                d -= 1
                if d == 0:
                    muts.append(("neg", line[:start + 1] + "!(" + line[start + 1:j] + ")" + line[j:]))
                    break
    for a, b, t in toks:
        if t == "!" and code[b:b + 1] != "=":
            muts.append(("neg", line[:a] + line[b:]))

    # swap: operands of a non-commutative operator, the arms of a ?:.
    for m in SWAP_RE.finditer(code):
        op = m.group(3)
        if lang == "sv" and op == "<=" and depth_at(code, m.start(3)) <= 0:
            continue
        if lang == "cpp" and op in ("<", ">", "<=", ">=") and not m.group(2):
            continue
        x, y = m.group(1), m.group(5)
        if x == y:
            continue
        muts.append(("swap", line[:m.start(1)] + y + m.group(2) + op + m.group(4) + x + line[m.end(5):]))
    for m in TERN_RE.finditer(code):
        x, y = m.group(1), m.group(2)
        if x != y:
            muts.append(("swap", line[:m.start(1)] + y + line[m.end(1):m.start(2)] + x + line[m.end(2):]))

    # del: a whole single-line assignment or call statement.
    stmt = code.strip()
    indent = line[:len(line) - len(line.lstrip())]
    prev_done = prev_code.rstrip().endswith((";", "{", "}", ":", "begin", "else", ")")) or not prev_code.strip()
    if stmt.endswith(";") and stmt.count("(") == stmt.count(")") and prev_done:
        if lang == "sv":
            if not sv_decl and re.match(r"^(assign\s+)?[\w\[\]\.:+\-{}', ]+?\s*(<=|=)\s*[^=]", stmt) \
                    and not stmt.startswith(("localparam", "parameter", "for ", "for(")):
                repl = indent + ("/* deleted */" if stmt.startswith("assign") else ";")
                muts.append(("del", repl))
        else:
            if re.match(r"^(\+\+|--)?([\w.\[\]]|->)+(\+\+|--)?\s*([-+|&^*/%]|<<|>>)?=\s*[^=]", stmt) or \
                    re.match(r"^(\+\+|--)([\w.\[\]]|->)+;$|^([\w.\[\]]|->)+(\+\+|--);$", stmt) or \
                    re.match(r"^[\w:.]+(->\w+)*\(.*\);$", stmt) and not stmt.startswith("return"):
                muts.append(("del", indent + ";"))
    # Drop no-op rewrites (a line may produce the same text twice).
    seen, out = set(), []
    for op, new in muts:
        if new != line and (op, new) not in seen:
            seen.add((op, new))
            out.append((op, new))
    return out


def source_files(cfg):
    files = []
    for rel in sorted(cfg["files"]):
        if rel in cfg.get("not_mutated", {}):
            continue
        if os.path.exists(os.path.join(ROOT, rel)):
            files.append(rel)
    return files


def text_hash(stripped):
    return hashlib.sha1(stripped.encode()).hexdigest()[:6]


def generate(cfg, root=ROOT):
    """Every mutant of the mapped files, in a stable order, with its id
    file:line:operator:index:hash:occurrence (index counts that operator on
    that line; hash is the line's code with comments blanked and blanks
    collapsed, occurrence counts lines of the same code above it). The line
    number is only a hint: see resolve()."""
    mutants = []
    for rel in source_files(cfg):
        lang = "sv" if rel.endswith(".sv") else "cpp"
        with open(os.path.join(root, rel)) as f:
            lines = f.read().split("\n")
        codes = strip_code(lines)
        prev = ""
        seen_text = {}
        for i, (line, code) in enumerate(zip(lines, codes)):
            h = text_hash(" ".join(code.split()))  # the code only: comments and spacing may change
            occ = seen_text.get(h, 0)
            seen_text[h] = occ + 1
            counts = {}
            for op, new in line_mutants(line, code, lang, prev):
                k = counts.get(op, 0)
                counts[op] = k + 1
                mid = "%s:%d:%s:%d:%s:%d" % (rel, i + 1, op, k, h, occ)
                mutants.append({"id": mid, "key": id_key(mid), "file": rel, "line": i + 1,
                                "op": op, "old": line.strip(), "new": new.strip(), "new_line": new})
            if code.strip():
                prev = code
    return mutants


ID_RE = re.compile(r"^(?P<file>.+):(?P<line>\d+):(?P<op>[a-z]+):(?P<k>\d+):(?P<hash>[0-9a-f]{6}):(?P<occ>\d+)$")


def id_key(mid):
    """The part of an id that names a mutant independently of where its line
    sits: file, operator, index, line-text hash, occurrence."""
    m = ID_RE.match(mid)
    if not m:
        raise ValueError("not a mutant id (file:line:op:index:hash:occurrence): %s" % mid)
    return (m["file"], m["op"], int(m["k"]), m["hash"], int(m["occ"]))


def resolve(mid, mutants, index=None):
    """The generated mutant a listed id names, found by its line's text: the
    same occurrence of that text if it still exists, else the identical line
    nearest the id's line number. None when the text is gone from the file."""
    m = ID_RE.match(mid)
    if not m:
        return None
    if index is None:
        index = index_by_text(mutants)
    cands = index.get((m["file"], m["op"], int(m["k"]), m["hash"]), [])
    if not cands:
        return None
    same = [c for c in cands if id_key(c["id"])[4] == int(m["occ"])]
    return same[0] if same else min(cands, key=lambda c: abs(c["line"] - int(m["line"])))


def index_by_text(mutants):
    index = {}
    for c in mutants:
        index.setdefault(c["key"][:4], []).append(c)
    return index


def resolve_all(ids, mutants, what):
    """Resolves listed ids; exits 2 naming every id whose line text is gone."""
    index = index_by_text(mutants)
    found, missing = [], []
    for i in ids:
        r = resolve(i, mutants, index)
        (found if r else missing).append(r or i)
    if missing:
        print("mutate: %s: no line with this text in its file any more (edit or drop the entry): %s" %
              (what, ", ".join(missing)))
        raise SystemExit(2)
    return found


def selected_for_full_run(mid, fraction):
    """The full run takes a fixed share of the mutants, chosen by a hash of the
    id (stable: the same id is always in or out). `fraction` is a number or a
    map from path prefix to number."""
    if isinstance(fraction, dict):
        fraction = next((v for k, v in fraction.items() if mid.startswith(k)), 0.0)
    # Hashed on the id without its line number (file:op:index:hash:occurrence),
    # so an edit elsewhere in the file leaves the share as it was.
    h = int(hashlib.sha1(":".join(str(x) for x in id_key(mid)).encode()).hexdigest()[:8], 16)
    return h % 1000 < fraction * 1000


# ----------------------------------------------------------------- running


class Scratch:
    """A copy of the tree's tracked files with its own build directory; the
    worktree itself is never mutated."""

    def __init__(self, cfg, where, log):
        self.cfg = cfg
        self.where = where
        self.src = os.path.join(where, "src")
        # build/ inside the copy, as in a checkout: with CCACHE_BASEDIR the
        # compile lines then match the tree's own build and hit its cache.
        self.build = os.path.join(self.src, "build")
        self.log = log
        self.env = dict(os.environ)
        # The tree's own build's cache (scripts/setup.sh builds through
        # ccache), so the scratch build compiles only what its edit changed.
        if os.path.isdir("/work/.ccache"):
            self.env.setdefault("CCACHE_DIR", "/work/.ccache")
        self.env["CCACHE_BASEDIR"] = self.src
        self.known_tests = None
        self.with_sim = False

    def sync(self):
        """Copies the tree's files into the scratch source, only those that differ
        (unchanged files keep their times, so rebuilds stay incremental)."""
        try:
            files = subprocess.run(["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                                   check=True, capture_output=True).stdout.decode().split("\0")
        except (OSError, subprocess.CalledProcessError):  # a tarball: every file outside build trees
            files = [os.path.relpath(os.path.join(d, f), ROOT) for d, dirs, fs in os.walk(ROOT)
                     for f in fs if not os.path.relpath(d, ROOT).startswith(("build", ".git"))]
        scratch_in_tree = os.path.relpath(self.where, ROOT)
        files = [f for f in files if not f.startswith(scratch_in_tree + os.sep)]
        changed = 0
        for rel in files:
            if not rel or rel.startswith("build"):
                continue
            a, b = os.path.join(ROOT, rel), os.path.join(self.src, rel)
            if not os.path.isfile(a):
                continue
            with open(a, "rb") as f:
                data = f.read()
            if os.path.exists(b):
                with open(b, "rb") as f:
                    if f.read() == data:
                        continue
            os.makedirs(os.path.dirname(b), exist_ok=True)
            with open(b, "wb") as f:
                f.write(data)
            shutil.copymode(a, b)
            changed += 1
        return changed

    def configure(self):
        if os.path.exists(os.path.join(self.build, "CMakeCache.txt")):
            return True
        cmd = ["cmake", "-S", self.src, "-B", self.build, "-DCMAKE_BUILD_TYPE=Release",
               "-DLIGHTRAIL_BUILD_SIM=%s" % ("ON" if self.with_sim else "OFF")]
        if shutil.which("ccache"):
            cmd += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
        return self.run(cmd, 600)[0] == 0

    def run(self, cmd, timeout, cwd=None):
        try:
            p = subprocess.run(cmd, cwd=cwd, env=self.env, capture_output=True, text=True, timeout=timeout)
            self.log.write("$ %s\n%s%s\n" % (" ".join(cmd), p.stdout[-4000:], p.stderr[-4000:]))
            return p.returncode, p.stdout + p.stderr
        except subprocess.TimeoutExpired as e:
            self.log.write("$ %s\nTIMEOUT after %ss\n" % (" ".join(cmd), timeout))
            return None, str(e)

    def build_targets(self, targets):
        if not targets:
            return True
        cmd = ["cmake", "--build", self.build, "-j2", "--target"] + sorted(targets)
        rc, out = self.run(cmd, 1800)
        if rc != 0 and "No rule to make target" in out:
            # A target added to the tree since this scratch build was
            # configured: make does not regenerate for a name it does not know.
            if self.run(["cmake", "-S", self.src, "-B", self.build], 600)[0] == 0:
                rc, _ = self.run(cmd, 1800)
        return rc == 0

    def tests(self):
        if self.known_tests is None:
            rc, out = self.run(["ctest", "--test-dir", self.build, "-N"], 300)
            self.known_tests = re.findall(r"Test\s+#\d+: (\S+)", out)
        return self.known_tests

    def tier_tests(self, regex):
        r = re.compile(regex)
        return [t for t in self.tests() if r.search(t)]

    def ctest(self, regex, timeout):
        """(passed, failed test names, timed out)"""
        rc, out = self.run(["ctest", "--test-dir", self.build, "-R", regex, "-j2", "--stop-on-failure",
                            "--timeout", str(int(timeout))], timeout * 4 + 120)
        if rc is None:
            return False, ["(ctest)"], True
        failed = re.findall(r"\d+ - (\S+) \(([^)]*)\)", out)
        timed_out = any("Timeout" in why for _, why in failed)
        return rc == 0, [n for n, _ in failed], timed_out

    def elaborates(self, rel):
        """An SV mutant is valid when Icarus elaborates the board bench with it."""
        flist = os.path.join(self.build, "tests", "hw", "board_tb.f")
        if not os.path.exists(flist) or not shutil.which("iverilog"):
            return True
        out = os.path.join(self.where, "elab.vvp")
        rc, _ = self.run(["iverilog", "-g2012", "-s", "board_tb", "-o", out, "-c", flist], 120)
        return rc == 0


def classify(r, explained):
    """Applies the survivors list to one result: an equivalent or unreachable
    entry whose mutated text still matches makes a survivor explained."""
    if r["status"] not in ("survived", "explained"):
        return r
    r = dict(r, status="survived")
    r.pop("reason", None)
    r.pop("note", None)
    e = explained.get(r["id"])
    if e is None:
        return r
    if e.get("new") != r["new"]:
        r["note"] = "survivors.json entry is stale: it names another mutation of this line"
    elif e["class"] in ("equivalent", "unreachable"):
        r["status"] = "explained"
        r["reason"] = "%s: %s" % (e["class"], e["reason"])
    else:
        r["note"] = "%s: %s" % (e["class"], e["reason"])
    return r


def summarise(results, generated, wall, skipped):
    """Prints the score and every explained mutant and survivor; returns the summary."""
    count = lambda st: sum(1 for r in results if r["status"] == st)
    killed = count("killed") + count("killed-timeout")
    valid = len(results) - count("invalid")
    summary = dict(mutants=len(results), generated=generated, invalid=count("invalid"), valid=valid,
                   killed=killed, killed_by_timeout=count("killed-timeout"),
                   killed_by_lint=sum(1 for r in results if r["killer"] and (r["killer"].startswith("lint")
                                                                             or "verilator -Wall" in r["killer"])),
                   explained=count("explained"), survived=count("survived"),
                   score=round(killed / (valid - count("explained")), 4) if valid > count("explained") else None,
                   wall_seconds=round(wall),
                   skipped_tiers=skipped)
    print("\nmutants %d (of %d generated): %d invalid, %d valid" % (len(results), generated, summary["invalid"],
                                                                     valid))
    print("killed %d (%d by timeout, %d only by lint), explained %d, survived %d" %
          (killed, summary["killed_by_timeout"], summary["killed_by_lint"], summary["explained"],
           summary["survived"]))
    if summary["score"] is not None:
        print("score %.1f%% (killed / (valid - explained)); %.1f%% of all valid mutants killed" %
              (100.0 * summary["score"], 100.0 * killed / valid))
    print("wall time %.0f s" % wall)
    for r in results:
        if r["status"] == "explained":
            print("EXPLAINED %s: %s -> %s (%s)" % (r["id"], r["old"], r["new"], r["reason"]))
    for r in results:
        if r["status"] == "survived":
            print("SURVIVED  %s: %s -> %s%s" % (r["id"], r["old"], r["new"],
                                                 " [%s]" % r["note"] if r.get("note") else ""))
    return summary


def load_json(path, default):
    if not os.path.exists(path):
        return default
    with open(path) as f:
        return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--sample", nargs="?", const=os.path.join(MUT_DIR, "sample.txt"), metavar="FILE",
                      help="the fixed CI sample (default tests/mutation/sample.txt)")
    mode.add_argument("--all", action="store_true", help="the full run")
    mode.add_argument("--list", action="store_true", help="print the mutants of the full run, run nothing")
    mode.add_argument("--ids", nargs="+", metavar="ID", help="run these mutants only")
    mode.add_argument("--report", nargs="+", metavar="FILE", help="run nothing: merge these --json results "
                      "(a kill in any file stands, else the later file wins), apply the survivors list and print "
                      "the score")
    ap.add_argument("--every", action="store_true", help="with --all/--list: every generated mutant, not the share")
    ap.add_argument("--files", nargs="+", metavar="GLOB", help="only mutants of files matching these globs")
    ap.add_argument("--scratch", default="/tmp/lightrail-mutation-%s" %
                    hashlib.sha1(ROOT.encode()).hexdigest()[:8], help="scratch copy and its build directory")
    ap.add_argument("--json", metavar="FILE", help="write the result as JSON")
    ap.add_argument("--with-sim", action="store_true", help="also the co-simulation tiers (a scratch build with "
                    "LIGHTRAIL_BUILD_SIM=ON: minutes to build once, then a relink per kernel mutant)")
    ap.add_argument("--since", metavar="FILE", help="a previous --json result: keep its killed and invalid "
                    "mutants (added tests cannot revive them; the sources must be unchanged), run the rest")
    args = ap.parse_args()

    cfg = load_json(os.path.join(MUT_DIR, "map.json"), None)
    mutants = generate(cfg)
    # Listed ids name lines by their text: each is resolved to the current id.
    index = index_by_text(mutants)
    explained, stale = {}, []
    for e in load_json(os.path.join(MUT_DIR, "survivors.json"), {"survivors": []})["survivors"]:
        m = resolve(e["id"], mutants, index)
        if m:
            explained[m["id"]] = e
        else:
            stale.append(e["id"])
    if stale:
        print("mutate: STALE survivors.json entries, their line's text is gone (edit or drop them): %s" %
              ", ".join(stale))

    def current(results, what):
        """Results of an earlier run, renamed to the current ids of their lines."""
        out, gone = [], []
        for r in results:
            m = resolve(r["id"], mutants, index)
            if m:
                out.append(dict(r, id=m["id"]))
            else:
                gone.append(r["id"])
                out.append(r)
        if gone:
            print("mutate: %s: %d results name lines whose text is gone, kept under their old ids: %s" %
                  (what, len(gone), ", ".join(gone)))
        return out
    if args.report:
        merged, wall = {}, 0
        for path in args.report:
            d = load_json(path, {"results": []})
            wall += d.get("summary", {}).get("wall_seconds", 0)
            for r in current(d["results"], path):
                # A kill in any run stands: the runs share the sources and
                # differ only in tests added or tiers enabled.
                if merged.get(r["id"], {}).get("status", "").startswith("killed") and \
                        not r["status"].startswith("killed"):
                    continue
                merged[r["id"]] = r
        order = {m["id"]: n for n, m in enumerate(mutants)}
        for m in mutants:  # results converted from a log may lack the original line
            if m["id"] in merged and not merged[m["id"]].get("old"):
                merged[m["id"]]["old"] = m["old"]
        results = [classify(r, explained) for r in sorted(merged.values(), key=lambda r: order.get(r["id"], 1 << 30))]
        summary = summarise(results, len(mutants), wall, [])
        if args.json:
            with open(args.json, "w") as f:
                json.dump(dict(summary=summary, results=results), f, indent=1)
        return 0 if summary["survived"] == 0 and not stale else 1
    fraction = cfg.get("full_run_fraction", 1.0)
    if args.sample:
        with open(args.sample) as f:
            want = [l.split("#")[0].strip() for l in f if l.split("#")[0].strip()]
        run = resolve_all(want, mutants, args.sample)
    elif args.ids:
        run = resolve_all(args.ids, mutants, "--ids")
    else:
        run = [m for m in mutants if args.every or selected_for_full_run(m["id"], fraction)]
    if args.files:
        run = [m for m in run if any(fnmatch.fnmatch(m["file"], g) for g in args.files)]
    if args.list:
        for m in run:
            print("%s\t%s" % (m["id"], m["new"]))
        print("%d mutants listed (%d generated)" % (len(run), len(mutants)), file=sys.stderr)
        return 0

    kept = []
    if args.since:
        prev = {r["id"]: r for r in current(load_json(args.since, {"results": []})["results"], args.since)}
        keep = {i for i, r in prev.items() if r["status"] in ("killed", "killed-timeout", "invalid", "explained")}
        kept = [dict(prev[m["id"]], kept=True) for m in run if m["id"] in keep and prev[m["id"]]["new"] == m["new"]]
        kept_ids = {r["id"] for r in kept}
        run = [m for m in run if m["id"] not in kept_ids]
        print("mutate: %d results kept from %s, %d mutants to run again" % (len(kept), args.since, len(run)))

    os.makedirs(args.scratch, exist_ok=True)
    log = open(os.path.join(args.scratch, "mutate.log"), "a")
    sc = Scratch(cfg, args.scratch, log)
    sc.with_sim = args.with_sim
    t0 = time.time()
    sc.sync()
    if not sc.configure():
        print("mutate: configuring the scratch build failed (see %s/mutate.log)" % args.scratch)
        return 2

    # Baseline: every tier the run needs must build and pass unmutated.
    tiers = cfg["tiers"]
    needed, absent = [], []
    for m in run:
        for t in cfg["files"][m["file"]]:
            if tiers[t].get("sim") and not args.with_sim:
                if t not in absent:
                    absent.append(t)
            elif t not in needed:
                needed.append(t)
    if not sc.build_targets({x for t in needed for x in tiers[t]["targets"]}):
        print("mutate: the unmutated scratch tree does not build (see %s/mutate.log)" % args.scratch)
        return 2
    sc.known_tests = None
    tier_time = {}
    for t in needed:
        names = sc.tier_tests(tiers[t]["regex"])
        if not names:
            absent.append(t)
            continue
        s = time.time()
        ok, failed, _ = sc.ctest(tiers[t]["regex"], 600)
        tier_time[t] = time.time() - s
        if not ok:
            print("mutate: tier %s fails on the unmutated tree (%s); fix that first" % (t, ", ".join(failed)))
            return 2
    if absent:
        print("mutate: tiers skipped (no tests in this tree, or co-simulation without --with-sim): %s" %
              ", ".join(absent))
    print("mutate: %d mutants to run (%d generated); baseline %.0fs" % (len(run), len(mutants), time.time() - t0))
    sys.stdout.flush()

    results = []
    originals = {}
    for n, m in enumerate(run, 1):
        path = os.path.join(sc.src, m["file"])
        if m["file"] not in originals:
            with open(path) as f:
                originals[m["file"]] = f.read()
        text = originals[m["file"]].split("\n")
        if text[m["line"] - 1].strip() != m["old"]:
            raise SystemExit("mutate: %s: scratch line differs from the generated one" % m["id"])
        text[m["line"] - 1] = m["new_line"]
        s = time.time()
        status, killer = "survived", None
        try:
            with open(path, "w") as f:
                f.write("\n".join(text))
            valid = True
            if m["file"].endswith(".sv"):
                valid = sc.elaborates(m["file"])
            for t in cfg["files"][m["file"]]:
                if not valid or t in absent:
                    continue
                if not sc.build_targets(tiers[t]["targets"]):
                    if t == cfg["files"][m["file"]][0] and not m["file"].endswith(".sv"):
                        valid = False  # the C++ does not compile
                    else:
                        status, killer = "killed", "build of %s (verilator -Wall)" % "/".join(tiers[t]["targets"])
                    break
                ok, failed, timed_out = sc.ctest(tiers[t]["regex"], max(60, 5 * tier_time.get(t, 10)))
                if not ok:
                    status = "killed-timeout" if timed_out else "killed"
                    killer = "%s: %s" % (t, failed[0] if failed else "?")
                    break
            if not valid:
                status = "invalid"
        finally:
            with open(path, "w") as f:
                f.write(originals[m["file"]])
        r = classify(dict(id=m["id"], op=m["op"], old=m["old"], new=m["new"], status=status, killer=killer,
                          seconds=round(time.time() - s, 1)), explained)
        status = r["status"]
        results.append(r)
        print("[%d/%d] %-14s %-50s %s" % (n, len(run), status, m["id"], killer or ""))
        sys.stdout.flush()
        if args.json:  # kept current, so an interrupted run can be resumed with --since
            with open(args.json, "w") as f:
                json.dump(dict(partial=True, results=kept + results), f, indent=1)

    wall = time.time() - t0
    results = kept + results
    summary = summarise(results, len(mutants), wall, absent)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(summary=summary, results=results), f, indent=1)
    if args.sample:
        return 0 if summary["survived"] == 0 and summary["explained"] == 0 and summary["invalid"] == 0 else 1
    return 0 if summary["survived"] == 0 and not stale else 1


if __name__ == "__main__":
    sys.exit(main())
