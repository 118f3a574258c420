"""The GIL is released while a call waits on a board: a fabric commit that
waits for its swap at a future board time, in one thread, does not keep
another thread's Device.status() from returning, and that status sees the
commit armed mid-call."""

import json
import threading
import time

import lightrail


def one_board_fabric(uri):
    return lightrail.FabricSpec.from_json(json.dumps({
        "name": "py-threads",
        "rails": [{"rail": 0, "switch": "awgr", "radix": 16}],
        "boards": [{"name": "b0", "uri": uri, "rail": 0, "first_switch_port": 0}],
        # About 1 s of wall time at the co-simulation's speed: long enough to
        # be seen in progress, whatever the load.
        "commit_margin_us": 5000,
    }))


def test_status_returns_while_a_blocking_commit_waits(boards, example_schedule_path):
    fabric = lightrail.Fabric.open(one_board_fabric(boards.uri(0)))
    schedule = lightrail.Schedule.load(example_schedule_path)
    schedule.generation = 5
    result = {}
    started = threading.Event()
    done = threading.Event()

    def commit():
        started.set()
        try:
            result["report"] = fabric.commit({"b0": schedule}, allow_unlocked=True, wait_for_swap=True,
                                             swap_timeout_ms=600_000)
        except Exception as e:  # reported by the main thread
            result["error"] = e
        done.set()

    reader = lightrail.Device.open(boards.uri(0))
    worker = threading.Thread(target=commit)
    worker.start()
    started.wait()
    seen_in_progress = []  # statuses returned while the commit had not returned
    deadline = time.monotonic() + 300
    while not done.is_set() and time.monotonic() < deadline:
        st = reader.status()
        if not done.is_set():
            seen_in_progress.append(st)
        time.sleep(0.005)
    worker.join(timeout=300)
    assert not worker.is_alive()
    assert "error" not in result, result.get("error")
    report = result["report"]
    assert report["committed"], report
    assert report["boards"][0]["outcome"] == "switched"
    assert seen_in_progress, "no status() returned while commit() was in progress"
    # The reader saw the board armed for T, before the swap, from its thread.
    armed = [st for st in seen_in_progress if st.commit_pending and not st.running]
    assert armed, [repr(s) for s in seen_in_progress]
    assert armed[0].board_time_ps < report["commit_ps"]
    final = reader.status()
    assert final.running and final.generation == 5 and final.last_swap_ps >= report["commit_ps"]


def test_one_device_shared_by_threads_stays_consistent(boards, example_schedule_path):
    dev = lightrail.Device.open(boards.uri(1))
    errors = []

    def poll():
        try:
            for _ in range(200):
                dev.status()
                dev.time_ps()
        except Exception as e:
            errors.append(e)

    threads = [threading.Thread(target=poll) for _ in range(4)]
    for t in threads:
        t.start()
    dev.stage(lightrail.Schedule.load(example_schedule_path))
    dev.commit()
    for t in threads:
        t.join()
    assert errors == []
    assert dev.status().running
