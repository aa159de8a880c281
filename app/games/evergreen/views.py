"""Evergreen views and log events (MOV-2, MOV-6, SEL-11).

Everything is public except the order of the deck: a view shows its size only, and no view
holds the seed or the RNG counter (MOV-6). Other seats' act-phase steps are visible.

Words for people come in two kinds (each shown in the reader's language): a single word or
phrase is a catalogue message id (``"sun_name": "north"``, ``"biome_name": "Swamp"``), a
sentence is a :class:`~app.games.words.Msg` as JSON (``{"text": "{biome} ({power})", "args":
…}``; :func:`words` turns it back into a Msg for the templates). The seat bar's status is a
static message id (:func:`doing`); the planet's status says more (:func:`status`).

``view(state, seat)`` — ``seat`` None is a spectator — returns this JSON shape::

    {
      "game": "evergreen", "data_note": "component data reconstructed",
      "you": 0 | null, "players": 2, "solo": false,
      "phase": "select" | "act" | "over",
      "season": "spring", "season_index": 0, "round": 1, "rounds_in_season": 5,
      "seasons": [{"id", "title", "name", "rounds", "sun", "sun_name", "current", "past"}],
      "sun": "N", "sun_name": "north", "shadow": "S", "shadow_step": [1, 0],
      "picker": 0 | null, "picker_seat": 0 | null,                     # whose pick it is
      "first_player": 0, "marker": {"holder": 0 | null, "slot": 1 | null},
      "active_seats": [0, 1],
      "row": [{"slot": 0, "card": 7 | null, "marked": false}],
      "participants": [{"index", "seat" | null, "automa", "name", "cards": [ids],
                        "first", "has_marker"}],                       # automa included
      "fertility_zone": [{"biome", "name", "colour", "fertility",
                          "cards": [{"card", "face_up", "icon", "icons"}]}],
      "discard": [ids], "deck_count": 23,
      "seats": [{"seat", "name", "score",
                 "breakdown": {"starting", "bloom", "light": [...], "forest": [...],
                               "fertility"},
                 "tracks": [{"power", "name", "title", "position", "values", "value"}],
                 "planet": [[null | {"cell": [r, c], "biome": b | null, "crack": bool,
                                     "piece": p | null}] (9 cols)] (9 rows),
                 "cards": [ids], "card": id | null,                    # this round's card
                 "turn": null | {"effects": [{"kind", "cell"}], "actions": ["A", ...],
                                 "action_closed", "power": {"name", "activated", "closed",
                                 "budget_left", "applied", "lake": [r, c] | null,
                                 "lake_grows_used": [[r, c]]},
                                 "steps": [move], "done"},              # MOV-2
                 "done": bool, "status": Msg JSON ("action done; power: …")}],
      "season_scoring": null | {"season", "season_name", "sun", "sun_name", "seats"},
      "cards": {"7": {"id", "biome", "top", "icons", "power", "colour", "label" (Msg JSON),
                      "biome_name", "power_name", "power_title"}},     # all 42 cards
      "biomes": [{"id", "colour", "name"}], "powers": [...], "actions": [...],
      "result": null | Result.to_json(),
      "guide": null | {"tools": [{"id", "label", "move", "cells"}], "chosen", "notes",
                       "power_now"}              # your own act phase; labels, notes: Msg JSON
    }

``events(before, seat, move, after)`` describes a move and the automatic steps it triggered
(automa picks, marker, cleanup, season scoring, season change, game end) in the past tense and
the rulebook's words, as messages (``Event.say``): a seat is ``{player}`` holding ``{p0}`` …,
which the platform fills in for each reader ("You" for the reader's own seat in English).
"""

from __future__ import annotations

import functools
import random
from dataclasses import replace
from typing import Any

from app.games.base import JSON, Event, Move
from app.games.evergreen.data import (
    ACTIONS,
    BIOME_COLOURS,
    BIOME_NAMES,
    BIOMES,
    CARDS,
    CRACKS,
    DATA_NOTE,
    PLANET,
    POWER_NAMES,
    POWER_TITLES,
    POWERS,
    SEASON_NAMES,
    SEASON_TITLES,
    SEASONS,
    SIDE_NAMES,
    SIZE,
    TRACK_END,
    TRACKS,
    WILD,
    Card,
)
from app.games.evergreen.rules import (
    ACT,
    GROWS_TO,
    NOTHING_FOR,
    ORTHOGONAL,
    OVER,
    PLAYABLE,
    SELECT,
    State,
    Turn,
    active_seats,
    automa,
    consistent_actions,
    current_card,
    fertility,
    legal_moves,
    owes_application,
    participants,
    picker,
    result,
    solo_title,
    sun_after,
)
from app.games.evergreen.scoring import SHADOW_STEP, forests, lit_trees
from app.games.words import N_, Msg, plural
from app.games.words import seat as placeholder

