"""SEL-1…11 and SOLO-1…3: the row, picks, the marker, cleanup, the automa."""

from __future__ import annotations

from dataclasses import replace

from app.games.evergreen import rules
from app.games.evergreen.data import ROW_SIZE
from app.games.evergreen.rules import automa_choice, cleanup, fertility

from .helpers import finish_round, new_game, play, refused, select_state

Zone = tuple[tuple[tuple[int, bool], ...], ...]
EMPTY: Zone = ((), (), (), (), (), ())
NO_FERTILITY = {b: 0 for b in ("snow", "swamp", "rock", "flowers", "wheat", "meadow")}


def pick(card: int) -> dict[str, object]:
    return {"type": "pick", "card": card}


def test_sel_1_row_size_and_draw_order():
    for players in (1, 2, 3, 4):
        state = new_game(players, 11)
        assert len(state.row) == ROW_SIZE[players] == (3 if players == 1 else players + 1)
    state = select_state(3, (None, None, None, None))  # type: ignore[arg-type]
    top = state.deck[:4]
    drawn = rules._start_round(state)
    assert drawn.row == top  # slot 0 = first card drawn = nearest the deck
    assert drawn.deck == state.deck[4:]


def test_sel_2_empty_deck_reshuffles_the_discard_mid_row():
    state = select_state(4, (None,) * 5)  # type: ignore[arg-type]
    zone = state.zone
    fronts = ((3,), (4,), (5,), (6,))
    discard = state.deck[1:]
    state = replace(state, deck=state.deck[:1], discard=discard, fronts=fronts, counter=9)
    drawn = rules._start_round(state)
    assert drawn.row[0] == state.deck[0]  # the old deck's last card first
    assert set(drawn.row[1:]) <= set(discard)
    assert drawn.counter == 10  # one reshuffle, from the seeded RNG
    assert drawn.discard == ()
    assert drawn.zone == zone and drawn.fronts == fronts  # never taken
    assert len(drawn.deck) + 5 == 1 + len(discard)


def test_sel_3_each_participant_picks_once_in_turn_order():
    state = select_state(3, (1, 2, 3, 4), first=1)
    order = []
    while state.phase == rules.SELECT:
        (seat,) = rules.active_seats(state)
        order.append(seat)
        state = play(state, seat, rules.legal_moves(state, seat)[-1])
    assert order == [1, 2, 0]
    assert [len(front) for front in state.fronts] == [1, 1, 1]


def test_sel_3_pick_must_be_in_the_row():
    state = select_state(2, (1, 2, 3))
    refused(state, 0, pick(9), "SEL-3")
    refused(state, 1, pick(1), "MOV-1")
    state = play(state, 0, pick(2))
    refused(state, 1, pick(2), "SEL-3")


def test_sel_4_natalia_marker_on_the_card_nearest_the_deck():
    row = (1, 37, 13, 8, 24)  # slot 0: snow card 1, slot 1: wild card 37
    state = play(select_state(4, row, first=0), 0, pick(37))
    assert state.marker_slot == 0 and state.row[0] == 1 and state.marker_holder is None
    state = play(select_state(4, row, first=0), 0, pick(1))
    assert state.marker_slot == 1  # the next lowest occupied slot


def test_sel_5_taking_the_marked_card_takes_the_marker():
    row = (1, 37, 13, 8, 24)
    state = play(select_state(4, row, first=0), 0, pick(37))
    state = play(state, 1, pick(1))
    assert state.marker_holder == 1 and state.marker_slot is None
    state = play(state, 2, pick(13))
    state = play(state, 3, pick(8))
    assert state.phase == rules.ACT and state.marker_holder == 1
    state = finish_round(state)
    assert state.first == 1 and rules.active_seats(state) == {1}


def test_sel_5_unpicked_marked_card_returns_the_marker_to_the_first_player():
    row = (1, 37, 13, 8, 24)
    state = select_state(4, row, first=2)
    state = play(state, 2, pick(37))
    assert state.marker_slot == 0
    state = play(state, 3, pick(13))
    state = play(state, 0, pick(8))
    state = play(state, 1, pick(24))
    assert state.marker_holder == 2
    state = finish_round(state)
    assert state.first == 2


def test_sel_6_exactly_one_card_left_is_cleaned_up():
    state = select_state(2, (24, 7, 13))
    state = play(state, 0, pick(7))
    state = play(state, 1, pick(13))
    assert state.phase == rules.ACT
    assert state.row == (None, None, None)
    assert state.discard == (24,)  # no icon


def test_sel_7_fertility_leftover_joins_its_pile_face_up():
    zone, discard = cleanup(EMPTY, (), 7)
    zone, discard = cleanup(zone, discard, 12)
    assert zone[1] == ((7, True), (12, True)) and discard == ()
    assert fertility(zone)["swamp"] == 3


def test_sel_8_no_icon_and_wild_leftovers_are_discarded():
    for card in (24, 37, 42, 3):
        zone, discard = cleanup(EMPTY, (5,), card)
        assert discard == (5, card) and zone == EMPTY


def test_sel_9_aridity_flips_the_top_card_limpiar_example():
    """ES/DE "Limpiar" example: snow pile [1 up, 4 up] + leftover 6 (aridity)."""
    snow: Zone = (((1, True), (4, True)), (), (), (), (), ())
    zone, discard = cleanup(snow, (), 6)
    assert zone[0] == ((1, True), (4, False), (6, True))
    assert fertility(zone)["snow"] == 1 and discard == ()
    zone, _ = cleanup(EMPTY, (), 11)  # empty swamp pile: only appended
    assert zone[1] == ((11, True),) and fertility(zone)["swamp"] == 0


