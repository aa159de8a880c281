"""Mycelia bot: decides from its seat's view and the legal moves only (it never sees the
state), one greedy step per call.

Everything is valued in dew drops on its own board, each drop weighted by how far it lies from
the nearest sanctuary field (printed or extra, R18, X6): 1 next to a sanctuary, ``FAR`` more
per field beyond, and up to ``HARD`` more on a field type few of its deck's field functions
can choose (R13: its "any" cards should go where its water, moss and leaf-litter cards cannot).
Removing a drop (R16, R17, tile d) gains its weight; moving one (R15, tiles b and c) gains the
difference, and moving it onto a sanctuary field removes it (R19). Emptying the board (G1,
S9) earns ``EMPTY`` more.

- Prompts (R11–R17, B3, X2, X5, X6, S3): every legal answer is rated by carrying out the rest
  of that repetition greedily on a copy of the board (the field's removals, then its moves or
  neighbour effects); removals lean to the fuller field. A bonus prompt on its own board is
  answered the same way. ``skip`` is worth 0, so only a useless step is skipped.
- Playing (R10): the hand is played in the order worth most, each card's function simulated
  on the board the cards before it leave (each repetition on its best field), leaves gained at
  ``LEAF`` each, bonus parts counted against it: what they give the other players (``RIVAL``)
  or, in solo (S8), the drops Gwidyon removes and his token flips.
- Recruiting (R20, R21, X3): by value per leaf — what the card adds over an average card of
  its deck, times the plays it can expect (it is drawn next turn, then once per pass through
  the deck, until the game is likely over; never once the end is triggered, nor when Gwidyon's
  next card would empty his board), plus its one-time effect — when that beats keeping the
  leaves (``LEAF_PRICE`` each: leaves saved buy the strong cards).
- Action tiles (R23–R25, X8) compete with recruits in the same way: tile b or c to bring drops
  onto the sanctuary, tile d on the costliest drop, tile e on the weakest card, tile a when
  the market offers nothing worth recruiting. Kept leaves are worth less as the end nears and
  nothing once it is triggered, so the last leaves go into tiles. With its own board empty in
  a game of several players the bot keeps its leaves (G4: they break ties); in solo it ends
  its turn (S9).
- The Sanctuary of Life (E3, S6): the move that fills it turns it at the end of the turn. The
  expected new dew (the face-up side of the new-dew table, every face alike) lands on its own
  board and on the others'; the others' dew counts in its favour, fully (and more) when it
  trails, half when it leads. Long before the end someone else would fill the sanctuary
  anyway, so this only weighs as the end nears (a board, or Gwidyon, close to empty): then the
  leader holds back and the trailing bot steers drops onto the sanctuary.
"""

from __future__ import annotations

import random
from itertools import permutations
from typing import Any

from app.games.base import JSON, Move
from app.games.mycelia.data import COLS, ROWS, SOLO_CARDS, TILES, def_of
from app.games.mycelia.rules import field_matches

#: Extra weight of a drop per field between it and the nearest sanctuary field, beyond 1.
FAR = 0.25
#: What a leaf gained is worth, in drops.
LEAF = 0.3
#: What a leaf is worth kept (for a later recruit or tile), in drops.
LEAF_PRICE = 0.5
#: The extra worth of emptying the own board (G1: it ends the game, G4: empty boards win).
EMPTY = 4.0
#: How much the other players' gain from a bonus part counts against the card's owner.
RIVAL = 0.7
#: The bot removes a card from the game (X2) only while it owns more than this many: it keeps
#: a full hand and a card to spare, so it never removes itself out of the game (a table of
#: players with no card can never empty a board, and ends without a winner).
KEEP_CARDS = 4
#: A flip of Gwidyon's token, against the player (S4, S8): every second flip removes a drop.
FLIP = 0.5
#: What a drop Gwidyon removes is worth to him (S5), against the player.
GWIDYON_DROP = 1.0
#: Dew drops a player empties per turn, to guess how many turns the game has left.
PACE = 1.8
#: Gwidyon's drops per turn: 8 drops over his 6 cards, flips included (S3, S4).
GWIDYON_PACE = 1.3
#: How much the others' new dew counts for the bot when it leads, and when it does not.
LEAD_SHARE, TRAIL_SHARE = 0.5, 1.5
#: What owning an action tile is worth (X4, X5).
TILE_WORTH = {"a": 0.2, "b": 0.8, "c": 1.0, "d": 1.5, "e": 0.4}
#: Extra weight of a drop on a field type none of the deck's field functions can choose.
HARD = 0.2
#: Tie-break towards fuller fields when removing (a field's drops, per drop).
FULLER = 0.01

