"""The README runs as written: every ```sh block right after a
`<!-- readme-test -->` line, in order, in one bash (later blocks use the
background jobs of earlier ones), with `set -e`, in a scratch directory that
looks like a built checkout (the source tree's entries linked, `build` the
build directory), against the co-simulated boards the blocks start. Every
```sh block of the "Quick tour" section must be marked. A failure names the
block (its first line in README.md) and the command that failed.

Blocks not marked are the set-up commands (they are the build and this test
themselves) and the install steps (tests install.*).

Usage: run_readme.py BUILD_DIR SOURCE_DIR [--readme FILE] (another README,
e.g. a deliberately broken copy).
"""
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile

MARK = "<!-- readme-test -->"
PORTS = (7002, 7100)  # the tour's fixed ports: they must be free
TIMEOUT_S = 240

build, src = (os.path.abspath(p) for p in sys.argv[1:3])
readme = sys.argv[sys.argv.index("--readme") + 1] if "--readme" in sys.argv else os.path.join(src, "README.md")


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def blocks_of(text):
    """[(line number of the fence, marked, section, [lines])] of every ```sh block."""
    lines = text.split("\n")
    out, section, i = [], "", 0
    while i < len(lines):
        if lines[i].startswith("## "):
            section = lines[i][3:].strip()
        if lines[i].strip() == "```sh":
            marked = i > 0 and lines[i - 1].strip() == MARK
            j = i + 1
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            if j == len(lines):
                fail("README line %d: a ```sh block that never ends" % (i + 1))
            out.append((i + 1, marked, section, lines[i + 1:j]))
            i = j
        i += 1
    return out


with open(readme) as f:
    blocks = blocks_of(f.read())
for line, marked, section, _ in blocks:
    if section == "Quick tour" and not marked:
        fail("README line %d: a ```sh block of the quick tour without %s" % (line, MARK))
tour = [(line, body) for line, marked, _, body in blocks if marked]
if not tour:
    fail("README has no block marked %s" % MARK)

for port in PORTS:
    with socket.socket() as s:
        if s.connect_ex(("127.0.0.1", port)) == 0:
            fail("127.0.0.1:%d is in use: the README's tour needs it free" % port)

work = tempfile.mkdtemp(prefix="readme-")
for name in os.listdir(src):
    if name not in ("build", "out") and not name.startswith("."):
        os.symlink(os.path.join(src, name), os.path.join(work, name))
os.symlink(build, os.path.join(work, "build"))

# One script: each block's commands as written, between markers that say
# which block runs; the ERR trap names the command that failed, the DEBUG
# trap keeps the one running (for a timeout).
current = os.path.join(work, ".readme-current")
script = ["set -eE", 'trap \'echo "README block at line $README_BLOCK: failed: $BASH_COMMAND" >&2\' ERR']
for line, body in tour:
    script.append("README_BLOCK=%d" % line)
    script.append("trap 'printf \"%%s\\n\" \"$BASH_COMMAND\" > %s' DEBUG" % current)
    script.extend(body)
    script.append("trap - DEBUG")
# Output to a file, not a pipe: what a failed block left in the background
# holds its stdout open after bash has exited.
log_path = os.path.join(work, ".readme-log")
with open(log_path, "w") as log:
    proc = subprocess.Popen(["bash", "-c", "\n".join(script) + "\n"], cwd=work, start_new_session=True,
                            stdout=log, stderr=subprocess.STDOUT)
    try:
        rc = proc.wait(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        rc = None
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # what the blocks left running in the background
        except ProcessLookupError:
            pass
with open(log_path) as f:
    out = f.read()
if rc is None:
    with open(current) as f:
        running = f.read().strip()
    print(out[-6000:])
    fail("the README's tour did not finish in %d s; running: %s" % (TIMEOUT_S, running))
print(out[-20000:])
if rc != 0:
    m = re.findall(r"README block at line (\d+): failed: (.*)", out)
    if m:
        line, command = m[-1]
        body = next(b for l, b in tour if l == int(line))
        fail("README.md block at line %s (exit %d):\n  %s\nfailed at: %s" % (line, rc, "\n  ".join(body), command))
    fail("the README's tour exited %d" % rc)
print("README: %d blocks, %d commands ran as written" % (len(tour), sum(
    1 for _, b in tour for c in b if c.strip() and not c.lstrip().startswith("#"))))
