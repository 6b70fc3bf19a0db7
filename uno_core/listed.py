"""What ``legal_actions`` lists for a common decision, as the state holds it.

`Listing` (a decision's legal actions and how ``apply`` writes each) and `Decision` (the
parts a decision's listings are made from) are the types ``State._listed`` and
``State._decisions`` hold; ``uno_core.listing`` builds them (``plain_listing``), so
they sit below both it and ``uno_core.state``.
"""

from __future__ import annotations

from uno_core import actions as A
from uno_core.actions import MAX_SEATS, Action
from uno_core.cards import BY_ID
from uno_core.tables import Tables

# how apply writes a listed action that is not a plain play (``listing.plain_ops``)
OP_PLAY, OP_DRAW, OP_PRESS, OP_PASS, OP_CHALLENGE = range(7, 12)
# a Listing.ops value: the op in the low bits, above them the tail's bit or the card's
OP_BITS, TAIL_BIT, FACE_SHIFT = 15, 16, 5


class Listing:
    """A decision's legal actions (``plain_listing``): the `actions` in listed order,
    `ops` (``id`` of an action -> how ``apply`` writes it, in the value's low bits),
    `faces`, and `picks`: what the uniform policy picks from (``kernel.choose_random``).
    Never mutate `actions`.

    A listing of two playable faces or more is the state's own (``State._lazy``, set
    anew for each such decision by ``plain_listing``): `dec` is its Decision, `actions`
    and `picks` are None, and `width` counts the picks, its faces' picks in card-id
    order (then the tail, for `actions`: ``listing.listed_actions``). The policy walks
    the faces to its pick instead of joining tuples it would not read.

    An action is listed (so completely legal) when `ops` has it and its value shares a
    bit with `faces`. With `faces` -1, `ops` holds exactly the listed actions. Otherwise
    `ops` is shared by every listing of the same `Decision` and holds the plays of every
    face made there, each value carrying its card's bit (the draw or pass after the
    plays: the tail bit), and `faces` has the bits of this listing's."""

    __slots__ = ("actions", "ops", "picks", "faces", "dec", "width")

    def __init__(self, actions: tuple[Action, ...] | None, ops: dict[int, int],
                 faces: int = -1, picks: tuple[Action, ...] | None = None) -> None:
        self.actions = actions
        self.ops = ops
        self.picks = picks
        self.faces = faces
        self.dec: Decision | None = None
        self.width = 0


def lazy_listing() -> Listing:
    """A state's own listing for its decisions of two playable faces or more (`Listing`)."""
    return Listing(None, {}, 0)


PRESS = tuple(A.Press(i) for i in range(MAX_SEATS))
PASS = tuple(A.Pass(i) for i in range(MAX_SEATS))


class Decision:
    """One decision's parts (``uno_core.listing``'s docstring), made as they are first
    needed (``listing.add_face`` fills them):
    `faces` by card id (the face's plays, the policy's picks among them: with two cards
    the plays with the UNO call, else all, as ``kernel._candidates``), `ops` for every
    play made here and the tail (the draw, or the pass on a drawn card), `empty` (no
    face playable) and `single` by card id (one face playable)."""

    __slots__ = ("faces", "ops", "face_ops", "size", "drawn", "tail", "tail_listed", "empty",
                 "single", "tail_bit")

    def __init__(self, tables: Tables, seat: int, size: int, drawn: bool) -> None:
        self.faces: list[tuple[tuple[Action, ...], tuple[Action, ...]] | None] = (
            [None] * len(BY_ID))
        self.single: list[Listing | None] = [None] * len(BY_ID)
        # by card id, that face's entries of `ops` (a listing with ops of its own copies them)
        self.face_ops: list[dict[int, int] | None] = [None] * len(BY_ID)
        self.size = size
        self.drawn = drawn
        self.tail: Action = PASS[seat] if drawn else tables.draw_action[seat]
        # the tail is listed after the plays: always on a drawn card, else where the
        # turn may draw with a playable card (else only when none is)
        self.tail_listed = drawn or tables.draw_when_playable
        self.ops = {id(self.tail): (OP_PASS if drawn else OP_DRAW) | TAIL_BIT}
        self.empty = Listing((self.tail,), self.ops, TAIL_BIT, (self.tail,))
        self.tail_bit = TAIL_BIT if self.tail_listed else 0  # in a listing's faces


Decisions = list[Decision | None]