#: The side shadows point to, per sun side (LGT-1).
SHADOW_SIDE: dict[str, str] = {"N": "S", "S": "N", "E": "W", "W": "E"}
#: The tools a player clicks spaces with, in the order the table lists them: (move type,
#: ``by``) → id. A cell that fits several tools prefers the last listed here first (a lake's
#: grows, then the power, then the action: an action effect closes an open power, TIM-2).
TOOLS: tuple[tuple[str, str], ...] = (
    ("plant", "action"), ("grow", "action"), ("plant", "power"), ("grow", "power"),
    ("bush", "power"), ("lake", "power"), ("grow", "lake"),
)
#: The automa in a view (it is never a seat, so it has no ``{p0}``).
AUTOMA_NAME = N_("the automa")
#: What a seat is doing, for the seat bar and the API (static message ids; the seat's own
#: planet shows the detailed :func:`status`).
DOING: dict[str, str] = {
    "over": N_("finished"),
    "picking": N_("choosing a card"),
    "waiting": N_("waiting"),
    "done": N_("done"),
    "acting": N_("planting and growing"),
}
#: Each season's beginning in words (END-2), the side the light comes from as ``{side}``.
SEASON_BEGAN: dict[str, str] = {
    "spring": N_("Spring began: the light now comes from the {side}."),
    "summer": N_("Summer began: the light now comes from the {side}."),
    "autumn": N_("Autumn began: the light now comes from the {side}."),
    "winter": N_("Winter began: the light now comes from the {side}."),
}


def words(value: Any) -> Msg | str:
    """A view's words as a template shows them (with ``| say``): a message the view holds as
    JSON (:meth:`Msg.to_json`) is a :class:`Msg` again; a message id stays as it is."""
    if isinstance(value, dict) and "text" in value:
        return Msg.from_json(value)
    return "" if value is None else str(value)


def _card_json(card: Card) -> JSON:
    return {
        "id": card.id,
        "biome": card.biome,
        "top": card.top,
        "icons": card.icons,
        "power": card.power,
        "colour": BIOME_COLOURS[card.biome],
        "label": card_label(card.id).to_json(),
        "biome_name": BIOME_NAMES[card.biome],
        "power_name": POWER_NAMES[card.power],
        "power_title": POWER_TITLES[card.power],
    }


@functools.cache
def _card_table() -> JSON:
    """Every card by id, as each view carries it (built once and shared by every view: read
    only)."""
    return {str(card.id): _card_json(card) for card in CARDS.values()}


def name(state: State, who: int) -> str:
    """A participant's name in a view: ``{p0}`` … or the automa."""
    return AUTOMA_NAME if who == automa(state) else placeholder(who)


def card_label(card_id: int) -> Msg:
    """A card as a player reads it: its biome, its power and its top icon in words, e.g.
    "Flowers (grow a large tree, aridity)" (one card per biome and power, spec §1.1)."""
    card = CARDS[card_id]
    args = {"biome": Msg(BIOME_NAMES[card.biome]), "power": Msg(POWER_NAMES[card.power])}
    if card.top == "fertility":
        return Msg("{biome} ({power}, {n} fertility)", {**args, "n": card.icons})
    if card.top == "aridity":
        return Msg("{biome} ({power}, aridity)", args)
    return Msg("{biome} ({power})", args)


def _tool_id(move: Move) -> str:
    by = move.get("by", "power")
    return f"{move['type']}-{by}"


def tool_label(tool: str, power: str) -> Msg:
    """The words on a tool: "Action: plant a sprout", "Power: grow a small tree"."""
    kind, by = tool.split("-")
    if by == "action":
        return Msg("Action: plant a sprout") if kind == "plant" else Msg("Action: grow a tree")
    if by == "lake":
        return Msg("Lake: grow a tree beside it")
    return Msg("Power: {power}", {"power": Msg(POWER_NAMES[power])})


def _then(parts: list[Msg]) -> Msg:
    """Parts of a status or a summary one after the other: "action done; power used"."""
    joined = parts[-1]
    for part in reversed(parts[:-1]):
        joined = Msg("{first}; {then}", {"first": part, "then": joined})
    return joined


def _either(options: list[Msg]) -> Msg:
    """Choices in words: "a, b or c"."""
    if len(options) == 1:
        return options[0]
    joined = Msg("{one} or {other}", {"one": options[-2], "other": options[-1]})
    for option in reversed(options[:-2]):
        joined = Msg("{one}, {rest}", {"one": option, "rest": joined})
    return joined


