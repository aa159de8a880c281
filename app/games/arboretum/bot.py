"""The Arboretum bot: a one-move-deep heuristic player that sees only its seat's view.

Strategy (rulebook "Puntuación": a path only scores with the right to score its species, won
by the highest sum of that species in hand at the end):

- It *builds* the species where it has invested most (its arboretum's paths and cards, and the
  cards in hand): these get a high weight, the others a small one.
- Playing: every legal (card, cell) is rated by how much it raises the best path of each
  species through that cell (exact for paths through the new card, computed from "best path
  ending here" / "best path starting here" tables), plus the growth of open chains that can
  still be extended, minus what the card is worth in hand.
- Keeping: a card in hand is worth its help to a path later, its weight in the fight for the
  right to score (high cards of a built species, unless that right is already safe), and —
  for a 1 whose 8 is unaccounted for — its power to turn an opponent's 8 into 0.
- Drawing: a discard top is taken when it is worth more in hand than an unknown deck card.
- Discarding: the card worth least in hand, counting what it would give the next players.
"""

from __future__ import annotations

import random

from app.games.arboretum.data import HIGHEST, LOWEST
from app.games.arboretum.rules import NEIGHBOURS, Card, Cell, Grid, frontier_of
from app.games.base import JSON, Move

#: How much an open chain (one that may still grow) counts, relative to a finished path.
OPEN_CHAIN = 0.5
#: Weight of a species being built, of the next one, and of any other species.
BUILD_WEIGHTS = (1.0, 1.0, 0.6)
OTHER_WEIGHT = 0.15
#: What an unknown card from the deck is worth in hand.
DECK_CARD = 1.2
#: What each point of value costs when discarded, for a species the opponents build.
FEED = 0.15
#: How much of its best placement now a card in hand is worth (it may be played later).
KEEP_FIT = 0.6
#: The least a species being built is expected to score, to weigh the right to score it.
BUILD_STAKE = 5.0


