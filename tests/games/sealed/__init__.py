"""Sealed bids: a toy game for the platform's tests, for 1 to 5 players.

Its only components are bid tokens worth 0 to 3 and a score track. Each round every player
seals a bid at the same time; once the last bid is in, the bids are revealed and the highest
one wins the round (ties go to the lowest seat). The player after the winner then decides on
the prize: accepted, the winner scores its bid plus one (doubled in the last round with the
"Last round counts double" option); refused, the winner scores one point.

It exists to exercise the decisions that are not turns: simultaneous sealed moves (every seat
active at once, a seat that has bid has finished its part under BID-2) and a prompt answered
by one seat while the player it concerns waits. Rules:

- TURN-1: in a bid phase every seat that has not bid acts; after the reveal only the prompted
  seat acts; nobody once the game is over.
- BID-1: a bid is ``{"type": "bid", "amount": k}`` with an integer k from 0 to 3.
- BID-2: one bid per seat and round.
- ASK-1: only the prompted seat answers, only after the reveal, with
  ``{"type": "answer", "accept": true|false}``.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.games.base import (
    JSON,
    RANDOM_BOT,
    BotLevel,
    Event,
    GameSpec,
    IllegalMove,
    Move,
    Region,
    Result,
    SeatStatus,
    require_move_type,
)

MIN_BID, MAX_BID = 0, 3
BIDS = range(MIN_BID, MAX_BID + 1)
PHASE_BID, PHASE_ANSWER, PHASE_OVER = "bid", "answer", "over"
RULE_TURN, RULE_AMOUNT, RULE_ONCE, RULE_ASK = "TURN-1", "BID-1", "BID-2", "ASK-1"


class Options(BaseModel):
    """The table settings of Sealed bids."""

    model_config = ConfigDict(extra="forbid")

    rounds: int = Field(2, ge=1, le=5, title="Rounds")
    double_last: bool = Field(False, title="Last round counts double")
    pace: Literal["calm", "quick"] = Field(
        "calm", title="Pace", json_schema_extra={"labels": {"calm": "Calm", "quick": "Quick"}})


# --- state ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundRecord:
    """A finished round, public once revealed."""

    round: int
    bids: tuple[int, ...]
    winner: int
    prompted: int
    accepted: bool
    points: int


@dataclass(frozen=True)
class SealedState:
    players: int
    rounds: int
    double_last: bool
    round: int  # 1-based
    phase: str
    bids: tuple[int | None, ...]
    scores: tuple[int, ...]
    winner: int | None = None
    prompted: int | None = None
    history: tuple[RoundRecord, ...] = ()


def setup(players: int, options: Options, seed: int) -> SealedState:
    return SealedState(players=players, rounds=options.rounds, double_last=options.double_last,
                       round=1, phase=PHASE_BID, bids=(None,) * players,
                       scores=(0,) * players)


def active_seats(state: SealedState) -> frozenset[int]:
    if state.phase == PHASE_BID:
        return frozenset(s for s, bid in enumerate(state.bids) if bid is None)
    if state.phase == PHASE_ANSWER:
        assert state.prompted is not None
        return frozenset({state.prompted})
    return frozenset()


def legal_moves(state: SealedState, seat: int) -> list[Move]:
    if seat not in active_seats(state):
        return []
    if state.phase == PHASE_BID:
        return [{"type": "bid", "amount": k} for k in BIDS]
    return [{"type": "answer", "accept": True}, {"type": "answer", "accept": False}]


def _winner(bids: tuple[int | None, ...]) -> int:
    amounts = [b if b is not None else -1 for b in bids]
    return amounts.index(max(amounts))  # the lowest seat among the highest bids


def _is_last_round(state: SealedState) -> bool:
    return state.round == state.rounds


def prize(state: SealedState, accept: bool) -> int:
    """What the round's winner scores for that answer."""
    if not accept:
        return 1
    bid = state.bids[state.winner] if state.winner is not None else None
    points = (bid or 0) + 1
    return points * 2 if state.double_last and _is_last_round(state) else points


def _check_keys(move: Move, keys: set[str], rule: str) -> None:
    extra = sorted(set(move) - keys - {"type"})
    if extra:
        raise IllegalMove(f"unexpected field(s) {', '.join(map(repr, extra))} in the move", rule)


def apply(state: SealedState, seat: int, move: Move) -> SealedState:
    kind = require_move_type(move, ("bid", "answer"))
    if kind == "bid":
        return _bid(state, seat, move)
    return _answer(state, seat, move)


