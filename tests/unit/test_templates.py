"""Every game's table renders for every seat and the spectator along random playouts, as a
whole page and region by region; each region is an element of the page with its own id."""

from __future__ import annotations

import random
import re

import pytest
from jinja2_fragments import render_block

from app.config import Settings
from app.games.base import seeded_rng
from app.games.registry import GAMES
from app.rooms.service import LoadedGame
from app.web.render import make_environment, render_regions, table_context

ENV = make_environment(Settings(htmx_source="local"))


def loaded_game(game, players: int, seed: int) -> LoadedGame:
    return LoadedGame(room_id=1, game_row_id=1, game=game, seed=seed, players=players,
                      state=game.setup(players, game.Options(), seed), version=0,
                      finished=False, seat_players={s: s + 1 for s in range(players)},
                      seat_bots={}, names=[f"P{s}" for s in range(players)])


def check_renders(loaded: LoadedGame) -> None:
    for seat in (*range(loaded.players), None):
        ctx = table_context(loaded, seat)
        page = ENV.get_template(loaded.game.template).render(**ctx)
        regions = render_regions(ENV, loaded, seat)
        for name in loaded.game.regions:
            assert len(re.findall(rf'\bid="{name}"', page)) == 1, f"region {name} not unique"
            assert regions[name] == render_block(ENV, loaded.game.template, name, **ctx)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_tables_render_along_a_playout(game_id: str) -> None:
    game = GAMES[game_id]
    for players in range(game.min_players, game.max_players + 1):
        loaded = loaded_game(game, players, seed=players)
        rng = random.Random(players)
        step = 0
        while game.result(loaded.state) is None and step < 2000:
            if step % 17 == 0:
                check_renders(loaded)
            seat = rng.choice(sorted(game.active_seats(loaded.state)))
            legal = game.legal_moves(loaded.state, seat)
            move = game.bot_move(game.view(loaded.state, seat), legal, seeded_rng(step))
            loaded.state = game.apply(loaded.state, seat, move)
            loaded.version += 1
            loaded.views = {}
            step += 1
        assert game.result(loaded.state) is not None
        check_renders(loaded)  # the final screen
