"""lightrail.Device against a co-simulated board of `lightrail-cosim serve`:
stage and commit run a schedule and status shows it; every refusal raises
the exception class the driver throws, with its details."""

import time

import pytest

import lightrail


def wait_for(predicate, timeout_s=60):
    deadline = time.monotonic() + timeout_s
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_stage_commit_runs_and_status_reflects_it(boards, example_schedule_path):
    with lightrail.Device.open(boards.uri(0)) as dev:
        assert dev.capabilities.ports == 16 and dev.board_id == 0
        before = dev.status()
        assert not before.running and before.swaps == 0
        s = lightrail.Schedule.load(example_schedule_path)
        s.generation = 42
        dev.stage(s)
        dev.commit()  # idle board: at once
        st = dev.status()
        assert st.running and st.generation == 42 and st.swaps == 1
        assert st.errors == [] and st.missed == 0
        first = st.steps
        wait_for(lambda: dev.status().steps >= first + 8)  # 1 us steps keep coming
        assert dev.status().cur_config in range(4)
        assert dev.time_ps() > st.board_time_ps
        dev.stop()
        wait_for(lambda: not dev.status().running)
    assert dev.closed
    with pytest.raises(lightrail.Error, match="closed"):
        dev.status()


def test_commit_at_a_future_time_and_cancel(boards, example_schedule_path):
    dev = lightrail.Device.open(boards.uri(1))
    s = lightrail.Schedule.load(example_schedule_path)
    dev.stage(s)
    dev.commit(at_ps=dev.time_ps() + 10**9)  # 1 ms of board time ahead
    assert dev.status().commit_pending
    assert dev.cancel() == lightrail.CancelOutcome.CANCELLED
    st = dev.status()
    assert st.cancelled and not st.running and st.swaps == 0
    assert dev.cancel() == lightrail.CancelOutcome.NOTHING_PENDING


def test_commit_for_a_time_then_wait_for_the_swap(boards, example_schedule_path):
    dev = lightrail.Device.open(boards.uri(0))
    s = lightrail.Schedule.load(example_schedule_path)
    s.generation = 31
    dev.stage(s)
    at = dev.time_ps() + 10**9  # 1 ms of board time ahead, on a tick
    ticket = dev.commit(at_ps=at)
    assert (ticket.generation, ticket.at_ps, ticket.swaps_before) == (31, at, 0)
    swap = dev.wait_for_swap(ticket, timeout_s=120)
    assert (swap.time_ps, swap.generation) == (at, 31)  # idle: exactly the time asked
    assert dev.status().last_swap_ps == at

    # Not due within the wait: a TimeoutError (lightrail's and Python's), still armed.
    s.generation = 32
    dev.stage(s)
    ticket = dev.commit(at_ps=dev.time_ps() + 50 * 10**9)
    with pytest.raises(lightrail.TimeoutError, match="no swap to generation 32") as e:
        dev.wait_for_swap(ticket, timeout_s=0.2)
    assert isinstance(e.value, TimeoutError) and isinstance(e.value, lightrail.Error)
    assert dev.status().commit_pending
    assert dev.cancel() == lightrail.CancelOutcome.CANCELLED
    with pytest.raises(lightrail.CommitError) as e:
        dev.wait_for_swap(ticket)
    assert e.value.flags == ["CANCELLED"]


def test_invalid_schedule_raises_validation_error_and_writes_nothing(boards, example_schedule_path):
    dev = lightrail.Device.open(boards.uri(0))
    s = lightrail.Schedule.load(example_schedule_path)
    s.steps[2].config = 17
    with pytest.raises(lightrail.ValidationError) as e:
        dev.stage(s)
    assert [p.where for p in e.value.problems] == ["steps[2].config"]
    assert [p.where for p in dev.validate(s)] == ["steps[2].config"]
    with pytest.raises(lightrail.Error, match="nothing staged"):
        dev.commit()
    assert dev.status().generation == 0


def test_late_commit_raises_commit_error_with_flags(boards, example_schedule_path):
    dev = lightrail.Device.open(boards.uri(0))
    dev.stage(lightrail.Schedule.load(example_schedule_path))
    with pytest.raises(lightrail.CommitError) as e:
        dev.commit(at_ps=1000)  # long past
    assert e.value.flags == ["COMMIT_LATE"]
    assert not dev.status().running


def test_second_writer_gets_lease_error(boards, example_schedule_path):
    s = lightrail.Schedule.load(example_schedule_path)
    first = lightrail.Device.open(boards.uri(0))
    first.claim()
    second = lightrail.Device.open(boards.uri(0))
    with pytest.raises(lightrail.LeaseError) as e:
        second.stage(s)
    assert isinstance(e.value, lightrail.BoardBusyError)
    assert e.value.owner == first.lease_token != 0
    assert second.lease().owner == first.lease_token and not second.lease().mine
    first.release()
    second.stage(s)
    second.commit()
    assert second.status().running


def test_connection_and_uri_errors(boards):
    with pytest.raises(lightrail.TransportError):
        lightrail.Device.open(f"sim://127.0.0.1:{boards.port}/7")  # no such board
    with pytest.raises(lightrail.FormatError, match="scheme"):
        lightrail.Device.open("bogus://x")


def test_sync_mode_sets_the_role_and_reads_it_back(boards):
    with lightrail.Device.open(boards.uri(1)) as dev:
        assert dev.sync_status().mode == lightrail.SyncMode.OFF  # served without --sync
        for mode, reference, enabled, use_ddmtd in [
            (lightrail.SyncMode.REFERENCE, True, False, False),
            (lightrail.SyncMode.FOLLOWER, False, True, True),
            (lightrail.SyncMode.FOLLOWER_PTP_ONLY, False, True, False),
            (lightrail.SyncMode.OFF, False, False, False),
        ]:
            dev.sync_set_mode(mode)
            s = dev.sync_status()
            assert (s.mode, s.reference, s.enabled, s.use_ddmtd) == (mode, reference, enabled, use_ddmtd)
            # The co-simulation does not model the link's words: its engine registers read 0.
            assert (s.link_aligned, s.parent_locked, s.rx_bitslide_ui, s.link_bad_frames) == (False, False, 0, 0)
        other = lightrail.Device.open(boards.uri(1))
        with pytest.raises(lightrail.LeaseError):
            other.sync_set_mode(lightrail.SyncMode.REFERENCE)  # dev holds the lease
        assert dev.sync_status().mode == lightrail.SyncMode.OFF


def test_sync_status_and_calibration(boards):
    dev = lightrail.Device.open(boards.uri(1))
    sync = dev.sync_status()
    assert isinstance(sync.state, str) and not sync.locked  # served without --sync: no reference
    cal = lightrail.SyncCalibration(delay_tx_ps=100, delay_rx_ps=200, asymmetry_ps=-300)
    dev.sync_calibrate(cal)
    assert dev.sync_calibration() == cal
    with pytest.raises(lightrail.FormatError) as e:
        dev.sync_calibrate(lightrail.SyncCalibration(asymmetry_ps=10**12))
    assert [p.where for p in e.value.problems] == ["asymmetry_ps"]
    assert dev.sync_calibration() == cal  # nothing written
