"""What each seat may see of an Evo game, the game log, and the concealed twin.

Hidden (spec "Information"): the cards in each hand (the count is public), the event deck
(its size is public), the bag (its size is public; which unique genes are in it is not), the
climate pile (its size is public; the holder of sixth sense sees its top token), the token set
aside and the unique genes left in the box (never revealed), and sealed submissions (window
cards, survival choices) until every prompted seat has submitted, and each player's MP total
(``mp`` is None in every view but its owner's until the game is over): "Los jugadores revelan
sus fichas de MP" at the end, so the tokens are kept face down until then — the rulebook's
word over the spec's decision (public totals). What changes MP stays public as at the table:
the bids paid and the MP scored per dinosaur are in the log, the totals are not. Public too:
the board, the species sheets, the lab and its bids, the initiative track, the wheel,
revealed tokens, played cards and every die roll.

``view(state, seat)`` — ``seat`` None is a spectator — returns::

    {"game": "evo", "data_note", "you", "players", "round", "phase", "phase_name",
     "active_seats": [...],
     "wheel": {"section", "temperate", "climates": {terrain: climate}},
     "climate_pile": {"count", "revealed": [token ids], "next": token id | null},
     "spaces": [{"at": [q, r], "terrain", "climate", "coastal", "start": seat | null,
                 "dinosaur": seat | null, "camouflaged"}],
     "bag_count", "deck_count", "played_cards": [{"seat", "card"}],
     "lab": {"columns": [{"column", "item": "event" | gene | null,
                          "marker": {"seat", "value": v | null,
                                     "cost": MP | null (while bidding)} | null}],
             "bidding": bool, "bidder", "displaced"},
     "initiative": [seats, first place first],
     "turn": {"seat", "points", "flown"} | null, "placer": seat | null,
     "flee": {"seat", "at", "attacker"} | null,
     "last_roll": {"seat", "for", "face", "outcome", "at", "from", "number"} | null,
     "last_dead": [[[q, r], ...] per seat] (the last survival phase's losses),
     "window": {"phase", "prompted": [seats], "sealed": [seats]} | null,
     "seats": [{"seat", "mp" (own seat, or once over; else null), "dinosaurs", "supply",
                "genes": [ids], "species": {...},
                "hand_count", "hand": [ids] | null, "in_force": [card ids],
                "sealed": bool, "submission": ... (own seat only), "newborns",
                "born_near": "parents" | "anywhere" | "newborns" | null (birth only),
                "survival": {...} | null, "status"}],
     "result": Result JSON | null}

Log lines speak in the past tense, each a :class:`Msg` (shown in the reader's language) naming
its players by role, ``{p0}`` / ``{p0's}`` (app/games/evo/phrases.py): one line per happening
for every reader (the card a player draws is told to that player only).
"""

from __future__ import annotations

import random
from dataclasses import replace

from app.games.base import JSON, Event, Move
from app.games.evo import phrases, rules
from app.games.evo.data import (
    CLIMATE_TOKENS,
    DATA_NOTE,
    EVENT_CARDS,
    MAPS,
    METEORITE,
    PILE_BOTTOM,
    TERRAIN_NAMES,
    UNIQUE_GENES,
    WHEEL,
)
from app.games.evo.rules import (
    BIRTH,
    MOVE_WINDOW,
    MOVEMENT,
    MUTATION,
    OVER,
    PHASE_NAMES,
    SURVIVAL,
    WINDOWS,
    Cell,
    State,
)
from app.games.words import N_, Msg, plural, who

# --- the view ----------------------------------------------------------------------------------


def _sees_next_token(state: State, seat: int | None) -> bool:
    return seat is not None and 0 <= seat < state.players and rules.has(
        state, seat, "sixth_sense")


