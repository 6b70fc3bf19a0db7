"""`unotable demo`: the daemon, unchanged, on the simulated table with bots seated at it.

`run_demo(...)` builds the built-in default config for the chosen edition and player
count, a `World` (the twin, persisted beside the journal), and runs
`firmware.daemon.Daemon` with a factory that builds the `Controller` on the world's
devices and seats `TablePlayers` at the table. The API listens on 127.0.0.1 with an
ephemeral port, as for any client. The match stops after `rounds` rounds (or when
it is over); then the daemon stops and the summary is returned.

Run again with the same `journal` after a crash and the daemon replays the journal,
the world reloads its file, and the match continues where it was.

Seam for a person at the table: pass `human_seats`; those seats get no bot, the table
waits for their requests from the browser like at a real table, and the controller
gets ``screen_press()`` (the API's ``POST /api/screen/launcher`` presses the simulated
launcher button).

`sim_daemon(...)` is the piece `run_demo` and `unotable demo --serve`
(`firmware.screen_demo`) share: config, world, controller, seated players and daemon,
with hooks for the players' class, the served table (a wrapper around the controller)
and what the players do once seated.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from firmware.config import DEFAULT_PATH, Config, JournalConfig, SimConfig, load_config
from firmware.controller.table import Controller
from firmware.daemon import Daemon, Services
from firmware.errors import LoopStopped
from firmware.journal.store import Journal
from firmware.sim.players import TablePlayers, match_step
from firmware.sim.world import (
    World,
    demo_launcher_config,
    demo_panel_config,
    rng,
    twin_pad_config,
)
from firmware.words.messages import kind_name
from uno_core import (
    EDITIONS,
    Card,
    OptionError,
    format_card,
    get_edition,
    make_options,
)
from uno_core.cards import COLOUR_NAMES, NUMBER
from uno_core.options import option_from_text

KILL_AFTER_ENV = "UNOTABLE_DEMO_KILL_AFTER"  # KIND:N, the players' kill hook (bench/crash.py)
NAMES = ("North", "East", "South", "West", "Ann", "Bo", "Cy", "Di", "Ed", "Flo")
WATCHABLE_PACE_S = 0.25


class DemoError(ValueError):
    """A demo argument is out of range; the message names it."""


@dataclass
class DemoResult:
    summary: dict[str, Any]
    status: int
    output_closed: bool = False  # the reader of `out` went away (`| head`): the demo stopped


class PipeOut:
    """The stream the live log is written to from inside the table's loop. When its
    reader goes away (`unotable demo | head -2`), a write must not fail the handler that
    printed: the stream goes quiet and calls `on_closed` (which stops the demo)."""

    def __init__(self, stream: TextIO, on_closed: Callable[[], object]) -> None:
        self.stream = stream
        self.on_closed = on_closed
        self.closed = False

    def write(self, text: str) -> int:
        self._guarded(lambda: self.stream.write(text))
        return len(text)

    def flush(self) -> None:
        self._guarded(self.stream.flush)

    def _guarded(self, call: Callable[[], object]) -> None:
        if self.closed:
            return
        try:
            call()
        except BrokenPipeError:
            self.closed = True
            self.on_closed()


def check_arguments(variant: str, players: int, rounds: int) -> None:
    if variant not in EDITIONS:
        raise DemoError(f"--variant {variant!r}: one of {', '.join(EDITIONS)}")
    ed = get_edition(variant)
    if not ed.min_players <= players <= min(ed.max_players, 10):
        raise DemoError(f"--players {players}: {variant} is for {ed.min_players}-"
                        f"{ed.max_players} players")
    if rounds < 1:
        raise DemoError(f"--rounds {rounds}: play at least one round")


def parse_options(variant: str, texts: Sequence[str]) -> dict[str, Any]:
    """`--option NAME=VALUE` (repeatable) as house-rule options of `variant`: each read by
    its option's type (`uno_core.options.option_from_text`, as `unotable simulate` does),
    the whole checked against the edition; DemoError names the bad one."""
    try:
        options = dict(option_from_text(text) for text in texts)
        make_options(get_edition(variant), options)
    except OptionError as exc:
        raise DemoError(f"--option {exc.name}: {exc.message}") from None
    return options


def kill_after_from(env: Mapping[str, str]) -> tuple[str, int] | None:
    """`KILL_AFTER_ENV` as (request kind, N); None when unset."""
    value = env.get(KILL_AFTER_ENV)
    if not value:
        return None
    kind, _, nth = value.rpartition(":")
    if not kind or not nth.isdigit() or int(nth) < 1:
        raise DemoError(f"{KILL_AFTER_ENV}={value!r}: write KIND:N, e.g. play:2 "
                        "(N counts from 1)")
    return kind, int(nth)


def sim_config(variant: str, players: int, seed: int, journal: Path, *,
               tower_confirm: str = "wait", pad: bool = False) -> Config:
    """The built-in default config, fitted to `players` seats of `variant`; `pad`: with
    a `[pad]` whose every card and chip carries the twin's tag."""
    base = load_config(DEFAULT_PATH)
    launcher_cfg = demo_launcher_config(base.hardware["launcher"], players)
    panel_cfg = demo_panel_config(base.hardware["seats"], players)
    pads = {"pad": twin_pad_config(variant)} if pad else {}
    return replace(
        base,
        table=replace(base.table, edition=variant, seats=players,
                      names=tuple(NAMES[:players]), options={}, tower_confirm=tower_confirm),
        api=replace(base.api, host="127.0.0.1", port=0),
        journal=JournalConfig(str(journal.resolve())),
        sim=SimConfig(True, seed),
        hardware={**base.hardware, "launcher": launcher_cfg, "seats": panel_cfg, **pads},
    )