# --- the turn record ---------------------------------------------------------------------------


def _action_left(turn: Turn) -> tuple[int, int]:
    """ACT-1…4: the most sprouts and the most grows the consistent actions still allow (D
    allows nothing more once it has its one effect)."""
    plants = sum(1 for kind, _ in turn.effects if kind == "plant")
    grows = len(turn.effects) - plants
    left = {"A": (3 - plants, 0), "B": (0, 2 - grows), "C": (1 - plants, 1 - grows),
            "D": (1 - len(turn.effects), 1 - len(turn.effects))}
    return (max(left[a][0] for a in turn.actions), max(left[a][1] for a in turn.actions))


def _action_fits(state: State, seat: int) -> bool:
    """Whether one more action effect of the seat fits somewhere (ACT-1…6, EFF-1…3)."""
    board, turn = state.boards[seat], state.turns[seat]
    biome = current_card(state, seat).biome
    for cell in PLAYABLE:
        piece = board.planet.get(cell)
        effect = "plant" if piece is None else "grow" if piece in GROWS_TO else None
        if effect and consistent_actions(turn.actions, (*turn.effects, (effect, cell)), biome):
            return True
    return False


def _lake_fits(state: State, seat: int) -> bool:
    """POW-5: a sprout or small tree beside the open lake that it has not grown yet."""
    turn, planet = state.turns[seat], state.boards[seat].planet
    if turn.lake is None:
        return False
    r, c = turn.lake
    return any(planet.get((r + dr, c + dc)) in GROWS_TO and (r + dr, c + dc) in PLANET
               and (r + dr, c + dc) not in turn.lake_grown for dr, dc in ORTHOGONAL)


def _power_fits(state: State, seat: int, power: str) -> bool:
    """POW-3/4: one more application of the power has a target."""
    planet = state.boards[seat].planet
    if power in ("sprout", "bush", "lake"):
        return any(cell not in planet for cell in PLAYABLE)
    return ("sprout" if power == "grow_small" else "small") in planet.values()


def _action_status(state: State, seat: int) -> Msg | None:
    turn = state.turns[seat]
    if not turn.effects and not turn.action_closed:
        return None
    if turn.action_closed:
        return Msg("action done")
    if not _action_fits(state, seat):
        return Msg("action: no space left that fits it")
    plants, grows = _action_left(turn)
    sprouts = plural("{n} more sprout to plant", "{n} more sprouts to plant", "n", n=plants)
    trees = plural("{n} more tree to grow", "{n} more trees to grow", "n", n=grows)
    if plants > 0 and grows > 0:
        return Msg("action: up to {sprouts} or {trees}", {"sprouts": sprouts, "trees": trees})
    return Msg("action: up to {left}", {"left": sprouts if plants > 0 else trees})


def _power_left(power: str, n: int) -> Msg:
    """POW-3: what the power may still do, "power: up to 2 more sprouts to plant"."""
    if power == "sprout":
        return plural("power: up to {n} more sprout to plant",
                      "power: up to {n} more sprouts to plant", "n", n=n)
    if power == "grow_small":
        return plural("power: up to {n} more small tree to grow",
                      "power: up to {n} more small trees to grow", "n", n=n)
    if power == "grow_large":
        return plural("power: up to {n} more large tree to grow",
                      "power: up to {n} more large trees to grow", "n", n=n)
    if power == "bush":
        return plural("power: up to {n} more bush to plant",
                      "power: up to {n} more bushes to plant", "n", n=n)
    return plural("power: up to {n} more lake to place",
                  "power: up to {n} more lakes to place", "n", n=n)


def _power_status(state: State, seat: int) -> list[Msg]:
    turn, power = state.turns[seat], current_card(state, seat).power
    if not turn.activated:
        return []
    parts = []
    if not turn.power_closed and turn.lake is not None and len(turn.lake_grown) < 2:
        if _lake_fits(state, seat):
            parts.append(plural("lake: up to {n} tree to grow beside it",
                                "lake: up to {n} trees to grow beside it", "n",
                                n=2 - len(turn.lake_grown)))
        else:
            parts.append(Msg("lake: nothing beside it can grow"))
    if not turn.power_closed and turn.budget_left > 0:
        if _power_fits(state, seat, power):
            parts.append(_power_left(power, turn.budget_left))
        else:
            parts.append(Msg("power: {why}", {"why": Msg(NOTHING_FOR[power])}))
    return parts or [Msg("power used")]


