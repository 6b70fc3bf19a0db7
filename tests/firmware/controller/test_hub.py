"""The registries the parts fill in: stops walked in the table's order whoever
registered them first, replay through the kinds the parts registered, and a dropped
part leaving nothing behind."""

from __future__ import annotations

from types import SimpleNamespace

from firmware.controller.context import Blinking, Settles
from firmware.controller.hub import Hub, first_holding
from firmware.controller.stops import Jam, Paused


class Loop:
    def __init__(self) -> None:
        self.handlers: dict[type, list] = {}

    def on(self, event_type, handler) -> None:
        self.handlers.setdefault(event_type, []).append(handler)

    def deliver(self, event) -> None:
        for handler in self.handlers.get(type(event), []):
            handler(event)


def test_the_first_stop_is_the_first_in_the_tables_order_not_the_first_registered():
    hub = Hub(Loop())
    launcher = SimpleNamespace(blocker=None)
    hub.stop("ejections", "launcher", (launcher, "blocker"))
    hub.stop("admin", "paused", lambda: None)
    assert first_holding(hub.stops) is None
    launcher.blocker = Jam("stall")
    assert first_holding(hub.stops) == Jam("stall")
    hub.stop("late", "paused", lambda: Paused("tea"))  # comes before the launcher's stop
    assert first_holding(hub.stops) == Paused("tea")


def test_replay_goes_to_the_part_that_registered_the_kind():
    hub = Hub(Loop())
    seen = []
    hub.journal_kind("seats", "arm", lambda entry: seen.append(entry.payload))
    hub.replay(SimpleNamespace(kind="arm", payload={"seat": 2}))
    hub.replay(SimpleNamespace(kind="card", payload={}))  # nobody's: leaves nothing
    assert seen == [{"seat": 2}]


def test_a_dropped_part_takes_its_subscriptions_kinds_stops_and_loop_handlers_along():
    loop = Loop()
    hub = Hub(loop)
    heard = []
    closed = []
    part = SimpleNamespace(close=lambda: closed.append(True))
    hub.add("timer", part)
    assert hub.peers[SimpleNamespace] is part  # a peer is found by its class
    hub.subscribe("timer", Settles, lambda e: heard.append("timer"))
    hub.subscribe("seats", Settles, lambda e: heard.append("seats"))
    hub.journal_kind("timer", "timeout", lambda e: heard.append("replayed"))
    hub.stop("timer", "paused", lambda: Paused("x"))
    hub.on("timer", int, lambda e: heard.append(f"loop {e}"), droppable=True)
    hub.announce(Settles())
    loop.deliver(1)
    assert heard == ["timer", "seats", "loop 1"] and hub.lookup("timer") is part
    hub.drop("timer")
    heard.clear()
    hub.announce(Settles())
    loop.deliver(2)
    hub.replay(SimpleNamespace(kind="timeout", payload={}))
    assert heard == ["seats"] and first_holding(hub.stops) is None and hub.lookup("timer") is None
    assert SimpleNamespace not in hub.peers
    assert closed == [True]
    hub.journal_kind("timer2", "timeout", lambda e: None)  # the kind is free again


def test_an_announcement_returns_its_subscribers_answers_in_their_order():
    hub = Hub(Loop())
    hub.subscribe("towers", Blinking, lambda e: {2})
    hub.subscribe("turn_timer", Blinking, lambda e: {0})
    assert hub.announce(Blinking()) == [{2}, {0}]
