"""The single event loop: thread-safe posting, ordered dispatch, safe state on every exit."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import textwrap
import threading
from dataclasses import dataclass

import pytest

from firmware.errors import LoopStopped, NoHandler, Rejected
from firmware.loop import TableLoop
from hal.sim.clock import VirtualClock


@dataclass(frozen=True)
class Press:
    seat: int
    n: int = 0


@dataclass(frozen=True)
class LongPress(Press):
    pass


@dataclass(frozen=True)
class Done:
    pass


def run_until_done(loop: TableLoop, main=None) -> int:
    """Run the loop; a posted Done event stops it."""
    loop.on(Done, lambda _e: loop.stop("done"))
    return loop.run(main, signals=False)


def test_events_from_many_threads_are_handled_on_the_loop_thread_in_order():
    loop = TableLoop()
    seen: list[tuple[int, int]] = []
    handler_threads: set[int] = set()

    def on_press(event: Press) -> None:
        handler_threads.add(threading.get_ident())
        seen.append((event.seat, event.n))
        if len(seen) == 4 * 200:
            loop.post(Done())

    loop.on(Press, on_press)

    async def main():
        workers = [
            threading.Thread(target=lambda s=s: [loop.post(Press(s, n)) for n in range(200)])
            for s in range(4)
        ]
        for w in workers:
            w.start()
        await asyncio.to_thread(lambda: [w.join() for w in workers])

    assert run_until_done(loop, main) == 0
    assert handler_threads == {threading.main_thread().ident}
    for seat in range(4):
        assert [n for s, n in seen if s == seat] == list(range(200))


def test_handlers_are_found_by_event_type_including_base_classes(caplog):
    loop = TableLoop()
    got: list[str] = []
    loop.on(Press, lambda e: got.append(f"press {e.seat}"))
    loop.on(LongPress, lambda e: got.append(f"long {e.seat}"))
    for event in (Press(1), LongPress(2), "nobody handles a str", Done()):
        loop.post(event)  # posted before the loop runs: kept and handled in order
    assert run_until_done(loop) == 0
    assert got == ["press 1", "long 2", "press 2"]
    assert "no handler for 'nobody handles a str'" in caplog.text


def test_call_returns_the_handler_result_and_a_rejection_changes_nothing():
    loop = TableLoop()
    state = {"presses": 0}

    def on_press(event: Press) -> int:
        if event.seat != 0:
            raise Rejected("refused.no_press", field="seat", seat=event.seat)
        state["presses"] += 1
        return state["presses"]

    loop.on(Press, on_press)
    results = []

    async def main():
        results.append(await loop.call(Press(0)))
        with pytest.raises(Rejected) as refused:
            await loop.call(Press(3))
        assert (refused.value.key, refused.value.values) == ("refused.no_press", {"seat": 3})
        results.append(await loop.call(Press(0)))
        with pytest.raises(NoHandler):
            await loop.call("unknown")
        loop.stop()

    assert loop.run(main, signals=False) == 0
    assert results == [1, 2]
    assert state == {"presses": 2}


def test_stop_from_another_thread_reaches_safe_state_before_closing_the_api():
    loop = TableLoop()
    order: list[str] = []

    async def close_api():
        order.append("api closed")

    async def close_journal():
        order.append("journal closed")

    loop.on_shutdown(close_journal)
    loop.on_shutdown(close_api)
    loop.on_safe_state(lambda: order.append("motor off"))

    async def main():
        threading.Thread(target=loop.stop, args=("operator",)).start()

    assert loop.run(main, signals=False) == 0
    # the motor stops first: closing the API may take a while (issue 10, point 7)
    assert order == ["motor off", "api closed", "journal closed"]
    assert loop.stop_reason == "operator"
    assert loop.post(Press(0)) is False  # closed: nothing queued any more


def test_a_crashing_handler_stops_the_loop_in_safe_state_with_status_1():
    loop = TableLoop()
    off = []
    later = []
    loop.on_safe_state(lambda: off.append(True))
    loop.on(Press, lambda e: 1 / 0 if e.seat == 9 else later.append(e))
    loop.post(Press(9))
    loop.post(Press(1))  # never handled: state after the crash is not trusted
    assert loop.run(signals=False) == 1
    assert off == [True] and later == []
    assert isinstance(loop.failure, ZeroDivisionError)


def test_a_failing_start_up_still_reaches_safe_state():
    loop = TableLoop()
    off = []
    loop.on_safe_state(lambda: off.append(True))

    async def main():
        raise OSError("address already in use")

    assert loop.run(main, signals=False) == 1
    assert off == [True]


def test_a_failing_safe_state_callback_does_not_skip_the_others():
    loop = TableLoop()
    off = []
    loop.on_safe_state(lambda: 1 / 0)
    loop.on_safe_state(lambda: off.append("servo"))

    async def main():
        loop.stop()

    assert loop.run(main, signals=False) == 0
    assert off == ["servo"]


def test_a_failing_spawned_task_stops_the_loop():
    loop = TableLoop()

    async def broken_reader():
        raise ConnectionError("reader unplugged")

    async def main():
        loop.spawn(broken_reader())

    assert loop.run(main, signals=False) == 1
    assert isinstance(loop.failure, ConnectionError)


def test_call_waiting_when_the_loop_stops_is_told_so():
    loop = TableLoop()
    outcome = []

    def on_press(_e):
        loop.stop()
        raise ZeroDivisionError

    loop.on(Press, on_press)

    async def main():
        async def caller():
            try:
                await loop.call(Press(0))
                await loop.call(Press(1))
            except (ZeroDivisionError, LoopStopped) as exc:
                outcome.append(type(exc).__name__)

        loop.spawn(caller())

    loop.run(main, signals=False)
    assert outcome == ["ZeroDivisionError"]


@dataclass(frozen=True)
class Timeout:
    what: str


def test_timeouts_run_on_the_injected_clock():
    clock = VirtualClock(start=100.0)
    loop = TableLoop(clock=clock)
    fired: list[tuple[str, float]] = []
    loop.on(Timeout, lambda e: fired.append((e.what, loop.now())))

    async def main():
        loop.after(5.0, Timeout("uno window"))
        tower = loop.after(30.0, Timeout("tower not seen"))
        loop.after(2.0, Timeout("servo settled"))
        clock.advance(10.0)  # virtual time: nothing really waits
        tower.cancel()
        clock.advance(60.0)
        await asyncio.sleep(0)
        loop.post(Done())

    assert run_until_done(loop, main) == 0
    assert fired == [("servo settled", 170.0), ("uno window", 170.0)]  # handled after both advances


def test_pending_timeouts_are_dropped_at_stop():
    clock = VirtualClock()
    loop = TableLoop(clock=clock)
    fired = []
    loop.on(Timeout, fired.append)

    async def main():
        loop.after(1.0, Timeout("late"))
        loop.stop()

    assert loop.run(main, signals=False) == 0
    clock.advance(5.0)
    assert fired == [] and clock.pending() == 0


CHILD = textwrap.dedent(
    """
    import sys
    from firmware.loop import TableLoop

    loop = TableLoop()
    loop.on_safe_state(lambda: open(sys.argv[1], "w").write("motor off"))

    async def main():
        print("serving", flush=True)

    sys.exit(loop.run(main))
    """
)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signals_become_an_orderly_stop_with_the_motor_off(tmp_path, sig):
    marker = tmp_path / "safe"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(marker)], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout.readline().strip() == "serving"
    child.send_signal(sig)
    assert child.wait(timeout=20) == 0
    assert marker.read_text() == "motor off"


def test_a_handler_bug_behind_call_reaches_the_caller_and_stops_the_loop():
    loop = TableLoop()
    loop.on(Press, lambda e: {}[e.seat])  # KeyError: a bug, not a refusal
    seen = []

    async def main():
        try:
            await loop.call(Press(4))
        except KeyError as exc:
            seen.append(exc)

    assert loop.run(main, signals=False) == 1
    assert len(seen) == 1 and isinstance(loop.failure, KeyError)