@dataclass
class SimRun:
    """The daemon on a simulated table with players seated (built by `sim_daemon`)."""

    config: Config
    world: World
    names: list[str]
    daemon: Daemon = field(init=False)
    controller: Controller | None = None
    players: TablePlayers | None = None

    def run(self, *, signals: bool = True) -> int:
        """Run the daemon until it stops; the world's devices are released after."""
        try:
            return self.daemon.run(signals=signals)
        finally:
            self.world.close()


async def play_then_stop(run: SimRun) -> None:
    """`unotable demo`: the players play their rounds, then the daemon stops."""
    assert run.players is not None
    try:
        await run.players.run()
    except LoopStopped:  # stopped from outside (Ctrl-C, the output closed): nothing to add
        return
    run.daemon.stop("the demo is over")


def sim_daemon(variant: str, players: int, seed: int, journal: Path, *, fast: bool,
               rounds: int, pace: float, out: TextIO | None = None,
               options: Mapping[str, Any] | None = None, names: list[str] | None = None,
               port: int | None = None, seat: type[TablePlayers] = TablePlayers,
               seat_options: Mapping[str, Any] | None = None,
               serve: Callable[[Controller], Any] | None = None,
               play: Callable[[SimRun], Awaitable[None]] = play_then_stop,
               over_http: bool = True, round_pause_s: float | None = None,
               api: Mapping[str, Any] | None = None, mqtt: Any = None,
               pad: bool = False) -> SimRun:
    """The daemon on a `World` (saved beside `journal`) with `seat(...)` players at the
    table. `serve(controller)` is the `Table` the API serves (the controller itself by
    default); `play(run)` is spawned on the loop once the table is built; the players
    declare over HTTP like a screen (`over_http`) or straight on the loop;
    `round_pause_s` replaces the config's (0: a round's result stays until tapped);
    `api` replaces fields of ``[api]`` (host and token, to serve the local network);
    with `pad` the table has a card pad and the players tap their cards on it."""
    config = sim_config(variant, players, seed, journal, pad=pad)
    if api:
        config = replace(config, api=replace(config.api, **api))
    if round_pause_s is not None:
        config = replace(config, table=replace(config.table, round_pause_s=round_pause_s))
    if port is not None:
        config = replace(config, api=replace(config.api, port=port))
    if mqtt is not None:  # the table on MQTT as `[mqtt]` would put it
        config = replace(config, mqtt=mqtt)
    world = World(variant, players, seed, launcher=config.hardware["launcher"],
                  panel=config.hardware["seats"], fast=fast,
                  path=journal.with_name(journal.name + ".world.json"),
                  pad=config.hardware.get("pad"))
    run = SimRun(config, world, list(names) if names is not None else list(config.table.names))

    def make_table(services: Services) -> Any:
        controller = Controller(
            services, world.hardware(),
            rng_for=lambda step: rng(seed, match_step(services.journal.match, step)),
            first_match={"edition": variant, "seats": players, "options": dict(options or {}),
                         "seed": seed, "names": run.names})
        seated = seat(world, controller, services.loop, seed=seed, rounds=rounds, pace=pace,
                      out=out, names=run.names,
                      api_url=(lambda: _url(run.daemon)) if over_http else None,
                      **dict(seat_options or {}))
        seated.check_answered()  # before anything but the journal's replay moved the table
        controller.listeners.append(seated.on_event)
        controller.new_match_checks.append(world.check_new_match)
        run.controller, run.players = controller, seated
        services.loop.spawn(play(run))
        return serve(controller) if serve is not None else controller

    run.daemon = Daemon(config, make_table, env={})
    return run


