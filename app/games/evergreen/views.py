"""Evergreen views and log events (MOV-2, MOV-6, SEL-11).

Everything is public except the order of the deck: a view shows its size only, and no view
holds the seed or the RNG counter (MOV-6). Other seats' act-phase steps are visible.

``view(state, seat)`` — ``seat`` None is a spectator — returns this JSON shape::

    {
      "game": "evergreen", "data_note": "component data reconstructed",
      "you": 0 | null, "players": 2, "solo": false,
      "phase": "select" | "act" | "over",
      "season": "spring", "season_index": 0, "round": 1, "rounds_in_season": 5,
      "seasons": [{"id", "rounds", "sun", "sun_name", "current", "past"}],
      "sun": "N", "sun_name": "north", "shadow": "S", "shadow_step": [1, 0],
      "picker": 0 | null, "picker_seat": 0 | null,                     # whose pick it is
      "first_player": 0, "marker": {"holder": 0 | null, "slot": 1 | null},
      "active_seats": [0, 1],
      "row": [{"slot": 0, "card": 7 | null, "marked": false}],
      "participants": [{"index", "seat" | null, "automa", "name", "cards": [ids],
                        "first", "has_marker"}],                       # automa included
      "fertility_zone": [{"biome", "colour", "fertility",
                          "cards": [{"card", "face_up", "icon", "icons"}]}],
      "discard": [ids], "deck_count": 23,
      "seats": [{"seat", "name", "score",
                 "breakdown": {"starting", "bloom", "light": [...], "forest": [...],
                               "fertility"},
                 "tracks": [{"power", "position", "values", "value"}],
                 "planet": [[null | {"cell": [r, c], "biome": b | null, "crack": bool,
                                     "piece": p | null}] (9 cols)] (9 rows),
                 "cards": [ids], "card": id | null,                    # this round's card
                 "turn": null | {"effects": [{"kind", "cell"}], "actions": ["A", ...],
                                 "action_closed", "power": {"name", "activated", "closed",
                                 "budget_left", "applied", "lake": [r, c] | null,
                                 "lake_grows_used": [[r, c]]},
                                 "steps": [move], "done"},              # MOV-2
                 "done": bool, "status": "choosing a card" | "action done; power: …" | …}],
      "cards": {"7": {"id", "biome", "top", "icons", "power", "colour", "label",
                      "biome_name", "power_name"}},                    # all 42 cards
      "biomes": [{"id", "colour", "names"}], "powers": [...], "actions": [...],
      "result": null | Result.to_json(),
      "guide": null | {"tools": [{"id", "label", "move", "cells"}], "chosen", "notes",
                       "power_now"}                                     # your own act phase
    }

``events(before, seat, move, after)`` describes a move and the automatic steps it triggered
(automa picks, marker, cleanup, season scoring, season change, game end) in the past tense and
the rulebook's words. Texts use ``{p0}``, ``{p1}`` … for player names, which the platform
fills in ("You" for the reader's own seat).
"""

from __future__ import annotations

import random
from dataclasses import replace