class _Table:
    """What the bot derives from its view once per move."""

    def __init__(self, view: JSON, seat: int) -> None:
        self.species: list[str] = list(view["species"])
        self.hand: list[Card] = [(s, v) for s, v in view["hands"][seat]["cards"] or []]
        arboreta: list[dict[Cell, Card]] = [
            {(e["cell"][0], e["cell"][1]): (e["card"][0], e["card"][1]) for e in plantings}
            for plantings in view["arboreta"]
        ]
        mine = arboreta[seat]
        self.grid = Grid(mine)
        self.frontier: list[Cell] = sorted(frontier_of(mine.items()))
        visible: set[Card] = set(self.hand)
        for grid in arboreta:
            visible.update(grid.values())
        for pile in view["discards"]:
            visible.update((s, v) for s, v in pile)
        self.unseen: set[Card] = {
            (s, v) for s in self.species for v in range(LOWEST, HIGHEST + 1)
        } - visible
        # The most any single opponent has invested in each species (their arboretum cards).
        self.rival: dict[str, int] = dict.fromkeys(self.species, 0)
        for other, grid in enumerate(arboreta):
            if other == seat:
                continue
            counts: dict[str, int] = {}
            for s, _ in grid.values():
                counts[s] = counts.get(s, 0) + 1
            for s, n in counts.items():
                self.rival[s] = max(self.rival[s], n)
        self._gains: dict[tuple[Card, Cell], float] = {}
        self._paths()
        self._weights()

    # -- path tables ----------------------------------------------------------------------------

    def _paths(self) -> None:
        """Per species: best path, best chain ending / starting at each card, open chains."""
        grid = self.grid
        cards, succ, order = grid.cards, grid.succ, grid.order
        pred: dict[Cell, list[Cell]] = {cell: [] for cell in cards}
        for u in order:
            for w in succ[u]:
                pred[w].append(u)
        empty = set(self.frontier)
        is_open = {
            (r, c): any((r + dr, c + dc) in empty for dr, dc in NEIGHBOURS) for r, c in cards
        }
        self.best: dict[str, int] = {}
        self.head: dict[str, dict[Cell, int]] = {}
        self.tail: dict[str, dict[Cell, int]] = {}
        self.pure_head: dict[str, dict[Cell, int]] = {}
        self.pure_tail: dict[str, dict[Cell, int]] = {}
        self.potential: dict[str, float] = {}
        for s in self.species:
            self.best[s] = grid.best_path(s)[0] if grid.species_count.get(s, 0) >= 2 else 0
            tail: dict[Cell, int] = {}
            ptail: dict[Cell, int] = {}
            for u in order:  # highest first: (cards + end bonus) of a chain u → ... → s
                us, uv = cards[u]
                own = us == s
                t = (3 if uv == HIGHEST else 1) if own else -1
                pt = 0
                for w in succ[u]:
                    if tail[w] >= 0 and tail[w] + 1 > t:
                        t = tail[w] + 1
                    if own and ptail[w] + 1 > pt:
                        pt = ptail[w] + 1
                tail[u] = t
                ptail[u] = max(pt, 1) if own else 0
            head: dict[Cell, int] = {}
            phead: dict[Cell, int] = {}
            for u in reversed(order):  # lowest first: (cards + start bonus) of s → ... → u
                us, uv = cards[u]
                own = us == s
                h = (2 if uv == LOWEST else 1) if own else -1
                ph = 0
                for a in pred[u]:
                    if head[a] >= 0 and head[a] + 1 > h:
                        h = head[a] + 1
                    if own and phead[a] + 1 > ph:
                        ph = phead[a] + 1
                head[u] = h
                phead[u] = max(ph, 1) if own else 0
            pot = 0.0
            for u, (_, uv) in cards.items():
                if not is_open[u]:
                    continue
                if uv < HIGHEST and head[u] >= 0:
                    pot = max(pot, head[u] + 0.25 * (HIGHEST - uv))
                if uv > LOWEST and tail[u] >= 0:
                    pot = max(pot, tail[u] + 0.25 * (uv - LOWEST))
            self.head[s], self.tail[s] = head, tail
            self.pure_head[s], self.pure_tail[s] = phead, ptail
            self.potential[s] = pot

    def _weights(self) -> None:
        """Which species to build: the ones with the most invested in arboretum and hand."""
        interest: dict[str, float] = {}
        in_grid = self.grid.species_count
        for s in self.species:
            held = [v for hs, v in self.hand if hs == s]
            interest[s] = (
                2.0 * self.best[s]
                + OPEN_CHAIN * self.potential[s]
                + 1.5 * in_grid.get(s, 0)
                + len(held)
                + 0.15 * sum(held)
            )
        ranked = sorted(self.species, key=lambda s: (-interest[s], self.species.index(s)))
        self.weight: dict[str, float] = dict.fromkeys(self.species, OTHER_WEIGHT)
        for s, w in zip(ranked, BUILD_WEIGHTS, strict=False):
            self.weight[s] = w
        self.building = ranked[: len(BUILD_WEIGHTS)]

    # -- ratings --------------------------------------------------------------------------------

    def place_gain(self, card: Card, cell: Cell) -> float:
        """How much planting ``card`` at ``cell`` improves the arboretum (weighted points)."""
        key = (card, cell)
        known = self._gains.get(key)
        if known is None:
            known = self._gains[key] = self._place_gain(card, cell)
        return known

    def _place_gain(self, card: Card, cell: Cell) -> float:
        cs, cv = card
        cards = self.grid.cards
        r, c = cell
        lower: list[Cell] = []
        higher: list[Cell] = []
        for dr, dc in NEIGHBOURS:
            n = (r + dr, c + dc)
            got = cards.get(n)
            if got is None:
                continue
            if got[1] < cv:
                lower.append(n)
            elif got[1] > cv:
                higher.append(n)
        open_cell = len(lower) + len(higher) < 4
        # The card's own species, and every species a path could cross the new card for.
        kinds = [cs]
        if lower and higher:
            kinds.extend(s for s in self.grid.species_count if s != cs)
        total = 0.0
        for s in kinds:
            own = s == cs
            head, tail = self.head[s], self.tail[s]
            pre = suf = -1
            for a in lower:
                if head[a] > pre:
                    pre = head[a]
            for b in higher:
                if tail[b] > suf:
                    suf = tail[b]
            new = pre + 1 + suf if pre >= 0 and suf >= 0 else 0
            if own:
                if suf >= 0 and (2 if cv == LOWEST else 1) + suf > new:
                    new = (2 if cv == LOWEST else 1) + suf
                if pre >= 0 and pre + (3 if cv == HIGHEST else 1) > new:
                    new = pre + (3 if cv == HIGHEST else 1)
                run_down = run_up = 0
                for a in lower:
                    run_down = max(run_down, self.pure_head[s][a])
                for b in higher:
                    run_up = max(run_up, self.pure_tail[s][b])
                run = 1 + run_down + run_up
                if run >= 4 and 2 * run > new:
                    new = 2 * run
            gain = float(new - self.best[s]) if new > self.best[s] else 0.0
            if open_cell:
                chain = 0.0
                if cv < HIGHEST:
                    at = pre + 1 if pre >= 0 else -1
                    if own:
                        at = max(at, 2 if cv == LOWEST else 1)
                    if at >= 0:
                        chain = at + 0.25 * (HIGHEST - cv)
                if cv > LOWEST:
                    at = suf + 1 if suf >= 0 else -1
                    if own:
                        at = max(at, 3 if cv == HIGHEST else 1)
                    if at >= 0:
                        chain = max(chain, at + 0.25 * (cv - LOWEST))
                if chain > self.potential[s]:
                    gain += OPEN_CHAIN * (chain - self.potential[s])
            total += self.weight[s] * gain
        return total

    def fit(self, card: Card) -> float:
        """The best that planting ``card`` could do now (a proxy for its use later)."""
        return max((self.place_gain(card, cell) for cell in self.frontier), default=0.0)

    def keep_value(self, card: Card, hand: list[Card]) -> float:
        """What ``card`` is worth kept in ``hand`` until the end of the game."""
        s, v = card
        value = KEEP_FIT * self.fit(card)
        # The right to score: the highest sum of the species in hand (rulebook p.6). Sums are
        # decided by the high cards, hence the square.
        rest = sum(hv for hs, hv in hand if hs == s and (hs, hv) != card)
        threat = sum(uv for us, uv in self.unseen if us == s)
        if threat > 0:
            counted = v
            if v == HIGHEST and (s, LOWEST) in self.unseen:
                counted = 6  # an opponent may hold the 1 that turns this 8 into 0
            if rest >= threat:
                safety = 0.1  # the right is safe without this card
            elif rest + counted >= threat:
                safety = 1.0  # this card makes the right safe
            else:
                safety = 0.7
            stake = max(self.best[s], self.potential[s], BUILD_STAKE if s in self.building else 2)
            value += self.weight[s] * safety * stake * (counted / HIGHEST) ** 2
        # A 1 turns an opponent's 8 of the species into 0 while that 8 is unaccounted for.
        if v == LOWEST and (s, HIGHEST) in self.unseen:
            value += 0.5 + min(self.rival[s], 3)
        return value

    def feed_cost(self, card: Card) -> float:
        """What putting ``card`` on top of the own discard pile may give the opponents."""
        s, v = card
        return FEED * v * (min(self.rival[s], 3) / 3 + 0.3)


