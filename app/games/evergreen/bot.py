"""Evergreen bot: decides from its seat's view and the legal moves only (DESIGN.md §6).

One greedy step per call, valued by a local estimate of what a piece change is worth:

- light (LGT-1…4) under the sun of the coming season end (weight 1) and of the later season
  ends (smaller weights), computed on the few cells of the changed cell's line that can change;
- the largest forest (FOR-1…2) for every season end left, plus a small bonus for joining
  forests (keeps forests connected);
- fertility (FIN-1): a large tree is worth its biome's current fertility;
- the future of sprouts and small trees while rounds are left.

Picks (SEL-3) value each row card by the best action in its biome (ACT-1…5) plus its power at
the next track position (POW-2), so bloom is taken when its points beat growing. In the act
phase the bot uses planting and lake powers before its action and growing powers after it
(TIM-1), spends positive effects only — except the one application an activated power owes
(POW-3: ``done`` and the action wait for it), which it makes with its best cell — never
undoes, and always ends with ``done`` (TIM-3).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from app.games.base import JSON, Move
from app.games.evergreen.data import SEASONS, TRACKS
from app.games.evergreen.scoring import SHADOW_STEP

Cell = tuple[int, int]

_SIZE: dict[str | None, int] = {"small": 1, "large": 2}
_FOREST = frozenset({"small", "large", "bush"})
_GROWS_TO: dict[str, str] = {"sprout": "small", "small": "large"}
_ORTHOGONAL: tuple[Cell, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))
#: Later season ends count for less: the planet will have changed by then.
_LATER_WEIGHT = 0.8
#: Powers used before the action; the growing powers come after it (they grow its sprouts).
_POWER_FIRST = frozenset({"sprout", "bush", "lake", "bloom"})


@dataclass
class _Ctx:
    """What the bot reads from its view, prepared for fast gain estimates."""

    planet: dict[Cell, str]
    biome_of: dict[Cell, str]
    fertility: dict[str, int]
    suns: list[tuple[str, float]]
    season_ends: int
    rounds_left: int
    component: dict[Cell, int]
    sizes: list[int]
    largest: int

    def potential(self, piece: str | None) -> float:
        """The future worth of a piece that can still grow."""
        if piece == "sprout":
            return 0.9 if self.rounds_left >= 2 else (0.3 if self.rounds_left == 1 else 0.0)
        if piece == "small":
            return 0.8 if self.rounds_left >= 1 else 0.0
        return 0.0

    def light_delta(self, cell: Cell, new: str | None) -> float:
        """Weighted change of light points if ``cell`` held ``new`` (LGT-3 locally)."""
        old_size = _SIZE.get(self.planet.get(cell), 0)
        new_size = _SIZE.get(new, 0)
        if old_size == new_size:
            return 0.0
        total = 0.0
        r, c = cell
        for sun, weight in self.suns:
            dr, dc = SHADOW_STEP[sun]
            line = [_SIZE.get(self.planet.get((r + k * dr, c + k * dc)), 0) for k in range(-2, 3)]
            before = _lit(line)
            line[2] = new_size
            total += weight * (_lit(line) - before)
        return total

    def gain(self, cell: Cell, new: str) -> float:
        """Estimated worth of putting ``new`` on ``cell`` (instead of what is there)."""
        old = self.planet.get(cell)
        value = self.light_delta(cell, new) + self.potential(new) - self.potential(old)
        if new in _FOREST and old not in _FOREST:
            joined = {self.component[n] for n in _neighbours(cell) if n in self.component}
            merged = 1 + sum(self.sizes[i] for i in joined)
            value += self.season_ends * max(0, merged - self.largest) + 0.25 * (merged - 1)
        if new == "large":
            value += self.fertility.get(self.biome_of.get(cell, ""), 0) + 0.5
        if new == "sprout":
            value += 0.3 * self.light_delta(cell, "small")
        return value

    def grow_gain(self, cell: Cell) -> float:
        piece = self.planet.get(cell)
        return self.gain(cell, _GROWS_TO[piece]) if piece in _GROWS_TO else 0.0

    def lake_gain(self, cell: Cell) -> float:
        """A lake is worth the best two grows next to it (POW-5)."""
        grows = sorted((self.grow_gain(n) for n in _neighbours(cell)), reverse=True)
        return sum(g for g in grows[:2] if g > 0) - 0.2


def _neighbours(cell: Cell) -> list[Cell]:
    return [(cell[0] + dr, cell[1] + dc) for dr, dc in _ORTHOGONAL]


def _lit(line: list[int]) -> int:
    """Light points of positions 2…4 of a 5-cell line in shadow order (LGT-3)."""
    total = 0
    for j in (2, 3, 4):
        size = line[j]
        if size and not (line[j - 1] >= size or line[j - 2] == 2):
            total += size
    return total


def _context(view: JSON) -> _Ctx:
    me = view["seats"][view["you"]]
    planet: dict[Cell, str] = {}
    biome_of: dict[Cell, str] = {}
    for line in me["planet"]:
        for cell in line:
            if cell is None:
                continue
            key = (cell["cell"][0], cell["cell"][1])
            if cell["piece"] is not None:
                planet[key] = cell["piece"]
            if cell["biome"] is not None:
                biome_of[key] = cell["biome"]
    season = view["season_index"]
    suns = [
        (entry["sun"], 1.0 if i == season else _LATER_WEIGHT)
        for i, entry in enumerate(view["seasons"])
        if i >= season
    ]
    rounds_left = (
        view["rounds_in_season"]
        - view["round"]
        + sum(rounds for _, rounds in SEASONS[season + 1 :])
    )
    component: dict[Cell, int] = {}
    sizes: list[int] = []
    for start, piece in planet.items():
        if piece not in _FOREST or start in component:
            continue
        index = len(sizes)
        component[start] = index
        stack = [start]
        count = 0
        while stack:
            cell = stack.pop()
            count += 1
            for n in _neighbours(cell):
                if n not in component and planet.get(n) in _FOREST:
                    component[n] = index
                    stack.append(n)
        sizes.append(count)
    fertility = {zone["biome"]: zone["fertility"] for zone in view["fertility_zone"]}
    return _Ctx(
        planet=planet,
        biome_of=biome_of,
        fertility=fertility,
        suns=suns,
        season_ends=len(suns),
        rounds_left=rounds_left,
        component=component,
        sizes=sizes,
        largest=max(sizes, default=0),
    )


def _cell(move: Move) -> Cell:
    return (move["cell"][0], move["cell"][1])


def _move_gain(ctx: _Ctx, move: Move) -> float:
    kind = move["type"]
    if kind == "plant":
        return ctx.gain(_cell(move), "sprout")
    if kind == "grow":
        return ctx.grow_gain(_cell(move))
    if kind == "bush":
        return ctx.gain(_cell(move), "bush")
    if kind == "lake":
        return ctx.lake_gain(_cell(move))
    return 0.0


def _best(ctx: _Ctx, moves: list[Move]) -> tuple[float, Move | None]:
    best: tuple[float, Move | None] = (0.0, None)
    for move in moves:
        value = _move_gain(ctx, move)
        if value > best[0] + 1e-9:
            best = (value, move)
    return best


def _top(values: list[float], n: int) -> float:
    return sum(v for v in sorted(values, reverse=True)[:n] if v > 0)


def _choose_pick(view: JSON, legal: list[Move]) -> Move:
    """SEL-3: the card whose best action plus power is worth most."""
    ctx = _context(view)
    me = view["seats"][view["you"]]
    plant: dict[Cell, float] = {}
    grow: dict[Cell, float] = {}
    for cell in ctx.biome_of:
        piece = ctx.planet.get(cell)
        if piece is None:
            plant[cell] = ctx.gain(cell, "sprout")
        elif piece in _GROWS_TO:
            grow[cell] = ctx.grow_gain(cell)
    cards = view["cards"]

    def action_value(biome: str) -> float:
        inside_plant = [v for c, v in plant.items() if biome == "wild" or ctx.biome_of[c] == biome]
        inside_grow = [v for c, v in grow.items() if biome == "wild" or ctx.biome_of[c] == biome]
        return max(
            _top(inside_plant, 3),
            _top(inside_grow, 2),
            _top(inside_plant, 1) + _top(inside_grow, 1),
            _top(list(plant.values()) + list(grow.values()), 1),
        )

    def power_value(power: str) -> float:
        track = next(t for t in me["tracks"] if t["power"] == power)
        position = track["position"]
        budget = TRACKS[power][min(position + 1, 5)]
        upgrade = 0.3 * (budget - TRACKS[power][position]) * min(1.0, ctx.rounds_left / 4)
        if power == "bloom":
            return budget + upgrade
        if power == "sprout":
            value = 0.8 * _top(list(plant.values()), budget)
        elif power == "grow_small":
            value = _top([v for c, v in grow.items() if ctx.planet[c] == "sprout"], budget)
        elif power == "grow_large":
            value = _top([v for c, v in grow.items() if ctx.planet[c] == "small"], budget)
        elif power == "bush":
            value = _top([ctx.gain(c, "bush") for c in plant], budget)
        else:
            value = _top([ctx.lake_gain(c) for c in plant], budget)
        return value + upgrade

    def card_value(move: Move) -> float:
        card = cards[str(move["card"])]
        return action_value(card["biome"]) + power_value(card["power"])

    return max(legal, key=card_value)


def _action_plan(ctx: _Ctx, turn: JSON, biome: str, moves: list[Move]) -> tuple[float, Move | None]:
    """ACT-1…6: the consistent action whose remaining effects are worth most, and its next
    effect. ``moves`` are the legal action effects (each consistent with some action)."""
    if not moves:
        return 0.0, None
    effects = turn["effects"]
    used = {(e["cell"][0], e["cell"][1]) for e in effects}
    plants_done = sum(1 for e in effects if e["kind"] == "plant")
    grows_done = len(effects) - plants_done
    scored = [(_move_gain(ctx, m), m) for m in moves]
    scored.sort(key=lambda item: -item[0])

    def inside(move: Move) -> bool:
        return biome == "wild" or ctx.biome_of.get(_cell(move)) == biome

    plants = [(v, m) for v, m in scored if m["type"] == "plant" and v > 0.05 and inside(m)]
    grows = [
        (v, m)
        for v, m in scored
        if m["type"] == "grow" and v > 0.05 and inside(m) and _cell(m) not in used
    ]
    best: tuple[float, Move | None] = (0.0, None)
    for action in turn["actions"]:
        chosen: list[tuple[float, Move]] = []
        if action == "A":
            chosen = plants[: 3 - len(effects)]
        elif action == "B":
            chosen = grows[: 2 - len(effects)]
        elif action == "C":
            chosen = (plants[:1] if not plants_done else []) + (grows[:1] if not grows_done else [])
        elif action == "D" and not effects and scored[0][0] > 0.05:
            chosen = [scored[0]]  # one effect anywhere
        if not chosen:
            continue
        total = sum(v for v, _ in chosen)
        if total > best[0] + 1e-9:
            best = (total, max(chosen, key=lambda item: item[0])[1])
    return best


def _choose_act(view: JSON, legal: list[Move]) -> Move:
    """One act-phase step; the power block and the action block stay uninterrupted."""
    ctx = _context(view)
    me = view["seats"][view["you"]]
    turn = me["turn"]
    power = turn["power"]["name"]
    biome = view["cards"][str(me["card"])]["biome"]
    action_moves = [m for m in legal if m.get("by") == "action"]
    lake_grows = [m for m in legal if m.get("by") == "lake"]
    applications = [m for m in legal if m.get("by") == "power" or m["type"] in ("bush", "lake")]
    activate = [m for m in legal if m["type"] == "power"]
    done: Move = {"type": "done"}
    if applications and done not in legal:
        # POW-3: the activated power owes its first application; the best one, even if poor.
        return max(applications, key=lambda m: _move_gain(ctx, m))
    for group in (lake_grows, applications):
        value, move = _best(ctx, group)
        if move is not None and value > 0.05:
            return move
    if activate and power in _POWER_FIRST and not turn["effects"]:
        return activate[0]
    value, move = _action_plan(ctx, turn, biome, action_moves)
    if move is not None:
        return move
    if activate:
        return activate[0]
    if done in legal:
        return done
    return next((m for m in legal if m["type"] != "undo"), legal[-1])


def bot_move(view: JSON, legal: list[Move], rng: random.Random) -> Move:
    """The bot's move for its seat (``view["you"]``), chosen among ``legal``."""
    if not legal:
        raise ValueError("the bot has no legal move")
    if len(legal) == 1:
        return legal[0]
    if legal[0]["type"] == "pick":
        return _choose_pick(view, legal)
    return _choose_act(view, legal)
