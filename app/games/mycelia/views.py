"""Mycelia views, log events and the hidden information (R8).

Hidden: the cards in each hand (the others see counts), the order and content of every draw
pile, of the market deck and of Gwidyon's solo deck (their sizes are public). A seat's own view
lists the cards it bought that still lie known on top of its own draw pile (R21). Everything
else is public: boards, leaves, tiles, discard piles, the market and its discard pile, the
sanctuary, the new-dew table (both sides, which is up), the last die roll and any pending
prompt.

``view(state, seat)`` — ``seat`` None is a spectator — returns this JSON shape::

    {
      "game": "mycelia", "you": 0 | null, "players": 2, "solo": false,
      "options": {"expansion": false, "advanced_boards": false},
      "phase": "main" | "prompt" | "over", "turn": 0, "round": 1, "last_seat": 1,
      "end_triggered": false, "active_seats": [0],
      "sanctuary": {"count": 3, "capacity": 10, "full": false},
      "start_dew": {"side": "1A", "name": "even"},
      "new_dew": {"side": "1A", "back": "1B", "die": "snail" | null, "die_name": "snail" | "",
                  "faces": [{"face", "name", "cells": [[r, c]], "words"}],     # face-up side
                  "back_faces": [...]},
      "market": [card], "market_deck_count": 30, "market_discard": [card],
      "supply": {"tiles": [{"letter", "name", "count"}], "sanctuary_fields": 2},
      "tiles": [{"letter", "name", "cost", "text"}],
      "seats": [{"seat", "board", "board_name", "rows": [[{"cell", "type", "type_name",
                 "drops", "extra"}]] (4 rows of 5), "drops", "empty", "leaves",
                 "tiles": [{"letter", "name", "cost", "used"}], "hand_count",
                 "hand": [card] | null, "draw_count", "known_on_top": [card] | null,
                 "discard": [card], "removed": [card], "is_turn", "status"}],
      "pending": null | {"seat", "kind", "bonus", "owner", "source": {"card", "fn", "part",
                 "rep": [1, 2]}, "source_name", "spec", "options", "option_texts", "max",
                 "can_skip", "can_skip_rest", "origin", "prompt_text"},
      "gwidyon": null | {"drops", "token", "deck_count", "revealed": [solo card],
                         "last": solo card | null},
      "winners": [0] | ["you", "gwidyon"] | [],
      "result": null | Result.to_json()
    }

where a card is ``{"card": "amanita_muscaria#1", "id", "name", "cost", "set", "text",
"once_text"}`` and a solo card ``{"id", "name", "text"}``.

``events(before, seat, move, after)`` turns the happenings ``apply`` recorded (``State.news``)
into log lines in the past tense, naming players ``{p0}`` / ``{p0's}``: one line per
happening, private lines only for hidden information (the cards a player drew).
"""

from __future__ import annotations

import random

from app.games.base import JSON, Event, Move
from app.games.mycelia.data import (
    BOARD_NAMES,
    DIE_FACE_NAMES,
    DIE_FACES,
    FIELD_NAMES,
    NEW_DEW,
    NEW_DEW_BACK,
    START_DEW_NAMES,
    TILES,
)
from app.games.mycelia.notation import describe_fn, describe_part
from app.games.mycelia.rules import (
    OVER,
    SOLO_BY_ID,
    Cell,
    Note,
    Pending,
    Player,
    State,
    active_seats,
    capacity,
    card_def,
    field_type,
    function_of,
    parts,
    prompt_words,
    replace,
    result,
    seat_status,
    solo,
    solo_winner,
    source_name,
    spec_words,
    total_drops,
    winners,
)

# --- words ------------------------------------------------------------------------------------


def field_words(player: Player, cell: Cell) -> str:
    """"the water field in row 2, column 4" (rows and columns counted from 1 for people)."""
    kind = field_type(player, cell)
    where = f"row {cell[0] + 1}, column {cell[1] + 1}"
    if kind == "sanctuary":
        return f"the sanctuary field in {where}"
    return f"the {FIELD_NAMES[kind]} field in {where}"