def _species(state: State, seat: int) -> JSON:
    return {
        "movement": rules.movement_points(state, seat),
        "horns": rules.count(state, seat, "horn"),
        "attack_horns": rules.attack_horns(state, seat),
        "defence_horns": rules.defence_horns(state, seat),
        "parasols": rules.count(state, seat, "parasol"),
        "furs": rules.count(state, seat, "fur"),
        "eggs": rules.eggs(state, seat),
        "vials": rules.count(state, seat, "vial"),
        "unique": [g for g in UNIQUE_GENES if rules.has(state, seat, g)],
    }


def _submission(state: State, seat: int) -> JSON | None:
    """A seat's own sealed submission (shown to that seat only)."""
    if state.phase in WINDOWS and state.plays[seat] is not None:
        return {"cards": [{"card": c, "at": None if at is None else [*at]}
                          for c, at in state.plays[seat] or ()]}
    if state.phase == SURVIVAL and state.keeps[seat] is not None:
        return {"keep": [[*c] for c in state.keeps[seat] or ()]}
    return None


def _survival(state: State, seat: int) -> JSON | None:
    if state.phase != SURVIVAL:
        return None
    plan = rules.survival_plan(state, seat)
    return {"by_climate": {c: [[*cell] for cell in cells]
                           for c, cells in plan.by_climate.items()},
            "allowed": dict(plan.allowed), "extra": plan.extra, "kept": plan.kept}


def _born_near(state: State, seat: int) -> str | None:
    """Birth: where the seat's next newborn may be born — "parents" (next to its dinosaurs
    on the island when the phase began), "anywhere" (it had none: its first newborn goes on
    any empty space) or "newborns" (it had none: next to one of its newborns of this
    phase)."""
    if state.phase != BIRTH:
        return None
    if seat not in state.orphans:
        return "parents"
    if any(state.board.get(c) == seat for c in state.born[seat]):
        return "newborns"
    return "anywhere"


def _seat_json(state: State, seat: int, viewer: int | None) -> JSON:
    sealed = ((state.phase in WINDOWS and state.plays[seat] is not None)
              or (state.phase == SURVIVAL and state.keeps[seat] is not None))
    own = seat == viewer
    return {
        "seat": seat,
        "mp": state.mp[seat] if own or state.over else None,
        "dinosaurs": rules.on_board(state, seat),
        "supply": rules.supply(state, seat),
        "genes": list(state.genes[seat]),
        "species": _species(state, seat),
        "hand_count": len(state.hands[seat]),
        "hand": [c for c in EVENT_CARDS if c in state.hands[seat]] if own else None,
        "in_force": sorted(c for s, c in state.in_force if s == seat),
        "sealed": sealed,
        "submission": _submission(state, seat) if own else None,
        "newborns": state.newborns[seat] if state.phase == BIRTH else 0,
        "born_near": _born_near(state, seat),
        "survival": _survival(state, seat),
        "status": rules.seat_status(state, seat).doing,
    }


def _lab(state: State) -> JSON:
    """The lab: during the bidding, and as the bidding ended until the next one."""
    columns = []
    for column in range(1, state.players + 1):
        item = (("event" if state.deck or state.phase != MUTATION else None) if column == 1
                else state.lab[column - 2])
        marker = state.markers[column - 1]
        columns.append({
            "column": column, "item": item,
            "marker": None if marker is None else {
                "seat": marker[0], "value": marker[1],
                "cost": None if marker[1] is None or state.phase != MUTATION
                else rules.bid_cost(state, marker[0], marker[1])}})
    return {"columns": columns, "bidding": state.phase == MUTATION,
            "bidder": rules.bidder(state), "displaced": state.displaced}