def bot_move(view: JSON, legal: list[Move], rng: random.Random) -> Move:
    """Choose one of ``legal`` from ``view`` alone (the bot's seat is ``view["turn"]``).

    The choice is deterministic for a view (ties go to the first move listed), so ``rng`` is
    not needed.
    """
    if len(legal) == 1:
        return legal[0]
    seat = view["turn"]
    table = _Table(view, seat)
    kind = legal[0]["type"]
    if kind == "draw":
        return _choose_draw(table, view, legal)
    if kind == "play":
        return _choose_play(table, legal)
    return _choose_discard(table, legal)


def _choose_draw(table: _Table, view: JSON, legal: list[Move]) -> Move:
    best_move: Move | None = None
    best_value = -1.0
    for move in legal:
        source = move["source"]
        if source == "deck":
            value = DECK_CARD
        else:
            top = view["discards"][source][-1]
            card: Card = (top[0], top[1])
            value = table.keep_value(card, [*table.hand, card])
        if value > best_value:
            best_move, best_value = move, value
    assert best_move is not None
    return best_move


def _choose_play(table: _Table, legal: list[Move]) -> Move:
    hand = table.hand
    keep = {card: table.keep_value(card, hand) for card in hand}
    best_move: Move | None = None
    best_value = float("-inf")
    for move in legal:
        card: Card = (move["card"][0], move["card"][1])
        cell: Cell = (move["cell"][0], move["cell"][1])
        value = table.place_gain(card, cell) - keep[card]
        if value > best_value:
            best_move, best_value = move, value
    assert best_move is not None
    return best_move


def _choose_discard(table: _Table, legal: list[Move]) -> Move:
    hand = table.hand
    best_move: Move | None = None
    best_value = float("inf")
    for move in legal:
        card: Card = (move["card"][0], move["card"][1])
        value = table.keep_value(card, hand) + table.feed_cost(card)
        if value < best_value:
            best_move, best_value = move, value
    assert best_move is not None
    return best_move
