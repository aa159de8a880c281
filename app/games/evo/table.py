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

from app.games import words
from app.games.base import JSON, Move, Region
from app.games.evo import data, phrases, rules
from app.games.words import N_, Msg, plural

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
    #: The label drawn on it, by which every line names it: "C4" (phrases.space_labels).
    label: str


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
            left=round((x - left) / width * 100, 3), top=round((y - top) / height * 100, 3),
            label=phrases.space_labels(players)[cell]))
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


def space_words(view: JSON, cell: list[int]) -> Msg:
    """ "the hills at C4", as the log names a space (by the label the map draws on it)."""
    return phrases.space(view["players"], cell)


#: A space named on its own, as a label begins: "Hills at C4".
SPOT_NAMES = {"beach": N_("Beach at {space}"), "plains": N_("Plains at {space}"),
              "hills": N_("Hills at {space}"), "mountains": N_("Mountains at {space}")}


def spot_label(view: JSON, space: JSON) -> Msg:
    """What a screen reader says of a space: "Hills at C4, on the coast, hot: Bo's
    dinosaur"."""
    q, r = space["at"]
    terrain, climate = space["terrain"], space["climate"]
    label = phrases.space_labels(view["players"])[(q, r)]
    args = {"space": Msg(SPOT_NAMES[terrain], {"space": label}),
            "climate": Msg(data.CLIMATE_NAMES[climate])}
    place = (Msg("{space}, on the coast, {climate}", args) if space["coastal"]
             else Msg("{space}, {climate}", args))
    if space["dinosaur"] is None:
        return place
    dino = {"place": place, **words.who(p0=space["dinosaur"])}
    return (Msg("{place}: {p0's} dinosaur, camouflaged", dino) if space["camouflaged"]
            else Msg("{place}: {p0's} dinosaur", dino))


def _owner(view: JSON, cell: list[int]) -> int | None:
    for space in view["spaces"]:
        if space["at"] == cell and space["dinosaur"] is not None:
            return int(space["dinosaur"])
    return None


def _occupied(view: JSON, cell: list[int]) -> bool:
    return _owner(view, cell) is not None


#: The initiative track's places, as a button offers them (Adrenaline Rush).
PLACES = (N_("Take the 1st place"), N_("Take the 2nd place"), N_("Take the 3rd place"),
          N_("Take the 4th place"), N_("Take the 5th place"))


def cards_words(view: JSON, cards: list[JSON]) -> Msg | list[Msg]:
    """Cards chosen in a window: "Camouflage on your dinosaur on the hills at C4 and
    Battle Rage" (a list joined with the language's "and"), or "no card"."""
    if not cards:
        return Msg("no card")
    return [Msg("{card} on your dinosaur on {space}",
                {"card": phrases.card(entry["card"]),
                 "space": space_words(view, entry["at"])})
            if entry.get("at") is not None else phrases.card(entry["card"])
            for entry in cards]


def sealed_words(view: JSON, submission: JSON) -> Msg:
    """What a seat that sealed its choice reads of it."""
    if "cards" in submission:
        return Msg("Your choice is sealed: {cards}",
                   {"cards": cards_words(view, submission["cards"])})
    return plural("Your choice is sealed: {n} dinosaur kept",
                  "Your choice is sealed: {n} dinosaurs kept", "n", n=len(submission["keep"]))


def win_faces(attack: int, defence: int) -> int:
    """On how many of the die's six faces an attack with these horns wins (attack_wins)."""
    return sum(rules.attack_wins(attack, defence, face) == "win" for face in data.DIE_FACES)


# --- what the table offers to click ------------------------------------------------------------

#: The words of each kind of step from a chosen dinosaur to a lit space.
STEP_WORDS = {"move": N_("Move from {start} to {end}"), "fly": N_("Fly from {start} to {end}"),
              "swim": N_("Swim from {start} to {end}")}
#: Where two kinds of step reach the same space, the one offered (moving costs no flight).
STEP_ORDER = ("move", "attack", "swim", "fly")
#: The two-click choices: the label of each dinosaur to choose, and of a Migration target.
ORIGIN_WORDS = {"step": N_("Movement: choose your dinosaur on {space}"),
                "mig": N_("Migration: choose your dinosaur on {space}")}