def view(state: State, seat: int | None) -> JSON:
    """The table as ``seat`` may see it (None, or a seat number outside the game: a
    spectator)."""
    viewer = seat if seat is not None and 0 <= seat < state.players else None
    island = MAPS[state.players]
    starts = {cell: s for s, pair in enumerate(island.starts) for cell in pair}
    final = rules.result(state)
    who = rules.mover(state)
    return {
        "game": "evo",
        "data_note": DATA_NOTE,
        "you": viewer,
        "players": state.players,
        "round": state.round,
        "phase": state.phase,
        "phase_name": PHASE_NAMES[state.phase],
        "active_seats": sorted(rules.active_seats(state)),
        "wheel": {"section": state.section, "temperate": WHEEL[state.section],
                  "climates": rules.climates(state)},
        "climate_pile": {
            "count": len(state.pile), "revealed": list(state.revealed),
            "next": state.pile[0] if state.pile and not state.over
            and _sees_next_token(state, viewer) else None},
        "spaces": [
            {"at": [*cell], "terrain": terrain, "climate": rules.climate_at(state, cell),
             "coastal": cell in island.coastal, "start": starts.get(cell),
             "dinosaur": state.board.get(cell), "camouflaged": cell == state.camouflaged}
            for cell, terrain in sorted(island.terrain.items())],
        "bag_count": len(state.bag),
        "deck_count": len(state.deck),
        "played_cards": [{"seat": s, "card": c} for s, c in state.played],
        "lab": _lab(state),
        "initiative": list(state.initiative),
        "turn": None if who is None or state.phase != MOVEMENT else {
            "seat": who, "points": state.points, "flown": who in state.flown},
        "placer": who if state.phase == BIRTH else None,
        "flee": None if state.flee is None else {
            "seat": state.board[state.flee[1]], "at": [*state.flee[1]],
            "attacker": [*state.flee[0]]},
        "window": None if state.phase not in WINDOWS else {
            "phase": state.phase, "prompted": sorted(state.prompted),
            "sealed": [s for s in sorted(state.prompted) if state.plays[s] is not None]},
        "last_roll": None if state.last_roll is None else {
            "seat": state.last_roll[0], "for": state.last_roll[1], "face": state.last_roll[2],
            "outcome": state.last_roll[3], "at": [*state.last_roll[4]],
            "from": None if state.last_roll[5] is None else [*state.last_roll[5]],
            "number": state.rolls},
        "last_dead": [[[*c] for c in dead] for dead in state.last_dead],
        "seats": [_seat_json(state, s, viewer) for s in range(state.players)],
        "result": None if final is None else final.to_json(),
    }


# --- words -------------------------------------------------------------------------------------

#: A climate and the terrains that have it this round, in a log line (the round's first
#: climate is always the temperate one, so its words begin the sentence).
CLIMATE_PARTS = {"temperate": N_("Temperate: {terrains}"), "hot": N_("hot: {terrains}"),
                 "cold": N_("cold: {terrains}"), "deadly": N_("deadly: {terrains}")}
#: How many dinosaurs a climate killed: "(1 hot, 2 cold)".
DEAD_PARTS = {"temperate": N_("{n} temperate"), "hot": N_("{n} hot"), "cold": N_("{n} cold"),
              "deadly": N_("{n} deadly")}


def _space(state: State, cell: list[int] | Cell) -> Msg:
    """A space in words: "the hills at C4"."""
    return phrases.space(state.players, cell)


def _item(item: str) -> Msg:
    return Msg("the event card") if item == "event" else phrases.gene(item)


def _climate_words(climates: dict[str, str]) -> Msg | str:
    """"Temperate: plains; hot: beach; cold: hills; deadly: mountains"."""
    by: dict[str, list[Msg]] = {}
    for terrain, climate in climates.items():
        by.setdefault(climate, []).append(Msg(TERRAIN_NAMES[terrain]))
    return phrases.chain([Msg(CLIMATE_PARTS[c], {"terrains": by[c]})
                          for c in ("temperate", "hot", "cold", "deadly") if c in by])


def _plays_words(state: State, cards: list[str], at: list[int] | None) -> list[Msg]:
    """The cards a seat played in a window (Camouflage with the dinosaur it protects)."""
    return [Msg("{card} on the dinosaur on {space}",
                {"card": phrases.card(c), "space": _space(state, at)})
            if c == "camouflage" and at is not None else phrases.card(c)
            for c in cards]


