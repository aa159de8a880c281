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
                 "can_skip", "can_skip_rest", "skips": null | {"kind", "n", "left"},
                 "origin", "prompt_text"},
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

import functools
import random

from app.games.base import JSON, Event, Move
from app.games.mycelia.data import (
    BOARD_NAMES,
    CARDS,
    DIE_FACE_NAMES,
    DIE_FACES,
    FIELD_NAMES,
    FIELD_NOUNS,
    NEW_DEW,
    NEW_DEW_BACK,
    START_DEW_NAMES,
    TILES,
)
from app.games.mycelia.notation import and_list, describe_fn, fn_msg, in_order, seq_msg
from app.games.mycelia.rules import (
    OVER,
    SOLO_BY_ID,
    Cell,
    Note,
    Pending,
    Player,
    State,
    active_seats,
    after_skip,
    capacity,
    card_def,
    card_msg,
    field_type,
    function_of,
    left_after_rest,
    legal_moves,
    parts,
    prompt_msg,
    replace,
    result,
    seat_status,
    skipped,
    solo,
    solo_winner,
    source_msg,
    source_name,
    spec_msg,
    total_drops,
    who,
    winners,
)
from app.games.words import N_, Msg, plural

# --- words ------------------------------------------------------------------------------------


def where_msg(cell: Cell | list[int]) -> Msg:
    """ "row 2, column 4" (rows and columns counted from 1 for people)."""
    return Msg("row {row}, column {column}", {"row": cell[0] + 1, "column": cell[1] + 1})


def field_msg(player: Player, cell: Cell) -> Msg:
    """ "the water field in row 2, column 4"."""
    return located(field_type(player, cell), cell)


def located(kind: str, cell: Cell | list[int]) -> Msg:
    """A field of type ``kind`` by its place: "the water field in row 2, column 4"."""
    return Msg("the {field} in row {row}, column {column}",
               {"field": Msg(FIELD_NOUNS[kind]), "row": cell[0] + 1, "column": cell[1] + 1})


def field_words(player: Player, cell: Cell) -> str:
    """:func:`field_msg` in English."""
    return field_msg(player, cell).english()


def drops_msg(n: int) -> Msg:
    return plural("{n} drop", "{n} drops", "n", n=n)


def leaves_msg(n: int) -> Msg:
    return plural("{n} leaf", "{n} leaves", "n", n=n)


def card_name(card: str) -> str:
    """A card's name in English."""
    return card_def(card).name


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- the view -------------------------------------------------------------------------------------


@functools.cache
def card_json(card: str) -> JSON:
    """A card as every view shows it (built once per card and shared by every view: read
    only)."""
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


def card_text(def_id: str, once: bool = False) -> Msg | None:
    """A card's function (or its one-time effect) in words, shown in each reader's language
    (starting with a small letter)."""
    definition = CARDS[def_id]
    fn = definition.once_fn if once else definition.play_fn
    return None if fn is None else fn_msg(fn)


@functools.cache
def _solo_card_json(card_id: str) -> JSON:
    card = SOLO_BY_ID[card_id]
    return {"id": card.id, "name": card.name, "text": solo_card_text(card_id)}


def solo_card_msg(card_id: str) -> Msg:
    """Gwidyon's card in words (S3), starting with a small letter."""
    steps: list[Msg] = []
    for effect in SOLO_BY_ID[card_id].effects:
        ((kind, value),) = effect.items()
        if kind == "flip":
            steps.append(Msg("turn Gwidyon's token over"))
        elif kind == "gw_remove":
            steps.append(plural("Gwidyon removes {n} drop", "Gwidyon removes {n} drops", "n",
                                n=value))
        elif kind == "market_wipe":
            steps.append(Msg("wipe the market and reveal 5 new cards"))
        elif kind == "you_gain":
            steps.append(plural("you gain {n} leaf", "you gain {n} leaves", "n", n=value))
        else:
            steps.append(Msg("you may move 1 drop on your board 1 field up, down, left or "
                             "right"))
    return in_order(steps)


def solo_card_text(card_id: str) -> str:
    """Gwidyon's card in English words (S3)."""
    return _cap(solo_card_msg(card_id).english())


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


def face_msg(face: str, cells: list[list[int]] | tuple[Cell, ...]) -> Msg:
    """A die face of the new-dew table in words: "snail: 1 drop each on row 4, column 3 and
    row 2, column 4"."""
    where = and_list([where_msg(cell) for cell in cells])
    name = Msg(DIE_FACE_NAMES[face])
    if len(cells) == 1:
        return Msg("{face}: 1 drop on {cells}", {"face": name, "cells": where})
    return Msg("{face}: 1 drop each on {cells}", {"face": name, "cells": where})


