"""Solo against Gwidyon, S1–S11."""

from __future__ import annotations

from dataclasses import replace

from app.games.mycelia import rules, views
from app.games.mycelia.data import NEW_DEW, SOLO_CARDS, START_DEW
from app.games.mycelia.rules import BLANK, REMOVE, State

from .helpers import (
    END,
    SKIP,
    at,
    field,
    move_drop,
    new_game,
    news,
    pending,
    play,
    play_card,
    player,
    refused,
    table,
    with_drops,
    with_player,
)

SOLO_IDS = {card.id for card in SOLO_CARDS}
ONE = ("0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 1 0")


def gwidyon(state: State, **changes: object) -> State:
    assert state.gwidyon is not None
    return replace(state, gwidyon=replace(state.gwidyon, **changes))


def solo(deck: tuple[str, ...] = ("g_flip1",), drops: int = 20, **options: object) -> State:
    """A solo game with Gwidyon's deck stacked (the rest of his cards below) and an empty hand."""
    state = table(1, hands={0: ()}, **options)
    rest = tuple(card for card in sorted(SOLO_IDS) if card not in deck)
    return gwidyon(state, deck=(*deck, *rest), drops=drops)


def gw(state: State) -> rules.Gwidyon:
    assert state.gwidyon is not None
    return state.gwidyon


def test_S1_solo_setup_capacity_ten_gwidyon_deck_and_token():
    state = new_game(1, 3)
    assert rules.capacity(state) == 10 and state.sanctuary == 0
    assert gw(state).drops == 20 and gw(state).token == REMOVE and gw(state).revealed == ()
    assert set(gw(state).deck) == SOLO_IDS and len(gw(state).deck) == 6
    assert {new_game(1, seed).gwidyon.deck for seed in range(8)} != {gw(state).deck}
    assert gw(new_game(1, 3, gwidyon_drops=24)).drops == 24


def test_S2_your_turn_then_gwidyons_then_yours():
    state = solo(("g_leaf1",))
    state = rules.apply(state, 0, END)
    assert gw(state).revealed == ("g_leaf1",) and gw(state).drops == 19
    assert state.turn == 0 and state.round == 2 and rules.active_seats(state) == {0}
    assert player(state).leaves == 1 and len(player(state).hand) == 3


def test_S3_reveal_and_carry_out_reshuffle_after_the_fifth_and_g_move_asks_you():
    state = with_drops(solo(("g_move",)), 0, "0 0 0 0 0", "0 2 0 0 0", "0 0 0 0 0",
                       "0 0 0 0 0")
    asked = rules.apply(state, 0, END)
    assert pending(asked).kind == "solo_move" and pending(asked).seat == 0
    assert pending(asked).options == ((1, 1),)
    refused(asked, 0, move_drop((1, 1), (3, 3)), "R15")
    moved = rules.apply(asked, 0, move_drop((1, 1), (1, 2)))
    assert moved.pending is None and at(moved, (1, 1)) == 1 and moved.sanctuary == 1
    assert moved.turn == 0 and moved.round == 2
    # five turns reveal five cards, then all six are shuffled into a new deck
    state = solo(("g_leaf1", "g_leaf1"))
    state = gwidyon(state, deck=("g_flip1", "g_flip2", "g_market", "g_leaf3", "g_leaf1",
                                 "g_move"))
    for turn in range(5):
        state = with_player(state, 0, hand=())
        state = rules.apply(state, 0, END)
        if turn < 4:
            assert len(gw(state).revealed) == turn + 1
    assert gw(state).revealed == () and sorted(gw(state).deck) == sorted(SOLO_IDS)
    assert "gwidyon_shuffled" in news(state)


def test_S4_the_token_removes_a_drop_each_time_it_turns_to_remove():
    state = solo(("g_flip1", "g_flip1"))
    state = rules.apply(state, 0, END)
    assert gw(state).token == BLANK and gw(state).drops == 19, "blank: nothing; then 1 drop"
    state = with_player(state, 0, hand=())
    state = rules.apply(state, 0, END)
    assert gw(state).token == REMOVE and gw(state).drops == 17, "remove side: 1 more, then 1"


def test_S5_gwidyon_removes_at_most_the_drops_he_has():
    state = solo(("g_leaf3",), drops=2)
    state = rules.apply(state, 0, END)
    assert gw(state).drops == 0 and state.sanctuary == 2
    assert state.phase == rules.OVER


def test_S6_the_sanctuary_turns_after_either_turn_and_only_your_board_gets_dew():
    state = replace(solo(("g_market",)), sanctuary=10)
    before = rules.total_drops(player(state))
    side = state.new_dew
    state = rules.apply(state, 0, END)
    assert state.die is not None and state.sanctuary == 0 and gw(state).drops == 20
    assert rules.total_drops(player(state)) == before + len(NEW_DEW[side][state.die])
    assert news(state).count("new_dew") == 1
    # full after Gwidyon's own removals: it turns at the end of his turn
    state = replace(solo(("g_leaf1",)), sanctuary=9)
    side = state.new_dew
    state = rules.apply(state, 0, END)
    assert news(state).index("gwidyon_removed") < news(state).index("rotated")
    assert state.sanctuary == 0 and state.new_dew != side and gw(state).drops == 19