def test_SEL_9_aridity_flips_the_last_card_added():
    # The top is flipped whatever it is — here a face-up aridity card (printed data may hold
    # two per biome); the fertility card under it stays face up.
    pile = ((2, True), (1, False), (6, True))
    zone, _ = cleanup((pile, (), (), (), (), ()), (), 6)
    assert zone[0] == ((2, True), (1, False), (6, False), (6, True))
    assert fertility(zone)["snow"] == 2
    # a face-up card without icons on top (substitute data) is the one flipped too
    zone, _ = cleanup((((1, True), (3, True)), (), (), (), (), ()), (), 6)
    assert zone[0] == ((1, True), (3, False), (6, True)) and fertility(zone)["snow"] == 1


def test_SEL_9_a_face_down_top_stays_and_nothing_deeper_is_flipped():
    zone, _ = cleanup((((1, True), (4, False)), (), (), (), (), ()), (), 6)
    assert zone[0] == ((1, True), (4, False), (6, True))
    assert fertility(zone)["snow"] == 1  # card 1 under the face-down top keeps counting
    zone, _ = cleanup((((1, False), (6, False)), (), (), (), (), ()), (), 6)
    assert zone[0] == ((1, False), (6, False), (6, True))  # never flipped back


def test_SEL_9_in_play_a_leftover_aridity_card_dries_its_pile():
    state = select_state(2, (6, 7, 13))
    state = replace(state, zone=(((1, True), (4, True)), (), (), (), (), ()))
    state = play(state, 0, pick(7))
    state = play(state, 1, pick(13))
    assert state.phase == rules.ACT
    assert state.zone[0] == ((1, True), (4, False), (6, True))
    assert fertility(state.zone)["snow"] == 1


def test_sel_10_fertility_counts_face_up_icons():
    zone = (((1, True), (4, False), (6, True)), ((7, True), (12, True)), (), (), (), ())
    assert fertility(zone) == {**NO_FERTILITY, "snow": 1, "swamp": 3}


def test_sel_11_only_the_deck_order_is_hidden():
    from app.games.evergreen.views import view

    state = play(select_state(2, (24, 7, 13)), 0, pick(7))
    seen = view(state, 1)
    assert seen["deck_count"] == len(state.deck)
    assert [slot["card"] for slot in seen["row"]] == [24, None, 13]
    assert seen["participants"][0]["cards"] == [7]
    assert seen["discard"] == list(state.discard)
    assert "deck" not in seen


def test_solo_1_automa_picks_and_places_the_marker():
    state = select_state(1, (24, 7, 13), first=1)  # the automa is first
    state = rules._advance(state)
    assert state.fronts[1] == (7,)  # most icons
    assert state.marker_slot == 0  # placed on the card nearest the deck
    assert rules.active_seats(state) == {0}
    assert len(state.boards) == 1  # no planet, tracks or score for the automa
    state = play(state, 0, pick(13))
    assert state.marker_holder == 1  # the marked card (24) was left: back to the automa
    assert state.discard == (24,)


def test_solo_1_automa_can_take_the_marker():
    state = play(select_state(1, (7, 24, 37), first=0), 0, pick(24))
    # the automa took the wild card 37 (slot 2); the marker lay on card 7 (slot 0)
    assert state.fronts[1] == (37,) and state.marker_holder == 0
    state = play(select_state(1, (37, 24, 7), first=0), 0, pick(24))
    assert state.fronts[1] == (37,) and state.marker_holder == 1


def test_solo_2_automa_priority_list():
    # 1. a wild card over a 2-icon card
    assert automa_choice((2, 37, 5), NO_FERTILITY) == 1
    # 2. most fertility icons, ties nearest the deck
    assert automa_choice((1, 2, 5), NO_FERTILITY) == 1
    assert automa_choice((3, 1, 4), NO_FERTILITY) == 1
    # 3. aridity card of the biome with the lowest fertility, ties nearest the deck
    fert = {**NO_FERTILITY, "snow": 3, "swamp": 1, "rock": 1}
    assert automa_choice((6, 11, 16), fert) == 1
    assert automa_choice((6, 16, 11), fert) == 1
    assert automa_choice((3, 6, 24), fert) == 1
    # 4. only icon-less planet cards: nearest the deck
    assert automa_choice((None, 24, 3), NO_FERTILITY) == 1
    # two wild cards: nearest the deck
    assert automa_choice((5, 40, 38), NO_FERTILITY) == 1


def test_solo_3_automa_keeps_its_cards_until_the_season_change():
    state = new_game(1, 3)
    kept: tuple[int, ...] = ()
    for round_no in range(1, 6):
        while state.phase == rules.SELECT:
            state = play(state, 0, rules.legal_moves(state, 0)[0])
        assert state.round == round_no and len(state.fronts[1]) == round_no
        assert state.fronts[1][: len(kept)] == kept
        kept = state.fronts[1]
        state = play(state, 0, {"type": "done"})
    assert state.season == 1
    assert set(kept) <= set(state.discard)  # discarded at the season change (END-2)
    assert not set(kept) & set(state.fronts[1])