def _faces(side: str) -> list[JSON]:
    faces = []
    for face in DIE_FACES:
        cells = NEW_DEW[side][face]
        faces.append({"face": face, "name": DIE_FACE_NAMES[face],
                      "cells": [[r, c] for r, c in cells],
                      "words": face_msg(face, cells).english()})
    return faces


def prompt_said(state: State, pending: Pending) -> Msg:
    """The pending prompt in words: "Amanita muscaria: choose any field with at least 1 drop —
    2 of 2"; a bonus prompt says so."""
    name = source_msg(pending)
    if pending.bonus:
        name = Msg("{card}, a bonus for you", {"card": name})
    if pending.kind == "choose_option":
        first, second = _option_msgs(state, pending)
        return Msg("{card}: choose one: {first} or {second}, or skip",
                   {"card": name, "first": first, "second": second})
    if pending.kind == "choose_field":
        assert pending.spec is not None
        said = Msg("{card}: choose {spec} to {action}",
                   {"card": name, "spec": spec_msg(pending.spec),
                    "action": _part_action(state, pending)})
        if pending.reps > 1:
            said = Msg("{prompt} — {rep} of {reps}",
                       {"prompt": said, "rep": pending.rep, "reps": pending.reps})
        return said
    player = state.seats[pending.seat]
    if pending.kind == "move_drop":
        assert pending.origin is not None
        said = Msg("{card}: move a drop from {field} to a neighbouring field, or skip",
                   {"card": name, "field": field_msg(player, pending.origin)})
        moves = _moves_in_part(state, pending)
        if moves > 1:
            said = Msg("{prompt} — move {n} of {moves}",
                       {"prompt": said, "n": _move_index(state) + 1, "moves": moves})
        return said
    if pending.kind == "adjacent":
        assert pending.origin is not None
        field = field_msg(player, pending.origin)
        if pending.effect == "remove_one_adjacent":
            return Msg("{card}: choose a field next to {field} to remove 1 drop from, or skip",
                       {"card": name, "field": field})
        return Msg("{card}: choose a field next to {field} to remove every drop from, or skip",
                   {"card": name, "field": field})
    if pending.kind == "discard_tile":
        letter = _part(state, pending)["tile"]
        return Msg("{card}: you have 4 action tiles; return one to the box to take action tile "
                   "{tile}, or skip to leave it in the supply", {"card": name, "tile": letter})
    return Msg("{card}: {prompt}", {"card": name, "prompt": prompt_msg(state, pending)})


def prompt_text(state: State, pending: Pending) -> str:
    """:func:`prompt_said` in English."""
    return prompt_said(state, pending).english()


def _part(state: State, pending: Pending) -> JSON:
    assert state.walk is not None
    part: JSON = parts(function_of(state.walk), state.walk.option)[pending.part]
    return part


#: What a neighbour effect does, after "choose … to" (R17).
_TO_NEIGHBOURS = {
    "remove_each_adjacent": N_("remove 1 drop from each neighbouring field that has one"),
    "remove_one_adjacent": N_("remove 1 drop from one neighbouring field"),
    "clear_adjacent": N_("remove every drop from one neighbouring field"),
}


def _part_action(state: State, pending: Pending) -> Msg:
    """What one repetition of the field part does, e.g. "remove 1 drop from any field with at
    least 1 drop" cut to its verb: "remove 1 drop there" (it follows "choose … to")."""
    do = _part(state, pending)["do"]
    moves = do.count("move")
    if moves:
        return (Msg("move 1 drop from it") if moves == 1
                else Msg("move {n} drops from it, one by one", {"n": moves}))
    removes = do.count("remove")
    steps: list[Msg] = []
    if removes:
        steps.append(Msg("remove 1 drop there") if removes == 1
                     else Msg("remove up to {n} drops there", {"n": removes}))
    steps += [Msg(_TO_NEIGHBOURS[effect]) for effect in do if effect in _TO_NEIGHBOURS]
    return in_order(steps)


def _moves_in_part(state: State, pending: Pending) -> int:
    return int(_part(state, pending)["do"].count("move"))


def _move_index(state: State) -> int:
    assert state.walk is not None
    return state.walk.step