def _line(key: str, msg: Msg, params: JSON, seats: frozenset[int] | None = None,
          not_for: frozenset[int] = frozenset()) -> Event:
    return Event.say("evo." + key, msg, params, seats=seats, not_for=not_for)


def _lines(state: State, key: str, params: JSON) -> list[Event]:
    """The log lines of one happening (``state`` is the state before the move: the map and
    the player count are all that is read from it)."""
    seat = params.get("seat", -1)
    me = who(p0=seat) if seat >= 0 else {}
    mine = frozenset({seat})
    if key == "climate":
        token = CLIMATE_TOKENS[params["token"]]
        args = {"round": params["round"], "climates": _climate_words(params["climates"])}
        msg = (Msg("Round {round}: the climate token left the wheel where it was. {climates}.",
                   args) if token.steps == 0 else
               Msg("Round {round}: the climate token turned the wheel {token}. {climates}.",
                   {**args, "token": Msg(token.name)}))
        return [_line(key, msg, {"round": params["round"], "token": token.id,
                                 "section": params["section"]})]
    if key == "meteorite":
        return [_line(key, Msg("Round {round}: the meteorite fell and the game ended.",
                               {"round": params["round"]}), params)]
    if key == "lab":
        items = [Msg("the event card"), *(phrases.gene(g) for g in params["genes"]
                                           if g is not None)]
        empty = sum(1 for g in params["genes"] if g is None)
        if empty:
            return [_line(key, plural(
                "The lab offered {items}; the bag had no other gene for {n} column.",
                "The lab offered {items}; the bag had no other gene for {n} columns.",
                "n", items=items, n=empty), params)]
        return [_line(key, Msg("The lab offered {items}.", {"items": items}), params)]
    if key == "bid":
        args = {**me, "value": params["value"], "item": _item(params["item"]),
                "column": params["column"]}
        if params["outbid"] is not None:
            return [_line(key, Msg("{p0} bid {value} for {item} in column {column}, "
                                   "outbidding {p1}", {**args, **who(p1=params["outbid"])}),
                          params)]
        return [_line(key, Msg("{p0} bid {value} for {item} in column {column}", args),
                      params)]
    if key == "no_bid":
        return [_line(key, Msg("{p0} had no bid to make: {p0's} marker went to column "
                               "{column} without a bid", {**me, "column": params["column"]}),
                      params)]
    if key == "no_item":
        return [_line(key, Msg("{p0} took nothing and paid nothing", me), params)]
    if key == "won_card":
        public = {"seat": seat, "value": params["value"], "cost": params["cost"]}
        return [_line(key, Msg("{p0} took an event card for {cost} MP",
                               {**me, "cost": params["cost"]}), public, not_for=mine),
                _line("won_card_private",
                      Msg("{p0} took the event card {card} for {cost} MP",
                          {**me, "card": phrases.card(params["card"]),
                           "cost": params["cost"]}), params, seats=mine)]
    if key == "won_gene":
        return [_line(key, Msg("{p0} took {gene} for {cost} MP",
                               {**me, "gene": phrases.gene(params["gene"]),
                                "cost": params["cost"]}), params)]
    if key == "mutation_gene":
        return [_line(key, Msg("Spontaneous Mutation gave {p0} {gene} from the bag",
                               {**me, "gene": phrases.gene(params["gene"])}), params)]
    if key == "mutation_none":
        return [_line(key, Msg("Spontaneous Mutation found no gene in the bag for {p0}", me),
                      params)]
    if key == "head_start":
        return [_line(key, Msg("Head Start put {p0} in first place", me), params)]
    if key == "initiative":
        return [_line(key, Msg("The initiative order became: {order}",
                               {"order": phrases.seats(params["order"])}), params)]
    if key == "adrenaline":
        return [_line(key, Msg("{p0} took place {place} with Adrenaline Rush: {order}",
                               {**me, "place": params["position"] + 1,
                                "order": phrases.seats(params["order"])}), params)]
    if key == "window":
        args = {"seats": phrases.seats(params["seats"]), "n": len(params["seats"])}
        if params["phase"] == MOVE_WINDOW:
            msg = plural("The movement phase opened: {seats} may play event cards",
                         "The movement phase opened: {seats} may play event cards", "n", **args)
        else:
            msg = plural("The survival phase opened: {seats} may play event cards",
                         "The survival phase opened: {seats} may play event cards", "n", **args)
        return [_line(key, msg, params)]
    if key == "sealed":
        sealed = (Msg("{p0} sealed {cards}",
                      {**me, "cards": _plays_words(state, params["cards"], params["at"])})
                  if params["cards"] else Msg("{p0} sealed no card", me))
        return [_line(key, Msg("{p0} sealed a choice", me), {"seat": seat}, not_for=mine),
                _line("sealed_private", sealed, params, seats=mine)]
    if key == "revealed":
        parts: list[Msg | str] = [
            Msg("{p0} played {cards}", {**who(p0=p["seat"]),
                                        "cards": _plays_words(state, p["cards"], p["at"])})
            if p["cards"] else Msg("{p0} played no card", who(p0=p["seat"]))
            for p in params["plays"]]
        return [_line(key, Msg("Event cards revealed: {plays}",
                               {"plays": phrases.chain(parts)}), params)]
    if key in ("move", "fly", "swim"):
        text = {"move": N_("{p0} moved a dinosaur from {start} to {end}"),
                "fly": N_("{p0} flew a dinosaur from {start} to {end}"),
                "swim": N_("{p0} swam a dinosaur from {start} to {end}")}[key]
        return [_line(key, Msg(text, {**me, "start": _space(state, params["from"]),
                                      "end": _space(state, params["to"])}), params)]
    if key == "attack":
        return [_line(key, _attack_text(state, params), params)]
    if key == "fled":
        if params["to"] is None:
            msg = Msg("{p0} let the beaten dinosaur die; the attacker took its space", me)
        else:
            msg = Msg("{p0} stepped the beaten dinosaur aside to {space}; the attacker took "
                      "its space", {**me, "space": _space(state, params["to"])})
        return [_line(key, msg, params)]
    if key == "play_event":
        args = {**me, "card": phrases.card(params["card"])}
        if params["card"] == "migration":
            return [_line(key, Msg("{p0} played {card}: a dinosaur went from {start} to {end}",
                                   {**args, "start": _space(state, params["from"]),
                                    "end": _space(state, params["to"])}), params)]
        return [_line(key, Msg("{p0} played {card}", args), params)]
    if key == "done":
        msg = (Msg("{p0} ended the movement turn", me) if params["phase"] == MOVEMENT
               else Msg("{p0} placed no more newborns", me))
        return [_line(key, msg, params)]
    if key == "no_move":
        return [_line(key, Msg("{p0} had no move left", me), params)]
    if key == "birth":
        counts = [Msg("{p0} {n}", {**who(p0=s), "n": n}) for s, n in enumerate(params["newborns"])]
        return [_line(key, Msg("The birth phase began with these newborns: {counts}",
                               {"counts": phrases.chain(counts, ",")}), params)]
    if key == "born":
        return [_line(key, Msg("{p0} placed a newborn on {space}",
                               {**me, "space": _space(state, params["at"])}), params)]
    if key == "no_space":
        return [_line(key, Msg("{p0} had no space left for a newborn", me), params)]
    if key == "killer_baby":
        args = {**me, **who(p1=params["victim"]), "space": _space(state, params["at"]),
                "face": params["face"]}
        if params["kills"]:
            msg = Msg("{p0's} killer baby was born on {p1's} dinosaur on {space}: the die showed "
                      "{face}, {p1's} dinosaur died and the newborn took its space", args)
        else:
            msg = Msg("{p0's} killer baby was born on {p1's} dinosaur on {space}: the die showed "
                      "{face}, the newborn died", args)
        return [_line(key, msg, params)]
    if key == "choose_survivors":
        return [_line(key, plural("{seats} may choose which dinosaurs survive",
                                  "{seats} may choose which dinosaurs survive", "n",
                                  seats=phrases.seats(params["seats"]),
                                  n=len(params["seats"])), params)]
    if key == "kept":
        private = (Msg("{p0} chose the survivors on {spaces}",
                       {**me, "spaces": [_space(state, c) for c in params["at"]]})
                   if params["at"] else Msg("{p0} chose no survivors", me))
        return [_line(key, Msg("{p0} chose survivors", me), {"seat": seat}, not_for=mine),
                _line("kept_private", private, params, seats=mine)]
    if key == "survival":
        return _survival_lines(state, params)
    raise ValueError(f"no words for {key}")