class _Island:
    """The controls laid on the island, space by space, and the style rules that show a
    dinosaur's targets once it is chosen."""

    def __init__(self) -> None:
        self.spaces: dict[str, list[JSON]] = {}
        self.rules: list[str] = []

    def add(self, cell: list[int], item: JSON) -> None:
        self.spaces.setdefault(_key(cell), []).append(item)

    def two_clicks(self, view: JSON, group: str, moves: list[Move], gate: str = "") -> None:
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
                             "label": Msg(ORIGIN_WORDS[group],
                                          {"space": space_words(view, start)})})
            chosen = f'input[name="evo-from-{group}"][value="{origin}"]:checked'
            target_cls = f"tgt-{group}-{origin.replace(',', '_').replace('-', 'm')}"
            self.rules.append(f".evo{gate}:has({chosen}) .{target_cls} {{ display: flex; }}")
            for move in targets.values():
                kind = move["type"]
                where = space_words(view, move["to"])
                if kind == "attack":
                    defender = _owner(view, move["to"])
                    assert defender is not None
                    odds = win_faces(me["attack_horns"],
                                     view["seats"][defender]["species"]["defence_horns"])
                    label = Msg("Attack {p0's} dinosaur on {space}: wins on {n} of the die's 6 "
                                "faces", {**words.who(p0=defender), "space": where, "n": odds})
                elif kind == "play_event":
                    label = Msg("Migration: move it free to {space}", {"space": where})
                    kind = "migrate"
                else:
                    label = Msg(STEP_WORDS[kind], {"start": space_words(view, start),
                                                   "end": where})
                self.add(move["to"], {"kind": "act", "move": move, "label": label,
                                      "cls": f"tgt {target_cls} step-{kind}"})


def controls(view: JSON, legal: list[Move], seat: int | None) -> JSON:
    """What ``seat``'s table offers now, from its legal moves: the controls on the island
    (``spaces`` by ``"q,r"``, with the style ``rules`` of two-click choices), the lab's bids
    by column, the cards to play from the hand, the tool cards that need the island
    (Migration), and the prompt's buttons. Labels are :class:`Msg` values (``| say``)."""
    island = _Island()
    found: JSON = {"spaces": island.spaces, "rules": island.rules, "bids": {}, "plays": {},
                   "tools": {}, "prompt": [], "done": None}
    if seat is None or not legal:
        return found
    steps = [m for m in legal if m["type"] in rules.STEPS]
    migrations = [m for m in legal if m["type"] == "play_event" and "to" in m]
    if steps:
        island.two_clicks(view, "step", steps)
    if migrations:
        gate = ":has(#evo-tool-migration:checked)"
        island.two_clicks(view, "mig", migrations, gate)
        found["tools"]["migration"] = True
    for move in legal:
        kind = move["type"]
        if kind == "bid":
            found["bids"].setdefault(move["column"], []).append(move)
        elif kind == "play_event" and "to" not in move:
            found["plays"][move["card"]] = move
        elif kind == "place":
            where = space_words(view, move["at"])
            owner = _owner(view, move["at"])
            if owner is not None:
                faces = sum(f in data.KILLER_BABY_WIN_FACES for f in data.DIE_FACES)
                label = Msg("Killer baby on {p0's} dinosaur on {space}: kills it on {n} of the "
                            "die's 6 faces", {**words.who(p0=owner), "space": where, "n": faces})
                island.add(move["at"], {"kind": "act", "move": move, "cls": "lit killer",
                                        "label": label})
            else:
                island.add(move["at"], {"kind": "act", "move": move, "cls": "lit",
                                        "label": Msg("Place a newborn on {space}",
                                                     {"space": where})})
        elif kind == "flee" and move["to"] is not None:
            island.add(move["to"], {"kind": "act", "move": move, "cls": "lit",
                                    "label": Msg("Step aside to {space}",
                                                 {"space": space_words(view, move["to"])})})
        elif kind == "flee":
            found["prompt"].append({"move": move, "label": Msg("Stay: your dinosaur dies"),
                                    "cls": "ghost"})
        elif kind == "initiative":
            place = PLACES[move["position"]]
            found["prompt"].append({"move": move, "cls": "", "label": Msg(place)})
        elif kind == "pass":
            found["prompt"].append({"move": move, "label": Msg("Play no card"), "cls": "ghost"})
        elif kind == "play_events":
            found["prompt"].append({"move": move, "cls": "",
                                    "label": Msg("Play {cards}",
                                                 {"cards": cards_words(view, move["cards"])})})
        elif kind == "keep":
            kept = [space_words(view, c) for c in move["at"]]
            label = (Msg("Keep the dinosaur on {space}", {"space": kept[0]}) if len(kept) == 1
                     else Msg("Keep the dinosaurs on {spaces}", {"spaces": kept}))
            found["prompt"].append({"move": move, "label": label, "cls": ""})
        elif kind == "done":
            found["done"] = move
    return found


