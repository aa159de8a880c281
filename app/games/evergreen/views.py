"""Evergreen views and log events (MOV-2, MOV-6, SEL-11).

Everything is public except the order of the deck: a view shows its size only, and no view
holds the seed or the RNG counter (MOV-6). Other seats' act-phase steps are visible.

``view(state, seat)`` — ``seat`` None is a spectator — returns this JSON shape::

    {
      "game": "evergreen", "data_note": "component data reconstructed",
      "you": 0 | null, "players": 2, "solo": false,
      "phase": "select" | "act" | "over",
      "season": "spring", "season_index": 0, "round": 1, "rounds_in_season": 5,
      "seasons": [{"id", "rounds", "sun", "current", "past"}],      # sun per season
      "sun": "N", "shadow": "S", "shadow_step": [1, 0],               # light side, shadow way
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
                 "done": bool, "status": "choosing" | "placing: …" | "done" | …}],
      "cards": {"7": {"id", "biome", "top", "icons", "power", "colour"}},   # all 42 cards
      "biomes": [{"id", "colour", "names"}], "powers": [...], "actions": [...],
      "result": null | Result.to_json()
    }

``events(before, seat, move, after)`` describes a move and the automatic steps it triggered
(automa picks, marker, cleanup, season scoring, season change, game end). Texts use ``{p0}``,
``{p1}`` … for player names, which the platform substitutes.
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
    PLANET,
    POWERS,
    SEASONS,
    SIZE,
    TRACKS,
    Card,
)
from app.games.evergreen.rules import (
    ACT,
    ACTION_SIZE,
    OVER,
    SELECT,
    State,
    Turn,
    active_seats,
    automa,
    current_card,
    fertility,
    participants,
    picker,
    result,
    sun_after,
)
from app.games.evergreen.scoring import SHADOW_STEP, forests, lit_trees

#: The side shadows point to, per sun side (LGT-1).
SHADOW_SIDE: dict[str, str] = {"N": "S", "S": "N", "E": "W", "W": "E"}
_UNITS: dict[str, tuple[str, str]] = {"plant": ("sprout", "sprouts"), "grow": ("grow", "grows")}

_CARD_DATA: dict[str, JSON] = {
    str(card.id): {
        "id": card.id,
        "biome": card.biome,
        "top": card.top,
        "icons": card.icons,
        "power": card.power,
        "colour": BIOME_COLOURS[card.biome],
    }
    for card in CARDS.values()
}


def name(state: State, who: int) -> str:
    """A participant's name in event texts: ``{p0}`` … or the automa."""
    return "the automa" if who == automa(state) else f"{{p{who}}}"


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def card_label(card_id: int) -> str:
    card = CARDS[card_id]
    top = {"fertility": f"{card.icons} fertility", "aridity": "aridity", "none": "no icon"}
    return f"card {card_id} ({card.biome}, {card.power}, {top[card.top]})"


# --- the turn record ---------------------------------------------------------------------------


def _action_status(turn: Turn) -> str:
    """ACT-6: describe the action through its most open consistent action."""
    if not turn.effects:
        return "action not started" if not turn.action_closed else "no action effect"
    best = max(turn.actions, key=lambda a: (ACTION_SIZE[a] - len(turn.effects), -ord(a)))
    if turn.action_closed:
        return f"action {'/'.join(turn.actions)} complete"
    left = ACTION_SIZE[best] - len(turn.effects)
    if best == "A":
        return f"action A, {left} of 3 sprouts left"
    if best == "B":
        return f"action B, {left} of 2 grows left"
    if best == "C":
        kinds = {kind for kind, _ in turn.effects}
        missing = "sprout" if "plant" not in kinds else "grow"
        return f"action C, 1 {missing} left"
    return "action D complete"


