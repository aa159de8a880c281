"""What each seat may see of an Arboretum game, and the game log.

Hidden information (rulebook "Cómo jugar"; spec §Turn): the cards in each hand (the others see
only the count) and the deck (everyone sees its size, nobody its content or order). Arboreta and
discard piles are public in full. Scoring reveals every hand (rulebook "Puntuación de los
caminos": the players reveal their cards), so once the game is over all hands are shown. The
cards a player drew this turn are marked new in that player's own view only.

The log speaks in the past tense and names players as ``{p0}`` / ``{p0's}``, so each reader
reads "You …" for their own moves; a draw from the deck is one line per reader: the card for
the drawer, "drew from the deck" for everyone else.
"""

from __future__ import annotations

import random
from dataclasses import replace

from app.games.arboretum.data import SPECIES
from app.games.arboretum.rules import (
    STEP_OVER,
    STEP_PLAY,
    ArboretumState,
    Card,
    card_msg,
    result,
    score_details,
)
from app.games.base import JSON, Event, Move
from app.games.words import Msg, plural, who

_ORDER = {kind: i for i, kind in enumerate(SPECIES)}


def _card(card: Card) -> list[str | int]:
    return [card[0], card[1]]


def _hand_cards(hand: tuple[Card, ...]) -> list[list[str | int]]:
    """A hand in table order (species, then value) — the order it is shown in."""
    return [_card(c) for c in sorted(hand, key=lambda c: (_ORDER[c[0]], c[1]))]


def _just_drawn(state: ArboretumState, seat: int) -> list[list[str | int]]:
    """The cards ``seat`` drew this turn and still holds (the last ones of its hand)."""
    if seat != state.turn or not state.just_drawn:
        return []
    return _hand_cards(state.hands[seat][-state.just_drawn :])


def view(state: ArboretumState, seat: int | None) -> JSON:
    """The JSON-ready table as ``seat`` sees it (``None``, or any non-seat: a spectator).
    The seat's own hand also has ``new``: the cards it drew this turn (nobody else's hand
    has it)."""
    over = state.step == STEP_OVER
    return {
        "players": state.players,
        "species": list(state.species),
        "deck_count": len(state.deck),
        "turn": None if over else state.turn,
        "step": state.step,
        "draws_left": state.draws_left,
        "hands": [
            {
                "count": len(hand),
                "cards": _hand_cards(hand) if over or i == seat else None,
                **({"new": _just_drawn(state, i)} if i == seat else {}),
            }
            for i, hand in enumerate(state.hands)
        ],
        "arboreta": [
            [{"cell": [r, c], "card": _card(card)} for (r, c), card in plantings]
            for plantings in state.arboreta
        ],
        "discards": [[_card(card) for card in pile] for pile in state.discards],
        "last_played": [
            list(plantings[-1][0]) if plantings else None for plantings in state.arboreta
        ],
        "result": score_details(state) if over else None,
    }