def _bid(state: SealedState, seat: int, move: Move) -> SealedState:
    if state.phase == PHASE_OVER:
        raise IllegalMove("the game is over", RULE_TURN)
    if state.phase != PHASE_BID or not 0 <= seat < state.players:
        raise IllegalMove("bids are closed: the table waits for the answer on the prize",
                          RULE_TURN)
    if state.bids[seat] is not None:
        raise IllegalMove("you have already sealed your bid for this round", RULE_ONCE)
    _check_keys(move, {"amount"}, RULE_AMOUNT)
    amount = move.get("amount")
    if not isinstance(amount, int) or isinstance(amount, bool) or amount not in BIDS:
        raise IllegalMove(f"a bid is a whole number from {MIN_BID} to {MAX_BID}", RULE_AMOUNT)
    bids = (*state.bids[:seat], amount, *state.bids[seat + 1:])
    if any(b is None for b in bids):
        return replace(state, bids=bids)
    winner = _winner(bids)
    prompted = (winner + 1) % state.players
    return replace(state, bids=bids, phase=PHASE_ANSWER, winner=winner, prompted=prompted)


def _answer(state: SealedState, seat: int, move: Move) -> SealedState:
    if state.phase != PHASE_ANSWER:
        raise IllegalMove("there is no prize to decide on now", RULE_ASK)
    if seat != state.prompted:
        raise IllegalMove("only the player after the round's winner decides on the prize",
                          RULE_ASK)
    _check_keys(move, {"accept"}, RULE_ASK)
    accept = move.get("accept")
    if not isinstance(accept, bool):
        raise IllegalMove("answer with accept: true or false", RULE_ASK)
    assert state.winner is not None and state.prompted is not None
    points = prize(state, accept)
    scores = tuple(score + (points if s == state.winner else 0)
                   for s, score in enumerate(state.scores))
    record = RoundRecord(round=state.round, bids=tuple(b or 0 for b in state.bids),
                         winner=state.winner, prompted=state.prompted, accepted=accept,
                         points=points)
    history = (*state.history, record)
    if _is_last_round(state):
        return replace(state, phase=PHASE_OVER, scores=scores, history=history)
    return replace(state, round=state.round + 1, phase=PHASE_BID,
                   bids=(None,) * state.players, scores=scores, winner=None, prompted=None,
                   history=history)


def result(state: SealedState) -> Result | None:
    if state.phase != PHASE_OVER:
        return None
    ranking = tuple(sorted(range(state.players), key=lambda s: (-state.scores[s], s)))
    top = max(state.scores)
    winners = tuple(s for s in range(state.players) if state.scores[s] == top)
    return Result(scores=state.scores, ranking=ranking, winners=winners,
                  details={"rounds": [_record_json(r) for r in state.history]})


# --- what seats see ---------------------------------------------------------------------------


def _revealed(state: SealedState) -> bool:
    return state.phase != PHASE_BID


def _visible_bid(state: SealedState, bidder: int, viewer: int | None) -> int | None:
    if _revealed(state) or bidder == viewer:
        return state.bids[bidder]
    return None


def _record_json(record: RoundRecord) -> JSON:
    return {"round": record.round, "bids": list(record.bids), "winner": record.winner,
            "prompted": record.prompted, "accepted": record.accepted, "points": record.points}


def view(state: SealedState, seat: int | None) -> JSON:
    return {
        "players": state.players,
        "round": state.round,
        "rounds": state.rounds,
        "last_round": _is_last_round(state),
        "double_last": state.double_last,
        "phase": state.phase,
        "revealed": _revealed(state),
        "seats": [{"seat": s, "has_bid": state.bids[s] is not None,
                   "bid": _visible_bid(state, s, seat), "score": state.scores[s]}
                  for s in range(state.players)],
        "scores": list(state.scores),
        "winner": state.winner,
        "prompted": state.prompted,
        "prizes": ({"accept": prize(state, True), "refuse": prize(state, False)}
                   if state.phase == PHASE_ANSWER else None),
        "history": [_record_json(r) for r in state.history],
    }


def seat_status(state: SealedState, seat: int) -> SeatStatus:
    if state.phase == PHASE_BID:
        if state.bids[seat] is not None:
            return SeatStatus("bid sealed", finished=RULE_ONCE)
        return SeatStatus("bidding")
    if state.phase == PHASE_ANSWER:
        if seat == state.prompted:
            return SeatStatus("deciding on the prize")
        if seat == state.winner:
            return SeatStatus("waiting for an answer")
    return SeatStatus()