def status(state: State, seat: int) -> str:
    """A human status line for a seat (MOV-2)."""
    if state.phase == OVER:
        return "finished"
    if state.phase == SELECT:
        return "choosing" if picker(state) == seat else "waiting"
    turn = state.turns[seat]
    if turn.done:
        return "done"
    card = current_card(state, seat)
    power_open = turn.activated and not turn.power_closed
    if power_open and turn.lake is not None and len(turn.lake_grown) < 2:
        return f"placing: lake, {2 - len(turn.lake_grown)} of 2 grows left"
    if power_open and turn.budget_left > 0:
        return f"placing: power {card.power}, {turn.budget_left} left"
    if turn.effects or turn.action_closed:
        return f"placing: {_action_status(turn)}"
    return "placing"


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


def turn_summary(state: State, seat: int) -> str:
    """One line for a finished act phase, e.g. "action B (2 grows), power grow_small x2"
    (written with a multiplication sign)."""
    turn = state.turns[seat]
    card = current_card(state, seat)
    if turn.effects:
        counts = []
        for kind in ("plant", "grow"):
            n = sum(1 for k, _ in turn.effects if k == kind)
            if n:
                counts.append(f"{n} {_UNITS[kind][0 if n == 1 else 1]}")
        action = f"action {'/'.join(turn.actions)} ({', '.join(counts)})"
    else:
        action = "no action effect"
    if not turn.activated:
        return f"{action}, power {card.power} not used"
    if card.power == "bloom":
        gained = state.boards[seat].bloom - turn.origin.bloom
        return f"{action}, power bloom +{gained}"
    uses = [step for step in turn.steps if step[1] == "power"]
    text = f"{action}, power {card.power} \N{MULTIPLICATION SIGN}{len(uses)}"
    if card.power == "lake":
        grows = sum(1 for step in turn.steps if step[1] == "lake")
        text += f" ({grows} lake grow{'' if grows == 1 else 's'})"
    return text


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
                "current": i == state.season and state.phase != OVER,
                "past": i < state.season or state.phase == OVER,
            }
            for i, (season, rounds) in enumerate(SEASONS)
        ],
        "sun": state.sun,
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
        "cards": {key: dict(value) for key, value in _CARD_DATA.items()},
        "biomes": [
            {"id": biome, "colour": BIOME_COLOURS[biome], "names": dict(BIOME_NAMES[biome])}
            for biome in (*BIOMES, "wild")
        ],
        "powers": list(POWERS),
        "actions": list(ACTIONS),
        "result": None if res is None else res.to_json(),
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
    left = [card for card in before.row if card is not None and card not in taken]
    if len(left) != 1:
        return []
    card = CARDS[left[0]]
    holder = after.marker_holder
    events = []
    if holder is not None:
        events.append(
            Event(
                "evergreen.marker",
                _cap(f"{name(after, holder)} holds the first-player marker."),
                {"who": holder},
            )
        )
    if card.top == "fertility":
        events.append(
            Event(
                "evergreen.cleanup.fertility",
                f"Leftover {card_label(card.id)} joined the {card.biome} pile of the "
                "fertility zone.",
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
        turned = f": card {flipped[0]} turned face down" if flipped else ""
        events.append(
            Event(
                "evergreen.cleanup.aridity",
                f"Leftover {card_label(card.id)} dried the {card.biome} pile{turned}.",
                {"card": card.id, "biome": card.biome, "flipped": flipped[0] if flipped else None},
            )
        )
    else:
        events.append(
            Event(
                "evergreen.cleanup.discard",
                f"Leftover {card_label(card.id)} went to the discard pile.",
                {"card": card.id},
            )
        )
    return events


def events(before: State, seat: int, move: Move, after: State) -> list[Event]:
    """The log lines of an applied move (all public: everything but the deck is public)."""
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
            f"{{p{seat}}} finished: {turn_summary(before, seat)}.",
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
                    f"{{p{s}}} scored {new.light[-1]} light and {new.forest[-1]} forest "
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
            out.append(
                Event(
                    "evergreen.end",
                    f"Game over: {{p{winner}}} wins with {res.scores[winner]} points.",
                    {"winner": winner, "scores": list(res.scores)},
                )
            )
        return out
    if after.season != before.season:
        new_season = SEASONS[after.season][0]
        out.append(
            Event(
                "evergreen.season_change",
                f"{_cap(new_season)} begins: the light now comes from {after.sun}.",
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
