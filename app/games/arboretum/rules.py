"""Arboretum's rules as pure functions (rulebook: /work/shared/rules/arboretum.es.txt;
spec: /work/shared/specs/arboretum.md).

- Setup (rulebook "Preparación"): 6 / 8 / 10 species for 2 / 3 / 4 players, chosen with the
  game's seeded RNG; the deck is shuffled with it and 7 cards are dealt to each player; seat 0
  starts.
- Turn (rulebook "Cómo jugar"), each step one move: draw 2 cards one after the other, each from
  the top of the deck or of any discard pile (own included); play 1 card into the own arboretum,
  orthogonally adjacent to a card already there; discard 1 card onto the own discard pile.
- End (rulebook "Puntuación"; spec §End): the game ends after the turn of the player who drew
  the deck's last card.
- Scoring (rulebook "Puntuación de los caminos"): :func:`scoring_rights` and
  :func:`best_path_score` / :func:`best_path`.
- Refusals: every :class:`IllegalMove` names as its ``rule`` the rulebook section it breaks,
  by its exact Spanish heading (:data:`RULEBOOK_HEADINGS`): the order of a turn's steps and
  turn order "Cómo jugar"; the draws "Robar 2 cartas"; the play "Jugar una carta de la mano en
  su arboreto"; the discard "Descartar una carta"; cards that do not exist in this game
  "Preparación del mazo"; moves after the end "Puntuación". The reasons are plain words, each a
  :class:`Msg` shown in the reader's language, that name players as ``{p0}`` (:func:`roles`;
  the platform fills in their names); a move that lacks its card or cell is told to choose one
  ("choose a card from your hand first").

Decisions where the rulebook is silent (each one is tested in tests/unit/test_arboretum_rules.py
or, for scoring, tests/unit/test_arboretum_scoring.py):

1. The first card may go anywhere (``apply`` accepts any cell), but ``legal_moves`` offers only
   the cell ``[0, 0]`` for it: the grid is unbounded and paths only depend on relative
   positions, so every other cell is equivalent.
2. If, at the start of a draw, the deck is empty and every discard pile is empty, that draw is
   skipped and the turn moves straight on to the play step (spec §End). The player then ends
   the turn with fewer than 7 cards; the game ends with that turn anyway.
3. When the deck is empty at the start of a draw but some discard pile is not, the draw must
   come from a discard pile (the deck is no longer a legal source).
4. The game ends when a turn ends with an empty deck: a turn can only start with cards in the
   deck, so that turn is the one in which the deck's last card was drawn.
5. Results: most points wins; a tie is broken by the number of different species in the
   arboretum; players still tied share the win (rulebook "Anunciar el ganador"). The ranking
   orders by (-score, -species count, seat).
6. Extra keys in a move object are ignored; a malformed value of a known key is refused.
7. Scoring reveals every hand (rulebook: the players reveal their cards of each species), so
   once the game is over every view shows all hands.
8. The 8 counts 0 only against ANOTHER player's 1 (rulebook: "uno de sus oponentes"): a player
   holding both the 1 and the 8 of a species counts 9.

The state is a frozen dataclass of tuples: ``apply`` returns a new state and never mutates its
input. ``frontiers`` (the empty cells where each seat may plant next) is kept up to date
incrementally for speed; it is derived from the arboreta, so ``dump`` leaves it out and
``load`` recomputes it. ``just_drawn`` counts the cards of the current turn's draws still in
hand, so that their owner sees them marked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeGuard

from app.games.arboretum.data import (
    DRAWS_PER_TURN,
    HAND_SIZE,
    HIGHEST,
    LOWEST,
    NAMES_EN,
    SPECIES,
    SPECIES_COUNT,
    VALUES,
)
from app.games.base import JSON, IllegalMove, Move, Result, seeded_rng
from app.games.words import Msg, plural, who

Card = tuple[str, int]
Cell = tuple[int, int]
Planting = tuple[Cell, Card]

STEP_DRAW = "draw"
STEP_PLAY = "play"
STEP_DISCARD = "discard"
STEP_OVER = "over"
STEPS = (STEP_DRAW, STEP_PLAY, STEP_DISCARD, STEP_OVER)
MOVE_TYPES = ("draw", "play", "discard")

#: The section headings of the rulebook (/work/shared/rules/arboretum.es.txt), exactly as
#: printed and in its order. Every :class:`IllegalMove` of this game names one of them as its
#: ``rule`` (the ``RULE_*`` constants below); tests/unit/test_arboretum_rules.py checks both.
RULEBOOK_HEADINGS: tuple[str, ...] = (
    "Objetivo del juego",
    "Preparación",
    "Preparación del mazo",
    "Distribución de las cartas",
    "Cómo jugar",
    "Robar 2 cartas",
    "Jugar una carta de la mano en su arboreto",
    "Descartar una carta",
    "Puntuación",
    "Puntuación de los caminos",
    "Puntuar los caminos",
    "Ejemplo de puntuación",
    "Anunciar el ganador",
)

#: The cards: 10 species × values 1–8, some species back in the box with fewer players
#: (unknown species, species not in play, values outside 1–8).
RULE_CARDS = "Preparación del mazo"
#: Turn order (clockwise) and the order of a turn's steps: draw 2, play 1, discard 1; a move
#: that is no step of a turn.
RULE_TURN = "Cómo jugar"
#: Exactly 2 draws, each from the top of the deck or of any discard pile.
RULE_DRAW = "Robar 2 cartas"
#: One card from the hand, adjacent to the arboretum, never on or moving another card.
RULE_PLAY = "Jugar una carta de la mano en su arboreto"
#: One card from the hand onto the own discard pile.
RULE_DISCARD = "Descartar una carta"
#: The game ends when the deck runs out, after the turn of who drew its last card.
RULE_END = "Puntuación"

NEIGHBOURS: tuple[Cell, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))
ORIGIN: Cell = (0, 0)
_FIRST_FRONTIER: frozenset[Cell] = frozenset((ORIGIN,))


@dataclass(frozen=True, slots=True)
class ArboretumState:
    """One moment of a game. Every field is immutable; ``apply`` builds a new state."""

    seed: int
    #: Species in play, in table order.
    species: tuple[str, ...]
    #: The draw deck; its top is the last element.
    deck: tuple[Card, ...]
    #: Each seat's hand, in the order the cards were received.
    hands: tuple[tuple[Card, ...], ...]
    #: Each seat's arboretum as (cell, card) pairs in play order.
    arboreta: tuple[tuple[Planting, ...], ...]
    #: Each seat's discard pile, oldest first (its top is the last element).
    discards: tuple[tuple[Card, ...], ...]
    #: The seat whose turn it is (after the end: the seat that played the last turn).
    turn: int
    #: "draw", "play", "discard" or "over".
    step: str
    #: Draws still due this turn (2 or 1 in the draw step, else 0).
    draws_left: int
    #: Derived from ``arboreta``: the cells where each seat may plant next.
    frontiers: tuple[frozenset[Cell], ...]
    #: How many cards at the end of the hand of the seat whose turn it is were drawn this
    #: turn (the hand keeps the order the cards were received, so they are its last cards):
    #: what its owner sees marked as new. Games stored before it existed load with it
    #: derived (:func:`load`).
    just_drawn: int = 0

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def over(self) -> bool:
        return self.step == STEP_OVER


# --- helpers -----------------------------------------------------------------------------------


def card_name(card: Card) -> str:
    """The English display name of a card: ``"Royal Poinciana 3"`` (:func:`card_msg` is the
    card in each reader's language)."""
    return f"{NAMES_EN[card[0]]} {card[1]}"


def tree(species: str) -> Msg:
    """A species' name, in each reader's language ("Roble", "Eiche")."""
    return Msg(NAMES_EN[species])


def card_msg(card: Card) -> Msg:
    """A card's name in words, in each reader's language ("Royal Poinciana 3", "Roble 7")."""
    return Msg("{tree} {value}", {"tree": tree(card[0]), "value": card[1]})


def frontier_of(plantings: Iterable[Planting]) -> frozenset[Cell]:
    """The empty cells orthogonally adjacent to an arboretum (``{(0, 0)}`` when it is empty)."""
    occupied = {cell for cell, _ in plantings}
    if not occupied:
        return _FIRST_FRONTIER
    return frozenset(
        (r + dr, c + dc)
        for r, c in occupied
        for dr, dc in NEIGHBOURS
        if (r + dr, c + dc) not in occupied
    )


def _grown_frontier(
    frontier: frozenset[Cell], plantings: tuple[Planting, ...], cell: Cell
) -> frozenset[Cell]:
    """The frontier after planting at ``cell`` (``plantings`` does not include it yet)."""
    r, c = cell
    if not plantings:
        return frozenset((r + dr, c + dc) for dr, dc in NEIGHBOURS)
    occupied = {planted for planted, _ in plantings}
    fresh = [(r + dr, c + dc) for dr, dc in NEIGHBOURS if (r + dr, c + dc) not in occupied]
    return frontier.difference((cell,)).union(fresh)


def _without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _is_int(value: object) -> TypeGuard[int]:
    """An ``int`` that is not a ``bool``."""
    return type(value) is int


def _parse_card(raw: object, species: tuple[str, ...], rule: str) -> Card:
    """The card a move names; a malformed one is refused under ``rule`` (the step's heading)."""
    if raw is None:
        raise IllegalMove(Msg("choose a card from your hand first"), rule)
    if not isinstance(raw, (list, tuple)) or len(raw) != 2:
        raise IllegalMove(
            Msg("a card is a pair of a species and a value from {low} to {high}, for example "
                "oak and 7", {"low": LOWEST, "high": HIGHEST}),
            rule,
        )
    kind, value = raw
    if not isinstance(kind, str) or kind not in SPECIES:
        raise IllegalMove(
            Msg("unknown species: the species in this game are {species}",
                {"species": [tree(s) for s in species]}),
            RULE_CARDS,
        )
    if kind not in species:
        raise IllegalMove(Msg("{tree} is not in play in this game", {"tree": tree(kind)}),
                          RULE_CARDS)
    if not _is_int(value) or not LOWEST <= value <= HIGHEST:
        raise IllegalMove(
            Msg("a card's value is a whole number from {low} to {high}",
                {"low": LOWEST, "high": HIGHEST}),
            RULE_CARDS,
        )
    return (kind, value)


def _parse_cell(raw: object) -> Cell:
    if raw is None:
        raise IllegalMove(Msg("choose a highlighted space of your arboretum"), RULE_PLAY)
    if (
        not isinstance(raw, (list, tuple))
        or len(raw) != 2
        or not _is_int(raw[0])
        or not _is_int(raw[1])
    ):
        raise IllegalMove(
            Msg("a space of an arboretum is a pair of whole numbers, its row and its column"),
            RULE_PLAY,
        )
    return (raw[0], raw[1])


def _skip_stuck_draw(state: ArboretumState) -> ArboretumState:
    """Spec §End: with the deck and every discard pile empty, the remaining draw is skipped."""
    if state.step == STEP_DRAW and not state.deck and not any(state.discards):
        return replace(state, step=STEP_PLAY, draws_left=0)
    return state


def _set(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


# --- setup, turn order, legal moves ------------------------------------------------------------


def setup(players: int, seed: int) -> ArboretumState:
    """Spec §Setup: species chosen and deck shuffled with the seeded RNG, 7 cards each."""
    if not _is_int(players) or players not in SPECIES_COUNT:
        raise ValueError(f"Arboretum is for 2 to 4 players, not {players!r}")
    rng = seeded_rng(seed, "arboretum", "setup")
    chosen = set(rng.sample(SPECIES, SPECIES_COUNT[players]))
    species = tuple(s for s in SPECIES if s in chosen)
    cards = [(s, v) for s in species for v in VALUES]
    rng.shuffle(cards)
    deck = tuple(cards)
    hands = []
    for _ in range(players):
        hand = deck[-HAND_SIZE:][::-1]  # dealt from the top, one card after the other
        deck = deck[:-HAND_SIZE]
        hands.append(hand)
    empty: tuple[Any, ...] = ()
    return ArboretumState(
        seed=seed,
        species=species,
        deck=deck,
        hands=tuple(hands),
        arboreta=(empty,) * players,
        discards=(empty,) * players,
        turn=0,
        step=STEP_DRAW,
        draws_left=DRAWS_PER_TURN,
        frontiers=(_FIRST_FRONTIER,) * players,
    )


def active_seats(state: ArboretumState) -> frozenset[int]:
    """The seat whose turn it is; nobody once the game is over."""
    return frozenset() if state.step == STEP_OVER else frozenset((state.turn,))


def legal_moves(state: ArboretumState, seat: int) -> list[Move]:
    """Every legal move of ``seat`` (empty unless it is that seat's turn)."""
    if seat != state.turn or state.step == STEP_OVER:
        return []
    step = state.step
    if step == STEP_DRAW:
        moves: list[Move] = [{"type": "draw", "source": "deck"}] if state.deck else []
        moves.extend({"type": "draw", "source": i} for i, pile in enumerate(state.discards) if pile)
        return moves
    hand = state.hands[seat]
    if step == STEP_PLAY:
        # Each card and cell list is built once and shared by the moves that name it (the
        # play list is long and rebuilt every turn); callers treat moves as read-only.
        cells = [[r, c] for r, c in sorted(state.frontiers[seat])]
        return [
            {"type": "play", "card": card, "cell": cell}
            for card in [[s, v] for s, v in hand]
            for cell in cells
        ]
    return [{"type": "discard", "card": [s, v]} for s, v in hand]


# --- apply -------------------------------------------------------------------------------------


def apply(state: ArboretumState, seat: int, move: Move) -> ArboretumState:
    """The state after ``seat`` plays ``move``, or :class:`IllegalMove`. Never mutates."""
    if state.step == STEP_OVER:
        raise IllegalMove(Msg("the game is over: no more moves"), RULE_END)
    kind = move.get("type") if isinstance(move, dict) else None
    if not isinstance(kind, str) or kind not in MOVE_TYPES:
        raise IllegalMove(
            Msg("that is no step of a turn: a turn draws, plays and discards a card "
                "(a move's type is draw, play or discard)"),
            RULE_TURN,
        )
    if seat != state.turn:
        raise IllegalMove(Msg("it is {p0's} turn", who(p0=state.turn)), RULE_TURN)
    step = state.step
    if kind == "draw":
        if step != STEP_DRAW:
            raise IllegalMove(Msg("you have already drawn your {n} cards this turn",
                                  {"n": DRAWS_PER_TURN}), RULE_DRAW)
        return _draw(state, seat, move.get("source"))
    if step == STEP_DRAW:
        raise IllegalMove(
            plural("draw first: {n} card left to draw this turn",
                   "draw first: {n} cards left to draw this turn", "n", n=state.draws_left),
            RULE_TURN,
        )
    if kind == "play":
        if step != STEP_PLAY:
            raise IllegalMove(
                Msg("you have already played a card this turn; discard one"), RULE_PLAY)
        return _play(state, seat, move)
    if step != STEP_DISCARD:
        raise IllegalMove(Msg("play a card into your arboretum before discarding"), RULE_TURN)
    return _discard(state, seat, move)


def _draw(state: ArboretumState, seat: int, source: object) -> ArboretumState:
    hands = state.hands
    if isinstance(source, str) and source == "deck":
        if not state.deck:
            raise IllegalMove(Msg("the draw deck is empty; draw from a discard pile"), RULE_DRAW)
        card = state.deck[-1]
        deck = state.deck[:-1]
        discards = state.discards
    elif _is_int(source):
        if not 0 <= source < len(hands):
            raise IllegalMove(
                Msg("there is no discard pile number {number}: the seats are numbered 0 to "
                    "{last}", {"number": source, "last": len(hands) - 1}),
                RULE_DRAW,
            )
        pile = state.discards[source]
        if not pile:
            raise IllegalMove(Msg("{p0's} discard pile is empty", who(p0=source)), RULE_DRAW)
        card = pile[-1]
        deck = state.deck
        discards = _set(state.discards, source, pile[:-1])
    else:
        raise IllegalMove(
            Msg("draw from the deck or from a discard pile (a source is the word deck or a "
                "seat number)"),
            RULE_DRAW,
        )
    left = state.draws_left - 1
    after = ArboretumState(
        state.seed,
        state.species,
        deck,
        _set(hands, seat, (*hands[seat], card)),
        state.arboreta,
        discards,
        state.turn,
        STEP_DRAW if left else STEP_PLAY,
        left,
        state.frontiers,
        state.just_drawn + 1,
    )
    return _skip_stuck_draw(after) if left else after


def _held_card(state: ArboretumState, seat: int, move: Move, rule: str) -> Card:
    """The card of a play (``rule`` :data:`RULE_PLAY`) or discard (:data:`RULE_DISCARD`):
    both take a card from the player's hand."""
    card = _parse_card(move.get("card"), state.species, rule)
    if card not in state.hands[seat]:
        raise IllegalMove(Msg("you have no {card} in hand", {"card": card_msg(card)}), rule)
    return card


def _play(state: ArboretumState, seat: int, move: Move) -> ArboretumState:
    card = _held_card(state, seat, move, RULE_PLAY)
    cell = _parse_cell(move.get("cell"))
    plantings = state.arboreta[seat]
    frontier = state.frontiers[seat]
    if plantings and cell not in frontier:
        if any(c == cell for c, _ in plantings):
            raise IllegalMove(Msg("that spot already holds a tree"), RULE_PLAY)
        raise IllegalMove(
            Msg("that spot is not next to your arboretum: plant beside a tree, not "
                "diagonally"),
            RULE_PLAY,
        )
    hand = state.hands[seat]
    drawn = state.just_drawn
    if hand.index(card) >= len(hand) - drawn:  # planted one of the cards drawn this turn
        drawn -= 1
    return ArboretumState(
        state.seed,
        state.species,
        state.deck,
        _set(state.hands, seat, _without(hand, card)),
        _set(state.arboreta, seat, (*plantings, (cell, card))),
        state.discards,
        state.turn,
        STEP_DISCARD,
        0,
        _set(state.frontiers, seat, _grown_frontier(frontier, plantings, cell)),
        drawn,
    )


def _discard(state: ArboretumState, seat: int, move: Move) -> ArboretumState:
    card = _held_card(state, seat, move, RULE_DISCARD)
    hands = _set(state.hands, seat, _without(state.hands[seat], card))
    discards = _set(state.discards, seat, (*state.discards[seat], card))
    if not state.deck:  # the deck's last card was drawn this turn: the game ends (spec §End)
        turn, step, draws = state.turn, STEP_OVER, 0
    else:
        turn, step, draws = (state.turn + 1) % len(hands), STEP_DRAW, DRAWS_PER_TURN
    return ArboretumState(  # the turn is over: no card of the next hand is new yet
        state.seed,
        state.species,
        state.deck,
        hands,
        state.arboreta,
        discards,
        turn,
        step,
        draws,
        state.frontiers,
    )


# --- scoring -----------------------------------------------------------------------------------


def scoring_rights(
    hands: Sequence[Iterable[Sequence[Any]]], species: Iterable[str] | None = None
) -> dict[str, set[int]]:
    """Rulebook "Puntuación de los caminos": who may score each species.

    For every species (default: all ten), the seats whose cards of that species in hand have
    the highest sum; ties all win. An 8 counts 0 when another seat holds the 1 of its species
    (the 1 always counts 1). If nobody holds the species, every seat has the right.
    """
    kinds = SPECIES if species is None else tuple(species)
    held = [{(str(card[0]), int(card[1])) for card in hand} for hand in hands]
    seats = range(len(held))
    rights: dict[str, set[int]] = {}
    for kind in kinds:
        sums = [0] * len(held)
        anyone = False
        for seat in seats:
            for s, v in held[seat]:
                if s != kind:
                    continue
                anyone = True
                if v == HIGHEST and any(
                    (kind, LOWEST) in held[other] for other in seats if other != seat
                ):
                    continue  # the 8 counts 0 against an opponent's 1
                sums[seat] += v
        if not anyone:
            rights[kind] = set(seats)
        else:
            top = max(sums)
            rights[kind] = {seat for seat in seats if sums[seat] == top}
    return rights


class Grid:
    """An arboretum prepared for path searches: its cards, its cells from the highest value
    down, and each cell's successors (the adjacent cells holding a higher value)."""

    __slots__ = ("cards", "order", "species_count", "succ")

    def __init__(self, cards: Mapping[Cell, Card]) -> None:
        self.cards: dict[Cell, Card] = dict(cards)
        grid = self.cards
        self.order: list[Cell] = sorted(grid, key=lambda cell: (-grid[cell][1], cell))
        self.succ: dict[Cell, list[Cell]] = {
            (r, c): [
                w for dr, dc in NEIGHBOURS if (w := (r + dr, c + dc)) in grid and grid[w][1] > v
            ]
            for (r, c), (_, v) in grid.items()
        }
        self.species_count: dict[str, int] = {}
        for kind, _ in grid.values():
            self.species_count[kind] = self.species_count.get(kind, 0) + 1

    def best_path(self, species: str) -> tuple[int, list[Cell]]:
        """See :func:`best_path`."""
        own_cards = self.species_count.get(species, 0)
        if own_cards < 2:
            return 0, []
        cards, succ = self.cards, self.succ
        with_pure = own_cards >= 4
        tail: dict[Cell, int] = {}
        tail_next: dict[Cell, Cell | None] = {}
        pure: dict[Cell, list[int]] = {}
        pure_next: dict[Cell, list[Cell | None]] = {}
        best = 0
        best_start: Cell | None = None
        best_first: Cell | None = None  # mixed path: the card after the start
        best_pure_len = 0  # pure path: its length (0: the best path is a mixed one)
        for u in self.order:
            s, v = cards[u]
            own = s == species
            t = (3 if v == HIGHEST else 1) if own else -1
            nxt: Cell | None = None
            follow, follow_cell = -1, None
            for w in succ[u]:
                if tail[w] > follow:
                    follow, follow_cell = tail[w], w
            if follow >= 0 and 1 + follow > t:
                t, nxt = 1 + follow, follow_cell
            tail[u] = t
            tail_next[u] = nxt
            if not own:
                continue
            start = 1 if v == LOWEST else 0
            if follow >= 0 and start + 1 + follow > best:
                best, best_start, best_first, best_pure_len = start + 1 + follow, u, follow_cell, 0
            if not with_pure:
                continue
            p = [-1] * 9
            pn: list[Cell | None] = [None] * 9
            p[1] = 2 if v == HIGHEST else 0
            for w in succ[u]:
                if cards[w][0] != species:
                    continue
                pw = pure[w]
                for k in range(2, 9):
                    if pw[k - 1] > p[k]:
                        p[k], pn[k] = pw[k - 1], w
            pure[u] = p
            pure_next[u] = pn
            for k in range(4, 9):
                if p[k] >= 0 and 2 * k + p[k] + start > best:
                    best, best_start, best_first, best_pure_len = 2 * k + p[k] + start, u, None, k
        if best_start is None:
            return 0, []
        path = [best_start]
        if best_pure_len:
            cur: Cell | None = best_start
            for k in range(best_pure_len, 1, -1):
                assert cur is not None
                cur = pure_next[cur][k]
                assert cur is not None
                path.append(cur)
        else:
            cur = best_first
            while cur is not None:
                path.append(cur)
                cur = tail_next[cur]
        return best, path


def best_path(arboretum: Mapping[Cell, Sequence[Any]], species: str) -> tuple[int, list[Cell]]:
    """Rulebook "Puntuar los caminos": the best path of ``species`` and its cells, in order.

    A path is a sequence of orthogonally adjacent cards of strictly increasing value whose first
    and last cards are of ``species`` (at least 2 cards). It scores 1 per card, +1 per card when
    it has at least 4 cards all of ``species``, +1 when it starts with a 1 and +2 when it ends
    with an 8. A card may belong to paths of several species. ``(0, [])`` when there is no path.

    Exact dynamic programming over the cards from the highest value down: ``tail[u]`` is the
    best (cards + end bonus) of a path starting at ``u`` and ending on ``species``; ``pure[u][k]``
    the best end bonus of a ``k``-card path of ``species`` cards only starting at ``u`` (such a
    path is worth 2 per card once it has 4 cards). Ties go to the first path found.
    """
    cards = {
        (int(cell[0]), int(cell[1])): (str(card[0]), int(card[1]))
        for cell, card in arboretum.items()
    }
    return Grid(cards).best_path(species)


def best_path_score(arboretum: Mapping[Cell, Sequence[Any]], species: str) -> int:
    """The value of the best path of ``species`` in one arboretum keyed by (row, col)."""
    return best_path(arboretum, species)[0]


def score_details(state: ArboretumState) -> JSON:
    """The final breakdown (rights, best paths, species counts, scores) of a state."""
    rights = scoring_rights(state.hands, state.species)
    paths: list[JSON] = []
    scores: list[int] = []
    counts: list[int] = []
    for seat in range(state.players):
        grid = Grid(dict(state.arboreta[seat]))
        mine: JSON = {}
        total = 0
        for kind in state.species:
            if seat in rights[kind]:
                points, cells = grid.best_path(kind)
                mine[kind] = {"score": points, "cells": [[r, c] for r, c in cells]}
                total += points
        paths.append(mine)
        scores.append(total)
        counts.append(len(grid.species_count))
    return {
        "species": list(state.species),
        "rights": {kind: sorted(rights[kind]) for kind in state.species},
        "paths": paths,
        "species_counts": counts,
        "scores": scores,
    }


def score_now(state: ArboretumState) -> tuple[int, ...]:
    """What each seat's arboretum is worth as the game stands, from what everyone sees
    (rulebook "Puntuación de los caminos"): the best path of every species, as if each seat
    kept the right to score it. Who holds that right is decided by the hands, which stay
    secret until the end, so a score read during the game must not depend on them (a replay's
    score line would tell the hands). Once the game is over, the result's scores (rights
    applied)."""
    if state.step == STEP_OVER:
        return tuple(score_details(state)["scores"])
    return tuple(sum(Grid(dict(arboretum)).best_path(kind)[0] for kind in state.species)
                 for arboretum in state.arboreta)


def result(state: ArboretumState) -> Result | None:
    """Final scores once the game is over (rulebook "Anunciar el ganador"), else ``None``."""
    if state.step != STEP_OVER:
        return None
    details = score_details(state)
    scores: list[int] = details["scores"]
    counts: list[int] = details["species_counts"]
    ranking = sorted(range(state.players), key=lambda seat: (-scores[seat], -counts[seat], seat))
    top = ranking[0]
    winners = tuple(
        seat for seat in ranking if scores[seat] == scores[top] and counts[seat] == counts[top]
    )
    return Result(scores=tuple(scores), ranking=tuple(ranking), winners=winners, details=details)


# --- persistence -------------------------------------------------------------------------------


def dump(state: ArboretumState) -> JSON:
    """The whole state as JSON (seed and deck order included: stored server-side only)."""
    return {
        "seed": state.seed,
        "species": list(state.species),
        "deck": [[s, v] for s, v in state.deck],
        "hands": [[[s, v] for s, v in hand] for hand in state.hands],
        "arboreta": [
            [[[r, c], [s, v]] for (r, c), (s, v) in plantings] for plantings in state.arboreta
        ],
        "discards": [[[s, v] for s, v in pile] for pile in state.discards],
        "turn": state.turn,
        "step": state.step,
        "draws_left": state.draws_left,
        "just_drawn": state.just_drawn,
    }


def _just_drawn_before_it_was_stored(step: str, draws_left: int, held: int) -> int:
    """``just_drawn`` of a state stored without it: every turn starts with a hand of 7 and
    adds the cards drawn at its end, so they are known until the play; once a card is
    planted, whether it was one of them is not, and none is marked for the rest of the turn."""
    if step == STEP_DRAW:
        return DRAWS_PER_TURN - draws_left
    if step == STEP_PLAY:
        return max(0, held - HAND_SIZE)
    return 0


def load(data: JSON) -> ArboretumState:
    """The state :func:`dump` produced, or an older dump without ``just_drawn`` (games stored
    before it carry on)."""

    def cards(items: Iterable[Sequence[Any]]) -> tuple[Card, ...]:
        return tuple((str(s), int(v)) for s, v in items)

    arboreta = tuple(
        tuple(((int(cell[0]), int(cell[1])), (str(card[0]), int(card[1]))) for cell, card in p)
        for p in data["arboreta"]
    )
    step = str(data["step"])
    if step not in STEPS:
        raise ValueError(f"unknown step {step!r}")
    hands = tuple(cards(hand) for hand in data["hands"])
    turn = int(data["turn"])
    draws_left = int(data["draws_left"])
    just_drawn = data.get("just_drawn")
    return ArboretumState(
        seed=int(data["seed"]),
        species=tuple(str(s) for s in data["species"]),
        deck=cards(data["deck"]),
        hands=hands,
        arboreta=arboreta,
        discards=tuple(cards(pile) for pile in data["discards"]),
        turn=turn,
        step=step,
        draws_left=draws_left,
        frontiers=tuple(frontier_of(p) for p in arboreta),
        just_drawn=(
            _just_drawn_before_it_was_stored(step, draws_left, len(hands[turn]))
            if just_drawn is None
            else int(just_drawn)
        ),
    )
