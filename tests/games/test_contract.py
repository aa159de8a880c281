"""The contract every registered game passes, for every player count it allows — a new game
gets all of these by being added to the registry (app/games/registry.py):

- random playouts and bot-vs-bot games finish with a result that ranks every seat;
- ``apply`` never changes its input; ``dump``/``load`` round-trip every state; replaying the
  moves from the seed gives the identical state;
- no seat learns hidden information (tests/leakcheck.py, over views, patches, statuses, legal
  moves, log lines and refusals);
- every refusal names a rule;
- every status, log line (as each seat and a spectator reads it), refusal of a well-formed move
  and text of the table is plain words (app/web/words.py): no identifier, Python value or
  literal reaches a person;
- every region of the table renders for each seat and a spectator, alone and in the page.

Per-game test files keep only what is specific to their game.
"""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jinja2_fragments import render_block

from app.config import Settings
from app.games.base import GameSpec, IllegalMove, Move, seeded_rng
from app.games.registry import GAMES
from app.rooms.table import Table, fill_names
from app.web.render import make_environment, render_region, render_regions, table_context
from app.web.words import raw_fragment
from tests.leakcheck import check_playout

CASES = [pytest.param(g, n, id=f"{gid}-{n}") for gid, g in sorted(GAMES.items())
         for n in range(g.min_players, g.max_players + 1)]
MAX_STEPS = 20_000


def playout(game: GameSpec, players: int, seed: int, bots: bool = False):
    """A whole game: (the moves as (seat, move), every state from the deal to the end)."""
    rng = random.Random(seed)
    state = game.setup(players, game.Options(), seed)
    states, moves = [state], []
    for step in range(MAX_STEPS):
        active = sorted(game.active_seats(state))
        if not active:
            break
        seat = rng.choice(active)
        legal = game.legal_moves(state, seat)
        assert legal, f"seat {seat} is active but has no legal move"
        move = (game.bots[0].choose(game.view(state, seat), legal, seeded_rng(seed, step))
                if bots else rng.choice(legal))
        state = game.apply(state, seat, move)
        states.append(state)
        moves.append((seat, move))
    return moves, states


@pytest.mark.parametrize(("game", "players"), CASES)
@pytest.mark.parametrize("bots", [False, True], ids=["random", "bots"])
def test_games_finish_with_a_result_for_every_seat(game, players, bots):
    _, states = playout(game, players, seed=players * 7 + bots, bots=bots)
    result = game.result(states[-1])
    assert result is not None, "the game ended"
    assert sorted(result.ranking) == list(range(players))
    assert len(result.scores) == players and set(result.winners) <= set(range(players))
    assert not game.active_seats(states[-1])


@pytest.mark.parametrize(("game", "players"), CASES)
def test_apply_is_pure_and_states_round_trip(game, players):
    moves, states = playout(game, players, seed=players)
    for before, (seat, move), after in zip(states, moves, states[1:], strict=False):
        dumped = game.dump(before)
        again = game.apply(game.load(dumped), seat, move)
        assert game.dump(before) == dumped, "apply changed its input"
        assert game.dump(again) == game.dump(after), "a loaded state plays on identically"
        assert game.load(game.dump(after)) == after
    replayed = game.setup(players, game.Options(), players)
    for seat, move in moves:
        replayed = game.apply(replayed, seat, move)
    assert game.dump(replayed) == game.dump(states[-1])


@pytest.mark.parametrize(("game", "players"), CASES)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**128 - 1))
def test_no_seat_learns_what_it_may_not_see(game, players, seed):
    """Whole random games, from the deal to the final result."""
    moves = check_playout(game, players, seed, max_steps=MAX_STEPS, sample=0.15)
    assert 0 < moves < MAX_STEPS, "the playout reached the end of the game"


def probes(game: GameSpec, state, seat: int, rng: random.Random) -> list[Move]:
    """Moves a seat might send that the rules may refuse."""
    sent: list[Move] = [{}, {"type": "no such move"}, {"type": None}]
    for other in sorted(game.active_seats(state)):
        legal = game.legal_moves(state, other)
        for move in rng.sample(legal, k=min(3, len(legal))):
            sent.append(move)
            sent.extend({**move, key: junk} for key in move if key != "type"
                        for junk in (None, [99, 99], "?", -1))
    return sent


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_refusal_names_a_rule(game, players):
    rng = random.Random(players)
    _, states = playout(game, players, seed=players)
    refused = 0
    for state in states[:: max(1, len(states) // 40)]:
        for seat in range(players):
            for move in probes(game, state, seat, rng):
                try:
                    game.apply(state, seat, move)
                except IllegalMove as exc:
                    refused += 1
                    assert exc.rule.strip(), f"{move} refused without a rule: {exc.reason}"
                    assert exc.reason.strip()
    assert refused > 0


ENV = make_environment(Settings(htmx_source="local"))
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]


def assert_plain(text: str, where: str) -> None:
    raw = raw_fragment(text)
    assert raw is None, f"{where} shows {raw}: {text!r}"


def visible_text(html: str) -> str:
    """What a page shows of some HTML: no tags, styles or scripts (attributes are not shown)."""
    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]*>", " ", html))