def _option_msgs(state: State, pending: Pending) -> list[Msg]:
    """The two alternatives of an either-or, each in words."""
    if pending.kind != "choose_option" or state.walk is None:
        return []
    fn = function_of(state.walk)
    return [seq_msg(alternative["seq"]) for alternative in fn["or"]]


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
        "option_texts": [msg.english() for msg in _option_msgs(state, pending)],
        "max": pending.max,
        "can_skip": pending.can_skip,
        "can_skip_rest": _can_skip_rest(state, pending),
        # What a plain skip forgoes (R11, R14) and what is left of the card after it.
        "skips": _skips_json(state, pending),
        "origin": None if pending.origin is None else list(pending.origin),
        "prompt_text": prompt_text(state, pending),
        # The same words for the page, which shows them in its reader's language.
        "said": {"prompt": prompt_said(state, pending).to_json(),
                 "source": source_msg(pending).to_json(),
                 "options": [msg.to_json() for msg in _option_msgs(state, pending)]},
        "effect": pending.effect,
    }


def _skips_json(state: State, pending: Pending) -> JSON | None:
    """What the prompt's ``skip`` forgoes: ``kind``, ``n`` (repetitions or moves left) and
    ``left`` ("more", "bonus", "nothing": what is left of the card for its owner after it)."""
    if not pending.can_skip or pending.fn == "solo":
        return None
    kind, n = skipped(state, pending)
    left = after_skip(state, pending)
    walk = state.walk
    if (left == "more" and walk is not None and pending.seat == walk.owner
            and not _can_skip_rest(state, pending)):
        left = left_after_rest(state)     # what is left would lapse: the skip ends it so
    return {"kind": kind, "n": n, "left": left}


def _can_skip_rest(state: State, pending: Pending) -> bool:
    """Whether ``skip`` with ``rest`` is offered: only when it forgoes more than a skip."""
    walk = state.walk
    if not pending.can_skip or pending.bonus or walk is None or pending.seat != walk.owner:
        return False
    return {"type": "skip", "rest": True} in legal_moves(state, pending.seat)


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


def _cell(data: list[int]) -> Cell:
    return (data[0], data[1])