def waiting_words(view: JSON) -> Msg | None:
    """Whom the table waits for, and for what: "Waiting for Bo (bidding)"."""
    seats = view["seats"]
    statuses = {s["seat"]: s["status"] for s in seats}
    who: list[Msg | str] = [
        Msg("{p0} ({status})", {**words.who(p0=s), "status": Msg(statuses[s])})
        if statuses[s] else words.seat(s)
        for s in view["active_seats"] if s != view["you"]]
    if not who:
        return None
    return Msg("Waiting for {seats}", {"seats": who})


def player(seat: int) -> str:
    """A seat as a label: its player's name (English "You" for the reader's own seat)."""
    return words.seat(seat)


def species_title(seat: int) -> Msg:
    """ "Bo's species" ("Your species" for the reader's own)."""
    return Msg("{p0's} species", words.who(p0=seat))


def lab_words(view: JSON, seat: int | None) -> Msg:
    """Who bids now in the lab."""
    bidder = view["lab"]["bidder"]
    if bidder is None:
        return Msg("Bidding now.")
    if bidder == seat:
        return Msg("Bidding now: your turn.")
    return Msg("Bidding now: {p0} bids.", words.who(p0=bidder))


def marker_words(column: JSON) -> Msg:
    """A lab column's marker: "Bo: bid 3 (pays 2 MP)"."""
    marker = column["marker"]
    if marker is None:
        return Msg("no bid yet")
    args = {**words.who(p0=marker["seat"]), "value": marker["value"], "cost": marker["cost"]}
    if marker["value"] is None:
        return Msg("{p0}: no bid", args)
    if marker["cost"] is not None and marker["cost"] != marker["value"]:
        return Msg("{p0}: bid {value} (pays {cost} MP)", args)
    return Msg("{p0}: bid {value}", args)


def roll_words(view: JSON) -> Msg:
    """The last roll of the die in a sentence: "Ana attacked the hills at C4: the attacker
    won."."""
    roll = view["last_roll"]
    outcome = OUTCOME_WORDS[roll["outcome"]]
    args = {**words.who(p0=roll["seat"]), "space": space_words(view, roll["at"]),
            "outcome": Msg(outcome)}
    if roll["for"] == "attack":
        return Msg("{p0} attacked {space}: {outcome}.", args)
    return Msg("{p0's} killer baby on {space}: {outcome}.", args)


def played_words(view: JSON) -> Msg:
    """Every event card played in the game, with who played it."""
    cards: list[Msg | str] = [Msg("{card} ({p0})", {"card": phrases.card(p["card"]),
                                                   **words.who(p0=p["seat"])})
                              for p in view["played_cards"]]
    return Msg("Event cards played: {cards}", {"cards": phrases.chain(cards, ",")})


def in_force_words(cards: list[str]) -> Msg:
    """A species' cards in force this round."""
    return Msg("In force: {cards}",
               {"cards": phrases.chain([phrases.card(c) for c in cards], ",")})


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


