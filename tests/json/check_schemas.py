"""Every JSON format lightrail prints, serves, writes or reads against its
JSON Schema in docs/schemas/ (docs/json.md).

Outputs: each `lightrail ... --json` command, lightraild's HTTP replies and
`lightrail-cosim`'s report, from four co-simulated boards and a daemon on
them; each carries "schema": "lightrail.<format>/<major>" naming its schema
and "version". Inputs: the repository's example schedule, job and fabric
files. A schema must also have teeth: each output, with one of the fields
its schema requires taken out, must fail it.

Usage: check_schemas.py COSIM LIGHTRAIL LIGHTRAILD SOURCE_DIR [--schemas DIR]
(--schemas: another copy of docs/schemas, e.g. a deliberately broken one).
"""
import glob
import json
import os
import subprocess
import sys

import jsonschema

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "daemon_sim"))
from daemon_lib import Harness, fail  # noqa: E402

BASE = "https://lightrail.invalid/schemas/"

cosim, cli, daemon, src = sys.argv[1:5]
schema_dir = sys.argv[sys.argv.index("--schemas") + 1] if "--schemas" in sys.argv else os.path.join(src, "docs/schemas")

# Every lightrail.<format>.schema.json has $id BASE + lightrail.<format>/<major>.
store = {}
for path in sorted(glob.glob(os.path.join(schema_dir, "lightrail.*.schema.json"))):
    with open(path) as f:
        s = json.load(f)
    jsonschema.Draft202012Validator.check_schema(s)
    stem = os.path.basename(path)[: -len(".schema.json")]
    if not s.get("$id", "").startswith(BASE + stem + "/"):
        fail("%s: $id %s is not %s%s/<major>" % (path, s.get("$id"), BASE, stem))
    store[s["$id"]] = s
seen = set()


def validator(name):
    s = store.get(BASE + name)
    if s is None:
        fail("no schema %s in %s" % (name, schema_dir))
    return jsonschema.Draft202012Validator(s, resolver=jsonschema.RefResolver(BASE + name, s, store=store))


def problems(name, doc):
    return ["%s: %s" % ("/".join(map(str, e.absolute_path)) or "(document)", e.message)
            for e in validator(name).iter_errors(doc)]


def check(what, doc, expected):
    """doc: an output that must name the schema `expected` and meet it."""
    if not isinstance(doc, dict) or doc.get("schema") != expected:
        fail("%s: \"schema\" is %r, not %r" % (what, doc.get("schema") if isinstance(doc, dict) else doc, expected))
    bad = problems(expected, doc)
    if bad:
        fail("%s does not meet %s:\n  %s\n%s" % (what, expected, "\n  ".join(bad[:10]), json.dumps(doc)[:2000]))
    # Teeth: each field the schema requires (but schema and version, which
    # every one requires) missing must fail it.
    for key in store[BASE + expected].get("required", []):
        if key in ("schema", "version"):
            continue
        cut = {k: v for k, v in doc.items() if k != key}
        if not problems(expected, cut):
            fail("%s: without \"%s\" it still meets %s" % (what, key, expected))
    seen.add(expected)


def run(what, args, expected, codes=(0,), stdin=None):
    r = subprocess.run([cli] + args, capture_output=True, text=True, timeout=120)
    if r.returncode not in codes:
        fail("`lightrail %s` exited %d (expected %s): %s%s" % (" ".join(args), r.returncode, codes, r.stderr, r.stdout))
    try:
        doc = json.loads(r.stdout)
    except ValueError as e:
        fail("`lightrail %s`: stdout is not one JSON document (%s): %r" % (" ".join(args), e, r.stdout[:500]))
    check("`lightrail %s`" % " ".join(args), doc, expected)
    return doc


def inputs():
    """The repository's example inputs against the input schemas; a file
    the readers refuse must fail its schema too."""
    groups = {
        "lightrail.schedule/1": glob.glob(os.path.join(src, "examples/schedules/*.json")),
        "lightrail.job-file/1": glob.glob(os.path.join(src, "examples/daemon/*.job.json")) +
        glob.glob(os.path.join(src, "experiments/*.job.json")),
        "lightrail.fabric-file/1": glob.glob(os.path.join(src, "examples/daemon/*.fabric.json")),
        "lightrail.plan-fabric/1": glob.glob(os.path.join(src, "experiments/*.fabric.json")) +
        [os.path.join(src, "examples/daemon/model.json")],
    }
    refused = {os.path.join(src, "examples/schedules/invalid.json")}
    for name, files in groups.items():
        if not files:
            fail("no example inputs for %s" % name)
        for path in files:
            with open(path) as f:
                bad = problems(name, json.load(f))
            if path in refused and not bad:
                fail("%s is refused by lightrail but meets %s" % (path, name))
            if path not in refused and bad:
                fail("%s does not meet %s:\n  %s" % (path, name, "\n  ".join(bad[:10])))
        seen.add(name)
    return sum(len(f) for f in groups.values())


n_inputs = inputs()
schedule = os.path.join(src, "examples/schedules/awgr_doubling.json")
image = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(cosim))), "lightrail-cosim.image.json")