def _line(state: State, note: Note) -> list[Event]:
    """The log lines of one happening."""
    key, seat, data = note.key, note.seat, note.details()
    them = who(p0=seat) if seat >= 0 else {}
    player = state.seats[seat] if seat >= 0 else None
    msg: Msg
    if key == "played":
        msg = Msg("{p0} played {card}.", {**them, "card": card_msg(data["card"])})
    elif key == "gained":
        leaves = leaves_msg(data["leaves"])
        if data["bonus"]:
            msg = Msg("{p0} gained {leaves} from the bonus of {card}.",
                      {**them, "leaves": leaves, "card": card_msg(data["card"])})
        elif data["card"]:
            msg = Msg("{p0} gained {leaves} with {card}.",
                      {**them, "leaves": leaves, "card": card_msg(data["card"])})
        else:
            msg = Msg("{p0} gained {leaves} from Gwidyon's card.", {**them, "leaves": leaves})
    elif key == "removed":
        assert player is not None
        msg = Msg("{p0} removed {drops} from {field}.",
                  {**them, "drops": drops_msg(data["count"]),
                   "field": field_msg(player, _cell(data["cell"]))})
    elif key == "removed_around":
        assert player is not None
        hit = len(data["cells"])
        if not hit:
            return [Event.say("mycelia.removed_around",
                              Msg("{p0} chose {field}: no field next to it had a drop.",
                                  {**them, "field": field_msg(player, _cell(data["anchor"]))}),
                              {"seat": seat, **data})]
        msg = plural("{p0} removed 1 drop from each of {n} field next to {field}.",
                     "{p0} removed 1 drop from each of {n} fields next to {field}.", "n",
                     **them, n=hit, field=field_msg(player, _cell(data["anchor"])))
    elif key == "move":
        assert player is not None
        moved = {**them, "from": field_msg(player, _cell(data["origin"])),
                 "to": field_msg(player, _cell(data["to"]))}
        if data["sanctuary"]:
            msg = Msg("{p0} moved a drop from {from} onto {to}: it went to the Sanctuary of "
                      "Life.", moved)
        else:
            msg = Msg("{p0} moved a drop from {from} to {to}.", moved)
    elif key == "sanctuary_full":
        msg = Msg("The Sanctuary of Life filled up.")
    elif key == "end_triggered":
        if data.get("gwidyon"):
            msg = (Msg("Gwidyon's leaf-litter board was empty: the game ends with this turn.")
                   if solo(state) else
                   Msg("Gwidyon's leaf-litter board was empty: the game ends when the round "
                       "is over."))
        elif solo(state):
            msg = Msg("{p0's} board was empty of dew: the game ends with this turn.", them)
        else:
            msg = Msg("{p0's} board was empty of dew: the game ends when the round is over.",
                      them)
    elif key == "market_reshuffled":
        msg = Msg("The market discard pile was shuffled into a new market deck.")
    elif key == "market_revealed":
        msg = Msg("The market revealed {cards}.",
                  {"cards": and_list([card_msg(card) for card in data["cards"]])})
    elif key == "reshuffled":
        msg = Msg("{p0} shuffled the discard pile under the rest of the draw pile.", them)
    elif key == "drew":
        cards = data["cards"]
        if not cards:
            return [Event.say("mycelia.drew", Msg("{p0} had no card left to draw.", them),
                              {"seat": seat})]
        return [
            Event.say("mycelia.drew",
                      plural("{p0} drew {n} card.", "{p0} drew {n} cards.", "n", **them,
                             n=len(cards)),
                      {"seat": seat, "count": len(cards)}, not_for=frozenset({seat})),
            Event.say("mycelia.drew_private",
                      Msg("{p0} drew {cards}.",
                          {**them, "cards": and_list([card_msg(card) for card in cards])}),
                      {"seat": seat, "cards": cards}, seats=frozenset({seat})),
        ]
    elif key == "on_draw_pile":
        msg = Msg("{card} went face down on top of {p0's} draw pile.",
                  {**them, "card": card_msg(data["card"])})
    elif key == "bought":
        msg = Msg("{p0} recruited {card} for {leaves}.",
                  {**them, "card": card_msg(data["card"]), "leaves": leaves_msg(data["cost"])})
    elif key == "took_tile":
        msg = Msg("{p0} took action tile {tile}.", {**them, "tile": data["tile"]})
    elif key == "no_tile":
        msg = Msg("No action tile {tile} was left in the supply for {p0}.",
                  {**them, "tile": data["tile"]})
    elif key == "returned_tile":
        msg = Msg("{p0} returned action tile {tile} to the box.", {**them, "tile": data["tile"]})
    elif key == "declined_tile":
        msg = Msg("{p0} left action tile {tile} in the supply.", {**them, "tile": data["tile"]})
    elif key == "tile":
        tile = TILES[data["tile"]]
        msg = Msg("{p0} used action tile {tile} ({name}) for {leaves}.",
                  {**them, "tile": tile.letter, "name": Msg(tile.name),
                   "leaves": leaves_msg(tile.cost)})
    elif key == "trashed":
        msg = Msg("{p0} removed {card} from the game.", {**them, "card": card_msg(data["card"])})
    elif key == "extra_sanctuary":
        msg = Msg("{p0} placed an extra sanctuary field on {field}: its drop went to the "
                  "Sanctuary of Life.", {**them, "field": located(data["was"], data["cell"])})
    elif key == "chose":
        assert player is not None
        msg = Msg("{p0} chose {field}, which held no drop to remove.",
                  {**them, "field": field_msg(player, _cell(data["cell"]))})
    elif key == "lapsed":
        spec = (data["spec"][0], data["spec"][1], data["spec"][2])
        args = {**them, "card": card_msg(data["card"]), "spec": spec_msg(spec)}
        msg = (Msg("{p0} had no field for the bonus of {card}: it needs {spec}.", args)
               if data["bonus"] else
               Msg("{card} had nothing to act on: it needs {spec}, and {p0's} board had none.",
                   args))
    elif key == "chose_option":
        fn = card_def(data["card"]).once_fn if data["fn"] == "once" else \
            card_def(data["card"]).play_fn
        assert fn is not None
        msg = Msg("{p0} chose for {card}: {alternative}.",
                  {**them, "card": card_msg(data["card"]),
                   "alternative": seq_msg(fn["or"][data["option"]]["seq"])})
    elif key == "no_card":
        msg = Msg("{p0} had no card in the discard pile to remove with {card}.",
                  {**them, "card": card_msg(data["card"])})
    elif key == "trashed_none":
        msg = Msg("{p0} removed no card from the game.", them)
    elif key == "skipped":
        msg = skipped_msg(data, them)
    elif key == "stalled":
        msg = Msg("No player owns a card any more, nor can recruit one or pay for an action "
                  "tile that moves or removes a drop: no board can ever be emptied.")
    elif key == "bonus_passed":
        msg = Msg("{p0} let the bonus of {card} pass.", {**them, "card": card_msg(data["card"])})
    elif key == "ended_turn":
        msg = Msg("{p0} ended the turn.", them)
    elif key == "rotated":
        face = DIE_FACE_NAMES[data["face"]]
        msg = Msg("The Sanctuary of Life turned: the die showed the {face} on side {side} of "
                  "the new-dew table.", {"face": Msg(face), "side": data["side"]})
    elif key == "new_dew":
        assert player is not None
        cells = [field_msg(player, _cell(cell)) for cell in data["cells"]]
        msg = (Msg("{p0} got new dew on {fields}.", {**them, "fields": and_list(list(cells))})
               if cells else
               Msg("{p0} got no new dew: the die's fields are sanctuary fields.", them))
    elif key == "table_turned":
        msg = Msg("The new-dew table was turned over to side {side}.", {"side": data["side"]})
    elif key == "token":
        msg = (Msg("Gwidyon's token was turned to the remove side.") if data["side"] == "remove"
               else Msg("Gwidyon's token was turned to the blank side."))
    elif key == "gwidyon_removed":
        msg = (plural("Gwidyon removed {n} drop: {left} left.",
                      "Gwidyon removed {n} drops: {left} left.", "n", n=data["count"],
                      left=data["left"]) if data["count"] else
               Msg("Gwidyon had no drop left to remove."))
    elif key == "gwidyon_revealed":
        card = data["card"]
        msg = Msg("Gwidyon revealed {card}: {effect}.",
                  {"card": Msg(SOLO_BY_ID[card].name), "effect": solo_card_msg(card)})
    elif key == "gwidyon_wiped":
        msg = Msg("Gwidyon wiped the market.")
    elif key == "gwidyon_shuffled":
        msg = Msg("Gwidyon's 6 cards were shuffled into a new face-down deck.")
    elif key == "game_over":
        msg = game_over_msg(state)
    else:
        raise ValueError(f"no log line for {key}")
    return [Event.say(f"mycelia.{key}", msg, {"seat": seat, **data})]


