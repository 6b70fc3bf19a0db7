"""How the simulated world keeps up with the table.

`follow(world, event)`: the cards an ejection puts out land in the world, and a tower
the owner confirmed by eye (override tower-seen) stands where they saw it. One piece for
`unotable run` on the twin, where nobody sits at the table, and for the simulated
players (`firmware.sim.players`).

`catch_up(world, step, ejecting)`: after a restart, a declaration the world had begun
(`World.pending`) that the referee never took (its step did not move past it) is
undone: the cards go back into the hand, a card set aside goes back aside. With no
ejection under way or cut off, one the world still counts as running ended unheard.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from firmware.sim.world import World


def follow(world: World, event: Mapping[str, Any]) -> None:
    """A controller event (on the loop): an ejection starting or ending moves cards."""
    kind = event.get("kind")
    if kind == "ejecting":
        world.ejection_started(event["seat"], event["job"])
    elif kind == "ejected":
        world.ejection_ended(event["seat"], event["job"])
    elif kind == "tower_seen" and event.get("by") == "admin" \
            and world.towers.get(event["tower"]) != event["slot"]:
        # nobody lifts a simulated tower: the owner confirmed it on the screen, so the twin
        # carries it there (else its tray, read again after a restart, would raise an alarm)
        world.move_tower(event["tower"], event["slot"])


def follower(world: World) -> Callable[[Mapping[str, Any]], None]:
    """`follow` as a controller listener."""
    return lambda event: follow(world, event)


def catch_up(world: World, step: int, *, ejecting: bool) -> None:
    """Undo what the crash cut off of the world's side (module docstring). `step`: the
    referee's step after its replay; `ejecting`: it has an ejection running or cut off."""
    pending = world.pending
    with world.change():  # a declaration is recorded with its cards (`World.change`)
        if pending is not None and step <= pending["step"]:
            if pending.get("swap"):
                world.swap_hands(*pending["swap"])
            if pending.get("pass"):  # a 0's hands passed on (seven_zero): back the other way
                world.pass_hands(-pending["pass"])
            for seat, card in reversed(pending.get("undo", [])):
                world.take_back(seat, [card])
            if pending.get("aside"):
                _set_aside_again(world, pending["aside"])
        world.set_pending(None)
    if not ejecting:
        world.end_unheard_ejection()


def _set_aside_again(world: World, card: str) -> None:
    if world.discard[-1:] == [card]:
        world.discard.pop()
    else:  # it went back under the stack in the launcher
        stack = world.launcher_sim.empty_hopper()
        del stack[len(stack) - 1 - stack[::-1].index(card)]
        world.launcher_sim.load(stack)
    world.aside.append(card)
