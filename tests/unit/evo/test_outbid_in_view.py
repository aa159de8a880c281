"""Evo's outbid notice where the bidder looks: a bidder outbid in the lab reads it in the lab
itself (where they just bid, far below the prompt on a phone), and the lab is marked as the
place the prompt's answer is given (``data-prompt-focus``, app/static/table-life.js)."""

from __future__ import annotations

from app.games.evo import rules
from tests.unit.evo import new_game, play
from tests.unit.evo.test_table import shown

OUTBID = "You were outbid: bid again on another column."


def test_an_outbid_bidder_reads_it_in_the_lab_where_they_bid() -> None:
    state = new_game(2)
    first = rules.bidder(state)
    assert first is not None
    column, value = min(rules.bid_options(state, first), key=lambda cv: (cv[1], cv[0]))
    state = play(state, first, {"type": "bid", "column": column, "value": value})
    second = rules.bidder(state)
    assert second is not None and second != first
    higher = [(c, v) for c, v in rules.bid_options(state, second) if c == column and v > value]
    state = play(state, second, {"type": "bid", "column": column, "value": higher[0][1]})
    assert rules.bidder(state) == first  # outbid: bids again at once
    lab = shown(state, first)["lab"]
    assert OUTBID in lab and "data-prompt-focus" in lab
    assert OUTBID in shown(state, first)["prompt"]
    assert OUTBID not in shown(state, second)["lab"]
    assert "data-prompt-focus" not in shown(state, second)["lab"]  # not theirs to answer