CELLS = ROWS * COLS
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple((r + dr) * COLS + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
          if 0 <= r + dr < ROWS and 0 <= c + dc < COLS)
    for r in range(ROWS) for c in range(COLS))


def _index(cell: list[int]) -> int:
    return cell[0] * COLS + cell[1]


class _Board:
    """One seat's board from its view: field types, drops, and each field's weight."""

    __slots__ = ("drops", "hard", "types", "weights")

    def __init__(self, types: list[str], drops: list[int],
                 weights: list[float] | None = None,
                 hard: dict[str, float] | None = None) -> None:
        self.types = types
        self.drops = drops
        self.hard = hard
        if weights is None:
            sanctuaries = [i for i in range(CELLS) if types[i] == "sanctuary"]
            weights = []
            for i in range(CELLS):
                if types[i] == "sanctuary":
                    weights.append(0.0)
                    continue
                far = min((abs(i // COLS - s // COLS) + abs(i % COLS - s % COLS)
                           for s in sanctuaries), default=1)
                weights.append(1.0 + FAR * (far - 1) + (hard or {}).get(types[i], 0.0))
        self.weights = weights

    @classmethod
    def of(cls, seat: JSON, hard: dict[str, float] | None = None) -> _Board:
        fields = [field for row in seat["rows"] for field in row]
        return cls([field["type"] for field in fields], [field["drops"] for field in fields],
                   hard=hard)

    def copy(self) -> _Board:
        return _Board(self.types, list(self.drops), self.weights, self.hard)

    def total(self) -> int:
        return sum(self.drops)

    def removal(self, i: int, count: int) -> float:
        """The gain of removing ``count`` drops from field ``i``."""
        return count * (self.weights[i] + FULLER * self.drops[i])

    def best_step(self, i: int) -> int:
        """The neighbour a drop of field ``i`` should move to: the nearest to a sanctuary,
        then the fullest."""
        return min(NEIGHBOURS[i], key=lambda j: (self.weights[j], -self.drops[j]))

    def move(self, i: int, j: int) -> tuple[float, int]:
        """Move a drop from ``i`` to ``j`` (R15, R18): its gain and the drops removed."""
        gain = self.weights[i] - self.weights[j]
        self.drops[i] -= 1
        if self.types[j] == "sanctuary":
            return gain, 1
        self.drops[j] += 1
        return gain, 0

    def remove(self, i: int, count: int) -> tuple[float, int]:
        gain = self.removal(i, count)
        self.drops[i] -= count
        return gain, count


def _hard_types(seat: JSON) -> dict[str, float]:
    """How hard the deck finds each field type: ``HARD`` times the share of its field
    functions (moving or removing) that cannot choose that type (R13)."""
    reach = dict.fromkeys(("leaf", "moss", "water", "earth"), 0)
    functions = 0
    cards = [*(seat["hand"] or []), *seat["discard"], *(seat["known_on_top"] or [])]
    for card in cards:
        fn = def_of(card["card"]).play_fn
        for seq in ([alt["seq"] for alt in fn["or"]] if "or" in fn else [fn["seq"]]):
            for part in seq:
                if "field" not in part or part["bonus"]:
                    continue
                functions += 1
                kind = part["field"]["type"]
                for t in reach:
                    reach[t] += kind in ("any", t)
    if not functions:
        return {}
    return {t: HARD * (1 - n / functions) for t, n in reach.items()}


def _repetition(board: _Board, anchor: int, do: list[str], count: int | None = None,
                ) -> tuple[float, int]:
    """Carry out one repetition of a field part on ``anchor`` greedily (R15–R17): the gain and
    the drops removed. ``count`` is how many its ``x`` symbols take (default the most)."""
    gain, removed = 0.0, 0
    removes = do.count("remove")
    take = min(removes if count is None else count, board.drops[anchor])
    if take:
        gain, removed = board.remove(anchor, take)
    for effect in do:
        if effect == "move":
            if not board.drops[anchor]:
                break
            to = board.best_step(anchor)
            if board.weights[anchor] <= board.weights[to]:
                break
            g, r = board.move(anchor, to)
        elif effect == "remove_each_adjacent":
            g, r = 0.0, 0
            for j in NEIGHBOURS[anchor]:
                if board.drops[j]:
                    dg, dr = board.remove(j, 1)
                    g, r = g + dg, r + dr
        elif effect in ("remove_one_adjacent", "clear_adjacent"):
            full = effect == "clear_adjacent"
            options = [j for j in NEIGHBOURS[anchor] if board.drops[j]]
            if not options:
                continue
            j = max(options, key=lambda j: board.removal(j, board.drops[j] if full else 1))
            g, r = board.remove(j, board.drops[j] if full else 1)
        else:
            continue
        gain, removed = gain + g, removed + r
    return gain, removed


def _field_part(board: _Board, part: dict[str, Any]) -> tuple[float, int, _Board]:
    """A whole field part (R13, R14), each repetition on its best field; stops when no field
    gains anything."""
    gain, removed = 0.0, 0
    for _ in range(part["times"]):
        best: tuple[float, int, _Board] | None = None
        for i in range(CELLS):
            if field_matches(part["field"], board.types[i], board.drops[i]):
                trial = board.copy()
                g, r = _repetition(trial, i, part["do"])
                if best is None or g > best[0]:
                    best = (g, r, trial)
        if best is None or best[0] <= 0:
            break
        gain, removed, board = gain + best[0], removed + best[1], best[2]
    return gain, removed, board


class _Table:
    """What the bot reads from its view once per call."""

    def __init__(self, view: JSON) -> None:
        self.view = view
        self.seat: int = view["you"]
        self.me: JSON = view["seats"][self.seat]
        self.board = _Board.of(self.me, _hard_types(self.me))
        self.rivals = [_Board.of(seat) for seat in view["seats"] if seat["seat"] != self.seat]
        self.solo: bool = view["solo"]
        self.gwidyon: JSON | None = view["gwidyon"]
        sanctuary = view["sanctuary"]
        self.room: int = sanctuary["capacity"] - sanctuary["count"]
        self.rotation = self._rotation_cost()
        self.turns_left = self._turns_left()
        self.deck_size = self.me["hand_count"] + self.me["draw_count"] + len(self.me["discard"])
        self._values: dict[str, float] = {}
        self._trash: float | None = None
        self._average: float | None = None

    # -- the Sanctuary of Life -------------------------------------------------------------------

    def _expected_dew(self, board: _Board) -> float:
        """E3: the mean new dew the face-up side of the new-dew table puts on ``board``, in
        weighted drops."""
        faces = self.view["new_dew"]["faces"]
        total = 0.0
        for face in faces:
            for cell in face["cells"]:
                i = _index(cell)
                if board.types[i] != "sanctuary":
                    total += board.weights[i]
        return total / len(faces)

    def _rotation_cost(self) -> float:
        """What filling the sanctuary costs the bot (E3, S6): its own new dew less the others'
        share, times the chance that the game ends before someone else would fill it (a
        rotation long before the end comes anyway, whoever triggers it)."""
        drops = [self.board.total(), *(rival.total() for rival in self.rivals)]
        if self.gwidyon is not None:
            drops.append(self.gwidyon["drops"])
        urgency = min(1.0, max(0.0, 2.0 - min(drops) / PACE))
        own = self._expected_dew(self.board)
        if self.solo:
            # S6: only the own board gets dew, but Gwidyon's next card fills the sanctuary
            # anyway unless it removes fewer drops than the room left.
            room = self.room
            return urgency * own * _share([n < room for n in self.gwidyon_removals()])
        leads = self.board.total() < min(rival.total() for rival in self.rivals)
        share = LEAD_SHARE if leads else TRAIL_SHARE
        others = sum(self._expected_dew(rival) for rival in self.rivals)
        return urgency * (own - share * others / len(self.rivals))

    def outcome(self, gain: float, removed: int, board: _Board) -> float:
        """A gain on the own board with its consequences: an emptied board (G1), or a filled
        sanctuary that will turn at the end of the turn (E3)."""
        if removed and board.total() == 0 and self.board.total() > 0:
            return gain + EMPTY
        if removed and not self.view["end_triggered"] and 0 < self.room <= removed:
            return gain - self.rotation
        return gain

    # -- how long the game may last --------------------------------------------------------------

    def _turns_left(self) -> float:
        """The own turns after this one the game may still last (G1–G3, S9)."""
        if self.view["end_triggered"]:
            return 0.0
        drops = [self.board.total(), *(rival.total() for rival in self.rivals)]
        turns = min(drops) / PACE
        if self.gwidyon is not None:
            turns = min(turns, self.gwidyon["drops"] / GWIDYON_PACE)
        return max(1.0, turns)

    # -- what a function is worth ----------------------------------------------------------------

    @property
    def average(self) -> float:
        """What a card of the deck is worth on average (the cards the bot can see: hand,
        discard pile, known cards on top of the draw pile); a trash part counts as nothing
        here."""
        if self._average is None:
            me = self.me
            known = [*(me["hand"] or []), *me["discard"], *(me["known_on_top"] or [])]
            values, trash = self._values, self._trash
            self._values, self._trash = {}, 0.0
            plain = [self.card_value(card["card"]) for card in known]
            self._values, self._trash = values, trash
            self._average = sum(plain) / len(plain) if plain else LEAF
        return self._average

    def card_value(self, card: str) -> float:
        """What playing ``card`` is worth on the board as it is (R10–R19, B1–B2, S8), leaving
        out what only this turn brings (an emptied board, a rotation): a card is weighed for
        later plays."""
        definition = def_of(card)
        if definition.id not in self._values:
            self._values[definition.id] = self.function_value(definition.play_fn, now=False)
        return self._values[definition.id]

    def trash_best(self) -> float:
        """X2: the best card of the discard pile to remove from the game, or none. While it is
        being worked out, a trash part of the cards weighed counts as nothing."""
        if self._trash is None:
            self._trash = 0.0
            self._trash = max([0.0, *(self.trash_value(c["card"]) for c in self.me["discard"])])
        return self._trash

    def function_value(self, fn: dict[str, Any], now: bool = True) -> float:
        """A function simulated on the own board; an either-or takes its better alternative or
        none (R11). ``now``: played this turn, with its consequences (:meth:`outcome`)."""
        if "or" in fn:
            return max(0.0, *(self.sequence_value(alt["seq"], now) for alt in fn["or"]))
        return self.sequence_value(fn["seq"], now)

    def sequence_value(self, seq: list[dict[str, Any]], now: bool = True) -> float:
        value, removed, board = self.walk(seq, self.board.copy())
        return self.outcome(value, removed, board) if now else value

    def walk(self, seq: list[dict[str, Any]], board: _Board) -> tuple[float, int, _Board]:
        """The parts of a sequence in order (R11), on ``board``: the value, the drops removed
        and the board after."""
        value, removed = 0.0, 0
        for part in seq:
            if part["bonus"]:
                value -= self.bonus_cost(part)
            elif "gain" in part:
                value += part["gain"] * LEAF
            elif "field" in part:
                gain, r, board = _field_part(board, part)
                value, removed = value + gain, removed + r
            elif "trash" in part:
                value += self.trash_best()
            elif "tile" in part:
                value += self.tile_gain(part["tile"])
            elif "sanctuary" in part:
                value += self.sanctuary_gain(board)
        return value, removed, board

    def hand_value(self, cards: tuple[str, ...]) -> float:
        """R10: the cards played in this order, each on the board the previous ones left."""
        board, value, removed = self.board.copy(), 0.0, 0
        for card in cards:
            fn = def_of(card).play_fn
            sequences = [alt["seq"] for alt in fn["or"]] if "or" in fn else [fn["seq"]]
            best = max((self.walk(seq, board.copy()) for seq in sequences),
                       key=lambda outcome: outcome[0])
            if "or" in fn and best[0] < 0:
                continue
            value, removed, board = value + best[0], removed + best[1], best[2]
        return self.outcome(value, removed, board)

    def bonus_cost(self, part: dict[str, Any]) -> float:
        """B1–B3: what a bonus part gives the others; S8: what it does for Gwidyon."""
        if self.solo:
            if self.gwidyon is None or "field" not in part:
                return 0.0
            moves = part["do"].count("move")
            if moves:
                return FLIP * moves * part["times"]
            spec = part["field"]
            per = part["do"].count("remove")
            if spec["mode"] == "upto" and per:
                per = spec["drops"]
            per += sum(part["do"].count(e) for e in ("remove_one_adjacent", "clear_adjacent"))
            per += 4 * part["do"].count("remove_each_adjacent")
            return GWIDYON_DROP * min(self.gwidyon["drops"], per * part["times"])
        if "gain" in part:
            return RIVAL * LEAF * part["gain"] * len(self.rivals)
        if "field" in part:
            return RIVAL * sum(_field_part(rival.copy(), part)[0] for rival in self.rivals)
        return 0.0

    def trash_value(self, card: str | None) -> float:
        """X2: removing a card from the deck makes the others come round more often; never
        below ``KEEP_CARDS`` cards, and removing none (tile e) is worth nothing."""
        if card is None or self.deck_size <= KEEP_CARDS:
            return 0.0
        per_turn = 3 * (self.average - self.card_value(card)) / (self.deck_size - 1)
        return per_turn * self.turns_left

    def tile_gain(self, letter: str) -> float:
        """X4, X5: a tile from the supply, returning the least useful one at the fifth."""
        supply = {tile["letter"]: tile["count"] for tile in self.view["supply"]["tiles"]}
        if not supply.get(letter):
            return 0.0
        owned = [tile["letter"] for tile in self.me["tiles"]]
        if len(owned) >= 4:
            return max(0.0, TILE_WORTH[letter] - min(TILE_WORTH[t] for t in owned))
        return TILE_WORTH[letter]

    def sanctuary_gain(self, board: _Board) -> float:
        """X6: the best field with exactly 1 drop for an extra sanctuary field."""
        if not self.view["supply"]["sanctuary_fields"]:
            return 0.0
        options = [i for i in range(CELLS) if board.types[i] != "sanctuary" and
                   board.drops[i] == 1]
        return max((self.new_sanctuary(board, i) for i in options), default=0.0)

    @staticmethod
    def new_sanctuary(board: _Board, i: int) -> float:
        """The fall in the board's weighted drops when field ``i`` becomes a sanctuary."""
        types = list(board.types)
        types[i] = "sanctuary"
        after = _Board(types, list(board.drops), hard=board.hard)
        after.drops[i] = 0
        return (sum(d * w for d, w in zip(board.drops, board.weights, strict=True))
                - sum(d * w for d, w in zip(after.drops, after.weights, strict=True)))

    def leaf_price(self) -> float:
        """What a leaf kept is worth: nothing once the game is ending (G2, S9)."""
        if self.view["end_triggered"]:
            return 0.0
        return LEAF_PRICE * (1.0 - self.gwidyon_finishes())

    def plays(self) -> float:
        """R21, E4: the plays a card recruited now can expect: next turn, then once per cycle
        through the deck."""
        if self.view["end_triggered"]:
            return 0.0
        later = 1.0 + (self.turns_left - 1.0) * 3.0 / (self.deck_size + 1)
        return later * (1.0 - self.gwidyon_finishes())

    def gwidyon_finishes(self) -> float:
        """S9: the chance that Gwidyon's next card empties his board."""
        if self.gwidyon is None:
            return 0.0
        drops = self.gwidyon["drops"]
        return _share([removes >= drops for removes in self.gwidyon_removals()])

    def gwidyon_removals(self) -> list[int]:
        """S3–S5: the drops each card Gwidyon may reveal next would remove (his face-down
        cards are the six less those revealed since the last shuffle)."""
        gw = self.gwidyon
        if gw is None:
            return []
        seen = {card["id"] for card in gw["revealed"]}
        removals = []
        for card in [card for card in SOLO_CARDS if card.id not in seen] or SOLO_CARDS:
            token, removes = gw["token"], 0
            for effect in card.effects:
                if "flip" in effect:
                    token = "blank" if token == "remove" else "remove"
                    removes += token == "remove"
                removes += effect.get("gw_remove", 0)
            removals.append(removes)
        return removals


def _share(hits: list[bool]) -> float:
    return sum(hits) / len(hits) if hits else 0.0


# --- prompts -------------------------------------------------------------------------------------


def _pending_part(pending: JSON) -> dict[str, Any] | None:
    """The part of the card function behind a field prompt (an either-or: the alternative
    whose part fits the prompt's spec)."""
    source = pending["source"]
    if source["fn"] not in ("play", "once"):
        return None
    card = def_of(source["card"])
    fn = card.once_fn if source["fn"] == "once" else card.play_fn
    if fn is None:
        return None
    sequences = [alt["seq"] for alt in fn["or"]] if "or" in fn else [fn["seq"]]
    index = source["part"]
    fitting = [seq[index] for seq in sequences if index < len(seq)]
    for part in fitting:
        if "field" in part and pending["spec"] is not None and all(
                part["field"][key] == pending["spec"][key] for key in ("type", "drops", "mode")):
            return part
    return fitting[0] if fitting else None


def _answer_value(table: _Table, pending: JSON, move: Move) -> float:
    """What an answer to the bot's own prompt is worth (skip: 0)."""
    kind, board = pending["kind"], table.board.copy()
    if move["type"] == "skip":
        return 0.0
    if kind == "choose_option":
        card = def_of(pending["source"]["card"])
        fn = card.once_fn if pending["source"]["fn"] == "once" else card.play_fn
        assert fn is not None
        return table.sequence_value(fn["or"][move["option"]]["seq"])
    if kind == "choose_field":
        part = _pending_part(pending)
        do = part["do"] if part is not None and "do" in part else []
        gain, removed = _repetition(board, _index(move["cell"]), do, move.get("count"))
        return table.outcome(gain, removed, board)
    if kind == "adjacent":
        part = _pending_part(pending)
        i = _index(move["cell"])
        clear = part is not None and "clear_adjacent" in part.get("do", [])
        gain, removed = board.remove(i, board.drops[i] if clear else 1)
        return table.outcome(gain, removed, board)
    if kind in ("move_drop", "solo_move"):
        gain, removed = board.move(_index(move["from"]), _index(move["to"]))
        return table.outcome(gain, removed, board)
    if kind == "trash":
        return table.trash_value(move["card"])
    if kind == "discard_tile":
        part = _pending_part(pending)
        new = part["tile"] if part is not None and "tile" in part else "a"
        return TILE_WORTH[new] - TILE_WORTH[move["tile"]]
    if kind == "sanctuary_field":
        return table.new_sanctuary(board, _index(move["cell"]))
    return 0.0


# --- the main phase ------------------------------------------------------------------------------


def _tile_value(table: _Table, move: Move) -> float:
    """R23–R25, X8: a tile's gain, before its cost."""
    letter = move["tile"]
    board = table.board.copy()
    if letter == "a":
        return _wipe_value(table)
    if letter == "e":
        return table.trash_value(move.get("card"))
    if letter == "d":
        gain, removed = board.remove(_index(move["cell"]), 1)
        return table.outcome(gain, removed, board)
    origin = _index(move["from"])
    gain, removed = board.move(origin, _index(move["to"]))
    if move.get("to2") is not None:
        g, r = board.move(origin, _index(move["to2"]))
        gain, removed = gain + g, removed + r
    return table.outcome(gain, removed, board)


def _recruit_value(table: _Table, card: JSON) -> float:
    """R20, R21, X3: what recruiting ``card`` adds, before its cost."""
    definition = def_of(card["card"])
    value = (table.card_value(card["card"]) - table.average) * table.plays()
    if definition.once_fn is not None:
        value += table.function_value(definition.once_fn)
    return value


def _wipe_value(table: _Table) -> float:
    """R24: a market wipe is worth something only when nothing affordable is worth buying and
    enough leaves are left to buy what comes."""
    leaves = table.me["leaves"] - TILES["a"].cost
    if table.view["end_triggered"] or leaves < 4:
        return 0.0
    price = table.leaf_price()
    for card in table.view["market"]:
        if card["cost"] <= leaves and _recruit_value(table, card) > card["cost"] * price:
            return 0.0
    return TILES["a"].cost * price + 0.1


def _spend_value(table: _Table, move: Move) -> float:
    """A recruit or a tile per leaf spent, when it beats keeping the leaves."""
    if move["type"] == "buy":
        card = next(c for c in table.view["market"] if c["card"] == move["card"])
        cost = card["cost"]
        gain = _recruit_value(table, card)
    else:
        cost = TILES[move["tile"]].cost
        gain = _tile_value(table, move)
    net = gain - cost * table.leaf_price()
    return net / cost if net > 0 else 0.0


def _main_move(table: _Table, legal: list[Move]) -> Move:
    end: Move = {"type": "end_turn"}
    if end in legal and table.solo and table.board.total() == 0:
        return end                                # S9: nothing more to win
    plays = [move for move in legal if move["type"] == "play"]
    if plays:
        hand = [move["card"] for move in plays]
        first = max(permutations(hand), key=table.hand_value)[0]
        return next(move for move in plays if move["card"] == first)
    if table.board.total() == 0 or end not in legal:
        return end if end in legal else legal[0]  # G4: leaves break ties
    spends = [move for move in legal if move["type"] in ("buy", "tile")]
    best = max(spends, key=lambda move: _spend_value(table, move), default=None)
    if best is not None and _spend_value(table, best) > 0:
        return best
    return end


def bot_move(view: JSON, legal: list[Move], rng: random.Random) -> Move:
    """The bot's move for its seat (``view["you"]``), chosen among ``legal``."""
    table = _Table(view)
    pending = view["pending"]
    if pending is not None and pending["seat"] == table.seat:
        best = max(legal, key=lambda move: _answer_value(table, pending, move))
        skip: Move = {"type": "skip"}
        if skip in legal and _answer_value(table, pending, best) <= 1e-9:
            return skip                           # R11: nothing worth doing
        return best
    return _main_move(table, legal)