with Harness(cosim, daemon, src, boards=4) as h:
    port = h.board_port
    dev = "sim://127.0.0.1:%d/1" % port
    fab = h.path("fabric.json")
    run("validate", ["validate", schedule, "--json"], "lightrail.validate/1")
    run("validate", ["validate", os.path.join(src, "examples/schedules/invalid.json"), "--json"],
        "lightrail.validate/1", codes=(1,))
    run("status", ["status", "--device", "sim://127.0.0.1:1/0", "--json"], "lightrail.error/1", codes=(3,))
    run("boards", ["boards", "--sim", "127.0.0.1:%d" % port, "--json"], "lightrail.boards/1")
    if os.path.exists(image):
        run("flash", ["flash", "--device", dev, image, "--json"], "lightrail.flash/1")
    run("upload", ["upload", "--device", dev, schedule, "--commit-at", "none", "--json"], "lightrail.upload/1")
    run("cancel", ["cancel", "--device", dev, "--json"], "lightrail.cancel/1")
    run("status", ["status", "--device", dev, "--json"], "lightrail.status/1")
    run("trigger", ["trigger", "--device", dev, "--at", "now+1us", "--json"], "lightrail.trigger/1")
    run("lease", ["lease", "status", "--device", dev, "--json"], "lightrail.lease/1")
    run("lease", ["lease", "break", "--device", dev, "--json"], "lightrail.lease/1")
    run("health", ["health", "--device", dev, "--json"], "lightrail.health/1", codes=(0, 6))
    run("sync", ["sync", "status", "--device", dev, "--json"], "lightrail.sync-status/1")
    run("sync", ["sync", "mode", "--device", dev, "--json"], "lightrail.sync-mode/1")
    run("sync", ["sync", "calibrate", "--device", dev, "--json"], "lightrail.sync-calibrate/1")
    run("sync", ["sync", "exchange-rate", "--device", dev, "--json"], "lightrail.sync-exchange-rate/1")
    run("sync", ["sync", "alpha", "--short", "-130,9794000", "--long", "-1273,97940000", "--json"],
        "lightrail.sync-alpha/1")
    run("fabric", ["fabric", "sync", fab, "--json"], "lightrail.fabric-sync/1")
    run("fabric", ["fabric", "validate", fab, "--all", schedule, "--json"], "lightrail.fabric-validate/1")
    run("fabric", ["fabric", "commit", fab, "--all", schedule, "--allow-unlocked", "--json"], "lightrail.fabric-commit/1")
    run("fabric", ["fabric", "trigger", fab, "--at", "now+20us", "--json"], "lightrail.fabric-trigger/1")
    run("fabric", ["fabric", "status", fab, "--json"], "lightrail.fabric-status/1")
    run("plan", ["plan", os.path.join(src, "experiments/cnn-16.job.json"), "--fabric",
                 os.path.join(src, "experiments/pas-64.fabric.json"), "--json"], "lightrail.plan/1")
    run("eval", ["eval", os.path.join(src, "experiments/opus.json"), "--json"], "lightrail.eval/1")

    for b in range(4):  # idle again: the daemon plans jobs on idle boards only
        subprocess.run([cli, "stop", "--device", "sim://127.0.0.1:%d/%d" % (port, b)], check=True,
                       stdout=subprocess.DEVNULL)
    h.start_daemon()
    h.wait_locked()
    d = ["--daemon", h.url, "--token-file", h.path("token"), "--json"]
    job = run("job", ["job", "submit", os.path.join(src, "examples/daemon/dp16.job.json")] + d, "lightrail.job/1")
    run("job", ["job", "show", job["id"]] + d, "lightrail.job/1")
    run("job", ["job", "list"] + d, "lightrail.job-list/1")
    run("job", ["job", "phase", job["id"], "0"] + d, "lightrail.job-phase/1")
    run("job", ["job", "progress", job["id"], "0.5"] + d, "lightrail.job-progress/1")
    run("job", ["job", "delete", job["id"]] + d, "lightrail.job-deleted/1")
    for path, expected, status in (("/healthz", "lightrail.daemon-alive/1", 200),
                                   ("/readyz", "lightrail.daemon-ready/1", 200),
                                   ("/v1/version", "lightrail.daemon-version/1", 200),
                                   ("/v1/fabric", "lightrail.daemon-fabric/1", 200),
                                   ("/v1/jobs/no-such-job", "lightrail.daemon-error/1", 404)):
        got, _, body = h.request("GET", path, token="test-token-0123456789abcdef")
        if got != status:
            fail("GET %s: HTTP %d, not %d" % (path, got, status))
        check("GET " + path, body, expected)
    report, rc = h.finish()
    check("lightrail-cosim serve --report", report, "lightrail.cosim-report/1")

unused = {i[len(BASE):] for i in store} - seen - {"lightrail.common/1"}
if not os.path.exists(image):
    unused.discard("lightrail.flash/1")
if unused:
    fail("schemas no output or input was checked against: %s" % ", ".join(sorted(unused)))
print("%d outputs and %d example inputs meet their %d schemas" % (len(seen) - 4, n_inputs, len(store)))