def test_S7_gwidyon_buys_nothing_and_has_no_hand_tiles_or_leaves():
    state = solo(("g_leaf3",))
    market = state.market
    state = rules.apply(state, 0, END)
    assert state.market == market
    shown = views.view(state, 0)["gwidyon"]
    assert set(shown) == {"drops", "token", "deck_count", "revealed", "last"}
    assert len(state.seats) == 1


def test_S8_your_bonus_parts_act_on_gwidyon():
    state = table(1, boards={0: ("1 1 1 1 1", "1 1 0 1 1", "1 1 1 1 1", "1 1 1 1 1")},
                  hands={0: ("st_gift", "lycoperdon_perlatum", "amanita_muscaria")})
    gift, lycoperdon, amanita = player(state).hand
    state = play_card(state, 0, gift)
    assert player(state).leaves == 2 and gw(state).drops == 20, "leaves: nothing for him"
    state = play_card(state, 0, lycoperdon)
    assert gw(state).token == BLANK and gw(state).drops == 20, "a move: one token flip"
    state = play(state, 0, {"type": "play", "card": amanita}, SKIP)
    assert gw(state).drops == 19 and state.sanctuary == 1, "a removal: removed from him"
    phallus = table(1, hands={0: ("phallus_impudicus",)})
    phallus = play(phallus, 0, {"type": "play", "card": player(phallus).hand[0]}, SKIP)
    assert gw(phallus).token == REMOVE and gw(phallus).drops == 20, "its bonus is leaves"


def test_S9_the_game_ends_after_the_turn_in_which_a_board_empties():
    state = table(1, boards={0: ONE}, hands={0: ("russula_emetica", "st_leaf", "st_leaf")})
    state = play(state, 0, {"type": "play", "card": player(state).hand[0]}, field((3, 3)))
    assert state.end_triggered and len(player(state).hand) == 2
    assert END in rules.legal_moves(state, 0), "R10 is lifted once your board is empty"
    over = rules.apply(state, 0, END)
    assert over.phase == rules.OVER and gw(over).revealed == (), "Gwidyon plays no more turn"
    # Gwidyon empties his board in his turn: over right after it
    his = solo(("g_flip2",), drops=2)
    his = rules.apply(his, 0, END)
    assert his.phase == rules.OVER and gw(his).drops == 0
    # with a full sanctuary no rotation comes after the trigger
    full = replace(table(1, boards={0: ONE}, hands={0: ("russula_emetica",)}), sanctuary=10)
    full = play(full, 0, {"type": "play", "card": player(full).hand[0]}, field((3, 3)), END)
    assert full.phase == rules.OVER and full.die is None


def test_S10_who_wins_a_solo_game():
    you = table(1, boards={0: ONE}, hands={0: ("russula_emetica",)})
    you = play(you, 0, {"type": "play", "card": player(you).hand[0]}, field((3, 3)), END)
    result = rules.result(you)
    assert result is not None and result.winners == (0,)
    assert result.details["solo"]["winner"] == "you"
    him = rules.result(rules.apply(solo(("g_leaf3",), drops=3), 0, END))
    assert him is not None and him.winners == () and him.details["solo"]["winner"] == "gwidyon"
    both = table(1, boards={0: ONE}, hands={0: ("amanita_muscaria",)})
    both = gwidyon(both, drops=1)
    both = play(both, 0, {"type": "play", "card": player(both).hand[0]}, field((3, 3)), END)
    shared = rules.result(both)
    assert shared is not None and shared.winners == (0,)
    assert shared.details["solo"] == {"winner": "both", "gwidyon_drops": 0,
                                      "winners": ["you", "gwidyon"]}
    assert views.view(both, 0)["winners"] == ["you", "gwidyon"]


def test_S11_the_starting_dew_is_for_your_board_only():
    state = new_game(1, 5)
    assert player(state).drops == START_DEW[state.start_dew]
    assert gw(state).drops == 20 and not hasattr(gw(state), "board")


def test_S3_gwidyons_move_card_is_an_instruction_not_a_choice():
    """Rulebook (solo cards): "Verplaats op je spelbord 1 druppel van een willekeurig veld één
    veld orthogonaal" — no Skip while a drop can move; with no drop, nothing is asked."""
    state = with_drops(solo(("g_move",)), 0, "0 0 0 0 0", "0 2 0 0 0", "0 0 0 0 0",
                       "0 0 0 0 0")
    asked = rules.apply(state, 0, END)
    legal = rules.legal_moves(asked, 0)
    assert legal and all(move["type"] == "move_drop" for move in legal)
    refused(asked, 0, SKIP, "S3")
    empty = with_drops(solo(("g_move",)), 0, *(("0 0 0 0 0",) * 4))
    assert rules.apply(empty, 0, END).pending is None