def status(state: State, seat: int) -> Msg:
    """What a seat is doing, in the rulebook's words (MOV-2): "choosing a card", "action:
    up to 2 more sprouts to plant; power used", "done"."""
    if state.phase != ACT:
        return Msg(doing(state, seat))
    if state.turns[seat].done:
        return Msg(DOING["done"])
    parts = [part for part in (_action_status(state, seat), *_power_status(state, seat))
             if part is not None]
    return _then(parts) if parts else Msg("playing the action and the power")


def doing(state: State, seat: int) -> str:
    """The seat's status in a few words, as a static message id (the seat bar, the API)."""
    if state.phase == OVER:
        return DOING["over"]
    if state.phase == SELECT:
        return DOING["picking"] if picker(state) == seat else DOING["waiting"]
    return DOING["done"] if state.turns[seat].done else DOING["acting"]


def _turn_json(turn: Turn, card: Card) -> JSON:
    return {
        "effects": [{"kind": kind, "cell": [r, c]} for kind, (r, c) in turn.effects],
        "actions": list(turn.actions),
        "action_closed": turn.action_closed,
        "power": {
            "name": card.power,
            "activated": turn.activated,
            "closed": turn.power_closed,
            "budget_left": turn.budget_left,
            "applied": turn.applied,
            "lake": None if turn.lake is None else list(turn.lake),
            "lake_grows_used": [list(cell) for cell in turn.lake_grown],
        },
        "steps": [_step_json(step) for step in turn.steps],
        "done": turn.done,
    }


def _step_json(step: tuple[str, str, tuple[int, int] | None]) -> Move:
    kind, by, cell = step
    move: Move = {"type": kind}
    if cell is not None:
        move["cell"] = list(cell)
    if kind in ("plant", "grow"):
        move["by"] = by
    return move


def _trees(n: int) -> Msg:
    return plural("{n} tree", "{n} trees", "n", n=n)


def _power_used(power: str, uses: int, lake_grows: int) -> Msg:
    """What a power did this round, in the past tense (POW-4, POW-5)."""
    if power == "sprout":
        return plural("planted {n} sprout with the power", "planted {n} sprouts with the power",
                      "n", n=uses)
    if power == "grow_small":
        return plural("grew {n} small tree with the power",
                      "grew {n} small trees with the power", "n", n=uses)
    if power == "grow_large":
        return plural("grew {n} large tree with the power",
                      "grew {n} large trees with the power", "n", n=uses)
    if power == "bush":
        return plural("planted {n} bush with the power", "planted {n} bushes with the power",
                      "n", n=uses)
    if lake_grows:
        return plural("placed {n} lake with the power and grew {trees} beside it",
                      "placed {n} lakes with the power and grew {trees} beside them", "n",
                      n=uses, trees=_trees(lake_grows))
    return plural("placed {n} lake with the power", "placed {n} lakes with the power", "n",
                  n=uses)


def turn_summary(state: State, seat: int) -> Msg:
    """A finished act phase in the past tense, e.g. "grew 2 trees with the action; grew 2
    small trees with the power" (ACT-1…4, POW-1…6)."""
    turn = state.turns[seat]
    card = current_card(state, seat)
    plants = sum(1 for kind, _ in turn.effects if kind == "plant")
    grows = len(turn.effects) - plants
    sprouts = plural("{n} sprout", "{n} sprouts", "n", n=plants)
    if plants and grows:
        action = Msg("planted {sprouts} and grew {trees} with the action",
                     {"sprouts": sprouts, "trees": _trees(grows)})
    elif plants:
        action = Msg("planted {sprouts} with the action", {"sprouts": sprouts})
    elif grows:
        action = Msg("grew {trees} with the action", {"trees": _trees(grows)})
    else:
        action = Msg("took no action")
    if not turn.activated:
        power = Msg("did not use the power")
    elif card.power == "bloom":
        power = plural("bloomed for {n} point", "bloomed for {n} points", "n",
                       n=state.boards[seat].bloom - turn.origin.bloom)
    else:
        uses = sum(1 for _, by, _ in turn.steps if by == "power")
        lake_grows = sum(1 for _, by, _ in turn.steps if by == "lake")
        power = _power_used(card.power, uses, lake_grows)
    return _then([action, power])


def _power_now(state: State, seat: int) -> Msg:
    """The power with what using it now gives (POW-2: the track moves up first)."""
    power = current_card(state, seat).power
    position = min(state.boards[seat].tracks[POWERS.index(power)] + 1, TRACK_END)
    value = TRACKS[power][position]
    name = Msg(POWER_NAMES[power])
    if power == "bloom":
        return Msg("{power}, {n} points", {"power": name, "n": value})
    if value == 1:
        return Msg("{power}, once", {"power": name})
    return Msg("{power}, up to {n} times", {"power": name, "n": value})


