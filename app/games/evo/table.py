"""What Evo's table offers a seat, from its view and legal moves only: the regions, the island
drawn as hexes (:data:`ISLANDS`), :func:`controls` — the spaces lit for this step, the
two-click "choose a dinosaur, then where it goes" of movement and Migration, the lab's bids,
the cards to play, the prompt's buttons —, the outlook of this round's climate for each
species, and the words for waiting seats. It only sorts the moves ``legal_moves`` lists: no
rule is decided here or in the page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.games.base import JSON, Move, Region
from app.games.evo import data, rules

#: The regions every table has, in page order: the prompt (whose turn, what is asked, its
#: buttons), the final scoring, the last die roll (a region of its own, so that its short
#: animation plays only when a new roll arrives), the island, your event hand, the climate
#: wheel, the biology lab, the round and initiative track. Each species sheet is a region.
SHARED_REGIONS = ("prompt", "scores", "roll", "island", "hand", "climate", "lab", "track")


def regions(players: int) -> tuple[Region, ...]:
    return (*(Region(name, name) for name in SHARED_REGIONS),
            *(Region(f"sheet-{seat}", "sheet", seat) for seat in range(players)))


# --- the island as the page draws it -----------------------------------------------------------

ROOT3 = math.sqrt(3)


@dataclass(frozen=True)
class Hex:
    """One space as drawn: its centre and corners in the picture's units (a hex of radius 1,
    pointy top), and its centre in per cent of the picture (where its controls sit)."""

    key: str
    at: tuple[int, int]
    terrain: str
    coastal: bool
    x: float
    y: float
    points: str
    left: float
    top: float


@dataclass(frozen=True)
class Island:
    """The board of one player count: its spaces, the coastline (the edges that face the sea)
    as one SVG path, the picture's view box, and how many hexes wide it is (the page keeps
    each at least 38 px wide on phones)."""

    spaces: tuple[Hex, ...]
    coast: str
    view_box: str
    width: float
    height: float
    columns: int
    #: The size of a space's controls, in per cent of the picture's width.
    control: float


def _centre(cell: tuple[int, int]) -> tuple[float, float]:
    q, r = cell
    return ROOT3 * (q + r / 2), 1.5 * r


def _corner(x: float, y: float, degrees: float) -> tuple[float, float]:
    angle = math.radians(degrees)
    return round(x + math.cos(angle), 3), round(y + math.sin(angle), 3)


def _island(players: int) -> Island:
    board = data.MAPS[players]
    centres = {cell: _centre(cell) for cell in board.terrain}
    xs = [x for x, _ in centres.values()]
    ys = [y for _, y in centres.values()]
    pad = 0.25
    left, top = min(xs) - ROOT3 / 2 - pad, min(ys) - 1 - pad
    width, height = max(xs) - min(xs) + ROOT3 + 2 * pad, max(ys) - min(ys) + 2 + 2 * pad
    spaces, coast = [], []
    for cell, (x, y) in sorted(centres.items(), key=lambda item: (item[0][1], item[0][0])):
        corners = [_corner(x, y, 30 + 60 * i) for i in range(6)]
        for dq, dr in data.NEIGHBOUR_STEPS:
            if (cell[0] + dq, cell[1] + dr) in board.terrain:
                continue
            nx, ny = _centre((cell[0] + dq, cell[1] + dr))
            facing = math.degrees(math.atan2(ny - y, nx - x))
            (ax, ay), (bx, by) = _corner(x, y, facing - 30), _corner(x, y, facing + 30)
            coast.append(f"M{ax} {ay}L{bx} {by}")
        spaces.append(Hex(
            key=f"{cell[0]},{cell[1]}", at=cell, terrain=board.terrain[cell],
            coastal=cell in board.coastal, x=round(x, 3), y=round(y, 3),
            points=" ".join(f"{cx},{cy}" for cx, cy in corners),
            left=round((x - left) / width * 100, 3), top=round((y - top) / height * 100, 3)))
    columns = round((max(xs) - min(xs)) / ROOT3) + 1
    return Island(spaces=tuple(spaces), coast="".join(coast),
                  view_box=f"{left:.3f} {top:.3f} {width:.3f} {height:.3f}",
                  width=round(width, 3), height=round(height, 3), columns=columns,
                  control=round(ROOT3 / width * 100, 3))


#: The island of each player count (R: 2 small front, 3 small back, 4 large front, 5 large back).
ISLANDS = {players: _island(players) for players in data.MAPS}


# --- words -------------------------------------------------------------------------------------


def _key(cell: list[int]) -> str:
    return f"{cell[0]},{cell[1]}"


def space_words(view: JSON, cell: list[int]) -> str:
    """ "the hills at (2, -1)", as the log names a space."""
    terrain = data.MAPS[view["players"]].terrain[(cell[0], cell[1])]
    return f"the {data.TERRAIN_NAMES[terrain]} at ({cell[0]}, {cell[1]})"


def _owner(view: JSON, cell: list[int], names: list[str]) -> str:
    for space in view["spaces"]:
        if space["at"] == cell and space["dinosaur"] is not None:
            seat = space["dinosaur"]
            return "your" if seat == view["you"] else f"{names[seat]}'s"
    return "a"


def _occupied(view: JSON, cell: list[int]) -> bool:
    return any(s["at"] == cell and s["dinosaur"] is not None for s in view["spaces"])


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def cards_words(view: JSON, cards: list[JSON]) -> str:
    words = []
    for entry in cards:
        name = data.EVENT_CARDS[entry["card"]].name
        if entry.get("at") is not None:
            name += f" on your dinosaur on {space_words(view, entry['at'])}"
        words.append(name)
    return " and ".join(words) if words else "no card"


def win_faces(attack: int, defence: int) -> int:
    """On how many of the die's six faces an attack with these horns wins (attack_wins)."""
    return sum(rules.attack_wins(attack, defence, face) == "win" for face in data.DIE_FACES)