def _and(items: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    if not items:
        return ""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def card_name(card: str) -> str:
    return card_def(card).name


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- the view -------------------------------------------------------------------------------------


def card_json(card: str) -> JSON:
    definition = card_def(card)
    return {
        "card": card,
        "id": definition.id,
        "name": definition.name,
        "cost": definition.cost,
        "set": definition.set,
        "text": _cap(describe_fn(definition.play_fn)),
        "once_text": (None if definition.once_fn is None
                      else _cap(describe_fn(definition.once_fn))),
    }


def _solo_card_json(card_id: str) -> JSON:
    card = SOLO_BY_ID[card_id]
    return {"id": card.id, "name": card.name, "text": solo_card_text(card_id)}


def solo_card_text(card_id: str) -> str:
    """Gwidyon's card in words (S3)."""
    words = []
    for effect in SOLO_BY_ID[card_id].effects:
        ((kind, value),) = effect.items()
        if kind == "flip":
            words.append("turn Gwidyon's token over")
        elif kind == "gw_remove":
            words.append(f"Gwidyon removes {_count(value, 'drop', 'drops')}")
        elif kind == "market_wipe":
            words.append("wipe the market and reveal 5 new cards")
        elif kind == "you_gain":
            words.append(f"you gain {_count(value, 'leaf', 'leaves')}")
        else:
            words.append("you may move 1 drop on your board 1 field up, down, left or right")
    return _cap(", then ".join(words))


def _rows(player: Player) -> list[list[JSON]]:
    rows: list[list[JSON]] = []
    for r in range(len(player.drops)):
        row = []
        for c in range(len(player.drops[r])):
            kind = field_type(player, (r, c))
            row.append({"cell": [r, c], "type": kind, "type_name": FIELD_NAMES[kind],
                        "drops": player.drops[r][c], "extra": (r, c) in player.extra})
        rows.append(row)
    return rows


def _seat_json(state: State, seat: int, viewer: int | None) -> JSON:
    player = state.seats[seat]
    own = seat == viewer
    return {
        "seat": seat,
        "board": player.board,
        "board_name": BOARD_NAMES[player.board],
        "rows": _rows(player),
        "drops": total_drops(player),
        "empty": total_drops(player) == 0,
        "leaves": player.leaves,
        "tiles": [{"letter": letter, "name": TILES[letter].name, "cost": TILES[letter].cost,
                   "used": used} for letter, used in zip(player.tiles, player.used, strict=True)],
        "hand_count": len(player.hand),
        "hand": [card_json(card) for card in player.hand] if own else None,
        "draw_count": len(player.draw),
        "known_on_top": [card_json(card) for card in player.draw[:player.known]] if own else None,
        "discard": [card_json(card) for card in player.discard],
        "removed": [card_json(card) for card in player.removed],
        "is_turn": state.phase != OVER and seat == state.turn,
        "status": seat_status(state, seat).doing,
    }


def _faces(side: str) -> list[JSON]:
    faces = []
    for face in DIE_FACES:
        cells = NEW_DEW[side][face]
        words = _and([f"row {r + 1}, column {c + 1}" for r, c in cells])
        faces.append({"face": face, "name": DIE_FACE_NAMES[face],
                      "cells": [[r, c] for r, c in cells],
                      "words": f"{DIE_FACE_NAMES[face]}: 1 drop on {words}" if len(cells) == 1
                      else f"{DIE_FACE_NAMES[face]}: 1 drop each on {words}"})
    return faces


def prompt_text(state: State, pending: Pending) -> str:
    """The pending prompt in words: "Amanita muscaria: choose any field with at least 1 drop —
    2 of 2"; a bonus prompt says so."""
    name = source_name(pending)
    if pending.bonus:
        name = f"{name}, a bonus for you"
    if pending.kind == "choose_option":
        return f"{name}: choose one: {' or '.join(_option_texts(state, pending))}, or skip"
    if pending.kind == "choose_field":
        assert pending.spec is not None
        text = f"{name}: choose {spec_words(pending.spec)} to {_part_action(state, pending)}"
        if pending.reps > 1:
            text += f" — {pending.rep} of {pending.reps}"
        return text
    player = state.seats[pending.seat]
    if pending.kind == "move_drop":
        assert pending.origin is not None
        text = (f"{name}: move a drop from {field_words(player, pending.origin)} to a "
                f"neighbouring field, or skip")
        moves = _moves_in_part(state, pending)
        if moves > 1:
            text += f" — move {_move_index(state) + 1} of {moves}"
        return text
    if pending.kind == "adjacent":
        assert pending.origin is not None
        what = "1 drop" if pending.effect == "remove_one_adjacent" else "every drop"
        return (f"{name}: choose a field next to {field_words(player, pending.origin)} to "
                f"remove {what} from, or skip")
    if pending.kind == "discard_tile":
        letter = _part(state, pending)["tile"]
        return (f"{name}: you have 4 action tiles; return one to the box to take action tile "
                f"{letter}, or skip to leave it in the supply")
    return f"{name}: {prompt_words(state, pending)}"


def _part(state: State, pending: Pending) -> JSON:
    assert state.walk is not None
    part: JSON = parts(function_of(state.walk), state.walk.option)[pending.part]
    return part


def _part_action(state: State, pending: Pending) -> str:
    """What one repetition of the field part does, e.g. "remove 1 drop from any field with at
    least 1 drop" cut to its verb: "remove 1 drop there"."""
    do = _part(state, pending)["do"]
    moves = do.count("move")
    if moves:
        return "move 1 drop from it" if moves == 1 else f"move {moves} drops from it, one by one"
    removes = do.count("remove")
    tail = {"remove_each_adjacent": "remove 1 drop from each neighbouring field that has one",
            "remove_one_adjacent": "remove 1 drop from one neighbouring field",
            "clear_adjacent": "remove every drop from one neighbouring field"}
    words = []
    if removes:
        words.append("remove 1 drop there" if removes == 1
                     else f"remove up to {removes} drops there")
    words += [tail[effect] for effect in do if effect in tail]
    return ", then ".join(words)


def _moves_in_part(state: State, pending: Pending) -> int:
    return int(_part(state, pending)["do"].count("move"))


def _move_index(state: State) -> int:
    assert state.walk is not None
    return state.walk.step


def _option_texts(state: State, pending: Pending) -> list[str]:
    if pending.kind != "choose_option" or state.walk is None:
        return []
    fn = function_of(state.walk)
    return [", then ".join(describe_part(part) for part in alternative["seq"])
            for alternative in fn["or"]]


def _pending_json(state: State) -> JSON | None:
    pending = state.pending
    if pending is None:
        return None
    walk = state.walk
    options: list[object] = [list(option) if isinstance(option, tuple) else option
                             for option in pending.options]
    spec = pending.spec
    return {
        "seat": pending.seat,
        "kind": pending.kind,
        "bonus": pending.bonus,
        "owner": walk.owner if walk is not None else 0,
        "source": {"card": pending.card, "fn": pending.fn, "part": pending.part,
                   "rep": [pending.rep, pending.reps]},
        "source_name": source_name(pending),
        "spec": None if spec is None else {"type": spec[0], "drops": spec[1], "mode": spec[2]},
        "options": options,
        "option_texts": _option_texts(state, pending),
        "max": pending.max,
        "can_skip": pending.can_skip,
        "can_skip_rest": (pending.can_skip and not pending.bonus and walk is not None
                          and pending.seat == walk.owner),
        "origin": None if pending.origin is None else list(pending.origin),
        "prompt_text": prompt_text(state, pending),
    }


def _gwidyon_json(state: State) -> JSON | None:
    gw = state.gwidyon
    if gw is None:
        return None
    return {
        "drops": gw.drops,
        "token": gw.token,
        "deck_count": len(gw.deck),
        "revealed": [_solo_card_json(card) for card in gw.revealed],
        "last": _solo_card_json(gw.revealed[-1]) if gw.revealed else None,
    }


def view(state: State, seat: int | None) -> JSON:
    """What ``seat`` (None: a spectator) may see (R8)."""
    res = result(state)
    over = state.phase == OVER
    won: list[object] = []
    if over and solo(state):
        won = list(res.details["solo"]["winners"]) if res is not None else []
    elif over:
        won = list(winners(state))
    return {
        "game": "mycelia",
        "you": seat,
        "players": state.players,
        "solo": solo(state),
        "options": {"expansion": state.expansion, "advanced_boards": state.advanced},
        "phase": state.phase,
        "turn": state.turn,
        "round": state.round,
        "last_seat": state.players - 1,
        "end_triggered": state.end_triggered,
        "active_seats": sorted(active_seats(state)),
        "sanctuary": {"count": state.sanctuary, "capacity": capacity(state),
                      "full": state.sanctuary >= capacity(state)},
        "start_dew": {"side": state.start_dew, "name": START_DEW_NAMES[state.start_dew]},
        "new_dew": {"side": state.new_dew, "back": NEW_DEW_BACK[state.new_dew],
                    "die": state.die,
                    "die_name": DIE_FACE_NAMES[state.die] if state.die else "",
                    "faces": _faces(state.new_dew),
                    "back_faces": _faces(NEW_DEW_BACK[state.new_dew])},
        "market": [card_json(card) for card in state.market],
        "market_deck_count": len(state.market_deck),
        "market_discard": [card_json(card) for card in state.market_discard],
        "supply": {"tiles": [{"letter": letter, "name": TILES[letter].name, "count": count}
                             for letter, count in state.supply],
                   "sanctuary_fields": state.extra_fields},
        "tiles": [{"letter": tile.letter, "name": tile.name, "cost": tile.cost,
                   "text": tile.text} for tile in TILES.values()],
        "seats": [_seat_json(state, s, seat) for s in range(state.players)],
        "pending": _pending_json(state),
        "gwidyon": _gwidyon_json(state),
        "winners": won,
        "result": None if res is None else res.to_json(),
    }


# --- events ---------------------------------------------------------------------------------------


def _p(seat: int) -> str:
    return "{p" + str(seat) + "}"


def _ps(seat: int) -> str:
    return "{p" + str(seat) + "'s}"


def _cell(data: list[int]) -> Cell:
    return (data[0], data[1])


def _line(state: State, note: Note) -> list[Event]:
    """The log lines of one happening."""
    key, seat, data = note.key, note.seat, note.details()
    who = _p(seat) if seat >= 0 else ""
    player = state.seats[seat] if seat >= 0 else None
    text: str
    if key == "played":
        text = f"{who} played {card_name(data['card'])}."
    elif key == "gained":
        leaves = _count(data["leaves"], "leaf", "leaves")
        if data["bonus"]:
            text = f"{who} gained {leaves} from the bonus of {card_name(data['card'])}."
        elif data["card"]:
            text = f"{who} gained {leaves} with {card_name(data['card'])}."
        else:
            text = f"{who} gained {leaves} from Gwidyon's card."
    elif key == "removed":
        assert player is not None
        text = (f"{who} removed {_count(data['count'], 'drop', 'drops')} from "
                f"{field_words(player, _cell(data['cell']))}.")
    elif key == "removed_around":
        assert player is not None
        around = field_words(player, _cell(data["anchor"]))
        hit = len(data["cells"])
        if not hit:  # nothing happened: a line would tell this choice from a skip (unlogged)
            return []
        text = (f"{who} removed 1 drop from each of {_count(hit, 'field', 'fields')} next to "
                f"{around}.")
    elif key == "move":
        assert player is not None
        origin, to = _cell(data["origin"]), _cell(data["to"])
        if data["sanctuary"]:
            text = (f"{who} moved a drop from {field_words(player, origin)} onto "
                    f"{field_words(player, to)}: it went to the Sanctuary of Life.")
        else:
            text = (f"{who} moved a drop from {field_words(player, origin)} to "
                    f"{field_words(player, to)}.")
    elif key == "sanctuary_full":
        text = "The Sanctuary of Life filled up."
    elif key == "end_triggered":
        ends = "with this turn" if solo(state) else "when the round is over"
        text = (f"Gwidyon's leaf-litter board was empty: the game ends {ends}."
                if data.get("gwidyon") else
                f"{_cap(_ps(seat))} board was empty of dew: the game ends {ends}.")
    elif key == "market_reshuffled":
        text = "The market discard pile was shuffled into a new market deck."
    elif key == "market_revealed":
        text = f"The market revealed {_and([card_name(card) for card in data['cards']])}."
    elif key == "reshuffled":
        text = f"{who} shuffled the discard pile under the rest of the draw pile."
    elif key == "drew":
        cards = data["cards"]
        if not cards:
            return [Event("mycelia.drew", f"{who} had no card left to draw.", {"seat": seat})]
        return [
            Event("mycelia.drew", f"{who} drew {_count(len(cards), 'card', 'cards')}.",
                  {"seat": seat, "count": len(cards)}, not_for=frozenset({seat})),
            Event("mycelia.drew_private",
                  f"{who} drew {_and([card_name(card) for card in cards])}.",
                  {"seat": seat, "cards": cards}, seats=frozenset({seat})),
        ]
    elif key == "on_draw_pile":
        text = f"{card_name(data['card'])} went face down on top of {_ps(seat)} draw pile."
    elif key == "bought":
        text = (f"{who} recruited {card_name(data['card'])} for "
                f"{_count(data['cost'], 'leaf', 'leaves')}.")
    elif key == "took_tile":
        text = f"{who} took action tile {data['tile']}."
    elif key == "no_tile":
        text = f"No action tile {data['tile']} was left in the supply for {who}."
    elif key == "returned_tile":
        text = f"{who} returned action tile {data['tile']} to the box."
    elif key == "declined_tile":
        text = f"{who} left action tile {data['tile']} in the supply."
    elif key == "tile":
        tile = TILES[data["tile"]]
        text = (f"{who} used action tile {tile.letter} ({tile.name}) for "
                f"{_count(tile.cost, 'leaf', 'leaves')}.")
    elif key == "trashed":
        text = f"{who} removed {card_name(data['card'])} from the game."
    elif key == "extra_sanctuary":
        assert player is not None
        r, c = data["cell"]
        text = (f"{who} placed an extra sanctuary field on the {FIELD_NAMES[data['was']]} "
                f"field in row {r + 1}, column {c + 1}: its drop went to the Sanctuary of Life.")
    elif key == "bonus_passed":
        text = f"{who} let the bonus of {card_name(data['card'])} pass."
    elif key == "ended_turn":
        text = f"{who} ended the turn."
    elif key == "rotated":
        text = (f"The Sanctuary of Life turned: the die showed the "
                f"{DIE_FACE_NAMES[data['face']]} on side {data['side']} of the new-dew table.")
    elif key == "new_dew":
        assert player is not None
        cells = [field_words(player, _cell(cell)) for cell in data["cells"]]
        text = (f"{who} got new dew on {_and(cells)}." if cells
                else f"{who} got no new dew: the die's fields are sanctuary fields.")
    elif key == "table_turned":
        text = f"The new-dew table was turned over to side {data['side']}."
    elif key == "token":
        text = f"Gwidyon's token was turned to the {data['side']} side."
    elif key == "gwidyon_removed":
        text = (f"Gwidyon removed {_count(data['count'], 'drop', 'drops')}: "
                f"{data['left']} left." if data["count"] else
                "Gwidyon had no drop left to remove.")
    elif key == "gwidyon_revealed":
        card = data["card"]
        effect = solo_card_text(card)
        text = f"Gwidyon revealed {SOLO_BY_ID[card].name}: {effect[:1].lower()}{effect[1:]}."
    elif key == "gwidyon_wiped":
        text = "Gwidyon wiped the market."
    elif key == "gwidyon_shuffled":
        text = "Gwidyon's 6 cards were shuffled into a new face-down deck."
    elif key == "game_over":
        text = game_over_text(state)
    else:
        raise ValueError(f"no log line for {key}")
    return [Event(f"mycelia.{key}", _cap(text), {"seat": seat, **data})]


def game_over_text(state: State) -> str:
    """G4, S10: who won, in words."""
    if solo(state):
        who = solo_winner(state)
        if who == "both":
            return "Game over: {p0} and Gwidyon emptied their boards in the same turn and both won."
        if who == "you":
            return "Game over: {p0} won against Gwidyon."
        return "Game over: Gwidyon won."
    won = winners(state)
    leaves = state.seats[won[0]].leaves if won else 0
    if len(won) == 1:
        return (f"Game over: {_p(won[0])} won with an empty board and "
                f"{_count(leaves, 'leaf', 'leaves')}.")
    return (f"Game over: {_and([_p(s) for s in won])} shared the win with empty boards and "
            f"{_count(leaves, 'leaf', 'leaves')} each.")


def events(before: State, seat: int, move: Move, after: State) -> list[Event]:
    """The log lines of an applied move, one per happening, in the order they happened."""
    lines: list[Event] = []
    for note in after.news:
        lines.extend(_line(after, note))
    return lines


# --- hidden information -------------------------------------------------------------------------


def conceal(state: State, seat: int | None, rng: random.Random) -> State:
    """A state ``seat`` (None: a spectator) cannot tell from ``state`` (R8): every other hand
    re-dealt with the rest of that player's draw pile, its own draw pile reshuffled below the
    cards it knows on top, the market deck and Gwidyon's face-down deck reshuffled, a new seed.
    """
    seats = []
    for s, player in enumerate(state.seats):
        if s == seat:
            rest = list(player.draw[player.known:])
            rng.shuffle(rest)
            player = replace(player, draw=(*player.draw[:player.known], *rest))
        else:
            pool = [*player.hand, *player.draw]
            rng.shuffle(pool)
            count = len(player.hand)
            player = replace(player, hand=tuple(pool[:count]), draw=tuple(pool[count:]))
        seats.append(player)
    deck = list(state.market_deck)
    rng.shuffle(deck)
    concealed = replace(state, seats=tuple(seats), market_deck=tuple(deck),
                        seed=rng.randrange(2**31))
    if state.gwidyon is not None:
        solo_deck = list(state.gwidyon.deck)
        rng.shuffle(solo_deck)
        concealed = replace(concealed, gwidyon=replace(state.gwidyon, deck=tuple(solo_deck)))
    return concealed