def _possible(legal: list[Move], tools: list[str], power: str) -> Msg:
    """What a player may still do, in words: "grow a tree with your action, undo your last
    step or press Done"."""
    phrases = {
        "plant-action": Msg("plant a sprout with your action"),
        "grow-action": Msg("grow a tree with your action"),
        "grow-lake": Msg("grow a tree beside your lake"),
    }
    name = Msg(POWER_NAMES[power])
    options = [phrases.get(tool) or Msg("{power} with your power", {"power": name})
               for tool in tools]
    if {"type": "power"} in legal:
        options.append(Msg("use your power ({power})", {"power": name}))
    if {"type": "undo"} in legal:
        options.append(Msg("undo your last step"))
    if {"type": "done"} in legal:
        options.append(Msg("press Done"))
    return _either(options) if options else Msg("wait")


def guide(state: State, seat: int) -> JSON | None:
    """What the seat's own table shows in the act phase (ACT, POW, TIM): the tools it may
    click spaces with (each with its spaces), the tool chosen first, and notes in words —
    what the card lets it do, and, where a step has no space left to work on, why, and what
    is possible instead. Words are messages as JSON (:func:`words` reads them)."""
    if state.phase != ACT or state.turns[seat].done:
        return None
    turn = state.turns[seat]
    card = current_card(state, seat)
    legal = legal_moves(state, seat)
    cells: dict[str, list[list[int]]] = {}
    for move in legal:
        if "cell" in move:
            cells.setdefault(_tool_id(move), []).append(move["cell"])
    order = [f"{kind}-{by}" for kind, by in TOOLS]
    tools = [tool for tool in order if tool in cells]
    biome = Msg(BIOME_NAMES[card.biome])
    power = Msg(POWER_NAMES[card.power])
    why = Msg(NOTHING_FOR[card.power]) if NOTHING_FOR[card.power] else None
    notes: list[Msg] = []
    stuck = False
    power_open = turn.activated and not turn.power_closed
    if not turn.steps:
        now = _power_now(state, seat)
        notes.append(
            Msg("Your action goes anywhere on your planet. Your power ({power}) works "
                "anywhere, before or after the action.", {"power": now})
            if card.biome == WILD else
            Msg("Your action goes in {biome} (or a single sprout or grow anywhere). Your power "
                "({power}) works anywhere, before or after the action.",
                {"biome": biome, "power": now}))
    if owes_application(turn):
        notes.append(Msg("Use your power ({power}) at least once: choose a lit space.",
                         {"power": power}))
    if power_open and turn.lake is not None and len(turn.lake_grown) < 2 \
            and "grow-lake" not in cells:
        notes.append(Msg("Nothing beside your lake can grow: a lake grows only a sprout or a "
                         "small tree right next to it."))
        stuck = True
    power_tools = {"plant-power", "grow-power", "bush-power", "lake-power"}
    if power_open and turn.budget_left > 0 and not power_tools & set(cells) and why:
        notes.append(plural("Your power has {n} more use, but {why}.",
                            "Your power has {n} more uses, but {why}.", "n",
                            n=turn.budget_left, why=why))
        stuck = True
    if not turn.activated and {"type": "power"} not in legal and why:
        notes.append(Msg("Your power ({power}) cannot be used this round: {why}.",
                         {"power": power, "why": why}))
        stuck = True
    action_open = not turn.action_closed and not owes_application(turn)
    if action_open and not {"plant-action", "grow-action"} & set(cells):
        if not turn.effects:
            notes.append(Msg("No space on your planet can take your action."))
        elif card.biome == WILD:
            notes.append(Msg("Your action cannot go on: no space on your planet fits it."))
        else:
            notes.append(Msg("Your action cannot go on: no space in {biome} fits it.",
                             {"biome": biome}))
        stuck = True
    if stuck:
        notes.append(Msg("You can {options}.", {"options": _possible(legal, tools, card.power)}))
    elif not tools and {"type": "power"} not in legal and {"type": "done"} in legal:
        notes.append(Msg("Your action and your power are done: press Done to end your round, "
                         "or undo your last step.") if {"type": "undo"} in legal
                     else Msg("Your action and your power are done: press Done to end your "
                              "round."))
    elif not tools:
        notes.append(Msg("You can {options}.", {"options": _possible(legal, tools, card.power)}))
    last = turn.steps[-1] if turn.steps else None
    last_tool = f"{last[0]}-{last[1]}" if last is not None else ""
    chosen = ("grow-lake" if "grow-lake" in cells
              else last_tool if last_tool in cells else tools[0] if tools else "")
    return {
        "tools": [{"id": tool, "label": tool_label(tool, card.power).to_json(),
                   "move": _tool_move(tool), "cells": cells[tool]} for tool in tools],
        "chosen": chosen,
        "notes": [note.to_json() for note in notes],
        "power_now": _power_now(state, seat).to_json(),
    }