def events(before: SealedState, seat: int, move: Move, after: SealedState) -> list[Event]:
    if move["type"] == "bid":
        amount = move["amount"]
        lines = [Event("sealed", f"{{p{seat}}} sealed a bid", {"seat": seat},
                       not_for=frozenset({seat})),
                 Event("own_bid", f"{{p{seat}}} sealed a bid of {amount}", {"amount": amount},
                       seats=frozenset({seat}))]
        if after.phase == PHASE_ANSWER:
            assert after.winner is not None and after.prompted is not None
            listed = ", ".join(f"{{p{s}}} {b}" for s, b in enumerate(after.bids))
            lines.append(Event(
                "reveal", f"Bids of round {after.round}: {listed}. {{p{after.winner}}} won "
                          f"the round; {{p{after.prompted}}} may accept or refuse the prize.",
                {"round": after.round, "bids": list(after.bids), "winner": after.winner,
                 "prompted": after.prompted}))
        return lines
    record = after.history[-1]
    verb = "accepted" if record.accepted else "refused"
    lines = [Event("answer", f"{{p{seat}}} {verb}: {{p{record.winner}}} scored "
                             f"{record.points}.",
                   {"accept": record.accepted, "winner": record.winner,
                    "points": record.points})]
    if after.phase == PHASE_OVER:
        final = result(after)
        assert final is not None
        names = " and ".join(f"{{p{s}}}" for s in final.winners)
        lines.append(Event("over", f"The game is over: {names} won.",
                           {"winners": list(final.winners)}))
    else:
        lines.append(Event("round", f"Round {after.round} of {after.rounds}: seal your bids.",
                           {"round": after.round}))
    return lines


def conceal(state: SealedState, seat: int | None, rng: random.Random) -> SealedState:
    """The bids ``seat`` may not see (the others' before the reveal) are redrawn."""
    if _revealed(state):
        return state
    bids = tuple(b if b is None or s == seat else rng.choice(BIDS)
                 for s, b in enumerate(state.bids))
    return replace(state, bids=bids)


# --- storage ----------------------------------------------------------------------------------


def dump(state: SealedState) -> JSON:
    return {"players": state.players, "rounds": state.rounds, "double_last": state.double_last,
            "round": state.round, "phase": state.phase, "bids": list(state.bids),
            "scores": list(state.scores), "winner": state.winner, "prompted": state.prompted,
            "history": [_record_json(r) for r in state.history]}


def load(data: JSON) -> SealedState:
    return SealedState(
        players=data["players"], rounds=data["rounds"], double_last=data["double_last"],
        round=data["round"], phase=data["phase"], bids=tuple(data["bids"]),
        scores=tuple(data["scores"]), winner=data["winner"], prompted=data["prompted"],
        history=tuple(RoundRecord(round=r["round"], bids=tuple(r["bids"]), winner=r["winner"],
                                  prompted=r["prompted"], accepted=r["accepted"],
                                  points=r["points"]) for r in data["history"]))


# --- the platform's declaration ---------------------------------------------------------------


def bot_move(view: JSON, legal: list[Move], rng: random.Random) -> Move:
    """Bids 2 and always accepts."""
    for wanted in ({"type": "bid", "amount": 2}, {"type": "answer", "accept": True}):
        if wanted in legal:
            return wanted
    return legal[0]


def regions(players: int) -> tuple[Region, ...]:
    return (Region("board", "board"),
            *(Region(f"bidder-{s}", "bidder", s) for s in range(players)))


GAME = GameSpec(
    id="sealed",
    title="Sealed bids",
    summary="Seal a bid, reveal them all at once, and let your neighbour decide whether the "
            "highest bid earns its prize.",
    min_players=1,
    max_players=5,
    Options=Options,
    moves={"bid": frozenset({"amount"}), "answer": frozenset({"accept"})},
    folder=Path(__file__).resolve().parent,
    template="sealed/table.html",
    regions=regions,
    turn_rule=RULE_TURN,
    bots=(BotLevel("bot", "Bot", bot_move), RANDOM_BOT),
    data=sys.modules[__name__],
    setup=setup,
    active_seats=active_seats,
    legal_moves=legal_moves,
    apply=apply,
    events=events,
    view=view,
    seat_status=seat_status,
    result=result,
    dump=dump,
    load=load,
    conceal=conceal,
)

__all__ = ["GAME"]