# --- what the table offers to click ------------------------------------------------------------

#: How a target is marked on the island, and the words of each kind of step.
STEP_WORDS = {"move": "Move", "attack": "Attack", "fly": "Fly", "swim": "Swim"}
#: Where two kinds of step reach the same space, the one offered (moving costs no flight).
STEP_ORDER = ("move", "attack", "swim", "fly")


class _Island:
    """The controls laid on the island, space by space, and the style rules that show a
    dinosaur's targets once it is chosen."""

    def __init__(self) -> None:
        self.spaces: dict[str, list[JSON]] = {}
        self.rules: list[str] = []

    def add(self, cell: list[int], item: JSON) -> None:
        self.spaces.setdefault(_key(cell), []).append(item)

    def two_clicks(self, view: JSON, names: list[str], group: str, moves: list[Move],
                   what: str, gate: str = "") -> None:
        """Each dinosaur that may go somewhere is a radio; choosing one lights the spaces it
        may go to, each a button making that move. ``gate``: a selector that must hold too
        (the Migration card chosen)."""
        by_origin: dict[str, dict[str, Move]] = {}
        for move in moves:
            targets = by_origin.setdefault(_key(move["from"]), {})
            known = targets.get(_key(move["to"]))
            if known is None or STEP_ORDER.index(move["type"]) < STEP_ORDER.index(known["type"]):
                targets[_key(move["to"])] = move
        me = view["seats"][view["you"]]["species"]
        for origin, targets in by_origin.items():
            start = next(iter(targets.values()))["from"]
            self.add(start, {"kind": "origin", "group": f"evo-from-{group}", "value": origin,
                             "cls": f"org org-{group}",
                             "label": f"{what}: choose your dinosaur on "
                                      f"{space_words(view, start)}"})
            chosen = f'input[name="evo-from-{group}"][value="{origin}"]:checked'
            target_cls = f"tgt-{group}-{origin.replace(',', '_').replace('-', 'm')}"
            self.rules.append(f".evo{gate}:has({chosen}) .{target_cls} {{ display: flex; }}")
            for move in targets.values():
                kind = move["type"]
                where = space_words(view, move["to"])
                if kind == "attack":
                    defender = next(s["dinosaur"] for s in view["spaces"]
                                    if s["at"] == move["to"])
                    odds = win_faces(me["attack_horns"],
                                     view["seats"][defender]["species"]["defence_horns"])
                    label = (f"Attack {_owner(view, move['to'], names)} dinosaur on {where}: "
                             f"wins on {odds} of the die's 6 faces")
                elif kind == "play_event":
                    label = f"{what}: move it free to {where}"
                    kind = "migrate"
                else:
                    label = f"{STEP_WORDS[kind]} from {space_words(view, start)} to {where}"
                self.add(move["to"], {"kind": "act", "move": move, "label": label,
                                      "cls": f"tgt {target_cls} step-{kind}"})


