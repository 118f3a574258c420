#!/usr/bin/env python3
"""What a job manager does with one board through the lightrail Python
binding: open the device, build the schedule of a ring all-reduce (one shift
permutation per step: port p sends to receiver p+k through the AWGR), check
it against the board, stage and commit it, then poll the board's status
until the schedule has run a number of epochs. Prints one JSON summary line;
exit 0 when the board ran the schedule, 1 on invalid input, 3 on a board or
connection error (the CLI's codes).

  PYTHONPATH=build/python python3 examples/python/job_manager.py \\
      --device sim://127.0.0.1:7000/0 [--shifts 1,2,4,8] [--step-us 1] [--epochs 4]
"""

import argparse
import json
import sys
import time

import lightrail


def build_schedule(ports, shifts, step_ps, generation):
    schedule = lightrail.Schedule(generation=generation, guard_ps=500, cyclic=True)
    for k in shifts:
        config = schedule.add_config([k] * ports, name=f"shift{k}")
        schedule.add_step(config, step_ps)
    return schedule


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", required=True, help="sim://HOST:PORT/BOARD or xrt://...")
    parser.add_argument("--shifts", default="1,2,4,8", help="wavelength shift of each step")
    parser.add_argument("--step-us", type=float, default=1.0, help="duration of each step")
    parser.add_argument("--epochs", type=int, default=4, help="epochs to watch before reporting")
    parser.add_argument("--generation", type=int, default=1)
    parser.add_argument("--timeout-s", type=float, default=120.0, help="wall time to wait for the epochs")
    args = parser.parse_args(argv)
    try:
        shifts = [int(x) for x in args.shifts.split(",")]
    except ValueError:
        print(f"--shifts: not a list of integers: {args.shifts!r}", file=sys.stderr)
        return 2

    try:
        with lightrail.Device.open(args.device) as device:
            caps = device.capabilities
            schedule = build_schedule(caps.ports, shifts, int(args.step_us * 1e6), args.generation)
            problems = device.validate(schedule)
            if problems:
                for p in problems:
                    print(f"{p.where}: {p.message}", file=sys.stderr)
                return 1
            device.stage(schedule)
            device.commit()  # the next epoch boundary; at once on an idle board
            status = device.status()
            start_epochs = status.epochs
            deadline = time.monotonic() + args.timeout_s
            while status.epochs < start_epochs + args.epochs:
                if time.monotonic() > deadline:
                    print(f"{args.device}: {args.epochs} epochs did not run in {args.timeout_s} s", file=sys.stderr)
                    return 3
                time.sleep(0.02)
                status = device.status()
            ok = status.running and status.generation == args.generation and not status.errors
            print(json.dumps({
                "device": args.device,
                "generation": status.generation,
                "running": status.running,
                "period_ps": schedule.period_ps,
                "epochs": status.epochs,
                "steps": status.steps,
                "missed": status.missed,
                "errors": status.errors,
                "board_time_ps": status.board_time_ps,
            }))
            return 0 if ok else 3
    except (lightrail.FormatError, lightrail.ValidationError) as e:
        print(e, file=sys.stderr)
        return 1
    except lightrail.Error as e:
        print(e, file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