def _tool_move(tool: str) -> Move:
    kind, by = tool.split("-")
    return {"type": kind} if kind in ("bush", "lake") else {"type": kind, "by": by}


# --- the view ----------------------------------------------------------------------------------


#: Planet grids already built, by the identity of the (never mutated) planet they show, with
#: the planet itself kept so that its id cannot be reused: each seat's view shows every planet,
#: and a move changes one planet at most. A grid is ~16 KB: the last few dozen are kept, enough
#: for the views of one version (4096 kept cost 23 KiB per idle socket at 100 rooms).
_PLANETS: dict[int, tuple[dict[tuple[int, int], str], list[list[JSON | None]]]] = {}
_PLANETS_KEPT = 64


def _planet_json(planet: dict[tuple[int, int], str]) -> list[list[JSON | None]]:
    """A planet as a grid of spaces (built once per planet state and shared: read only)."""
    known = _PLANETS.get(id(planet))
    if known is not None and known[0] is planet:
        return known[1]
    if len(_PLANETS) >= _PLANETS_KEPT:
        _PLANETS.clear()
    grid = _PLANETS[id(planet)] = (planet, _planet_grid(planet))
    return grid[1]


def _planet_grid(planet: dict[tuple[int, int], str]) -> list[list[JSON | None]]:
    grid: list[list[JSON | None]] = []
    for r in range(SIZE):
        line: list[JSON | None] = []
        for c in range(SIZE):
            cell = (r, c)
            if cell in PLANET or cell in CRACKS:
                line.append(
                    {
                        "cell": [r, c],
                        "biome": PLANET.get(cell),
                        "crack": cell in CRACKS,
                        "piece": planet.get(cell),
                    }
                )
            else:
                line.append(None)
        grid.append(line)
    return grid


def _seat_json(state: State, seat: int) -> JSON:
    board = state.boards[seat]
    turn = state.turns[seat] if state.phase == ACT else None
    card = state.fronts[seat][-1] if state.phase == ACT else None
    return {
        "seat": seat,
        "name": name(state, seat),
        "score": board.score,
        "breakdown": {
            "starting": board.start,
            "bloom": board.bloom,
            "light": list(board.light),
            "forest": list(board.forest),
            "fertility": board.fertility,
        },
        "tracks": [
            {
                "power": power,
                "name": POWER_NAMES[power],
                "title": POWER_TITLES[power],
                "position": board.tracks[i],
                "values": list(TRACKS[power]),
                "value": TRACKS[power][board.tracks[i]],
            }
            for i, power in enumerate(POWERS)
        ],
        "planet": _planet_json(board.planet),
        "cards": list(state.fronts[seat]),
        "card": card,
        "turn": None if turn is None else _turn_json(turn, CARDS[state.fronts[seat][-1]]),
        "done": bool(turn and turn.done),
        "status": status(state, seat).to_json(),
    }


def season_scoring(state: State) -> JSON | None:
    """The last season end, while the boards are still as they were scored (END-2): from the
    season change until the first act-phase step, and at the game end. Per seat: which trees
    were lit or shaded (LGT-1…4) and which cells formed the counted forest (FOR-1…2)."""
    over = state.phase == OVER
    if not over and (state.season == 0 or state.round != 1 or state.phase != SELECT):
        return None
    scored = state.season if over else state.season - 1
    sun = state.sun if over else sun_after(state.sun, -1)
    seats = []
    for board in state.boards:
        lit = lit_trees(board.planet, sun)
        groups = forests(board.planet)
        seats.append({
            "lit": [list(cell) for cell, on in sorted(lit.items()) if on],
            "shaded": [list(cell) for cell, on in sorted(lit.items()) if not on],
            "forest": [list(cell) for cell in sorted(groups[0])] if groups else [],
            "light": board.light[scored],
            "forest_points": board.forest[scored],
        })
    season = SEASONS[scored][0]
    return {"season": season, "season_name": SEASON_NAMES[season], "sun": sun,
            "sun_name": SIDE_NAMES[sun], "seats": seats}