def controls(view: JSON, legal: list[Move], seat: int | None, names: list[str]) -> JSON:
    """What ``seat``'s table offers now, from its legal moves: the controls on the island
    (``spaces`` by ``"q,r"``, with the style ``rules`` of two-click choices), the lab's bids
    by column, the cards to play from the hand, the tool cards that need the island
    (Migration), and the prompt's buttons."""
    island = _Island()
    found: JSON = {"spaces": island.spaces, "rules": island.rules, "bids": {}, "plays": {},
                   "tools": {}, "prompt": [], "done": None}
    if seat is None or not legal:
        return found
    steps = [m for m in legal if m["type"] in rules.STEPS]
    migrations = [m for m in legal if m["type"] == "play_event" and "to" in m]
    if steps:
        island.two_clicks(view, names, "step", steps, "Movement")
    if migrations:
        gate = ":has(#evo-tool-migration:checked)"
        island.two_clicks(view, names, "mig", migrations, "Migration", gate)
        found["tools"]["migration"] = True
    for move in legal:
        kind = move["type"]
        if kind == "bid":
            found["bids"].setdefault(move["column"], []).append(move)
        elif kind == "play_event" and "to" not in move:
            found["plays"][move["card"]] = move
        elif kind == "place":
            where = space_words(view, move["at"])
            if _occupied(view, move["at"]):
                faces = sum(f in data.KILLER_BABY_WIN_FACES for f in data.DIE_FACES)
                label = (f"Killer baby on {_owner(view, move['at'], names)} dinosaur on "
                         f"{where}: kills it on {faces} of the die's 6 faces")
                island.add(move["at"], {"kind": "act", "move": move, "cls": "lit killer",
                                        "label": label})
            else:
                island.add(move["at"], {"kind": "act", "move": move, "cls": "lit",
                                        "label": f"Place a newborn on {where}"})
        elif kind == "flee" and move["to"] is not None:
            island.add(move["to"], {"kind": "act", "move": move, "cls": "lit",
                                    "label": f"Step aside to {space_words(view, move['to'])}"})
        elif kind == "flee":
            found["prompt"].append({"move": move, "label": "Stay: your dinosaur dies",
                                    "cls": "ghost"})
        elif kind == "initiative":
            found["prompt"].append({"move": move, "cls": "",
                                    "label": f"Take the {_ordinal(move['position'] + 1)} place"})
        elif kind == "pass":
            found["prompt"].append({"move": move, "label": "Play no card", "cls": "ghost"})
        elif kind == "play_events":
            found["prompt"].append({"move": move, "cls": "",
                                    "label": "Play " + cards_words(view, move["cards"])})
        elif kind == "keep":
            kept = [space_words(view, c) for c in move["at"]]
            label = ("Keep the dinosaur on " + kept[0] if len(kept) == 1
                     else "Keep the dinosaurs on " + ", ".join(kept[:-1]) + " and " + kept[-1])
            found["prompt"].append({"move": move, "label": label, "cls": ""})
        elif kind == "done":
            found["done"] = move
    return found


def waiting_words(view: JSON, names: list[str]) -> str:
    """Whom the table waits for, and for what: "Waiting for Bo (bidding)"."""
    seats = view["seats"]
    who = [f"{names[s]} ({seats[s]['status']})" if seats[s]["status"] else names[s]
           for s in view["active_seats"] if s != view["you"]]
    if not who:
        return ""
    return "Waiting for " + (who[0] if len(who) == 1
                             else ", ".join(who[:-1]) + " and " + who[-1])


# --- the climate ------------------------------------------------------------------------------


def outlook(view: JSON, seat: int) -> list[JSON]:
    """What this round's climate means for ``seat``'s dinosaurs if the survival phase came now
    ("Fase de supervivencia", before any event card): for each endangered climate with
    dinosaurs of it, how many stand there and how many would survive."""
    species = view["seats"][seat]["species"]
    standing: dict[str, int] = {}
    for space in view["spaces"]:
        if space["dinosaur"] == seat:
            standing[space["climate"]] = standing.get(space["climate"], 0) + 1
    lines = []
    for climate in ("hot", "cold", "deadly"):
        n = standing.get(climate, 0)
        if not n:
            continue
        if climate == "deadly":
            safe = min(n, 1 if "cave_dweller" in species["unique"] else 0)
        else:
            safe = rules.survivors(climate, n, species["furs"], species["parasols"])
        lines.append({"climate": climate, "dinosaurs": n, "survive": safe})
    return lines


#: The wheel as drawn: twelve sections, each in the colour of its temperate terrain.
def _wedge(i: int) -> str:
    a, b = math.radians(i * 30 - 105), math.radians(i * 30 - 75)
    x1, y1 = 50 + 46 * math.cos(a), 50 + 46 * math.sin(a)
    x2, y2 = 50 + 46 * math.cos(b), 50 + 46 * math.sin(b)
    return f"M50 50L{x1:.2f} {y1:.2f}A46 46 0 0 1 {x2:.2f} {y2:.2f}Z"


WHEEL_WEDGES = tuple({"d": _wedge(i), "terrain": terrain, "colour": data.TERRAIN_COLOURS[terrain]}
                     for i, terrain in enumerate(data.WHEEL))


# --- what the page shows of the components -----------------------------------------------------

#: Names and effects of genes, cards and climate tokens, as the page shows them.
GENE_WORDS = {g.id: {"name": g.name, "effect": g.effect} for g in data.GENES.values()}
CARD_WORDS = {c.id: {"name": c.name, "effect": c.effect, "when": rules.TIMING_WORDS[c.timing]}
              for c in data.EVENT_CARDS.values()}
TOKEN_WORDS = {t.id: t.name for t in data.CLIMATE_TOKENS.values()}

#: The die's faces and the outcomes of a roll, in words ("Fase de movimiento", "Bebés Asesinos").
FACE_WORDS = {face: "the stalemate" if face == data.STALEMATE else face
              for face in data.DIE_FACES}
OUTCOME_WORDS = {"win": "the attacker won", "fail": "the attack failed",
                 "stalemate": "stalemate, nothing happened",
                 "kill": "the newborn killed the dinosaur and took its space",
                 "die": "the newborn died"}
#: The phases of a round as the track shows them, with the phase ids each covers.
PHASE_STEPS = ((("climate",), "Climate"), (("mutation",), "Mutation"),
               (("initiative",), "Initiative"), (("move-window", "movement"), "Movement"),
               (("birth",), "Birth"), (("survival-window", "survival"), "Survival"))