def _attack_text(state: State, params: JSON) -> Msg:
    attacker, defender = params["horns"]
    args = {**who(p0=params["seat"], p1=params["defender"]),
            "target": _space(state, params["to"]), "start": _space(state, params["from"]),
            "horns": plural("{n} horn", "{n} horns", "n", n=attacker), "defence": defender,
            "face": params["face"]}
    if params["outcome"] == "stalemate":
        return Msg("{p0} attacked {p1's} dinosaur on {target} from {start}, {horns} against "
                   "{defence}; the die showed the stalemate: nothing happened", args)
    if params["outcome"] == "fail":
        return Msg("{p0} attacked {p1's} dinosaur on {target} from {start}, {horns} against "
                   "{defence}; the die showed {face}: the attack failed and nothing moved", args)
    if params["flees"]:
        return Msg("{p0} attacked {p1's} dinosaur on {target} from {start}, {horns} against "
                   "{defence}; the die showed {face}: {p0} won, and {p1} may step the dinosaur "
                   "aside with Chameleon Skin", args)
    return Msg("{p0} attacked {p1's} dinosaur on {target} from {start}, {horns} against "
               "{defence}; the die showed {face}: {p0} won, {p1's} dinosaur died and the "
               "attacker took its space", args)


def _survival_lines(state: State, params: JSON) -> list[Event]:
    lines = []
    for entry in params["outcome"]:
        seat = entry["seat"]
        dead = entry["dead"]
        if not dead:
            continue
        parts: list[Msg | str] = [Msg(DEAD_PARTS[climate], {"n": n})
                                  for climate, n in entry["dead_by_climate"].items() if n]
        lines.append(_line("died", plural(
            "{p0} lost {n} dinosaur to the climate ({climates})",
            "{p0} lost {n} dinosaurs to the climate ({climates})", "n",
            **who(p0=seat), n=len(dead), climates=phrases.chain(parts, ",")),
            {"seat": seat, "dead": dead}))
    gains: list[Msg | str] = [Msg("{p0} {n}", {**who(p0=s), "n": g})
                              for s, g in enumerate(params["gains"])]
    lines.append(_line("scored", Msg("Scoring, 1 MP per dinosaur on the island: {gains}",
                                     {"gains": phrases.chain(gains, ",")}),
                       {"gains": params["gains"]}))
    return lines


