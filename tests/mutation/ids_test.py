#!/usr/bin/python3
"""CTest mutation.ids: listed mutant ids (sample.txt, survivors.json) still
name the same mutants after an unrelated edit above their lines, the full
run's share is the same mutants after it, and an id whose line text is gone
resolves to nothing (mutate.py then exits naming it)."""
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import mutate  # noqa: E402

cfg = mutate.load_json(os.path.join(HERE, "map.json"), None)
with open(os.path.join(HERE, "sample.txt")) as f:
    listed = [l.split("#")[0].strip() for l in f if l.split("#")[0].strip()]
listed += [e["id"] for e in mutate.load_json(os.path.join(HERE, "survivors.json"), {})["survivors"]]

before = mutate.generate(cfg)
was = {i: mutate.resolve(i, before) for i in listed}
failures = [i for i, m in was.items() if m is None]

with tempfile.TemporaryDirectory() as tmp:
    # The unrelated edit: a blank line and a comment at the top of every listed file.
    for rel in cfg["files"]:
        if os.path.exists(os.path.join(ROOT, rel)):
            os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
            shutil.copy(os.path.join(ROOT, rel), os.path.join(tmp, rel))
    edited = sorted({m["file"] for m in was.values() if m})
    for rel in edited:
        with open(os.path.join(tmp, rel)) as f:
            text = f.read()
        with open(os.path.join(tmp, rel), "w") as f:
            f.write("\n// an unrelated edit\n" + text)
    after = mutate.generate(cfg, root=tmp)
    for i, m in was.items():
        if m is None:
            continue
        n = mutate.resolve(i, after)
        if n is None or n["new"] != m["new"] or n["line"] != m["line"] + 2:
            failures.append("%s moved to %s" % (i, n and n["id"]))
    # The full run's share: the same mutants, each two lines down.
    fraction = cfg["full_run_fraction"]
    share = {mutate.id_key(m["id"]) for m in before if mutate.selected_for_full_run(m["id"], fraction)}
    share_after = {mutate.id_key(m["id"]) for m in after if mutate.selected_for_full_run(m["id"], fraction)}
    if share != share_after:
        failures.append("the full run's share changed: %d mutants left it, %d came in" %
                        (len(share - share_after), len(share_after - share)))
    # An id whose line is gone: delete the first listed mutant's line.
    gone = next(m for m in was.values() if m)
    with open(os.path.join(tmp, gone["file"])) as f:
        lines = f.read().split("\n")
    lines = [l for l in lines if l.strip() != gone["old"]]
    with open(os.path.join(tmp, gone["file"]), "w") as f:
        f.write("\n".join(lines))
    if mutate.resolve(gone["id"], mutate.generate(cfg, root=tmp)) is not None:
        failures.append("%s resolved after its line was deleted" % gone["id"])

print("%d listed ids checked across an edit of %d files" % (len(listed), len(edited)))
for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