def run_demo(variant: str = "classic", players: int = 4, seed: int = 1, rounds: int = 1, *,
             fast: bool = False, journal: str | Path | None = None, out: TextIO | None = None,
             pace: float | None = None, human_seats: tuple[int, ...] = (),
             options: Mapping[str, Any] | None = None, mqtt: Any = None,
             pad: bool = False) -> DemoResult:
    """`options`: the match's house rules (`parse_options`); `mqtt`: the `[mqtt]`
    settings the table publishes with (`unotable demo --mqtt URL`); `pad`: a table with a
    card pad, the bots tapping their cards."""
    check_arguments(variant, players, rounds)
    logging.getLogger("firmware").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="unotable-demo-") as tmp:
        path = Path(journal) if journal is not None else Path(tmp) / "journal.db"

        def serve(controller: Controller) -> Controller:
            if human_seats:  # the browser's launcher button (POST /api/screen/launcher)
                controller.screen_press = lambda: _press(run.world)  # type: ignore[attr-defined]
            return controller

        log = None if out is None else PipeOut(
            out, lambda: run.daemon.stop("nobody reads the demo's output any more"))
        run = sim_daemon(variant, players, seed, path, fast=fast, rounds=rounds,
                         pace=0.0 if fast else (WATCHABLE_PACE_S if pace is None else pace),
                         out=log, serve=serve, options=options, mqtt=mqtt,  # type: ignore[arg-type]
                         seat_options={"human_seats": human_seats,
                                       "kill_after": kill_after_from(os.environ)}, pad=pad)
        status = run.run(signals=True)
        summary = _summary(variant, players, seed, rounds, run.controller, run.world,
                           path if journal is not None else None, run.names)
        summary["declared"] = declared(path, run.controller)
        if status != 0:
            summary["error"] = str(run.daemon.loop.failure)
        return DemoResult(summary, status, output_closed=log is not None and log.closed)


def _url(daemon: Daemon) -> str | None:
    server = daemon.server
    return server.url if server is not None and server.port else None  # port 0 until bound


def _press(world: World) -> dict[str, Any]:
    world.seats_sim.press_launcher()
    return {"pressed": True}


def _summary(variant: str, players: int, seed: int, rounds: int, controller: Any,
             world: World, journal: Path | None, names: list[str]) -> dict[str, Any]:
    stats = dict(controller.stats) if controller is not None else {}
    state = controller.state if controller is not None else None
    return {
        "variant": variant, "players": players, "seed": seed, "rounds": stats.get("rounds", 0),
        "rounds_asked": rounds,
        "actions": stats.get("actions", 0),
        "launcher_presses": stats.get("launcher_presses", 0),
        "cards_ejected": stats.get("cards_ejected", 0),
        "tower_moves": stats.get("tower_moves", 0),
        "world_agrees": world.agree,
        "answers_checked": world.notes.get("answers_checked", 0),
        "answers_lost": world.notes.get("answers_lost", 0),
        "mismatches": world.mismatches,
        "names": list(names),
        "scores": list(state.scores) if state is not None else [],
        "target_score": state.options.target_score if state is not None else None,
        "match_over": bool(state is not None and state.over),
        "winners": list(state.winners) if state is not None else [],
        "journal": str(journal) if journal is not None else None,  # None: temporary, deleted
        "house_rules": _house_rules(state),
    }


# the declarations of cards that `declared` counts: plays and the four-tower discard
DECLARATIONS = ("play", "four_tower_discard")