def _game_over(state: State) -> Event:
    final = rules.result(state)
    assert final is not None
    scores = [Msg("{p0} {mp} MP", {**who(p0=s), "mp": final.scores[s]}) for s in final.ranking]
    tied = any(s != final.ranking[0] and final.scores[s] == final.scores[final.ranking[0]]
               for s in final.ranking)
    winners = {**who(p0=final.winners[0]), "players": phrases.seats(final.winners)}
    if len(final.winners) > 1:
        verdict = Msg("{players} shared the win (ties are broken by the dinosaurs on the "
                      "island)", winners)
    elif tied:
        verdict = Msg("{p0} won (ties are broken by the dinosaurs on the island)", winners)
    else:
        verdict = Msg("{p0} won", winners)
    return _line("game_over", Msg("Game over: {scores}. {verdict}.",
                                  {"scores": scores, "verdict": verdict}),
                 final.to_json())


def events(before: State, seat: int, move: Move, after: State) -> list[Event]:
    """The log lines of an applied move and of everything it set off."""
    lines: list[Event] = []
    for key, params in rules.happenings(before, seat, move):
        lines.extend(_lines(before, key, params))
    if after.phase == OVER and before.phase != OVER:
        lines.append(_game_over(after))
    return lines


# --- the concealed twin ------------------------------------------------------------------------