def skipped_msg(data: JSON, them: JSON) -> Msg:
    """A skip in the log: what it forwent, and what was left of the card after it."""
    card = card_msg(data["card"])
    args = {**them, "card": card, "n": data["n"]}
    kind = data["kind"]
    what: Msg
    if kind == "rest":
        what = Msg("{p0} skipped the rest of {card}", args)
    elif kind == "choose_option":
        what = Msg("{p0} chose neither alternative of {card}", args)
    elif kind == "choose_field" and data["n"] > 1:
        what = Msg("{p0} skipped the {n} repetitions left of a part of {card}", args)
    elif kind == "choose_field":
        what = Msg("{p0} skipped a part of {card}", args)
    elif kind == "move_drop":
        what = plural("{p0} skipped the move left of {card}",
                      "{p0} skipped the {n} moves left of {card}", "n", **args)
    elif kind == "adjacent":
        what = Msg("{p0} removed no drop next to the chosen field for {card}", args)
    else:
        what = Msg("{p0} removed no card from the game with {card}", args)
    left = data["left"]
    if left == "nothing":
        return Msg("{what}: nothing of it was left.", {"what": what})
    if left == "bonus":
        return Msg("{what}: only its bonus for the others was left.", {"what": what})
    return Msg("{what}.", {"what": what})


def game_over_msg(state: State) -> Msg:
    """G4, S10: who won, in words."""
    if solo(state):
        winner = solo_winner(state)
        if winner == "both":
            return Msg("Game over: {p0} and Gwidyon emptied their boards in the same turn and "
                       "both won.", who(p0=0))
        if winner == "you":
            return Msg("Game over: {p0} won against Gwidyon.", who(p0=0))
        return Msg("Game over: Gwidyon won.")
    won = winners(state)
    if not won:
        return Msg("Game over: no board could be emptied any more, and nobody won.")
    leaves = leaves_msg(state.seats[won[0]].leaves)
    if len(won) == 1:
        return Msg("Game over: {p0} won with an empty board and {leaves}.",
                   {**who(p0=won[0]), "leaves": leaves})
    return Msg("Game over: {players} shared the win with empty boards and {leaves} each.",
               {"players": and_list(["{p" + str(s) + "}" for s in won]), "leaves": leaves})


def game_over_text(state: State) -> str:
    """:func:`game_over_msg` in English."""
    return game_over_msg(state).english()


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