def declared(journal: Path, controller: Any) -> dict[str, int]:
    """The match's declarations of cards (plays, four-tower discards) by the way they
    came in, read from its journal once the daemon stopped: ``pad`` (tapped), ``api``
    (the screen, a phone, a bot over HTTP)."""
    out = {"pad": 0, "api": 0}
    match = controller.match if controller is not None else None
    if match is None or not journal.exists():
        return out
    with contextlib.closing(Journal.open(journal, readonly=True)) as read:
        entries = list(read.entries(match_id=match.id))
    for entry in entries:
        if entry.kind == "action" and entry.payload.get("type") in DECLARATIONS:
            by = entry.payload.get("by")
            out["pad" if isinstance(by, Mapping) and by.get("via") == "pad" else "api"] += 1
    return out


def _house_rules(state: Any) -> dict[str, Any]:
    """The options the match plays with that differ from its edition's defaults."""
    if state is None:
        return {}
    defaults = state.edition.option_defaults
    return {k: v for k, v in state.options.as_dict().items()
            if k in defaults and v != defaults[k]}


def card_legend(variant: str) -> str:
    """What the codes of the live log mean, for the cards of `variant`'s deck: one
    example per kind of card, written by `format_card` (the notation of uno_core.cards)."""
    examples: dict[tuple[str, bool], Card] = {}
    for card in get_edition(variant).deck:
        examples.setdefault((card.kind, bool(card.symbol)), card)
    colours = ", ".join(f"{code} {name}" for code, name in COLOUR_NAMES.items())
    meanings = []
    for (kind, symbol), card in examples.items():
        if kind == NUMBER:
            meaning = f"{COLOUR_NAMES[card.colour]} {card.number}"
            meaning += f" with tower symbol {card.symbol}" if symbol else ""
        else:
            named = kind_name(kind, "en", variant)  # the catalog's English ("Wild Extreme Move")
            meaning = named if card.is_wild else f"{COLOUR_NAMES[card.colour]} {named}"
        meanings.append(f"{format_card(card)} {meaning}")
    lines = [f"Card codes: {colours}, then the number or action; W = wild:"]
    for meaning in meanings:  # wrapped between cards, never inside one
        if len(lines) == 1 or len(lines[-1]) + len(meaning) > 84:
            lines.append("  " + meaning)
        else:
            lines[-1] += " " + meaning
        lines[-1] += ","
    return "\n".join(lines)[:-1]


def summary_text(summary: dict[str, Any]) -> str:
    rounds = summary["rounds"]
    if summary["match_over"]:
        played = f"{rounds} round{'s' if rounds != 1 else ''}: the match is over"
    else:
        played = (f"{rounds} round{'s' if rounds != 1 else ''} of a match to "
                  f"{summary['target_score']} points (--rounds N plays more)")
    scores = ", ".join(f"{name} {score}" for name, score in
                       zip(summary["names"], summary["scores"], strict=False))
    winners = [summary["names"][w] for w in summary["winners"]]
    lines = [
        f"{summary['variant']}, {summary['players']} players, seed {summary['seed']}: "
        f"{played}, {summary['actions']} actions",
        f"launcher presses {summary['launcher_presses']}, cards ejected "
        f"{summary['cards_ejected']}, tower moves {summary['tower_moves']}",
        f"scores: {scores}" + (f"  (won by {' and '.join(winners)})" if winners else ""),
        *([f"house rules: {', '.join(f'{k}={v}' for k, v in summary['house_rules'].items())}"]
          if summary.get("house_rules") else []),
        "world and referee agreed at every step" if summary["world_agrees"] else
        "WORLD AND REFEREE DISAGREED:",
    ]
    lines += [f"  {m}" for m in summary["mismatches"]]
    if summary["journal"] is not None:
        lines.append(f"journal: {summary['journal']} (the same --journal again continues "
                     f"the match; `unotable replay {summary['journal']}` prints it)")
    else:
        lines.append("journal: a temporary file, deleted now; --journal PATH keeps it "
                     "(and the same PATH again continues the match)")
    lines.append("next: take a seat yourself, in the browser: unotable demo --serve")
    return "\n".join(lines)


def summary_json(summary: dict[str, Any]) -> str:
    return json.dumps(summary, sort_keys=True)