def view(state: State, seat: int | None) -> JSON:
    """What ``seat`` (None: a spectator) sees: everything but the deck order (MOV-6)."""
    who = picker(state)
    zone_fertility = fertility(state.zone)
    res = result(state)
    solo_automa = automa(state)
    return {
        "game": "evergreen",
        "data_note": DATA_NOTE,
        "you": seat,
        "players": state.players,
        "solo": state.players == 1,
        "phase": state.phase,
        "season": SEASONS[state.season][0],
        "season_index": state.season,
        "round": state.round,
        "rounds_in_season": SEASONS[state.season][1],
        "seasons": [
            {
                "id": season,
                "title": SEASON_TITLES[season],
                "name": SEASON_NAMES[season],
                "rounds": rounds,
                "sun": sun_after(state.sun, i - state.season),
                "sun_name": SIDE_NAMES[sun_after(state.sun, i - state.season)],
                "current": i == state.season and state.phase != OVER,
                "past": i < state.season or state.phase == OVER,
            }
            for i, (season, rounds) in enumerate(SEASONS)
        ],
        "sun": state.sun,
        "sun_name": SIDE_NAMES[state.sun],
        "shadow": SHADOW_SIDE[state.sun],
        "shadow_step": list(SHADOW_STEP[state.sun]),
        "picker": who,
        "picker_seat": None if who is None or who == solo_automa else who,
        "first_player": state.first,
        "marker": {"holder": state.marker_holder, "slot": state.marker_slot},
        "active_seats": sorted(active_seats(state)),
        "row": [
            {"slot": i, "card": card, "marked": i == state.marker_slot}
            for i, card in enumerate(state.row)
        ],
        "participants": [
            {
                "index": i,
                "seat": None if i == solo_automa else i,
                "automa": i == solo_automa,
                "name": name(state, i),
                "cards": list(state.fronts[i]),
                "first": i == state.first,
                "has_marker": i == state.marker_holder,
            }
            for i in range(participants(state))
        ],
        "fertility_zone": [
            {
                "biome": biome,
                "name": BIOME_NAMES[biome],
                "colour": BIOME_COLOURS[biome],
                "fertility": zone_fertility[biome],
                "cards": [
                    {
                        "card": card,
                        "face_up": up,
                        "icon": CARDS[card].top,
                        "icons": CARDS[card].icons,
                    }
                    for card, up in pile
                ],
            }
            for biome, pile in zip(BIOMES, state.zone, strict=True)
        ],
        "discard": list(state.discard),
        "deck_count": len(state.deck),
        "seats": [_seat_json(state, s) for s in range(state.players)],
        "season_scoring": season_scoring(state),
        "cards": _card_table(),
        "biomes": [
            {"id": biome, "colour": BIOME_COLOURS[biome], "name": BIOME_NAMES[biome]}
            for biome in (*BIOMES, "wild")
        ],
        "powers": list(POWERS),
        "actions": list(ACTIONS),
        "result": None if res is None else res.to_json(),
        "guide": guide(state, seat) if seat is not None and 0 <= seat < state.players else None,
    }


# --- events ------------------------------------------------------------------------------------


def _new_cards(before: State, after: State, who: int) -> tuple[int, ...]:
    """Cards ``who`` took between two states (at most one round apart)."""
    old, new = before.fronts[who], after.fronts[who]
    if after.season == before.season and new[: len(old)] == old:
        return new[len(old) :]
    return new


def _pick_event(state: State, who: int, card: int) -> Event:
    msg = (Msg("The automa took {card}.", {"card": card_label(card)}) if who == automa(state)
           else Msg("{player} took {card}.",
                    {"player": placeholder(who), "card": card_label(card)}))
    return Event.say("evergreen.pick", msg, {"who": who, "card": card})


def _marker_msg(state: State, holder: int, kept: bool) -> Msg:
    if holder == automa(state):
        return (Msg("The automa kept the first-player marker.") if kept
                else Msg("The automa took the first-player marker."))
    args = {"player": placeholder(holder)}
    return (Msg("{player} kept the first-player marker.", args) if kept
            else Msg("{player} took the first-player marker.", args))