from app.games.base import JSON, Event, Move
from app.games.evergreen.data import (
    ACTIONS,
    BIOME_COLOURS,
    BIOME_NAMES,
    BIOMES,
    CARDS,
    CRACKS,
    DATA_NOTE,
    PIECE_NAMES,
    PLANET,
    POWER_NAMES,
    POWERS,
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

#: The side shadows point to, per sun side (LGT-1).
SHADOW_SIDE: dict[str, str] = {"N": "S", "S": "N", "E": "W", "W": "E"}
#: What one application of each power puts on the planet, and the verb for it.
_POWER_PIECE: dict[str, tuple[str, str]] = {
    "sprout": ("planted", "sprout"),
    "grow_small": ("grew", "small"),
    "grow_large": ("grew", "large"),
    "bush": ("planted", "bush"),
    "lake": ("placed", "lake"),
}
#: The tools a player clicks spaces with, in the order the table lists them: (move type,
#: ``by``) → id. A cell that fits several tools prefers the last listed here first (a lake's
#: grows, then the power, then the action: an action effect closes an open power, TIM-2).
TOOLS: tuple[tuple[str, str], ...] = (
    ("plant", "action"), ("grow", "action"), ("plant", "power"), ("grow", "power"),
    ("bush", "power"), ("lake", "power"), ("grow", "lake"),
)


_TOP_WORDS: dict[str, str] = {"fertility": "fertility", "aridity": "aridity", "none": ""}


def _card_json(card: Card) -> JSON:
    return {
        "id": card.id,
        "biome": card.biome,
        "top": card.top,
        "icons": card.icons,
        "power": card.power,
        "colour": BIOME_COLOURS[card.biome],
        "label": card_label(card.id),
        "biome_name": BIOME_NAMES[card.biome]["en"],
        "power_name": POWER_NAMES[card.power],
    }


def name(state: State, who: int) -> str:
    """A participant's name in event texts: ``{p0}`` … or the automa."""
    return "the automa" if who == automa(state) else f"{{p{who}}}"


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def _count(n: int, piece: str, more: bool = False) -> str:
    """"1 sprout", "2 small trees", "2 more sprouts"."""
    singular, plural = PIECE_NAMES[piece]
    return f"{n} {'more ' if more else ''}{singular if n == 1 else plural}"


def card_label(card_id: int) -> str:
    """A card as a player reads it: its biome, its power and its top icon in words, e.g.
    "Flowers (grow a large tree, aridity)" (one card per biome and power, spec §1.1)."""
    card = CARDS[card_id]
    top = {"fertility": f", {card.icons} fertility", "aridity": ", aridity", "none": ""}
    return f"{BIOME_NAMES[card.biome]['en']} ({POWER_NAMES[card.power]}{top[card.top]})"


def _tool_id(move: Move) -> str:
    by = move.get("by", "power")
    return f"{move['type']}-{by}"


def tool_label(tool: str, power: str) -> str:
    """The words on a tool: "Action: plant a sprout", "Power: grow a small tree"."""
    kind, by = tool.split("-")
    if by == "action":
        return "Action: plant a sprout" if kind == "plant" else "Action: grow a tree"
    if by == "lake":
        return "Lake: grow a tree beside it"
    return f"Power: {POWER_NAMES[power]}"


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


def _action_status(state: State, seat: int) -> str:
    turn = state.turns[seat]
    if not turn.effects and not turn.action_closed:
        return ""
    if turn.action_closed:
        return "action done"
    if not _action_fits(state, seat):
        return "action: no space left that fits it"
    plants, grows = _action_left(turn)
    left = []
    if plants > 0:
        left.append(f"{_count(plants, 'sprout', more=True)} to plant")
    if grows > 0:
        left.append(f"{grows} more {'tree' if grows == 1 else 'trees'} to grow")
    return f"action: up to {' or '.join(left)}"


def _power_status(state: State, seat: int) -> list[str]:
    turn, power = state.turns[seat], current_card(state, seat).power
    if not turn.activated:
        return []
    parts = []
    if not turn.power_closed and turn.lake is not None and len(turn.lake_grown) < 2:
        if _lake_fits(state, seat):
            grows = 2 - len(turn.lake_grown)
            parts.append(f"lake: up to {grows} {'tree' if grows == 1 else 'trees'} "
                         "to grow beside it")
        else:
            parts.append("lake: nothing beside it can grow")
    if not turn.power_closed and turn.budget_left > 0:
        if _power_fits(state, seat, power):
            verb, piece = _POWER_PIECE[power]
            to = {"planted": "to plant", "grew": "to grow", "placed": "to place"}[verb]
            parts.append(f"power: up to {_count(turn.budget_left, piece, more=True)} {to}")
        else:
            parts.append(f"power: {NOTHING_FOR[power]}")
    return parts or ["power used"]


def status(state: State, seat: int) -> str:
    """What a seat is doing, in the rulebook's words (MOV-2): "choosing a card", "action:
    up to 2 more sprouts to plant; power used", "done"."""
    if state.phase == OVER:
        return "finished"
    if state.phase == SELECT:
        return "choosing a card" if picker(state) == seat else "waiting"
    turn = state.turns[seat]
    if turn.done:
        return "done"
    parts = [part for part in (_action_status(state, seat), *_power_status(state, seat)) if part]
    return "; ".join(parts) if parts else "playing the action and the power"


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


def _trees(n: int) -> str:
    return f"{n} {'tree' if n == 1 else 'trees'}"


def turn_summary(state: State, seat: int) -> str:
    """A finished act phase in the past tense, e.g. "grew 2 trees with the action; grew 2
    small trees with the power" (ACT-1…4, POW-1…6)."""
    turn = state.turns[seat]
    card = current_card(state, seat)
    plants = sum(1 for kind, _ in turn.effects if kind == "plant")
    grows = len(turn.effects) - plants
    made = [f"planted {_count(plants, 'sprout')}" if plants else "",
            f"grew {_trees(grows)}" if grows else ""]
    action = (f"{' and '.join(part for part in made if part)} with the action"
              if turn.effects else "took no action")
    if not turn.activated:
        power = "did not use the power"
    elif card.power == "bloom":
        power = f"bloomed for {state.boards[seat].bloom - turn.origin.bloom} points"
    else:
        verb, piece = _POWER_PIECE[card.power]
        uses = sum(1 for _, by, _ in turn.steps if by == "power")
        power = f"{verb} {_count(uses, piece)} with the power"
        if card.power == "lake":
            lake_grows = sum(1 for _, by, _ in turn.steps if by == "lake")
            if lake_grows:
                power += f" and grew {_trees(lake_grows)} beside {'it' if uses == 1 else 'them'}"
    return f"{action}; {power}"


def _power_now(state: State, seat: int) -> str:
    """The power with what using it now gives (POW-2: the track moves up first)."""
    power = current_card(state, seat).power
    position = min(state.boards[seat].tracks[POWERS.index(power)] + 1, TRACK_END)
    value = TRACKS[power][position]
    if power == "bloom":
        return f"bloom, {value} points"
    return f"{POWER_NAMES[power]}, {'once' if value == 1 else f'up to {value} times'}"


def _possible(legal: list[Move], tools: list[str], power: str) -> str:
    """What a player may still do, in words: "grow a tree with your action, undo your last
    step or press Done"."""
    words = {
        "plant-action": "plant a sprout with your action",
        "grow-action": "grow a tree with your action",
        "grow-lake": "grow a tree beside your lake",
    }
    options = [words.get(tool, f"{POWER_NAMES[power]} with your power") for tool in tools]
    if {"type": "power"} in legal:
        options.append(f"use your power ({POWER_NAMES[power]})")
    if {"type": "undo"} in legal:
        options.append("undo your last step")
    if {"type": "done"} in legal:
        options.append("press Done")
    if len(options) > 1:
        return f"{', '.join(options[:-1])} or {options[-1]}"
    return options[0] if options else "wait"


def guide(state: State, seat: int) -> JSON | None:
    """What the seat's own table shows in the act phase (ACT, POW, TIM): the tools it may
    click spaces with (each with its spaces), the tool chosen first, and notes in words —
    what the card lets it do, and, where a step has no space left to work on, why, and what
    is possible instead."""
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
    biome = BIOME_NAMES[card.biome]["en"]
    notes: list[str] = []
    stuck = False
    power_open = turn.activated and not turn.power_closed
    if not turn.steps:
        where = ("anywhere on your planet" if card.biome == WILD
                 else f"in {biome} (or a single sprout or grow anywhere)")
        notes.append(f"Your action goes {where}. Your power ({_power_now(state, seat)}) "
                     "works anywhere, before or after the action.")
    if owes_application(turn):
        notes.append(f"Use your power ({POWER_NAMES[card.power]}) at least once: "
                     "choose a lit space.")
    if power_open and turn.lake is not None and len(turn.lake_grown) < 2 \
            and "grow-lake" not in cells:
        notes.append("Nothing beside your lake can grow: a lake grows only a sprout or a small "
                     "tree right next to it.")
        stuck = True
    power_tools = {"plant-power", "grow-power", "bush-power", "lake-power"}
    if power_open and turn.budget_left > 0 and not power_tools & set(cells):
        notes.append(f"Your power has {turn.budget_left} more "
                     f"{'use' if turn.budget_left == 1 else 'uses'}, but "
                     f"{NOTHING_FOR[card.power]}.")
        stuck = True
    if not turn.activated and {"type": "power"} not in legal:
        notes.append(f"Your power ({POWER_NAMES[card.power]}) cannot be used this round: "
                     f"{NOTHING_FOR[card.power]}.")
        stuck = True
    action_open = not turn.action_closed and not owes_application(turn)
    if action_open and not {"plant-action", "grow-action"} & set(cells):
        where = "your planet" if card.biome == WILD else biome
        notes.append(f"Your action cannot go on: no space in {where} fits it." if turn.effects
                     else "No space on your planet can take your action.")
        stuck = True
    if stuck:
        notes.append(f"You can {_possible(legal, tools, card.power)}.")
    elif not tools and {"type": "power"} not in legal and {"type": "done"} in legal:
        notes.append("Your action and your power are done: press Done to end your round"
                     + (", or undo your last step." if {"type": "undo"} in legal else "."))
    elif not tools:
        notes.append(f"You can {_possible(legal, tools, card.power)}.")
    last = turn.steps[-1] if turn.steps else None
    last_tool = f"{last[0]}-{last[1]}" if last is not None else ""
    chosen = ("grow-lake" if "grow-lake" in cells
              else last_tool if last_tool in cells else tools[0] if tools else "")
    return {
        "tools": [{"id": tool, "label": tool_label(tool, card.power),
                   "move": _tool_move(tool), "cells": cells[tool]} for tool in tools],
        "chosen": chosen,
        "notes": notes,
        "power_now": _power_now(state, seat),
    }


def _tool_move(tool: str) -> Move:
    kind, by = tool.split("-")
    return {"type": kind} if kind in ("bush", "lake") else {"type": kind, "by": by}


# --- the view ----------------------------------------------------------------------------------


def _planet_json(planet: dict[tuple[int, int], str]) -> list[list[JSON | None]]:
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
        "status": status(state, seat),
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
    return {"season": SEASONS[scored][0], "sun": sun, "seats": seats}


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
        "cards": {str(card.id): _card_json(card) for card in CARDS.values()},
        "biomes": [
            {"id": biome, "colour": BIOME_COLOURS[biome], "names": dict(BIOME_NAMES[biome])}
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
    return Event(
        "evergreen.pick",
        _cap(f"{name(state, who)} took {card_label(card)}."),
        {"who": who, "card": card},
    )


def _cleanup_events(before: State, after: State, taken: set[int]) -> list[Event]:
    """SEL-5…9: where the marker went and where the leftover card went."""
    left = [card for card in before.row if card is not None and card not in taken]
    if len(left) != 1:
        return []
    card = CARDS[left[0]]
    holder = after.marker_holder
    events = []
    if holder is not None:
        kept = "kept" if holder == before.first else "took"
        events.append(
            Event(
                "evergreen.marker",
                _cap(f"{name(after, holder)} {kept} the first-player marker."),
                {"who": holder},
            )
        )
    biome = BIOME_NAMES[card.biome]["en"]
    if card.top == "fertility":
        fertile = fertility(after.zone)[card.biome]
        events.append(
            Event(
                "evergreen.cleanup.fertility",
                f"The card left over, {card_label(card.id)}, went to the {biome} pile of the "
                f"fertility zone: {biome} now has fertility {fertile}.",
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
        turned = f": {card_label(flipped[0])} was turned face down" if flipped else ""
        events.append(
            Event(
                "evergreen.cleanup.aridity",
                f"The card left over, {card_label(card.id)}, dried the {biome} pile{turned}.",
                {"card": card.id, "biome": card.biome, "flipped": flipped[0] if flipped else None},
            )
        )
    else:
        events.append(
            Event(
                "evergreen.cleanup.discard",
                f"The card left over, {card_label(card.id)}, went to the discard pile.",
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
        Event(
            "evergreen.done",
            f"{{p{seat}}} finished the round: {turn_summary(before, seat)}.",
            {"seat": seat},
        )
    )
    season = SEASONS[before.season][0]
    for s in range(after.players):
        old, new = before.boards[s], after.boards[s]
        if len(new.light) > len(old.light):
            out.append(
                Event(
                    "evergreen.season_scoring",
                    f"{{p{s}}} scored {new.light[-1]} light and {new.forest[-1]} forest points "
                    f"in {season}.",
                    {"seat": s, "season": season, "light": new.light[-1], "forest": new.forest[-1]},
                )
            )
    if after.phase == OVER:
        for s, board in enumerate(after.boards):
            out.append(
                Event(
                    "evergreen.fertility",
                    f"{{p{s}}} scored {board.fertility} fertility points.",
                    {"seat": s, "points": board.fertility},
                )
            )
        res = result(after)
        if res is not None:
            winner = res.winners[0]
            points = res.scores[winner]
            text = (f"Game over: {{p0}} finished with {points} points, the title "
                    f"{solo_title(points).en}." if after.players == 1
                    else f"Game over: {{p{winner}}} won with {points} points.")
            out.append(
                Event("evergreen.end", text, {"winner": winner, "scores": list(res.scores)})
            )
        return out
    if after.season != before.season:
        new_season = SEASONS[after.season][0]
        out.append(
            Event(
                "evergreen.season_change",
                f"{_cap(new_season)} began: the light now comes from the "
                f"{SIDE_NAMES[after.sun]}.",
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
