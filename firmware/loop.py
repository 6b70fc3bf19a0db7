"""The daemon's single event loop: it owns all game state.

Hardware callbacks (gpiozero threads), serial reader threads and API requests never
touch state; they hand an event to `TableLoop.post` (thread-safe) or, on the loop
itself, `await TableLoop.call(event)`. One dispatcher task runs the handlers one event
at a time, in arrival order, so handlers need no locks.

Handlers are plain functions: a handler never waits for hardware. Work that takes time
is started with `spawn` and reports back by posting another event.

Time comes from an injected `hal.clock.Clock` (`MonotonicClock` in the daemon,
`hal.sim.clock.VirtualClock` in tests): `now()` reads it and `after(delay, event)`
posts an event later (a timeout), so tests drive timeouts without waiting.

On every way out (orderly stop, SIGTERM, SIGINT, a crashing handler) the safe-state
callbacks run (motor off) before `run` returns: first thing once the dispatcher has
stopped, before the API and the journal are closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import signal
import threading
from collections import defaultdict
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from firmware.errors import LoopStopped, NoHandler, Rejected, StartRefused
from hal.clock import REAL_TIME, Cancellable, Clock

log = logging.getLogger(__name__)

Handler = Callable[[Any], Any]


class _Call:
    """An event whose handler result (or exception) is handed back to an awaiting caller.
    The handler runs in the caller's context (`contextvars`): what the caller set for its
    answer, such as the language it asked for, holds for the handler."""

    __slots__ = ("event", "future", "context")

    def __init__(self, event: object, future: asyncio.Future[Any]) -> None:
        self.event = event
        self.future = future
        self.context = contextvars.copy_context()


class TableLoop:
    def __init__(self, *, clock: Clock | None = None) -> None:
        self.clock: Clock = REAL_TIME if clock is None else clock
        self._timers: set[Cancellable] = set()
        self._handlers: dict[type, list[Handler]] = defaultdict(list)
        self._safe_state: list[Callable[[], object]] = []
        self._shutdown: list[Callable[[], Awaitable[object]]] = []
        self._aio: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[object] | None = None
        self._pending: list[object] = []  # posted before the loop started
        self._inbox_lock = threading.Lock()  # guards the hand-over above, never game state
        self._stop: asyncio.Event | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._dispatcher: asyncio.Task[None] | None = None
        self.closed = False
        self.stop_reason: str | None = None
        self.failure: BaseException | None = None
        self.handled = 0

    # -- registration -------------------------------------------------------------
    def on(self, event_type: type, handler: Handler) -> None:
        """Run `handler(event)` for every event of `event_type` (subclasses included)."""
        self._handlers[event_type].append(handler)

    def on_safe_state(self, callback: Callable[[], object]) -> None:
        """`callback()` runs on every exit path, as soon as no handler can run any more
        and before any shutdown callback (e.g. motor off)."""
        self._safe_state.append(callback)

    def on_shutdown(self, callback: Callable[[], Awaitable[object]]) -> None:
        """An async clean-up (close the API server) run in reverse order at an orderly stop."""
        self._shutdown.append(callback)

    # -- the way in ---------------------------------------------------------------
    def post(self, event: object) -> bool:
        """Queue `event` from any thread. False (and nothing queued) once the loop is closed."""
        with self._inbox_lock:
            if self.closed:
                log.debug("dropped %r: loop closed", event)
                return False
            if self._aio is None:
                self._pending.append(event)
                return True
            aio, queue = self._aio, self._queue
        assert queue is not None
        try:
            aio.call_soon_threadsafe(queue.put_nowait, event)
        except RuntimeError:  # the asyncio loop closed between the check and the call
            return False
        return True

    def now(self) -> float:
        """Monotonic seconds from the injected clock."""
        return self.clock.now()

    def after(self, delay: float, event: object) -> Cancellable:
        """Post `event` once `delay` seconds have passed on the clock; `cancel()` the
        returned handle to drop it (a handler must still check that the event is current)."""
        timer: Cancellable | None = None

        def fire() -> None:
            self._timers.discard(timer)  # type: ignore[arg-type]
            self.post(event)

        timer = self.clock.call_later(delay, fire)
        self._timers.add(timer)
        return timer

    async def call(self, event: object) -> Any:
        """On the loop: queue `event` behind earlier ones and return its handler's result."""
        if self._queue is None or self.closed:
            raise LoopStopped(f"cannot handle {type(event).__name__}: the loop is not running")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Call(event, future))
        return await future

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run a coroutine on the loop; it is cancelled at stop. Its failure stops the loop."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def stop(self, reason: str = "stop requested") -> None:
        """Ask for an orderly stop; safe from any thread and from signal handlers."""
        aio = self._aio
        if aio is None or self._stop is None:
            return
        with contextlib.suppress(RuntimeError):
            aio.call_soon_threadsafe(self._request_stop, reason)

    # -- running ------------------------------------------------------------------
    async def start(self) -> None:
        """Bind to the running asyncio loop and start dispatching events."""
        with self._inbox_lock:
            if self._aio is not None or self.closed:
                raise RuntimeError("a TableLoop starts once")
            self._aio = asyncio.get_running_loop()
            self._queue = asyncio.Queue()
            self._stop = asyncio.Event()
            for event in self._pending:
                self._queue.put_nowait(event)
            self._pending.clear()
        self._dispatcher = self._aio.create_task(self._dispatch())

    async def wait(self) -> None:
        """Return when a stop was requested (by `stop`, a signal or a failure)."""
        assert self._stop is not None, "start() first"
        await self._stop.wait()

    async def close(self) -> None:
        """Stop dispatching, reach the safe state (motor off), then run the shutdown
        callbacks (API, journal) and cancel spawned tasks."""
        safe = False
        try:
            with self._inbox_lock:
                self.closed = True
            for timer in list(self._timers):
                timer.cancel()
            self._timers.clear()
            if self._stop is not None:
                self._request_stop(self.stop_reason or "closed")
            if self._dispatcher is not None:  # no handler may start the motor again
                self._dispatcher.cancel()
                await asyncio.gather(self._dispatcher, return_exceptions=True)
            self._fail_waiting_calls()  # API requests still queued answer "stopping" now
            safe = True
            self.run_safe_state()
            for callback in reversed(self._shutdown):
                try:
                    await callback()
                except Exception:
                    log.exception("shutdown callback %r failed", callback)
            tasks = [t for t in (self._dispatcher, *self._tasks) if t is not None]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self._fail_waiting_calls()
        finally:
            if not safe:
                self.run_safe_state()

    def run_safe_state(self) -> None:
        for callback in self._safe_state:
            try:
                callback()
            except Exception:
                log.exception("safe-state callback %r failed", callback)
        log.info("safe state reached (motor off)")

    def run(
        self,
        main: Callable[[], Awaitable[object]] | None = None,
        *,
        signals: bool = True,
    ) -> int:
        """Run until stopped: `main()` starts the services, then events are handled.

        SIGTERM and SIGINT become an orderly stop. Returns the exit status: 0 after an
        orderly stop, 1 when a handler or a spawned task failed.
        """
        return asyncio.run(self._run(main, signals))

    async def _run(self, main: Callable[[], Awaitable[object]] | None, signals: bool) -> int:
        try:
            await self.start()
            if signals:
                aio = asyncio.get_running_loop()
                for sig in (signal.SIGTERM, signal.SIGINT):
                    aio.add_signal_handler(sig, self._request_stop, signal.Signals(sig).name)
            if main is not None:
                await main()
            await self.wait()
        except StartRefused as exc:
            log.error("start-up failed: %s", exc)
            self.failure = exc
        except Exception as exc:
            log.exception("start-up failed")
            self.failure = exc
        finally:
            await self.close()
        return 1 if self.failure is not None else 0

    # -- internals ----------------------------------------------------------------
    def _request_stop(self, reason: str) -> None:
        if self._stop is not None and not self._stop.is_set():
            self.stop_reason = reason
            log.info("stopping: %s", reason)
            self._stop.set()

    async def _dispatch(self) -> None:
        assert self._queue is not None
        while True:
            item = await self._queue.get()
            if isinstance(item, _Call):
                if item.future.cancelled():
                    continue
                try:
                    result = item.context.run(self._handle, item.event, required=True)
                except Exception as exc:
                    item.future.set_exception(exc)
                    if not isinstance(exc, (Rejected, NoHandler)):
                        self._crashed(item.event, exc)
                        return
                else:
                    item.future.set_result(result)
                continue
            try:
                self._handle(item, required=False)
            except Rejected as exc:
                log.info("%s rejected: %s", type(item).__name__, exc.reason)
            except Exception as exc:
                self._crashed(item, exc)
                return

    def _crashed(self, event: object, exc: Exception) -> None:
        # Crash-only: a handler bug leaves state unknown; stop, reach the safe state and
        # let systemd restart the daemon into the journal's state.
        log.error("handler for %r failed", event, exc_info=exc)
        self.failure = exc
        self._request_stop(f"handler for {type(event).__name__} failed: {exc}")

    def _handle(self, event: object, *, required: bool) -> Any:
        handlers = [h for cls in type(event).__mro__ for h in self._handlers.get(cls, ())]
        if not handlers:
            if required:
                raise NoHandler(f"no handler for {type(event).__name__}")
            log.warning("no handler for %r: dropped", event)
            return None
        self.handled += 1
        result = None
        for handler in handlers:
            result = handler(event)
        return result

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            log.error("task %r failed", task, exc_info=exc)
            self.failure = exc
            self._request_stop(f"task failed: {exc}")

    def _fail_waiting_calls(self) -> None:
        if self._queue is None:
            return
        while not self._queue.empty():
            item = self._queue.get_nowait()
            if isinstance(item, _Call) and not item.future.done():
                item.future.set_exception(LoopStopped("the loop stopped"))

    def __repr__(self) -> str:
        state = "closed" if self.closed else "running" if self._aio else "not started"
        return f"<TableLoop {state} handled={self.handled}>"