@pytest.mark.parametrize(("game", "players"), CASES)
@pytest.mark.parametrize("bots", [False, True], ids=["random", "bots"])
def test_every_string_a_person_reads_is_plain_words(game, players, bots):
    """Whole games: each seat's status, each log line as every seat and a spectator reads
    it, the refusals of well-formed moves (another seat's legal move, a move legal one step
    earlier) and the visible text of every region on a sample of versions."""
    rng = random.Random(players)
    moves, states = playout(game, players, seed=players * 3 + bots, bots=bots)
    names = NAMES[:players]
    for step, (before, (mover, move), after) in enumerate(
            zip(states, moves, states[1:], strict=False)):
        for seat in range(players):
            assert_plain(game.seat_status(after, seat).doing, f"the status of seat {seat}")
        for event in game.events(before, mover, move, after):
            for reader in (*range(players), None):
                if event.visible_to(reader):
                    assert_plain(fill_names(event.text, names, reader), f"log line {event.key}")
        probes = [m for other in game.active_seats(after) if other != mover
                  for m in game.legal_moves(after, other)[:2]] + [move]
        for probe in probes:
            for seat in sorted(game.active_seats(after)) or [mover]:
                try:
                    game.apply(after, seat, probe)
                except IllegalMove as exc:
                    assert_plain(fill_names(exc.reason, names, seat), f"a refusal ({exc.rule})")
        if step % 23 == 0 or step == len(moves) - 1:
            table = table_of(game, players, after)
            table.names = names
            for seat in (rng.randrange(players), None):
                for region, html in render_regions(ENV, table, seat).items():
                    assert_plain(visible_text(html), f"region {region}")
    for field, ask in game.asks.items():
        assert_plain(ask, f"the ask for {field}")
    assert_plain(game.about_components, "the note about the components")


def table_of(game: GameSpec, players: int, state) -> Table:
    return Table(room_id=1, game_row_id=1, game=game, seed=players, players=players,
                 options=game.Options(), state=state, version=0,
                 seat_players={s: s + 1 for s in range(players)}, seat_bots={},
                 names=[f"Player {s + 1}" for s in range(players)])


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_region_renders_for_every_seat_and_a_spectator(game, players):
    _, states = playout(game, players, seed=players, bots=True)
    for version, state in [*[*enumerate(states)][::17], (len(states) - 1, states[-1])]:
        table = table_of(game, players, state)
        table.version = version
        for seat in (*range(players), None):
            ctx = table_context(table, seat)
            page = ENV.get_template(game.template).render(**ctx)
            regions = render_regions(ENV, table, seat)
            for region in game.regions(players):
                assert len(re.findall(rf'\bid="{region.id}"', page)) == 1, \
                    f"region {region.id} is not one element of the page"
                assert regions[region.id] == render_region(ENV, game.template, region, ctx)
            assert regions["seats"] == render_block(ENV, "table_regions.html", "seats", **ctx)


def test_the_leak_checker_catches_a_leaking_view():
    """A view that shows the deck's top card must fail the check."""
    game = GAMES["arboretum"]

    def leaky(state, seat):
        return {**game.view(state, seat), "peek": list(state.deck[-1]) if state.deck else None}

    with pytest.raises(AssertionError, match="hidden information"):
        check_playout(dataclasses.replace(game, view=leaky), 2, seed=1, max_steps=5)


def test_the_leak_checker_catches_a_leaking_log_line():
    from app.games.base import Event

    game = GAMES["arboretum"]

    def leaky(before, seat, move, after):
        lines = game.events(before, seat, move, after)
        if move["type"] == "draw" and move["source"] == "deck":
            lines.append(Event("leak", f"{{p{seat}}} drew {after.hands[seat][-1]}"))
        return lines

    with pytest.raises(AssertionError, match="log lines"):
        check_playout(dataclasses.replace(game, events=leaky), 2, seed=1, max_steps=30)


def test_the_leak_checker_catches_a_leaking_status():
    game = GAMES["arboretum"]

    def leaky(state, seat):
        return dataclasses.replace(game.seat_status(state, seat),
                                   doing=f"holding {state.hands[seat][0]}")

    with pytest.raises(AssertionError, match="status"):
        check_playout(dataclasses.replace(game, seat_status=leaky), 2, seed=1, max_steps=5)


def test_the_leak_checker_catches_a_sealed_move_named_in_a_public_log_line():
    """A sealed bid whose amount a public line names: the twin worlds replay the same bid, so
    only comparing it with the bids the others cannot tell apart catches it."""
    from app.games.base import Event
    from tests.games.sealed import GAME as SEALED

    def leaky(before, seat, move, after):
        lines = SEALED.events(before, seat, move, after)
        if move.get("type") == "bid":
            lines.append(Event("leak", f"{{p{seat}}} bid {move['amount']}", {}))
        return lines

    check_playout(SEALED, 3, seed=2, max_steps=40)  # the game itself passes
    with pytest.raises(AssertionError, match="tell apart moves"):
        check_playout(dataclasses.replace(SEALED, events=leaky), 3, seed=2, max_steps=40)
