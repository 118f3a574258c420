#!/usr/bin/python3
"""Run one formal harness of tests/formal/ with yosys and yosys-smtbmc (z3).

prove:  BMC to --bmc steps, then k-induction of depth --induct (0: BMC only,
        the depth argued in docs/formal.md); every cover must be reached.
broken: apply --patch to a copy of hw/ and pass only if BMC finds a
        counterexample to the property --expect (a failure to build, or a
        failure of another property, does not count).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SMTBMC = ["yosys-smtbmc", "--noprogress", "--unroll", "-s", "z3"]  # --unroll: z3 stalls on the UF form


def log_tail(text, lines=40):
    return "\n".join(text.splitlines()[-lines:])


def connects(lhs, rhs):
    """connect commands for lhs = rhs. rhs "dut.mem[0..31]x8" (the words of a
    mapped memory, 8 bits each) fills lhs word by word, word 0 lowest."""
    m = re.fullmatch(r"(.*)\[(\d+)\.\.(\d+)\]x(\d+)", rhs)
    if not m:
        return ["connect -set %s %s" % (lhs, rhs)]
    name, lo, hi, width = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
    return ["connect -set %s[%d:%d] %s[%d]" % (lhs, width * (i - lo) + width - 1, width * (i - lo), name, i)
            for i in range(lo, hi + 1)]


def build(args, hw, work):
    """Write the harness's SMT2 model; return its path."""
    sources = [os.path.join(hw, s) for s in args.sources]
    script = [
        "read_verilog -sv -formal " + " ".join(sources + [os.path.join(HERE, args.harness)]),
    ]
    for c in args.chparam:  # a harness parameter, e.g. a shorter lock for BMC
        name, value = c.split("=")
        script.append("chparam -set %s %s %s" % (name, value, args.top))
    script.append("prep -top " + args.top)
    for c in args.cut:  # a DUT cell whose outputs become free inputs (module/cell)
        script.append("delete " + c)
    if args.map_memories:  # memories to flops, so that connect can name their words
        script.append("memory_map")
    script.append("flatten")
    for c in args.cutpoint:  # a DUT wire becomes a free input (flattened name)
        script.append("cutpoint w:" + c)
    for c in args.connect:  # harness wire = DUT signal (no hierarchical references in yosys 0.23)
        lhs, rhs = c.split("=")
        script += connects(lhs, rhs)
    if args.cut_memories:
        # A memory's read data becomes a free input: a sound over-approximation.
        script.append("delete t:$mem* t:$mem_v2")
    # opt_clean drops DUT logic no property reads (the read path, unused outputs).
    script += ["setundef -undriven -anyseq", "opt_clean", "async2sync", "dffunmap",
               "write_smt2 -wires model.smt2"]
    ys = os.path.join(work, "model.ys")
    with open(ys, "w") as f:
        f.write("\n".join(script) + "\n")
    r = subprocess.run(["yosys", "-q", "-s", ys], cwd=work, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("yosys failed:\n" + log_tail(r.stdout + r.stderr))
    return os.path.join(work, "model.smt2")


def smtbmc(extra, model, work):
    t0 = time.time()
    r = subprocess.run(SMTBMC + extra + [model], cwd=work, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr, time.time() - t0


def failed_properties(out):
    # "Assert failed in top: a_name" (labelled) or "...: file.sv:12.3-12.40 (a_name)"
    names = set()
    for what in re.findall(r"Assert failed in \S+: (.*)", out):
        m = re.search(r"\((\w+)\)\s*$", what)
        names.add(m.group(1) if m else what.strip())
    return names


def first_failure_step(out, names):
    """The BMC step at which one of names first fails (None if none does)."""
    step = None
    for line in out.splitlines():
        m = re.search(r"Checking assertions in step (\d+)", line)
        if m:
            step = int(m.group(1))
        elif any(n in failed_properties(line) for n in names):
            return step
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hw", required=True, help="the hw/ directory")
    ap.add_argument("--harness", required=True)
    ap.add_argument("--top", required=True)
    ap.add_argument("--sources", nargs="+", required=True, help="files under hw/, packages first")
    ap.add_argument("--connect", nargs="*", default=[])
    ap.add_argument("--chparam", nargs="*", default=[], help="NAME=VALUE of the harness's top")
    ap.add_argument("--cut-memories", action="store_true")
    ap.add_argument("--cut", nargs="*", default=[], help="module/cell: outputs become free inputs")
    ap.add_argument("--cutpoint", nargs="*", default=[], help="DUT wire: becomes a free input")
    ap.add_argument("--map-memories", action="store_true", help="memory_map before flatten")
    ap.add_argument("--bmc", required=True, help="BMC steps, or SKIP:STEPS (no checks before SKIP)")
    ap.add_argument("--induct", type=int, default=0)
    ap.add_argument("--cover", type=int, default=0, help="cover depth (0: no covers)")
    ap.add_argument("--trace", help="keep the model and counterexample (trace.vcd) in this directory")
    ap.add_argument("--patch", help="broken copy: a patch against hw/")
    ap.add_argument("--expect", help="broken copy: the property that must fail (a,b: either)")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="formal.") as tmp:
        work = tmp
        if args.trace:
            work = os.path.abspath(args.trace)
            os.makedirs(work, exist_ok=True)
            SMTBMC.extend(["--dump-vcd", "trace.vcd"])
        hw = os.path.abspath(args.hw)
        if args.patch:
            hw = os.path.join(work, "hw")
            shutil.rmtree(hw, ignore_errors=True)
            shutil.copytree(os.path.abspath(args.hw), hw)
            r = subprocess.run(["patch", "-p2", "-d", hw, "-i", os.path.abspath(args.patch)],
                               capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit("patch does not apply:\n" + r.stdout + r.stderr)
        model = build(args, hw, work)

        rc, out, secs = smtbmc(["-t", str(args.bmc)], model, work)
        if args.patch:
            failed = failed_properties(out)
            caught = failed & set(args.expect.split(","))
            if rc != 0 and caught:
                print("broken copy caught: %s fails at step %s (BMC, %.1f s)"
                      % (", ".join(sorted(caught)), first_failure_step(out, caught), secs))
                for line in re.findall(r"Value for anyconst .*", out):
                    print("  " + line)
                return 0
            print(log_tail(out))
            sys.exit("broken copy NOT caught by %s (failed: %s)" % (args.expect, sorted(failed) or "none"))
        if rc != 0:
            sys.exit("BMC failed:\n" + log_tail(out, 80))
        print("BMC %s steps: pass (%.1f s)" % (args.bmc, secs))

        if args.induct:
            rc, out, secs = smtbmc(["-i", "-t", str(args.induct)], model, work)
            if rc != 0:
                sys.exit("k-induction failed:\n" + log_tail(out, 80))
            print("k-induction depth %d: proven (%.1f s)" % (args.induct, secs))
        if args.cover:
            rc, out, secs = smtbmc(["-c", "-t", str(args.cover)], model, work)
            if rc != 0:
                sys.exit("a cover is unreachable (the proof would be vacuous):\n" + log_tail(out))
            print("covers reached within %d steps (%.1f s)" % (args.cover, secs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