def _outlook_line(line: JSON) -> Msg:
    """An outlook line: "2 on hot ground, 1 survives"."""
    n, survive = line["dinosaurs"], line["survive"]
    if line["climate"] == "hot":
        return plural("{dinosaurs} on hot ground, {survive} survives",
                      "{dinosaurs} on hot ground, {survive} survive", "survive",
                      dinosaurs=n, survive=survive)
    if line["climate"] == "cold":
        return plural("{dinosaurs} on cold ground, {survive} survives",
                      "{dinosaurs} on cold ground, {survive} survive", "survive",
                      dinosaurs=n, survive=survive)
    return plural("{dinosaurs} on deadly ground, {survive} survives",
                  "{dinosaurs} on deadly ground, {survive} survive", "survive",
                  dinosaurs=n, survive=survive)


def outlook_words(view: JSON, seat: int) -> Msg:
    """:func:`outlook` for ``seat`` in a sentence: "Bo: 2 on hot ground, 1 survives" (or
    "Bo: every dinosaur safe", or "Bo: no dinosaur on the island")."""
    lines: list[Msg | str] = [_outlook_line(line) for line in outlook(view, seat)]
    if not view["seats"][seat]["dinosaurs"]:
        return Msg("{p0}: no dinosaur on the island", words.who(p0=seat))
    if not lines:
        return Msg("{p0}: every dinosaur safe", words.who(p0=seat))
    return Msg("{p0}: {lines}", {**words.who(p0=seat), "lines": phrases.chain(lines)})


#: The wheel as drawn: twelve sections, each in the colour of its temperate terrain.
def _wedge(i: int) -> str:
    a, b = math.radians(i * 30 - 105), math.radians(i * 30 - 75)
    x1, y1 = 50 + 46 * math.cos(a), 50 + 46 * math.sin(a)
    x2, y2 = 50 + 46 * math.cos(b), 50 + 46 * math.sin(b)
    return f"M50 50L{x1:.2f} {y1:.2f}A46 46 0 0 1 {x2:.2f} {y2:.2f}Z"


WHEEL_WEDGES = tuple({"d": _wedge(i), "terrain": terrain, "colour": data.TERRAIN_COLOURS[terrain]}
                     for i, terrain in enumerate(data.WHEEL))


# --- what the page shows of the components -----------------------------------------------------

#: Names and effects of genes, cards and climate tokens, as the page shows them (message ids,
#: shown with ``| say``).
GENE_WORDS = {g.id: {"name": g.name, "effect": g.effect} for g in data.GENES.values()}
CARD_WORDS = {c.id: {"name": c.name, "effect": c.effect, "when": rules.TIMING_WORDS[c.timing]}
              for c in data.EVENT_CARDS.values()}
TOKEN_WORDS = {t.id: t.name for t in data.CLIMATE_TOKENS.values()}

#: The die's faces and the outcomes of a roll, in words ("Fase de movimiento", "Bebés Asesinos").
FACE_WORDS = {face: N_("the stalemate") if face == data.STALEMATE else face
              for face in data.DIE_FACES}
OUTCOME_WORDS = {"win": N_("the attacker won"), "fail": N_("the attack failed"),
                 "stalemate": N_("stalemate, nothing happened"),
                 "kill": N_("the newborn killed the dinosaur and took its space"),
                 "die": N_("the newborn died")}
#: The phases of a round as the track shows them, with the phase ids each covers.
PHASE_STEPS = ((("climate",), N_("Climate")), (("mutation",), N_("Mutation")),
               (("initiative",), N_("Initiative")),
               (("move-window", "movement"), N_("Movement")), (("birth",), N_("Birth")),
               (("survival-window", "survival"), N_("Survival")))
#: The phase the table is in, as the prompt names it.
PHASE_TITLES = {"climate": N_("Climate phase"), "mutation": N_("Mutation phase"),
                "initiative": N_("Initiative phase"), "move-window": N_("Movement phase"),
                "movement": N_("Movement phase"), "birth": N_("Birth phase"),
                "survival-window": N_("Survival phase"), "survival": N_("Survival phase"),
                "over": N_("End of the game")}
