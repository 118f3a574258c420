#!/usr/bin/python3
"""The fault set (docs/faults.md): deliberate bugs in the timing link's
message engine and the servo's glue, each of which a system scenario must
catch. For every fault in tests/faults/faults.json: apply its one-line edit
to a scratch copy of the tree (mutate.py's Scratch), rebuild lightrail-cosim,
run its scenarios, and require at least one to fail on an unmet
expectation (not a crash or a build error). A baseline first: the scenarios
must pass on the unedited copy, or the run stops (exit 2).

Exit: 0 every fault caught; 1 a fault survived; 2 the tool cannot run.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import mutate  # noqa: E402  (the scratch tree and its build)

FAULTS = os.path.join(ROOT, "tests", "faults", "faults.json")
UNMET = "  expected: "  # how lightrail-cosim run prints each unmet expectation


def load(path):
    with open(path) as f:
        doc = json.load(f)
    faults = doc["faults"]
    seen = set()
    for i, fl in enumerate(faults):
        where = "faults[%d]" % i
        for k in ("id", "file", "find", "replace", "why", "scenarios"):
            if k not in fl:
                raise ValueError("%s.%s: missing" % (where, k))
        if fl["id"] in seen:
            raise ValueError("%s.id: %s is listed twice" % (where, fl["id"]))
        seen.add(fl["id"])
        with open(os.path.join(ROOT, fl["file"])) as f:
            n = f.read().count(fl["find"])
        if n != 1:
            raise ValueError("%s.find: occurs %d times in %s, must be exactly once" % (where, n, fl["file"]))
    return faults


def run_scenario(sc, cosim, scenario, timeout):
    """(status, detail): pass, unmet (the verdict failed), or error."""
    t0 = time.time()
    rc, out = sc.run([cosim, "run", os.path.join(sc.src, scenario)], timeout)
    took = time.time() - t0
    if rc == 0:
        return "pass", "%.0f s" % took
    if rc is None:
        return "error", "timed out after %d s" % timeout
    unmet = [l.strip() for l in out.splitlines() if l.startswith(UNMET)]
    if unmet:
        return "unmet", "%.0f s: %s" % (took, "; ".join(unmet[:3])[:300])
    return "error", "exit %d: %s" % (rc, out.strip().splitlines()[-1][:300] if out.strip() else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scratch", help="scratch directory (default /tmp/lightrail-faults-<hash>)")
    ap.add_argument("--only", nargs="*", help="run only these fault ids")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--timeout", type=int, default=900, help="per scenario run, seconds")
    args = ap.parse_args()
    try:
        faults = load(FAULTS)
    except (ValueError, OSError, KeyError, json.JSONDecodeError) as e:
        print("faults: %s: %s" % (os.path.relpath(FAULTS, ROOT), e))
        return 2
    if args.only:
        unknown = set(args.only) - {f["id"] for f in faults}
        if unknown:
            print("faults: --only: unknown fault id(s): %s" % ", ".join(sorted(unknown)))
            return 2
        faults = [f for f in faults if f["id"] in args.only]
    where = args.scratch or "/tmp/lightrail-faults-%s" % hashlib.sha1(ROOT.encode()).hexdigest()[:8]
    os.makedirs(where, exist_ok=True)
    log = open(os.path.join(where, "faults.log"), "a")
    sc = mutate.Scratch(None, where, log)
    sc.with_sim = True
    sc.sync()
    cosim = os.path.join(sc.build, "sim", "lightrail-cosim")
    if not sc.configure() or not sc.build_targets(["lightrail-cosim"]):
        print("faults: the scratch build of lightrail-cosim failed (log: %s)" % log.name)
        return 2
    scenarios = sorted({s for f in faults for s in f["scenarios"]})
    print("faults: baseline: %d scenario(s) on the unedited tree" % len(scenarios), flush=True)
    for s in scenarios:
        status, detail = run_scenario(sc, cosim, s, args.timeout)
        print("  %-48s %s (%s)" % (s, status, detail), flush=True)
        if status != "pass":
            print("faults: the baseline must pass: %s did not (log: %s)" % (s, log.name))
            return 2
    results, survived = [], 0
    for f in faults:
        path = os.path.join(sc.src, f["file"])
        with open(path) as fh:
            original = fh.read()
        try:
            with open(path, "w") as fh:
                fh.write(original.replace(f["find"], f["replace"], 1))
            if not sc.build_targets(["lightrail-cosim"]):
                results.append({"id": f["id"], "status": "invalid", "detail": "does not build"})
                print("%-28s INVALID (does not build)" % f["id"], flush=True)
                survived += 1
                continue
            caught = None
            runs = []
            for s in f["scenarios"]:
                status, detail = run_scenario(sc, cosim, s, args.timeout)
                runs.append({"scenario": s, "status": status, "detail": detail})
                if status == "unmet":
                    caught = s
                    break
            results.append({"id": f["id"], "status": "caught" if caught else "survived", "runs": runs})
            print("%-28s %s %s" % (f["id"], "CAUGHT by" if caught else "SURVIVED", caught or
                                   "; ".join("%s: %s" % (r["scenario"], r["status"]) for r in runs)), flush=True)
            for r in runs:
                print("    %s: %s (%s)" % (os.path.basename(r["scenario"]), r["status"], r["detail"]), flush=True)
            survived += 0 if caught else 1
        finally:
            with open(path, "w") as fh:
                fh.write(original)
    sc.build_targets(["lightrail-cosim"])  # leave the scratch build unedited
    print("faults: %d of %d caught" % (len(results) - survived, len(results)))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"results": results}, fh, indent=1)
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
