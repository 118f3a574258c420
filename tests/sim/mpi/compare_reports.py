"""Compares co-simulation reports field by field, apart from what measures
the machine rather than the simulation (wall and CPU time, rates per wall
second) and the partition itself. Exit 1 and the differences if any.

    compare_reports.py REFERENCE OTHER...
"""
import json
import sys

MACHINE = {"wall_s", "cpu_s", "board_cycles_per_s", "partition", "wall_ms"}
# The host's own record of how much board time its requests took
# (host.actions[].cycles, sim_ps): on several ranks it varies by a few
# cycles from run to run on a loaded machine (6-21 of 11,392 seen), while
# everything the boards did stays identical (docs/cosim-partitioned.md).
HOST_TIMING = {"cycles", "sim_ps"}


def strip(x, path=""):
    if isinstance(x, dict):
        drop = MACHINE | (HOST_TIMING if path == ".host.actions[]" else set())
        return {k: strip(v, f"{path}.{k}") for k, v in x.items() if k not in drop}
    if isinstance(x, list):
        return [strip(v, f"{path}[]") for v in x]
    return x


def diff(a, b, path, out):
    if type(a) is not type(b):
        out.append(f"{path}: {a!r:.80} vs {b!r:.80}")
    elif isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}.{k}: in one report only")
            else:
                diff(a[k], b[k], f"{path}.{k}", out)
    elif isinstance(a, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} vs {len(b)} entries")
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{path}[{i}]", out)
    elif a != b:
        out.append(f"{path}: {a!r:.80} vs {b!r:.80}")


def main():
    ref = strip(json.load(open(sys.argv[1])))
    bad = False
    for other in sys.argv[2:]:
        out = []
        diff(ref, strip(json.load(open(other))), "", out)
        print(f"{other}: {len(out)} fields differ from {sys.argv[1]}")
        for line in out[:20]:
            print("  " + line)
        bad = bad or bool(out)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