def _cleanup_events(before: State, after: State, taken: set[int]) -> list[Event]:
    """SEL-5…9: where the marker went and where the leftover card went."""
    left = [card for card in before.row if card is not None and card not in taken]
    if len(left) != 1:
        return []
    card = CARDS[left[0]]
    holder = after.marker_holder
    events = []
    if holder is not None:
        events.append(Event.say("evergreen.marker",
                                _marker_msg(after, holder, holder == before.first),
                                {"who": holder}))
    args = {"card": card_label(card.id), "biome": Msg(BIOME_NAMES[card.biome])}
    if card.top == "fertility":
        fertile = fertility(after.zone)[card.biome]
        events.append(
            Event.say(
                "evergreen.cleanup.fertility",
                Msg("The card left over, {card}, went to the {biome} pile of the fertility "
                    "zone: {biome} now has fertility {n}.", {**args, "n": fertile}),
                {"card": card.id, "biome": card.biome},
            )
        )
    elif card.top == "aridity":
        index = BIOMES.index(card.biome)
        flipped = [
            c
            for (c, up_before), (_, up_after) in zip(
                before.zone[index], after.zone[index], strict=False
            )
            if up_before and not up_after
        ]
        msg = (Msg("The card left over, {card}, dried the {biome} pile: {flipped} was turned "
                   "face down.", {**args, "flipped": card_label(flipped[0])}) if flipped
               else Msg("The card left over, {card}, dried the {biome} pile.", args))
        events.append(
            Event.say(
                "evergreen.cleanup.aridity",
                msg,
                {"card": card.id, "biome": card.biome, "flipped": flipped[0] if flipped else None},
            )
        )
    else:
        events.append(
            Event.say(
                "evergreen.cleanup.discard",
                Msg("The card left over, {card}, went to the discard pile.",
                    {"card": card_label(card.id)}),
                {"card": card.id},
            )
        )
    return events


def events(before: State, seat: int, move: Move, after: State) -> list[Event]:
    """The log lines of an applied move, in the past tense (all public: everything but the
    deck is public, so every reader reads the same line of each happening)."""
    kind = move.get("type")
    out: list[Event] = []
    if kind == "pick":
        card = move["card"]
        out.append(_pick_event(before, seat, card))
        taken = {card}
        solo_automa = automa(before)
        if solo_automa is not None:
            for extra in _new_cards(before, after, solo_automa):
                out.append(_pick_event(before, solo_automa, extra))
                taken.add(extra)
        if after.phase == ACT:
            out.extend(_cleanup_events(before, after, taken))
        return out
    if kind != "done":
        return out
    out.append(
        Event.say(
            "evergreen.done",
            Msg("{player} finished the round: {summary}.",
                {"player": placeholder(seat), "summary": turn_summary(before, seat)}),
            {"seat": seat},
        )
    )
    season = SEASONS[before.season][0]
    for s in range(after.players):
        old, new = before.boards[s], after.boards[s]
        if len(new.light) > len(old.light):
            out.append(
                Event.say(
                    "evergreen.season_scoring",
                    Msg("{player} scored {light} light and {forest} forest points in {season}.",
                        {"player": placeholder(s), "light": new.light[-1],
                         "forest": new.forest[-1], "season": Msg(SEASON_NAMES[season])}),
                    {"seat": s, "season": season, "light": new.light[-1], "forest": new.forest[-1]},
                )
            )
    if after.phase == OVER:
        for s, board in enumerate(after.boards):
            out.append(
                Event.say(
                    "evergreen.fertility",
                    plural("{player} scored {n} fertility point.",
                           "{player} scored {n} fertility points.", "n",
                           player=placeholder(s), n=board.fertility),
                    {"seat": s, "points": board.fertility},
                )
            )
        res = result(after)
        if res is not None:
            winner = res.winners[0]
            points = res.scores[winner]
            text = (Msg("Game over: {player} finished with {n} points, the title {title}.",
                        {"player": placeholder(0), "n": points,
                         "title": Msg(solo_title(points).en)}) if after.players == 1
                    else Msg("Game over: {player} won with {n} points.",
                             {"player": placeholder(winner), "n": points}))
            out.append(
                Event.say("evergreen.end", text, {"winner": winner, "scores": list(res.scores)})
            )
        return out
    if after.season != before.season:
        new_season = SEASONS[after.season][0]
        out.append(
            Event.say(
                "evergreen.season_change",
                Msg(SEASON_BEGAN[new_season], {"side": Msg(SIDE_NAMES[after.sun])}),
                {"season": new_season, "sun": after.sun},
            )
        )
    solo_automa = automa(after)
    if solo_automa is not None and after.phase == SELECT:
        for extra in _new_cards(before, after, solo_automa):
            out.append(_pick_event(after, solo_automa, extra))
    return out


def conceal(state: State, seat: int | None, rng: random.Random) -> State:
    """A state no seat can tell from ``state``: the deck reshuffled and a new seed (SEL-11,
    MOV-6: everything but the deck order is public). The leak checker asserts that no view,
    event or refusal changes under it."""
    deck = list(state.deck)
    rng.shuffle(deck)
    return replace(state, deck=tuple(deck), seed=rng.randrange(2**31))
