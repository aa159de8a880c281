"""What Mycelia's table offers a seat, from its view and legal moves only: the regions, the
fields lit for a prompt, :func:`controls` — lit fields, the two-step "choose a drop, then where
it goes" of tiles b and c and of Gwidyon's card, the number of drops to remove, the prompt's
buttons —, the words for waiting seats, card pictures and colours. It only sorts the moves
``legal_moves`` lists: no rule is decided here or in the page.
"""

from __future__ import annotations

import math
from typing import Any

from markupsafe import Markup

from app.games.base import JSON, Move, Region
from app.games.mycelia import data, rules
from app.games.mycelia.views import (
    card_text,
    drops_msg,
    face_msg,
    located,
    solo_card_msg,
    where_msg,
)
from app.games.words import Msg, plural, who

#: The regions every table has: the prompt (whose turn, what is asked, the prompt's buttons),
#: the final scoring, your hand with your leaves and tiles, the market, the Sanctuary of Life
#: with the new-dew table; solo adds Gwidyon. Each board is a region of its own.
SHARED_REGIONS = ("prompt", "scores", "hand", "market", "sanctuary")


def regions(players: int) -> tuple[Region, ...]:
    shared = (*SHARED_REGIONS, "gwidyon") if players == 1 else SHARED_REGIONS
    return (*(Region(name, name) for name in shared),
            *(Region(f"board-{seat}", "board", seat) for seat in range(players)))


# --- what the table offers to click ------------------------------------------------------------


def _key(cell: list[int]) -> str:
    return f"{cell[0]}-{cell[1]}"


def _field(view: JSON, seat: int, cell: list[int]) -> Msg:
    """ "the water field in row 2, column 4" (views.field_msg, from the view)."""
    return located(view["seats"][seat]["rows"][cell[0]][cell[1]]["type"], cell)


def _onto(view: JSON, seat: int, cell: list[int]) -> Msg:
    """Where a moved drop lands, and what becomes of it on a sanctuary field (R18)."""
    if view["seats"][seat]["rows"][cell[0]][cell[1]]["type"] == "sanctuary":
        return Msg("{field}, where it goes to the Sanctuary of Life",
                   {"field": _field(view, seat, cell)})
    return _field(view, seat, cell)


class _Board:
    """The controls laid on one's own board, field by field, and the forms and style rules
    that the two-step choices need."""

    def __init__(self) -> None:
        self.fields: dict[str, list[JSON]] = {}
        self.forms: list[JSON] = []
        self.rules: list[str] = []

    def add(self, cell: list[int], item: JSON) -> None:
        self.fields.setdefault(_key(cell), []).append(item)

    def mover(self, view: JSON, seat: int, group: str, moves: list[Move], tool: str,
              what: Msg) -> None:
        """A drop to move in two steps (tile b, tile c, Gwidyon's card): each field a drop may
        leave is a radio; choosing one brings up an arrow on each side its drop may go to,
        each a submit button of that field's form (the other fields stay choosable). Tile c's
        second drop takes a third step: the first arrow is a radio, then the arrows of the
        second drop come up."""
        gate = f":has(#myc-tool-{tool}:checked)" if tool else ""
        origins: dict[str, list[Move]] = {}
        for move in moves:
            origins.setdefault(_key(move["from"]), []).append(move)
        for key, group_moves in origins.items():
            origin = group_moves[0]["from"]
            form = f"myc-{group}-{key}"
            base = {k: v for k, v in group_moves[0].items() if k not in ("to", "to2")}
            self.forms.append({"id": form, "move": base})
            self.add(origin, {"kind": "origin", "group": f"myc-origin-{group}", "value": key,
                              "cls": f"org org-{group}",
                              "label": Msg("{what}: take a drop from {field}",
                                           {"what": what,
                                            "field": _field(view, seat, origin)})})
            chosen = f'input[name="myc-origin-{group}"][value="{key}"]:checked'
            self.rules.append(f".myc{gate}:has({chosen}) .tgt-{group}-{key} {{ display: flex; }}")
            seconds = [m for m in group_moves if m.get("to2") is not None]
            firsts = list({_key(m["to"]): m["to"] for m in group_moves}.values())
            for to in firsts:
                moved = {"from": where_msg(origin), "to": _onto(view, seat, to)}
                arrow = f"tgt arrow to-{_side(origin, to)} tgt-{group}-{key}"
                if not seconds:
                    self.add(origin, {"kind": "submit", "form": form, "name": "to", "value": to,
                                      "cls": arrow,
                                      "label": Msg("Move the drop from {from} to {to}", moved)})
                    continue
                self.add(origin, {"kind": "pick", "form": form, "name": "to", "value": to,
                                  "cls": f"{arrow} first-{group}-{key}",
                                  "label": Msg("Move the drop from {from} to {to}, then choose "
                                               "where the second drop goes", moved)})
            if seconds:
                picked = f'input[form="{form}"][name="to"]:checked'
                self.rules.append(f".myc{gate}:has({chosen}):has({picked}) "
                                  f".two-{group}-{key} {{ display: flex; }}")
                self.rules.append(f".myc{gate}:has({chosen}):has({picked}) "
                                  f".first-{group}-{key} {{ display: none; }}")
                for to2 in list({_key(m["to2"]): m["to2"] for m in seconds}.values()):
                    self.add(origin, {
                        "kind": "submit", "form": form, "name": "to2", "value": to2,
                        "cls": f"tgt arrow second to-{_side(origin, to2)} two-{group}-{key}",
                        "label": Msg("Move the second drop from {from} to {to}",
                                     {"from": where_msg(origin),
                                      "to": _onto(view, seat, to2)})})