def events(before: ArboretumState, seat: int, move: Move, after: ArboretumState) -> list[Event]:
    """The log lines of an applied move, one per happening for every reader. Public lines
    never name a hidden card. In each message ``{p0}`` is the player who moved and ``{p1}``
    another player (:func:`roles`)."""
    me = who(p0=seat)
    kind = move["type"]
    lines: list[Event] = []
    if kind == "draw":
        source = move["source"]
        if source == "deck":
            card = before.deck[-1]
            drawer = frozenset((seat,))
            lines.append(Event.say(
                "arboretum.draw_deck", Msg("{p0} drew from the deck", me), {"player": seat},
                not_for=drawer))
            lines.append(Event.say(
                "arboretum.draw_deck_private",
                Msg("{p0} drew {card} from the deck", {**me, "card": card_msg(card)}),
                {"player": seat, "card": _card(card)}, seats=drawer))
            if not after.deck:
                lines.append(Event.say(
                    "arboretum.last_card",
                    Msg("{p0} drew the last card of the deck: the game ends with this turn", me),
                    {"player": seat}))
        else:
            card = before.discards[source][-1]
            took = (Msg("{p0} took {card} from {p0's} own discard pile",
                        {**me, "card": card_msg(card)}) if source == seat
                    else Msg("{p0} took {card} from {p1's} discard pile",
                             {**who(p0=seat, p1=source), "card": card_msg(card)}))
            lines.append(Event.say(
                "arboretum.draw_discard", took,
                {"player": seat, "from": source, "card": _card(card)}))
        if before.draws_left == 2 and after.step == STEP_PLAY:
            lines.append(Event.say(
                "arboretum.draw_skipped",
                Msg("{p0} drew no second card: the deck and every discard pile were empty", me),
                {"player": seat}))
    elif kind == "play":
        card = (move["card"][0], move["card"][1])
        cell = [move["cell"][0], move["cell"][1]]
        lines.append(Event.say(
            "arboretum.play", Msg("{p0} planted {card}", {**me, "card": card_msg(card)}),
            {"player": seat, "card": _card(card), "cell": cell}))
    else:
        card = (move["card"][0], move["card"][1])
        lines.append(Event.say(
            "arboretum.discard", Msg("{p0} discarded {card}", {**me, "card": card_msg(card)}),
            {"player": seat, "card": _card(card)}))
    if after.step == STEP_OVER and before.step != STEP_OVER:
        lines.append(_game_over(after))
    return lines


def _scores(scores: tuple[int, ...]) -> Msg:
    """Everybody's points in seat order: "{p0} scored 9 points, {p1} 7 and {p2} 12"."""
    args = {f"s{seat}": points for seat, points in enumerate(scores)}
    if len(scores) == 2:
        return plural("{p0} scored {s0} point and {p1} {s1}",
                      "{p0} scored {s0} points and {p1} {s1}", "s0", **args)
    if len(scores) == 3:
        return plural("{p0} scored {s0} point, {p1} {s1} and {p2} {s2}",
                      "{p0} scored {s0} points, {p1} {s1} and {p2} {s2}", "s0", **args)
    return plural("{p0} scored {s0} point, {p1} {s1}, {p2} {s2} and {p3} {s3}",
                  "{p0} scored {s0} points, {p1} {s1}, {p2} {s2} and {p3} {s3}", "s0", **args)


def _game_over(state: ArboretumState) -> Event:
    """Rulebook "Anunciar el ganador": every score, then the winner or those sharing the win
    (in the sentence after the scores, ``{p0}`` … are the winners, in seat order)."""
    final = result(state)
    assert final is not None
    winners = sorted(final.winners)
    args = {"scores": _scores(final.scores),
            **who(**{f"p{i}": seat for i, seat in enumerate(winners)})}
    if len(winners) == 1:
        line = Msg("Game over. {scores}. {p0} won.", args)
    elif len(winners) == 2:
        line = Msg("Game over. {scores}. {p0} and {p1} shared the win.", args)
    elif len(winners) == 3:
        line = Msg("Game over. {scores}. {p0}, {p1} and {p2} shared the win.", args)
    else:
        line = Msg("Game over. {scores}. {p0}, {p1}, {p2} and {p3} shared the win.", args)
    return Event.say(
        "arboretum.game_over",
        line,
        {
            "scores": list(final.scores),
            "ranking": list(final.ranking),
            "winners": list(final.winners),
        },
    )


def conceal(state: ArboretumState, seat: int | None, rng: random.Random) -> ArboretumState:
    """A state that ``seat`` (None: a spectator) cannot tell from ``state``: the cards it may
    not see — the deck and the other hands — dealt anew in the same numbers, and a new seed.

    This is the exact statement of Arboretum's hidden information (spec §Turn: hands and the
    deck's order and content); the leak checker asserts that no view, event or refusal
    changes under it. Once the game is over the hands are revealed and only the seed changes.
    """
    seed = rng.randrange(2**31)
    if state.over:
        return replace(state, seed=seed)
    hidden = [s for s in range(state.players) if s != seat]
    pool = list(state.deck) + [card for s in hidden for card in state.hands[s]]
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in hidden:
        count = len(hands[s])
        hands[s], pool = tuple(pool[:count]), pool[count:]
    return replace(state, seed=seed, hands=tuple(hands), deck=tuple(pool))
