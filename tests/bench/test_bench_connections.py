"""bench/connections.py in its smallest mode against the real daemon on the twin: the
figures are there with their targets, and the ones that do not depend on the machine's
speed hold. No timing is asserted."""

from __future__ import annotations

from bench import connections


def test_a_small_crowd_then_a_stop_gives_every_figure_with_its_target():
    result = connections.run(idle=30, slow=10, hold=0, nofile=1024)
    got = {f.name: f for f in result.figures}
    answer = got["new client answered, crowd just opened (worst of 5)"]
    assert answer.target == "<= 2" and answer.ok == (answer.value <= 2)
    assert got["new-client requests answered 200"].ok  # all 10 probes answered
    assert got["crowd sockets opened"].value == 40
    assert got["accept errors (EMFILE, ...) logged"].value == 0
    stop = got["SIGTERM to exit, 10 half-sent requests open"]
    assert stop.target == "<= 2" and stop.ok == (stop.value <= 2)
    assert got["exit status after SIGTERM"].ok
    assert got["motor off logged before the API closed"].value is True
    # no --hold past the 10 s header deadline: that figure is not claimed
    assert "slowloris sockets still open after the header deadline" not in got