def _side(origin: list[int], to: list[int]) -> str:
    """Which side of ``origin`` the neighbour ``to`` lies on (R15: orthogonal neighbours)."""
    return {(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}[
        (to[0] - origin[0], to[1] - origin[1])]


def _prompt_fields(view: JSON, seat: int, legal: list[Move], board: _Board) -> list[int]:
    """The lit fields of a prompt; returns the numbers of drops a player may choose to remove
    with fewer than the most (R16), for the page's small number choice."""
    pending = view["pending"]
    kind = pending["kind"]
    name = said(pending["said"]["source"])
    fewer: set[int] = set()
    if kind == "move_drop":
        for move in legal:
            if move["type"] == "move_drop":
                board.add(move["to"], {"kind": "act", "move": move, "cls": "lit",
                                       "label": Msg("{card}: move the drop to {to}",
                                                    {"card": name,
                                                     "to": _onto(view, seat, move["to"])})})
        return []
    if kind == "solo_move":
        board.mover(view, seat, "solo", [m for m in legal if m["type"] == "move_drop"], "",
                    name)
        return []
    by_cell: dict[str, list[Move]] = {}
    for move in legal:
        if move["type"] == "choose_field":
            by_cell.setdefault(_key(move["cell"]), []).append(move)
    for moves in by_cell.values():
        cell = moves[0]["cell"]
        field = _field(view, seat, cell)
        most = max((m.get("count") or 0 for m in moves), default=0)
        for move in sorted(moves, key=lambda m: -(m.get("count") or 0)):
            count = move.get("count")
            label: Msg
            if kind == "adjacent" and pending["effect"] == "clear_adjacent":
                label = Msg("{card}: remove every drop from {field}",
                            {"card": name, "field": field})
            elif kind == "adjacent":
                label = Msg("{card}: remove {drops} from {field}",
                            {"card": name, "drops": drops_msg(1), "field": field})
            elif kind == "sanctuary_field":
                label = Msg("{card}: place the extra sanctuary field on {field}",
                            {"card": name, "field": field})
            elif count:
                label = Msg("{card}: remove {drops} from {field}",
                            {"card": name, "drops": drops_msg(count), "field": field})
            else:
                label = Msg("{card}: choose {field}", {"card": name, "field": field})
            cls = "lit"
            if count:
                cls = f"lit cnt cnt-{count}" + (" cnt-max" if count == most else "")
                if count < most:
                    fewer.add(count)
            board.add(cell, {"kind": "act", "move": move, "cls": cls, "label": label})
    return sorted(fewer)


def _one_per_card(moves: list[Move]) -> list[Move]:
    """The moves with one card of each kind: two copies of a card in a discard pile are the
    same card to remove (X2), so the page offers one button for them."""
    seen: set[str] = set()
    kept = []
    for move in moves:
        card = move.get("card")
        if move["type"] in ("trash", "tile") and isinstance(card, str):
            kind = card.partition("#")[0]
            if kind in seen:
                continue
            seen.add(kind)
        kept.append(move)
    return kept


def _card_named(view: JSON, seat: int, card: str) -> Msg:
    for pile in ("discard", "hand"):
        for entry in view["seats"][seat][pile] or []:
            if entry["card"] == card:
                return Msg(str(entry["name"]))
    return Msg("a card")


def controls(view: JSON, legal: list[Move], seat: int | None) -> JSON:
    """What ``seat``'s table offers now, from its legal moves: the controls on its board
    (``fields`` by ``"r-c"``, with the ``forms`` and style ``rules`` of two-step choices),
    the prompt's buttons, the number choice of a removal, and the main phase's plays, buys,
    tiles and end of turn."""
    board = _Board()
    found: JSON = {"fields": board.fields, "forms": board.forms, "rules": board.rules,
                   "fewer": [], "prompt": [], "skip": None, "skip_rest": None, "plays": {},
                   "buys": {}, "tiles": {}, "tile_e": {}, "tile_e_none": None,
                   "skip_label": None, "end_turn": None}
    if seat is None or not legal:
        return found
    pending = view["pending"]
    for move in legal:
        if move["type"] == "skip":
            found["skip_rest" if move.get("rest") else "skip"] = move
    if found["skip"] is not None and pending is not None:
        found["skip_label"] = skip_label(pending)
    if pending is not None:
        found["fewer"] = _prompt_fields(view, seat, legal, board)
        for move in _one_per_card(legal):
            if move["type"] == "choose_option":
                found["prompt"].append({"move": move, "label": said(
                    pending["said"]["options"][move["option"]]), "cap": True})
            elif move["type"] == "trash":
                found["prompt"].append({"move": move, "label": Msg(
                    "Remove {card} from the game",
                    {"card": _card_named(view, seat, move["card"])})})
            elif move["type"] == "discard_tile":
                tile = data.TILES[move["tile"]]
                found["prompt"].append({"move": move, "label": Msg(
                    "Return tile {tile}: {name}", {"tile": tile.letter, "name": Msg(tile.name)})})
        return found
    tiles: dict[str, list[Move]] = {}
    for move in legal:
        kind = move["type"]
        if kind == "play":
            found["plays"][move["card"]] = move
        elif kind == "buy":
            found["buys"][move["card"]] = move
        elif kind == "end_turn":
            found["end_turn"] = move
        elif kind == "tile":
            tiles.setdefault(move["tile"], []).append(move)
    for letter, moves in tiles.items():
        tile = data.TILES[letter]
        what = Msg("Action tile {tile}, {name}", {"tile": letter, "name": Msg(tile.name)})
        if letter == "a":
            found["tiles"][letter] = {"move": moves[0]}
        elif letter in ("b", "c"):
            board.mover(view, seat, letter, moves, letter, what)
            found["tiles"][letter] = {"tool": True}
        elif letter == "d":
            board.forms.append({"id": "myc-d", "move": {"type": "tile", "tile": "d"}})
            for move in moves:
                board.add(move["cell"], {
                    "kind": "submit", "form": "myc-d", "name": "cell", "value": move["cell"],
                    "cls": "tool-d",
                    "label": Msg("{what}: remove 1 drop from {field}",
                                 {"what": what, "field": _field(view, seat, move["cell"])})})
            found["tiles"][letter] = {"tool": True}
        else:
            found["tile_e"] = {move["card"]: move for move in _one_per_card(moves)
                               if move.get("card") is not None}
            found["tile_e_none"] = next((m for m in moves if m.get("card") is None), None)
            found["tiles"][letter] = {"tool": True}
    return found


def skip_label(pending: JSON) -> Msg:
    """The prompt's Skip button, saying exactly what it forgoes (R11, R14) and, when nothing
    of the card is left after it, that the card ends there."""
    source = said(pending["said"]["source"])
    skips = pending.get("skips")
    if pending["bonus"] or skips is None:
        return Msg("Let the bonus pass") if pending["bonus"] else Msg("Skip")
    kind, n = skips["kind"], skips["n"]
    what: Msg
    if kind == "choose_option":
        what = Msg("Choose neither")
    elif kind == "choose_field" and n > 1:
        what = plural("Skip this part ({n} time left)", "Skip this part ({n} times left)", "n",
                      n=n)
    elif kind == "choose_field":
        what = Msg("Skip this part")
    elif kind == "move_drop":
        what = plural("Skip this move", "Skip the {n} moves left", "n", n=n)
    elif kind == "adjacent":
        what = Msg("Skip the neighbouring field")
    elif kind == "trash":
        what = Msg("Remove no card")
    else:
        what = Msg("Leave the new tile in the supply")
    if skips["left"] == "nothing":
        return Msg("{what}: {card} ends", {"what": what, "card": source})
    if skips["left"] == "bonus":
        return Msg("{what}: only the bonus of {card} is left", {"what": what, "card": source})
    return what


def waiting_words(view: JSON) -> Msg:
    """What the others read while a seat answers a prompt: "Bo is choosing a field for
    Amanita muscaria's bonus" (B3)."""
    pending = view["pending"]
    name = said(pending["said"]["source"])
    source = Msg("{card}'s bonus", {"card": name}) if pending["bonus"] else name
    args = {**who(p0=pending["seat"]), "source": source}
    doing = {
        "choose_option": Msg("{p0} is choosing one of the two alternatives of {source}", args),
        "choose_field": Msg("{p0} is choosing a field for {source}", args),
        "move_drop": Msg("{p0} is moving a drop for {source}", args),
        "adjacent": Msg("{p0} is choosing a neighbouring field for {source}", args),
        "trash": Msg("{p0} is choosing a card to remove from the game for {source}", args),
        "discard_tile": Msg("{p0} is choosing an action tile to return to the box for {source}",
                            args),
        "sanctuary_field": Msg("{p0} is choosing where to place the extra sanctuary field of "
                               "{source}", args),
        "solo_move": Msg("{p0} is moving a drop for {source}", {**args, "source": name}),
    }
    return doing[pending["kind"]]


def turn_words(view: JSON) -> Msg:
    """What the player whose turn it is does, for the others: "Bo is playing cards, 3 in
    hand." (nothing is pending)."""
    seat = view["turn"]
    hand = view["seats"][seat]["hand_count"]
    if hand:
        return plural("{p0} is playing cards, {n} in hand.",
                      "{p0} is playing cards, {n} in hand.", "n", **who(p0=seat), n=hand)
    return Msg("{p0} is recruiting or ending the turn.", who(p0=seat))


def doing_words(view: JSON, seat: int) -> Msg:
    """A seat's status with what it concerns, for its board: "playing cards, 3 in hand",
    "resolving Coprinus comatus", "answering a bonus: Amanita muscaria"."""
    status = view["seats"][seat]["status"]
    pending = view["pending"]
    if status == "playing cards":
        return plural("playing cards, {n} in hand", "playing cards, {n} in hand", "n",
                      n=view["seats"][seat]["hand_count"])
    if pending is not None and status in ("resolving a card", "answering Gwidyon's card"):
        return Msg("resolving {card}", {"card": said(pending["said"]["source"])})
    if pending is not None and status == "answering a bonus":
        return Msg("answering a bonus: {card}", {"card": said(pending["said"]["source"])})
    return Msg(status)


def turn_of(seat: int) -> Msg:
    """ "Bo's turn"."""
    return Msg("{p0's} turn", who(p0=seat))


def board_of(seat: int) -> Msg:
    """ "Bo's board"."""
    return Msg("{p0's} board", who(p0=seat))


def said(message: JSON) -> Msg:
    """Words the view carries as a message (``Msg.to_json``), for the page to show."""
    return Msg.from_json(message)


def cap(text: str) -> Markup:
    """Words already in the reader's language, starting with a capital."""
    return Markup.escape(text[:1].upper() + text[1:])


def card_words(def_id: str, once: bool = False) -> Msg | None:
    """A card's function (``once``: its one-time effect) in words."""
    return card_text(def_id, once)


def face_words(face: JSON) -> Msg:
    """A die face of the new-dew table in words (the view's ``new_dew.faces`` entry)."""
    return face_msg(face["face"], face["cells"])


def solo_words(card_id: str) -> Msg:
    """Gwidyon's card in words."""
    return solo_card_msg(card_id)


# --- the card pictures -------------------------------------------------------------------------


def _picture(fn: dict[str, Any] | None) -> list[list[JSON]] | None:
    """A card function as the page draws it: its alternatives, each a list of parts."""
    if fn is None:
        return None
    return [alt["seq"] for alt in fn["or"]] if "or" in fn else [fn["seq"]]


#: Every card definition's functions as pictures (the page draws icons from them; its words
#: come from the view).
PICTURES: dict[str, JSON] = {card.id: {"play": _picture(card.play_fn),
                                        "once": _picture(card.once_fn)}
                             for card in data.CARDS.values()}

#: The field types' colours on the boards (earthy; no text is set on them).
FIELD_COLOURS = {"leaf": "#b0532c", "moss": "#5e8c34", "water": "#79b4d2", "earth": "#8b6a45",
                 "sanctuary": "#f3ecd3"}



def _ring(holes: int) -> list[tuple[float, float]]:
    """Where the Sanctuary of Life's holes lie on a 100 × 100 picture, clockwise from the top."""
    return [(round(50 + 38 * math.sin(2 * math.pi * i / holes), 1),
             round(50 - 38 * math.cos(2 * math.pi * i / holes), 1)) for i in range(holes)]


#: The Sanctuary of Life's holes for each capacity (R1, S1).
RINGS = {holes: _ring(holes) for holes in sorted({rules.sanctuary_capacity(n)
                                                  for n in range(1, 5)})}