def _meteorite_slots(state: State, fixed_top: bool) -> list[int]:
    """Where the meteorite may lie in the pile: among the bottom three of the twelve."""
    gone = len(state.revealed)
    full = len(state.pile) + gone
    slots = [i - gone for i in range(full - PILE_BOTTOM, full) if i - gone >= 0]
    return [i for i in slots if not (fixed_top and i == 0)]


def _conceal_pile(state: State, seat: int | None, rng: random.Random) -> State:
    fixed_top = bool(state.pile) and _sees_next_token(state, seat)
    top = state.pile[:1] if fixed_top else ()
    rest = [*state.pile[len(top):], state.set_aside]
    has_meteorite = METEORITE in rest
    normals = [t for t in rest if t != METEORITE]
    rng.shuffle(normals)
    set_aside = normals.pop()
    pile = [*top, *normals]
    if has_meteorite:
        pile.insert(rng.choice(_meteorite_slots(state, fixed_top)), METEORITE)
    return replace(state, pile=tuple(pile), set_aside=set_aside)


def _conceal_bag(state: State, rng: random.Random) -> State:
    unseen = [g for g in state.bag if g in UNIQUE_GENES] + list(state.boxed)
    in_bag = len(unseen) - len(state.boxed)
    rng.shuffle(unseen)
    bag = sorted([g for g in state.bag if g not in UNIQUE_GENES] + unseen[:in_bag])
    return replace(state, bag=tuple(bag), boxed=tuple(sorted(unseen[in_bag:])))


def _conceal_cards(state: State, seat: int | None, rng: random.Random) -> State:
    others = [s for s in range(state.players) if s != seat]
    pool = list(state.deck) + [c for s in others for c in state.hands[s]]
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        n = len(hands[s])
        hands[s], pool = tuple(pool[:n]), pool[n:]
    return replace(state, hands=tuple(hands), deck=tuple(pool))


def _conceal_sealed(state: State, seat: int | None, rng: random.Random) -> State:
    """Other seats' sealed submissions, drawn anew among their legal ones."""
    plays, keeps = list(state.plays), list(state.keeps)
    for s in range(state.players):
        if s == seat:
            continue
        if state.phase in WINDOWS and plays[s] is not None:
            chosen = rng.choice(rules.window_options(state, s))
            plays[s] = tuple(
                (e["card"], None if "at" not in e else (e["at"][0], e["at"][1]))
                for e in chosen.get("cards", []))
        if state.phase == SURVIVAL and keeps[s] is not None:
            keeps[s] = rng.choice(rules.keep_options(rules.survival_plan(state, s)))
    return replace(state, plays=tuple(plays), keeps=tuple(keeps))


def conceal(state: State, seat: int | None, rng: random.Random) -> State:
    """A state ``seat`` (None: a spectator) cannot tell from ``state``: the other hands and
    the event deck dealt anew, the unseen unique genes shared anew between the bag and the
    box, the climate pile and the token set aside shuffled (the meteorite among the bottom
    three; the top kept for the sixth-sense holder), the others' sealed submissions redrawn
    among their legal ones, and a new seed."""
    state = _conceal_cards(state, seat, rng)
    state = _conceal_bag(state, rng)
    state = _conceal_pile(state, seat, rng)
    state = _conceal_sealed(state, seat, rng)
    return replace(state, seed=rng.randrange(2**64))
