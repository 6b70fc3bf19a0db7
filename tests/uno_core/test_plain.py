"""The shortcuts of the plain turn (engine.play_plain, the kernel's own loop) hold only
under the options they were written for (options.FAST_PATH_OPTIONS): with any other option
away from its default every play goes through the engine, and the games stay the same."""

from __future__ import annotations

import pytest

from tests.uno_core.test_kernel import _checked, _kernel
from uno_core import new_match, snapshot


@pytest.mark.parametrize("edition", ["classic", "power"])
def test_an_option_the_shortcuts_do_not_know_sends_every_play_through_the_engine(
        edition, monkeypatch):
    from uno_core import kernel, listing, tables
    from uno_core import options as opts

    options = {"target_score": 100000, "hand_size": 6}
    stock = _checked(edition, 4, options, 10, 4)
    # as if hand_size were a rule added after play_plain and the kernel: fresh caches,
    # so nothing built here outlives the test
    monkeypatch.setattr(opts, "FAST_PATH_OPTIONS", opts.FAST_PATH_OPTIONS - {"hand_size"})
    monkeypatch.setattr(listing, "_PLAIN_OPS", {})
    monkeypatch.setattr(listing, "_DECISIONS", {})
    monkeypatch.setattr(kernel, "_PLANS", {})
    monkeypatch.setattr(tables, "_TABLES", {})
    assert new_match(edition, 4, options).tables.house
    assert set(listing.plain_ops(new_match(edition, 4, options))) == {listing.OP_PLAY}
    assert new_match(edition, 4, options)._decisions is None  # no shortcut listings
    n_checked, checked = _checked(edition, 4, options, 10, 4)
    n_kernel, in_kernel = _kernel(edition, 4, options, 10, 4)
    assert n_checked == n_kernel == stock[0]  # the same games, the long way round
    assert snapshot(checked) == snapshot(in_kernel) == snapshot(stock[1])


def test_every_engine_house_rule_is_outside_the_shortcuts():
    from uno_core.options import ENGINE_HOUSE_RULES, FAST_PATH_OPTIONS, OPTION_SPECS

    assert not FAST_PATH_OPTIONS & set(ENGINE_HOUSE_RULES)
    assert set(OPTION_SPECS) >= FAST_PATH_OPTIONS
