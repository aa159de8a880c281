"""Evo bot: decides from its seat's view and the legal moves only (it never sees the state), one
move per call. Rules are cited by the rulebook's Spanish headings (/work/shared/rules/evo.es.txt)
and the spec's sections (/work/shared/specs/evo.md).

MP are victory points ("Objeto del juego") and every dinosaur on the island at the end of a
round scores 1 MP ("Fase de supervivencia"), so everything is valued in MP:

- **Where a dinosaur stands.** A dinosaur that survives this round's climate is worth 1, plus
  ``FUTURE`` times its prospects for the next round: over the climate tokens still unseen
  (spec "Climate tokens"; the sixth-sense holder sees the next one), the chance that the next
  section of the wheel leaves its space temperate, or close to temperate ground
  (:meth:`_Table.prospects`). Survivors per climate follow ``survivors`` with the species'
  parasols and furs, cave dweller's save, the survival cards in hand and regeneration's floor.
- **Movement** ("Fase de movimiento"): every step is rated by what the dinosaurs are worth
  once it is made, counting those still doomed that the points left can bring to ground where
  they survive (nearest first, through empty spaces); the turn ends when no step beats
  stopping. An attack is rated over the six faces of the die (``attack_wins`` over
  ``DIE_FACES``): a win kills an opponent's dinosaur (worth ``KILL`` if it would have survived)
  and moves the attacker; a long shot (under ``MIN_ODDS``) is not taken.
- **Bidding** ("Fase de mutación"): each item is valued by what it brings over the rounds
  left (:func:`gene_value`); a bid is worth that value less its cost, weighed by the chance of
  being outbid before the bidding ends (then the best other column is taken), so the bot pays
  the least that keeps a gene worth having and bids 0 for what it does not need.
- **Birth** ("Fase de nacimiento"): a newborn goes where it survives and fares best next
  round; killer babies are born on an opponent's dinosaur when the 4-in-6 chance is worth it.
- **Survival** ("Fase de supervivencia"): among the legal ``keep`` choices, the survivors with
  the best prospects; in the sealed windows ("Cartas de evento") a card is played when it
  saves dinosaurs (or costs opponents theirs) now, else kept.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from app.games.base import JSON, Move
from app.games.evo.data import (
    CLIMATE_TOKENS,
    DIE_FACES,
    DINOSAURS_PER_PLAYER,
    KILLER_BABY_WIN_FACES,
    MAPS,
    MAX_BID,
    METEORITE,
    PILE_BOTTOM,
    TERRAINS,
    WHEEL,
    climate_of,
)
from app.games.evo.rules import attack_wins, geometry, survivors

Cell = tuple[int, int]

#: Weight of a dinosaur's prospects for the next round, against 1 for surviving this one.
FUTURE = 0.3
#: What each step of the way to safe ground costs (so the bot makes progress, nearest first).
STEP = 0.01
#: How a dinosaur's prospects fall with its distance from next round's temperate ground.
NEAR = (1.0, 0.7, 0.4, 0.15)
#: An opponent's dinosaur killed, against one of our own, with two players (shared among
#: the opponents beyond).
KILL = 1.0
#: An attack with a smaller chance of winning is not made.
MIN_ODDS = 0.3
#: What an event card is worth kept in hand for later.
CARD_KEEP = 0.3
#: The value of an event card won in the lab (column 1), in MP: a card is used once, a gene
#: for good, so the bot leaves the card to others when a gene is worth anything to it.
EVENT_VALUE = 0.3
#: Chance that one later bidder outbids a bid of 0 (less for higher bids, none for 6).
OUTBID = 0.4
#: The share of the dinosaurs that survive a round, for the forecasts of the lab.
SURVIVAL_RATE = 0.85
#: Value per round left of a movement point (half as much beyond 3 points).
LEGS = 0.25
#: Value per later round of a vial (1 MP off each later purchase that costs something).
VIAL = 0.5
#: Value per round left of genes whose worth the bot does not model in detail (horns count
#: in every fight, attacking and defending, and fights are frequent).
FLAT = {"horn": 0.36, "big_horn": 0.45, "bone_plates": 0.3, "thick_shell": 0.12,
        "fins": 0.1, "wings": 0.1, "regeneration": 0.2, "killer_babies": 0.2,
        "sixth_sense": 0.05, "adrenaline": 0.05, "chameleon": 0.06}
#: The climates a dinosaur can be in (spec "Terrains and climates").
CLIMATES = ("temperate", "hot", "cold", "deadly")


# --- the climate to come ("Fase climática", spec "Climate tokens") --------------------------


def token_odds(view: JSON) -> dict[int, float]:
    """How far the wheel turns at an unseen climate token: the normal tokens not yet revealed
    (the one set aside is unseen, so each is as likely), by steps clockwise."""
    left = {t.id: t.count for t in CLIMATE_TOKENS.values() if t.steps is not None}
    for token in view["climate_pile"]["revealed"]:
        if token in left:
            left[token] -= 1
    total = sum(left.values())
    odds: dict[int, float] = {}
    for token, n in left.items():
        steps = CLIMATE_TOKENS[token].steps
        if n > 0 and steps is not None and total > 0:
            odds[steps] = odds.get(steps, 0.0) + n / total
    return odds or {0: 1.0}


def next_sections(view: JSON) -> dict[int, float]:
    """The wheel's section next round and its chance: the sixth-sense holder knows the next
    token ("Sexto sentido"), the others weigh the tokens not yet revealed."""
    section = view["wheel"]["section"]
    known = view["climate_pile"]["next"]
    if known is not None and known != METEORITE:
        steps = CLIMATE_TOKENS[known].steps or 0
        return {(section + steps) % len(WHEEL): 1.0}
    return {(section + k) % len(WHEEL): p for k, p in token_odds(view).items()}


def rounds_left(view: JSON) -> float:
    """The survival phases still to come, this round's included ("Preparar": the meteorite
    lies among the bottom three of the twelve tokens, each place as likely; the token on
    place ``p`` ends the game before round ``p``)."""
    pile = view["climate_pile"]
    revealed = len(pile["revealed"])
    if METEORITE in pile["revealed"]:
        return 0.0
    if pile["next"] == METEORITE:
        return 1.0
    full = revealed + pile["count"]
    places = [p for p in range(full - PILE_BOTTOM + 1, full + 1) if p > revealed]
    if not places:
        return 1.0
    return sum(p - revealed for p in places) / len(places)


@cache
def _distance_to(players: int, terrain: str) -> Mapping[Cell, int]:
    """Path distance from every space to the nearest space of ``terrain`` (spec "Maps")."""
    geo = geometry(players)
    island = MAPS[players]
    frontier = [c for c in geo.cells if island.terrain[c] == terrain]
    distance = dict.fromkeys(frontier, 0)
    while frontier:
        nxt = []
        for cell in frontier:
            for near in geo.neighbours[cell]:
                if near not in distance:
                    distance[near] = distance[cell] + 1
                    nxt.append(near)
        frontier = nxt
    return distance


# --- the table as the bot sees it ---------------------------------------------------------------


@dataclass
class Allowance:
    """How many dinosaurs survive on hot, cold and deadly spaces, and regeneration's floor
    ("Fase de supervivencia", "Regeneración")."""

    hot: int
    cold: int
    deadly: int
    regeneration: bool

    def of(self, climate: str) -> int | None:
        """The allowance of a climate (None: temperate, no limit)."""
        return {"hot": self.hot, "cold": self.cold, "deadly": self.deadly}.get(climate)


class _Table:
    """What the bot reads from its view, computed once per call."""

    def __init__(self, view: JSON) -> None:
        self.view = view
        self.me: int = view["you"]
        self.players: int = view["players"]
        self.geo = geometry(self.players)
        self.terrain = MAPS[self.players].terrain
        self.board: dict[Cell, int] = {}
        self.climate: dict[Cell, str] = {}
        self.camouflaged: Cell | None = None
        for space in view["spaces"]:
            cell = (space["at"][0], space["at"][1])
            self.climate[cell] = space["climate"]
            if space["dinosaur"] is not None:
                self.board[cell] = space["dinosaur"]
            if space["camouflaged"]:
                self.camouflaged = cell
        self.seat: JSON = view["seats"][self.me]
        self.species: JSON = self.seat["species"]
        self.hand: list[str] = list(self.seat["hand"] or [])
        self.rounds = rounds_left(view)
        self.kill = KILL if self.players == 2 else 1.5 * KILL / (self.players - 1)
        self.prospect = self._prospects()

    # -- reading ---------------------------------------------------------------------------

    def mine(self) -> list[Cell]:
        return sorted(c for c, s in self.board.items() if s == self.me)

    def has(self, seat: int, gene: str) -> bool:
        return gene in self.view["seats"][seat]["species"]["unique"]

    def in_force(self, seat: int, card: str) -> bool:
        return card in self.view["seats"][seat]["in_force"]

    def by_opponent(self, seat: int, card: str) -> bool:
        return any(card in s["in_force"] for s in self.view["seats"] if s["seat"] != seat)

    def allowance(self, seat: int, cards: Iterable[str] = ()) -> Allowance:
        """Survival's allowances ("Fase de supervivencia"): parasols and furs with the cards
        in force (and ``cards`` the seat means to play), cave dweller and Shelter."""
        species = self.view["seats"][seat]["species"]
        played = set(cards) | set(self.view["seats"][seat]["in_force"])
        return Allowance(
            hot=max(0, species["parasols"] + ("sunshade" in played)
                    - self.by_opponent(seat, "heat_wave")),
            cold=max(0, species["furs"] + ("winter_coat" in played)
                     - self.by_opponent(seat, "cold_snap")),
            deadly=self.has(seat, "cave_dweller") + ("shelter" in played),
            regeneration=self.has(seat, "regeneration"))

    def my_allowance(self) -> Allowance:
        """Before the survival window has closed, the survival cards in hand count as played
        (the bot plays them when they save a dinosaur)."""
        early = self.view["phase"] in ("mutation", "initiative", "move-window", "movement",
                                       "birth", "survival-window")
        return self.allowance(self.me, self.hand if early else ())

    # -- prospects for the next round ----------------------------------------------------------

    def _prospects(self) -> dict[Cell, float]:
        """Each space's prospects next round (spec "Climate wheel"): over the sections the
        wheel may turn to, 1 on temperate ground, less the farther temperate ground lies."""
        prospects = dict.fromkeys(self.climate, 0.0)
        if self.rounds <= 1 and self.view["phase"] not in ("climate", "over"):
            return prospects  # the meteorite falls before the next survival phase
        for section, chance in next_sections(self.view).items():
            distance = _distance_to(self.players, WHEEL[section])
            for cell in prospects:
                d = distance.get(cell, len(NEAR))
                prospects[cell] += chance * (NEAR[d] if d < len(NEAR) else 0.0)
        return prospects

    # -- how many of a seat's dinosaurs survive ------------------------------------------------

    def kept(self, cells: Iterable[Cell], allow: Allowance,
             ) -> tuple[float, list[Cell], dict[str, int]]:
        """The worth of the dinosaurs on ``cells`` that survive in place (1 each plus their
        prospects; the best of each climate survive), the doomed ones, and the allowance left
        in each climate ("Fase de supervivencia", "Regeneración")."""
        groups: dict[str, list[Cell]] = {c: [] for c in CLIMATES}
        for cell in cells:
            groups[self.climate[cell]].append(cell)
        worth, doomed, spare = 0.0, [], {}
        total = 0
        for climate, group in groups.items():
            limit = allow.of(climate)
            if limit is None:
                n = len(group)
            elif climate == "deadly":
                n = min(len(group), limit)
            else:
                n = survivors(climate, len(group), limit, limit)
            group.sort(key=lambda c: -self.prospect[c])
            worth += sum(1 + FUTURE * self.prospect[c] for c in group[:n])
            doomed.extend(group[n:])
            total += len(group)
            if limit is not None:
                spare[climate] = limit - n
        if allow.regeneration:
            floor = min(3, total) - (total - len(doomed))
            doomed.sort(key=lambda c: -self.prospect[c])
            for cell in doomed[:max(0, floor)]:
                worth += 1 + FUTURE * self.prospect[cell]
            doomed = doomed[max(0, floor):]
        return worth, doomed, spare

    def rescue(self, doomed: list[Cell], occupied: set[Cell], points: int,
               spare: dict[str, int]) -> float:
        """What the movement points left can still save: each doomed dinosaur, nearest
        first, walks through empty spaces to the nearest space where it survives ("Fase de
        movimiento": one point per step, no passing through occupied spaces)."""
        worth = 0.0
        occupied = set(occupied)
        spare = dict(spare)
        routes = []
        for cell in doomed:
            found = self.nearest_safe(cell, occupied, points, spare)
            if found is not None:
                routes.append((found[1], cell))
        for _, cell in sorted(routes):
            if points <= 0:
                break
            found = self.nearest_safe(cell, occupied, points, spare)
            if found is None:
                continue
            target, distance = found
            points -= distance
            occupied.discard(cell)
            occupied.add(target)
            climate = self.climate[target]
            if climate in spare:
                spare[climate] -= 1
            worth += 1 + FUTURE * self.prospect[target] - STEP * distance
        return worth

    def nearest_safe(self, start: Cell, occupied: set[Cell], points: int,
                     spare: dict[str, int]) -> tuple[Cell, int] | None:
        """The nearest empty space within ``points`` steps where a dinosaur survives (the
        best prospects among the nearest), and its distance."""
        seen, frontier = {start}, [start]
        for distance in range(1, points + 1):
            nxt = [n for c in frontier for n in self.geo.neighbours[c]
                   if n not in seen and n not in occupied]
            seen.update(nxt)
            safe = [c for c in nxt if self.climate[c] == "temperate"
                    or spare.get(self.climate[c], 0) > 0]
            if safe:
                return max(safe, key=lambda c: (self.prospect[c], c)), distance
            frontier = nxt
        return None

    def worth(self, cells: list[Cell], points: int = 0,
              occupied: set[Cell] | None = None) -> float:
        """What the bot's dinosaurs on ``cells`` are worth, with ``points`` movement points
        left to save the doomed ones."""
        value, doomed, spare = self.kept(cells, self.my_allowance())
        if doomed and points > 0:
            if occupied is None:
                occupied = set(self.board)
            value += self.rescue(doomed, occupied, points, spare)
        return value

    def victim(self, cell: Cell) -> float:
        """What killing the opponent's dinosaur on ``cell`` is worth: ``KILL`` if it would
        survive where it stands (the doomed ones are worth less: they may still flee)."""
        owner = self.board[cell]
        climate = self.climate[cell]
        limit = self.allowance(owner).of(climate)
        safe = limit is None or limit > 0
        return self.kill * (1.0 if safe else 0.3)


# --- the lab ("Fase de mutación") ------------------------------------------------------------


def _growth(dinosaurs: float, eggs: int, rounds: float) -> float:
    """The MP a species scores over ``rounds`` rounds with ``eggs`` newborns per birth phase
    (at most 8 on the island, ``SURVIVAL_RATE`` of them surviving each round)."""
    total, whole = 0.0, int(rounds)
    for i in range(whole + 1):
        share = 1.0 if i < whole else rounds - whole
        if share <= 0:
            break
        dinosaurs = min(DINOSAURS_PER_PLAYER, dinosaurs + eggs) * SURVIVAL_RATE
        total += share * dinosaurs
    return total


def _sections_ahead(view: JSON, rounds: int) -> list[dict[int, float]]:
    """The wheel's section in this round and each of the next ``rounds - 1`` ones, with
    their chances (each unseen token drawn from those not yet revealed)."""
    odds = token_odds(view)
    ahead = [{view["wheel"]["section"]: 1.0}]
    for _ in range(rounds - 1):
        nxt: dict[int, float] = {}
        for section, p in ahead[-1].items():
            for k, q in odds.items():
                s = (section + k) % len(WHEEL)
                nxt[s] = nxt.get(s, 0.0) + p * q
        ahead.append(nxt)
    return ahead


def _shelter_value(table: _Table, climate: str) -> float:
    """"Capas de termorregulación", "Capas de piel", "Habitante de cueva": one more dinosaur
    survives on a hot (cold, deadly) space, each round the bot's dinosaurs outnumber the
    temperate spaces left to them and its allowances (over the sections the wheel may turn
    to)."""
    species = table.species
    dinosaurs = max(1.0, table.seat["dinosaurs"])
    others = sum(s["dinosaurs"] for s in table.view["seats"] if s["seat"] != table.me)
    spaces = {t: sum(1 for c in table.terrain if table.terrain[c] == t) for t in TERRAINS}
    allowed = species["parasols"] + species["furs"] + table.has(table.me, "cave_dweller")
    value = 0.0
    for j, sections in enumerate(_sections_ahead(table.view, max(1, round(table.rounds)))):
        mine = min(DINOSAURS_PER_PLAYER, dinosaurs + j * species["eggs"] * SURVIVAL_RATE)
        for section, p in sections.items():
            if climate not in {climate_of(section, t) for t in TERRAINS}:
                continue  # no hot ground when the beach is temperate, no cold on mountains
            room = spaces[WHEEL[section]] * mine / (mine + others)
            value += p * min(1.0, max(0.0, mine - room - allowed))
    return value + 0.05 * table.rounds


def gene_value(table: _Table, gene: str) -> float:
    """What a gene brings the bot over the rounds left, in MP ("Genes normales", "Genes
    únicos")."""
    rounds = table.rounds
    species = table.species
    if gene == "egg":
        here = float(table.seat["dinosaurs"])
        return (_growth(here, species["eggs"] + 1, rounds)
                - _growth(here, species["eggs"], rounds))
    if gene in ("legs", "strong_thighs"):
        per = LEGS if species["movement"] < 4 else LEGS / 2
        return per * rounds * (2 if gene == "strong_thighs" else 1)
    if gene == "parasol":
        return _shelter_value(table, "hot")
    if gene == "fur":
        return _shelter_value(table, "cold")
    if gene == "cave_dweller":
        return _shelter_value(table, "deadly")
    if gene == "vial":
        return VIAL * max(0.0, rounds - 1)
    return FLAT.get(gene, 0.05) * rounds


def _item_value(table: _Table, item: str | None) -> float:
    if item is None:
        return 0.0
    if item == "event":
        return EVENT_VALUE if table.rounds > 1 else 0.3
    return gene_value(table, item)


def _bid_cost(table: _Table, value: int) -> int:
    """"Vial alquímico", Bargain: the price of a bid."""
    discount = table.species["vials"] + 2 * table.in_force(table.me, "bargain")
    return max(0, value - discount)


def _bid_worth(table: _Table, move: Move, values: dict[int, float],
               later: int) -> float:
    """A bid's worth: the item's value less its cost, unless outbid by one of the ``later``
    bidders (less likely the higher the bid; never for 6, "si un jugador apuesta 6 en una
    columna, no se le puede superar"), when the best other column is taken instead."""
    column, value = move["column"], move["value"]
    gain = values[column] - _bid_cost(table, value)
    fallback = max((v for c, v in values.items() if c != column), default=0.0)
    chance = 0.0 if value >= MAX_BID else min(
        0.9, OUTBID * later * (MAX_BID - value) / MAX_BID)
    return (1 - chance) * gain + chance * min(fallback, gain)


def _bid(table: _Table, legal: list[Move]) -> Move:
    """"Fase de mutación": play the bid-time cards that help, then the bid worth most."""
    cards = {m["card"]: m for m in legal if m["type"] == "play_event"}
    if "mutation" in cards:
        return cards["mutation"]              # a free gene
    if "head_start" in cards:
        return cards["head_start"]            # first to move and to place newborns
    lab = table.view["lab"]["columns"]
    values = {c["column"]: _item_value(table, c["item"]) for c in lab if c["item"]}
    later = sum(1 for s in table.view["seats"]
                if s["seat"] != table.me and not any(
                    c["marker"] is not None and c["marker"]["seat"] == s["seat"]
                    for c in lab))
    bids = [m for m in legal if m["type"] == "bid"]
    if not bids:
        return legal[0]
    best = max(bids, key=lambda m: _bid_worth(table, m, values, later))
    if "bargain" in cards and _bid_cost(table, best["value"]) >= 2:
        return cards["bargain"]
    return best


# --- movement ("Fase de movimiento") ---------------------------------------------------------


def _cell(value: list[int]) -> Cell:
    return (value[0], value[1])


def _moved(cells: list[Cell], start: Cell, end: Cell) -> list[Cell]:
    return [end if c == start else c for c in cells]


def win_chance(attack: int, defence: int) -> float:
    """The chance an attack wins: the faces of the die on which ``attack_wins`` says so."""
    return sum(attack_wins(attack, defence, f) == "win" for f in DIE_FACES) / len(DIE_FACES)


def _step_worth(table: _Table, move: Move, points: int) -> float:
    """What a step (or a card played in the turn) leaves the bot's dinosaurs worth."""
    mine = table.mine()
    occupied = set(table.board)
    if move["type"] == "play_event":
        if move["card"] == "sprint":
            return table.worth(mine, points + 2) - CARD_KEEP
        start, end = _cell(move["from"]), _cell(move["to"])
        occupied = (occupied - {start}) | {end}
        return table.worth(_moved(mine, start, end), points, occupied) - CARD_KEEP
    start, end = _cell(move["from"]), _cell(move["to"])
    after = _moved(mine, start, end)
    if move["type"] != "attack":
        return table.worth(after, points - 1, (occupied - {start}) | {end})
    defender = table.board[end]
    attack = table.species["attack_horns"]
    defence = table.view["seats"][defender]["species"]["defence_horns"]
    chance = win_chance(attack, defence)
    if chance < MIN_ODDS:
        return -1.0
    flees = table.has(defender, "chameleon") and any(
        n not in table.board for n in table.geo.neighbours[end] if n != start)
    won = table.worth(after, points - 1, occupied - {start}) + (
        0.0 if flees else table.victim(end))
    lost = table.worth(mine, points - 1, occupied)
    return chance * won + (1 - chance) * lost


def _movement(table: _Table, legal: list[Move]) -> Move:
    """One step of the movement turn, or ``done`` when no step beats stopping."""
    points = table.view["turn"]["points"] if table.view["turn"] else 0
    done: Move = {"type": "done"}
    stop = table.worth(table.mine(), 0)
    candidates = [m for m in legal if m["type"] != "done" and _worth_trying(table, m)]
    scored = [(_step_worth(table, m, points), i) for i, m in enumerate(candidates)]
    if scored:
        value, i = max(scored)
        if value > stop + 1e-6:
            return candidates[i]
    return done if done in legal else legal[0]


def _worth_trying(table: _Table, move: Move) -> bool:
    """Migration is tried only for a doomed dinosaur onto ground where it survives (the
    other migrations cannot beat an ordinary step)."""
    if move["type"] != "play_event" or move["card"] != "migration":
        return True
    _, doomed, _ = table.kept(table.mine(), table.my_allowance())
    return (_cell(move["from"]) in doomed
            and table.climate[_cell(move["to"])] == "temperate")


def _flee(table: _Table, legal: list[Move]) -> Move:
    """"Piel de camaleón": step aside to where the dinosaur fares best, rather than die."""
    beaten = _cell(table.view["flee"]["at"])
    mine = table.mine()

    def worth(move: Move) -> float:
        if move["to"] is None:
            return table.worth([c for c in mine if c != beaten])
        return table.worth(_moved(mine, beaten, _cell(move["to"])))

    return max(legal, key=worth)


# --- birth ("Fase de nacimiento") ----------------------------------------------------------------


def _place_worth(table: _Table, move: Move, base: float) -> float:
    """What a newborn adds where it is born; a killer baby wins its space on 4 faces in 6
    ("Bebés Asesinos")."""
    mine = table.mine()
    at = _cell(move["at"])
    gain = table.worth([*mine, at]) - base
    if at not in table.board:
        return gain
    chance = sum(f in KILLER_BABY_WIN_FACES for f in DIE_FACES) / len(DIE_FACES)
    return chance * (gain + table.victim(at))


def _birth(table: _Table, legal: list[Move]) -> Move:
    """Place each newborn where it survives and fares best; Fertile Season when a safe space
    waits for one more, Nomad Nest when safe ground lies only farther away."""
    base = table.worth(table.mine())
    places = [m for m in legal if m["type"] == "place"]
    scored = sorted(((_place_worth(table, m, base), i) for i, m in enumerate(places)),
                    reverse=True)
    good = [places[i] for value, i in scored if value > 0.5]
    cards = {m["card"]: m for m in legal if m["type"] == "play_event"}
    newborns = table.seat["newborns"]
    if "fertility" in cards and len(good) > newborns and table.seat["supply"] > newborns:
        return cards["fertility"]
    if "nest" in cards and len(good) < newborns and _farther_ground(table) > len(good):
        return cards["nest"]
    if scored and scored[0][0] > 0:
        return places[scored[0][1]]
    return {"type": "done"} if {"type": "done"} in legal else legal[0]


def _farther_ground(table: _Table) -> int:
    """Empty temperate spaces up to 3 spaces from the bot's dinosaurs (Nomad Nest)."""
    near = {n for c in table.mine() for n in table.geo.within3[c]}
    return sum(1 for c in near if c not in table.board and table.climate[c] == "temperate")


# --- the sealed windows ("Cartas de evento") -----------------------------------------------------


def _survivors_count(table: _Table, seat: int, cards: Iterable[str] = ()) -> float:
    cells = [c for c, s in table.board.items() if s == seat]
    worth, _, _ = table.kept(cells, table.allowance(seat, cards))
    return worth


def _window_worth(table: _Table, move: Move) -> float:
    """A window's choice: survival cards by the dinosaurs they save now (or cost the
    opponents), movement cards by the fights in sight; every card played gives up
    ``CARD_KEEP``."""
    if move["type"] == "pass":
        return 0.0
    cards = [entry["card"] for entry in move["cards"]]
    value = -CARD_KEEP * len(cards)
    if table.view["phase"] == "survival-window":
        mine = [c for c in cards if c in ("winter_coat", "sunshade", "shelter")]
        value += _survivors_count(table, table.me, mine) - _survivors_count(table, table.me)
        for seat in range(table.players):
            if seat == table.me:
                continue
            cells = [c for c, s in table.board.items() if s == seat]
            allow = table.allowance(seat)
            after = Allowance(allow.hot - ("heat_wave" in cards) if allow.hot else 0,
                              allow.cold - ("cold_snap" in cards) if allow.cold else 0,
                              allow.deadly, allow.regeneration)
            lost = table.kept(cells, allow)[0] - table.kept(cells, after)[0]
            value += table.kill * lost
        return value
    fights = _fights(table)
    for entry in move["cards"]:
        if entry["card"] == "rage":
            value += 0.5 * min(2, fights[0])
        elif entry["card"] == "herd":
            value += 0.25 * min(2, fights[1])
        elif entry["card"] == "camouflage":
            at = _cell(entry["at"])
            value += 0.25 * sum(1 for n in table.geo.neighbours[at]
                                if table.board.get(n, table.me) != table.me)
    return value


def _fights(table: _Table) -> tuple[int, int]:
    """Pairs of neighbouring dinosaurs, the bot's against an opponent's: those it could
    attack, and those that threaten it."""
    mine = table.mine()
    attacks = threats = 0
    for cell in mine:
        for near in table.geo.neighbours[cell]:
            owner = table.board.get(near)
            if owner is None or owner == table.me:
                continue
            threats += 1
            if near != table.camouflaged:
                attacks += 1
    return attacks, threats


def _window(table: _Table, legal: list[Move]) -> Move:
    return max(legal, key=lambda m: _window_worth(table, m))


# --- survival and initiative -------------------------------------------------------------------


def _keep(table: _Table, legal: list[Move]) -> Move:
    """"Fase de supervivencia": every survivor scores 1 MP, so keep those with the best
    prospects for the next round."""
    return max(legal, key=lambda m: sum(table.prospect[_cell(c)] for c in m["at"]))


def _initiative(legal: list[Move]) -> Move:
    """"Subidón de adrenalina": first place, to reach temperate ground and the best birth
    spaces before anyone else."""
    return min(legal, key=lambda m: m["position"])


# --- the entry point ------------------------------------------------------------------------------


def bot_move(view: JSON, legal: list[Move], rng: random.Random) -> Move:
    """The bot's move for its seat (``view["you"]``), chosen among ``legal``."""
    if len(legal) == 1:
        return legal[0]
    kinds = {m["type"] for m in legal}
    table = _Table(view)
    if "flee" in kinds:
        return _flee(table, legal)
    if "keep" in kinds:
        return _keep(table, legal)
    if "initiative" in kinds:
        return _initiative(legal)
    if kinds & {"play_events", "pass"}:
        return _window(table, legal)
    if "bid" in kinds or view["phase"] == "mutation":
        return _bid(table, legal)
    if view["phase"] == "birth":
        return _birth(table, legal)
    if view["phase"] == "movement":
        return _movement(table, legal)
    return rng.choice(legal)

