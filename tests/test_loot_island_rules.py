"""Loot Island: one test per rule of setup, phase 1, phase 2 (playing cards, passing) and phase 3."""
import numpy as np
import pytest
from loot_island_helpers import Game, card, play_code, recompute
from simlab.core.params import ASSUMPTION
from simlab.core.runner import Prepared, RunConfig
from simlab.games.loot_island import GAME, rules
from simlab.games.loot_island.board import EV_EXPLORE, EV_PASS, EV_TAKE
from simlab.games.loot_island.components import PARAMS, PER_COLOUR, SYM_DISCARD, SYM_DRAW
from simlab.games.loot_island.state import (B_CURSES, B_HAND_N, B_HEALER, B_PASSED, B_START_TAKEN, B_SUPPLY, COPY_SKIP,
                                            ISLET_DOWN, ISLET_UP, L0, L_COLOUR, L_COUNT, L_LAST, LB, M_COL, M_DISC, P0,
                                            PASS, PB, PH_FINAL, S_CORNER, S_DECKOUT, S_EVENT, S_EVENT_SEQ, S_FACING,
                                            S_HEALERS, S_ISLET, S_MDISC, S_MDISC_N, S_MDRAW, S_MDRAW_N, S_MLOC, S_PHASE,
                                            S_REVEAL, S_REVEAL_N, S_ROUND, S_START, S_TDECK, S_TDECK_N, S_TDISC,
                                            S_TDISC_N, S_TLOC, STOP, T_DISC, T_KEPT, T_REVEAL)

BLUE, RED, YELLOW, BLACK = 0, 1, 2, 3


def take_events(g):
    """(actor, treasure, kept) of every treasure taken, in order."""
    return [(int(e[1]), int(e[2]), int(e[3])) for e in g.events() if e[0] == EV_TAKE]


# ---------------------------------------------------------------- setup
def test_rule_setup_hands_of_7_and_6_with_allen_open_hand_of_6():
    g = Game(4, deal=True)
    assert [g.at(B_HAND_N, p) for p in range(4)] == [7, 7, 7, 7]
    g2 = Game(2, deal=True)
    assert [g2.at(B_HAND_N, p) for p in range(3)] == [6, 6, 6]
    assert g2.check() == 0


def test_rule_setup_three_curses_three_compasses_start_player_seat0():
    g = Game(5)
    for p in range(5):
        assert g.curses(p) == 3 and g.at(B_SUPPLY, p) == 3
    assert g.at(S_START) == 0


def test_rule_setup_treasure_decks_by_player_count_with_deck_I_on_top():
    for n, decks in ((2, {1, 4}), (3, {1, 4}), (4, {1, 2, 4}), (5, {1, 2, 3, 4})):
        g = Game(n)
        deck = [int(t) for t in g.state[S_TDECK:S_TDECK + g.at(S_TDECK_N)]]
        kinds = [g.values["treasure_deck"][t] for t in deck]
        assert set(kinds) == decks
        assert kinds == sorted(kinds, reverse=True)  # bottom IV ... top I (top = last)


def test_rule_setup_healers_dealt_one_per_player_face_down():
    g = Game(3)
    dealt = [int(h) for h in g.state[S_HEALERS:S_HEALERS + 5]]
    assert len(set(dealt[:3])) == 3 and all(0 <= h < 14 for h in dealt[:3]) and dealt[3:] == [-1, -1]


def test_rule_setup_events_one_A_for_round_1_then_four_distinct_B():
    for seed in range(20):
        g = Game(4, seed=seed)
        seq = [int(e) for e in g.state[S_EVENT_SEQ:S_EVENT_SEQ + 5]]
        assert 0 <= seq[0] <= 3
        assert all(4 <= e <= 17 for e in seq[1:]) and len(set(seq[1:])) == 4


def test_rule_setup_framed_islet_removed_below_five_players():
    assert [int(x) for x in Game(4).state[S_ISLET:S_ISLET + 7]] == [0, 2, 0, 0, 0, 0, 0]
    assert [int(x) for x in Game(5).state[S_ISLET:S_ISLET + 7]] == [0] * 7


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_variant_start_hand_fixed_deal_of_8_9_10_11_in_turn_order_then_keep_the_hand_size(n):
    """Rulebook variant: the 2nd player in turn order is dealt 8 cards, the 3rd 9, the 4th 10, the 5th 11,
    at every player count; everyone then keeps 7 (2 players: 6). The start player gets the normal hand.
    Each seat's deal is a run of cards off the top of the deck: its kept hand plus its discards."""
    keep = 6 if n == 2 else 7
    g = Game(n, start_hand_variant=True)
    start = n - 1
    g.state[S_START] = start
    deck = [int(m) for m in g.state[S_MDRAW:S_MDRAW + g.at(S_MDRAW_N)]][::-1]   # top first
    g.run(rules.OP_DEAL)
    discarded = {int(m) for m in g.state[S_MDISC:S_MDISC + g.at(S_MDISC_N)]}
    top = 0
    for k, dealt in enumerate([keep, 8, 9, 10, 11][:n]):
        p = (start + k) % n
        block = set(deck[top:top + dealt])
        top += dealt
        assert g.at(B_HAND_N, p) == keep and set(g.hand(p)) <= block
        assert len(block & discarded) == dealt - keep
    assert len(discarded) == top - n * keep


# ---------------------------------------------------------------- decks
def test_rule_map_deck_reshuffles_discards_when_empty():
    g = Game(3)
    s = g.state
    s[S_MDRAW_N] = 2  # pretend most of the pile is gone: move them to the discard pile
    for j in range(2, 88):
        m = int(s[S_MDRAW + j])
        rules.discard_map(s, m)
    got = rules.draw_map(s, g.streams, 0, 5)
    assert got == 5 and g.at(S_MDISC_N) == 0 and g.at(S_MDRAW_N) == 88 - 5
    assert g.check() == 0


def test_rule_map_deck_exhausted_draws_what_there_is():
    g = Game(3)
    s = g.state
    for m in range(88):
        g.give(0, m) if s[S_MLOC + m] == 0 else None
    assert rules.draw_map(s, g.streams, 1, 2) == 0 and g.at(B_HAND_N, 1) == 0


def test_rule_treasure_deck_reshuffles_then_runs_dry_and_flags_game_end():
    g = Game(2)
    s = g.state
    n = g.at(S_TDECK_N)
    for j in range(1, n):  # all but the bottom card are on the discard pile
        t = int(s[S_TDECK + j])
        s[S_TDISC + j - 1] = t
        s[S_TLOC + t] = T_DISC
    s[S_TDISC_N] = n - 1
    s[S_TDECK_N] = 1
    assert g.check() == 0
    assert rules.reveal_treasures(s, g.streams, 3, T_REVEAL) == 3  # 1 left + reshuffled discards
    assert g.at(S_TDISC_N) == 0 and g.at(S_DECKOUT) == 0 and g.at(S_TDECK_N) == n - 3
    for j in range(3):
        s[S_TLOC + int(s[S_REVEAL + j])] = T_KEPT + 0
    s[S_REVEAL_N] = 0
    left = g.at(S_TDECK_N)
    for j in range(left - 1):
        s[S_TLOC + int(s[S_TDECK + j + 1])] = T_KEPT + 0
    s[S_TDECK_N] = 1
    assert rules.reveal_treasures(s, g.streams, 2, T_REVEAL) == 1
    assert g.at(S_DECKOUT) == 1


# ---------------------------------------------------------------- phase 1
def test_rule_phase1_ship_moves_islets_face_up_next_event_hands_refilled():
    g = Game(4, deal=True, forced_ship=(1, 1), forced_events=(1, 5, 0, 0, 0))
    s = g.state
    s[S_ISLET + 3] = ISLET_DOWN
    s[S_ROUND] = 2
    for m in g.hand(0)[:3]:
        rules.discard_map(s, m)
    g.run(rules.OP_PHASE1)
    assert g.at(S_CORNER) == 3 and g.at(S_FACING) == 1  # moved in phase 1, then again by B1
    assert g.at(S_ISLET + 3) == ISLET_UP
    assert g.at(S_EVENT) == 4  # B1, the forced round-2 event, is in force
    assert [g.at(B_HAND_N, p) for p in range(4)] == [7, 7, 7, 7]


def test_rule_phase1_players_may_discard_before_refilling():
    g = Game(3, deal=True, strategy_name="t_prefer", forced_events=(1, 11, 0, 0, 0))
    s = g.state
    s[S_ROUND] = 2
    keep = g.hand(1)
    g.prefer(1, [keep[0], keep[1], STOP])  # seat 1 throws two cards away, then stops
    g.run(rules.OP_PHASE1)
    assert s[S_MLOC + keep[0]] == M_DISC and s[S_MLOC + keep[1]] == M_DISC
    assert g.at(B_HAND_N, 1) == 7


# ---------------------------------------------------------------- phase 2: placement rules
def test_rule_first_card_any_colour_but_coast_landings_need_different_colours():
    g = Game(4)
    g.column(0, [card(2, 5, 1)])
    g.give(1, card(2, 7, 1))
    g.give(1, card(3, 7, 1))
    n = rules.action_choices(g.state, g.cfg, 1, g.legal)
    codes = set(int(x) for x in g.legal[:n])
    assert play_code(1, 2) not in codes      # the other landing of coast 1 cannot take colour 2
    assert play_code(1, 3) in codes and play_code(2, 2) in codes
    assert play_code(0, 2) in codes and play_code(0, 3) not in codes  # a column keeps its colour


def test_rule_cards_go_on_in_ascending_order_equal_allowed():
    """On a column ending in a 7, a 7 (equal) and a 9 may join, a 5 may not; a wild always fits and a 1
    goes to the front: the cards the engine's ``fitting`` offers from a hand holding all five."""
    g = Game(4)
    g.column(4, [card(1, 7, 1)])
    hand = {"7": card(1, 7, 0), "9": card(1, 9, 1), "5": card(1, 5, 1), "wild": card(1, 0, 1), "1": card(1, 1, 1)}
    for m in hand.values():
        g.give(0, m)
    bits = rules.fitting(g.state, g.cfg, 0, 4, 1)
    assert {name for name, m in hand.items() if bits >> (m % PER_COLOUR) & 1} == {"7", "9", "wild", "1"}


def test_rule_several_cards_in_one_turn_placed_ascending_with_gaps():
    g = Game(4)
    for m in (card(1, 9, 1), card(1, 3, 1), card(1, 5, 1)):
        g.give(0, m)
    g.prefer(0, [card(1, 9, 1), card(1, 3, 1), card(1, 5, 1), STOP])
    g.run(rules.OP_PLAY, 0, 0, 2, 1)
    assert g.cards_at(2) == [card(1, 3, 1), card(1, 5, 1), card(1, 9, 1)]
    assert g.at(L0 + 2 * LB + L_LAST) == 9


def test_rule_wild_counts_as_previous_value_or_one_when_first():
    g = Game(4)
    g.give(0, card(1, 0, 1))
    g.prefer(0, [card(1, 0, 1), STOP])
    g.run(rules.OP_PLAY, 0, 0, 3, 1)
    assert g.at(L0 + 3 * LB + L_LAST) == 1
    g.give(0, card(1, 4, 1))
    g.give(0, card(1, 0, 0))
    g.prefer(0, [card(1, 0, 0), card(1, 4, 1), STOP])
    g.run(rules.OP_PLAY, 0, 0, 3, 1)
    assert g.cards_at(3)[-2:] == [card(1, 4, 1), card(1, 0, 0)]  # the wild after the 4, worth 4
    assert g.at(L0 + 3 * LB + L_LAST) == 4


def test_example_black_plays_red_3_and_5_places_compass_no_effect():
    g = Game(4)
    red = 1
    for m in (card(red, 3, 1), card(red, 5, 1), card(red, 9, 1)):
        g.give(BLACK, m)
    before = [g.curses(p) for p in range(4)]
    g.prefer(BLACK, [card(red, 3, 1), card(red, 5, 1), STOP])
    g.run(rules.OP_PLAY, BLACK, BLACK, 5, red)
    assert g.cards_at(5) == [card(red, 3, 1), card(red, 5, 1)] and g.stack(5) == [BLACK]
    assert [g.curses(p) for p in range(4)] == before and g.hand(BLACK) == [card(red, 9, 1)]


def test_example_red_adds_5_and_9_everyone_at_the_landing_discards_and_draws():
    g = Game(4)
    col = 2
    g.column(6, [card(col, 2, 1)])
    for p in (RED, YELLOW, BLUE):
        g.compass(6, p)
    g.give(RED, card(col, 5, 0))   # draw symbol
    g.give(RED, card(col, 9, 0))   # discard symbol
    hands = [g.at(B_HAND_N, p) for p in range(4)]
    g.prefer(RED, [card(col, 5, 0), card(col, 9, 0), STOP])
    g.run(rules.OP_PLAY, RED, RED, 6, col)
    assert [g.curses(p) for p in (RED, YELLOW, BLUE, BLACK)] == [2, 2, 2, 3]
    after = [g.at(B_HAND_N, p) for p in range(4)]
    assert after[RED] == hands[RED] - 2 + 1 and after[YELLOW] == hands[YELLOW] + 1
    assert after[BLUE] == hands[BLUE] + 1 and after[BLACK] == hands[BLACK]
    assert g.stack(6) == [RED, YELLOW, BLUE]  # red was already there: no new compass


def test_rule_one_on_empty_column_every_player_takes_a_cube_passed_or_not():
    g = Game(4)
    g.state[P0 + 3 * PB + B_PASSED] = 1
    g.give(0, card(0, 1, 0))
    g.prefer(0, [card(0, 1, 0), STOP])
    g.run(rules.OP_PLAY, 0, 0, 0, 0)
    assert [g.curses(p) for p in range(4)] == [4, 4, 4, 4]


def test_rule_one_after_a_one_is_placed_normally_and_curses_everyone():
    g = Game(3)
    g.column(1, [card(3, 1, 0)])
    g.give(0, card(3, 1, 1))
    g.prefer(0, [card(3, 1, 1), STOP])
    g.run(rules.OP_PLAY, 0, 0, 1, 3)
    assert g.cards_at(1) == [card(3, 1, 0), card(3, 1, 1)] and [g.curses(p) for p in range(3)] == [4, 4, 4]


def test_example_yellow_plays_1_10_wild_the_1_goes_in_front_and_copies_the_5s_draw():
    g = Game(4)
    col = 1
    g.column(2, [card(col, 5, 0), card(col, 7, 0)])  # 5 = draw, 7 = discard
    g.compass(2, BLUE)
    for m in (card(col, 1, 0), card(col, 10, 1), card(col, 0, 1)):
        g.give(YELLOW, m)
    g.prefer(YELLOW, [card(col, 1, 0), card(col, 10, 1), card(col, 0, 1), STOP, SYM_DRAW])
    blue_hand = g.at(B_HAND_N, BLUE)
    g.run(rules.OP_PLAY, YELLOW, YELLOW, 2, col)
    assert g.cards_at(2) == [card(col, 1, 0), card(col, 5, 0), card(col, 7, 0), card(col, 10, 1), card(col, 0, 1)]
    assert g.stack(2) == [BLUE, YELLOW]
    assert g.at(B_HAND_N, YELLOW) == 1            # drew one with the copied effect
    assert g.at(B_HAND_N, BLUE) == blue_hand       # the copy helps nobody else
    assert [g.curses(p) for p in range(4)] == [3, 3, 3, 3]


def test_rule_front_one_may_copy_discard_instead_and_never_chest_or_plus1():
    g = Game(4)
    col = 2
    g.column(0, [card(col, 2, 0), card(col, 7, 0), card(col, 8, 0)])  # +1, discard, chest
    g.give(0, card(col, 1, 0))
    g.prefer(0, [card(col, 1, 0), STOP, SYM_DISCARD])
    rules.copy_choices(g.state, g.cfg, 0, g.legal)
    assert sorted(int(x) for x in g.legal[:2]) == [COPY_SKIP, SYM_DISCARD]
    g.run(rules.OP_PLAY, 0, 0, 0, col)
    assert g.curses(0) == 2 and g.curses(1) == 3


def test_rule_compass_goes_on_top_one_per_colour_from_supply_else_moved():
    g = Game(4)
    g.compass(2, 1)
    g.compass(3, 0)
    g.compass(5, 0)
    g.compass(7, 0)
    assert g.at(B_SUPPLY, 0) == 0
    g.give(0, card(0, 4, 1))
    g.prefer(0, [7, card(0, 4, 1), STOP])       # D_SOURCE: take the compass from landing 7
    g.run(rules.OP_PLAY, 0, 0, 2, 0)
    assert g.stack(2) == [1, 0] and g.stack(7) == [] and g.at(B_SUPPLY, 0) == 0
    g.give(0, card(0, 6, 1))
    g.prefer(0, [card(0, 6, 1), STOP])
    g.run(rules.OP_PLAY, 0, 0, 2, 0)
    assert g.stack(2) == [1, 0]                  # already there: no second compass


def test_rule_pass_first_passer_takes_start_tile_others_do_not():
    g = Game(4)
    g.run(rules.OP_PASS, 2, 0)
    g.run(rules.OP_PASS, 1, 1)
    assert g.at(S_START) == 2 and g.at(B_START_TAKEN, 2) == 1 and g.at(B_START_TAKEN, 1) == 0
    assert g.at(B_PASSED, 1) == 1


def test_rule_phase2_runs_clockwise_from_start_until_everyone_passed():
    g = Game(4, deal=True)
    g.state[S_START] = 2
    g.state[S_EVENT] = -1
    g.run(rules.OP_PHASE2)   # t_prefer with no script takes legal[0] = PASS
    assert all(g.at(B_PASSED, p) == 1 for p in range(4)) and g.at(S_START) == 2
    order = [int(e[1]) for e in g.events() if e[0] == EV_PASS]
    assert order == [2, 3, 0, 1]


def test_rule_passed_player_keeps_hand_for_next_round():
    g = Game(3, deal=True)
    g.state[S_EVENT] = -1
    g.run(rules.OP_PHASE2)
    assert [g.at(B_HAND_N, p) for p in range(3)] == [7, 7, 7]


# ---------------------------------------------------------------- phase 3
def loot_setup(n=4, **kw):
    g = Game(n, forced_ship=(0, 1), **kw)
    g.state[S_EVENT] = -1
    return g


def test_rule_loot_needs_6_5_4_cards_and_plus1_counts_double():
    for n, need in ((2, 4), (3, 4), (4, 5), (5, 6)):
        assert rules.cards_needed(loot_setup(n).cfg, n) == need
    g = loot_setup(4)
    g.column(0, [card(0, 2, 0), card(0, 3, 0), card(0, 4, 1)])  # 2+2+1 = 5 with the two +1 cards
    assert g.at(L0 + L_COUNT) == 5
    g.compass(0, 1)
    g.treasure_top([5])
    assert g.run(rules.OP_COAST, 0) == 1
    assert take_events(g)[0][:2] == (1, 5)


def test_rule_not_enough_cards_no_loot_but_cleanup():
    g = loot_setup(4)
    g.column(0, [card(0, 4, 1), card(0, 5, 1)])
    g.compass(0, 2)
    g.run(rules.OP_COAST, 0)
    assert take_events(g) == [] and g.stack(0) == [] and g.at(B_SUPPLY, 2) == 3
    assert g.at(L0 + L_COLOUR) == -1 and g.at(S_MDISC_N) == 2


def test_example_loot_distribution_big_then_small_in_compass_order():
    """Seed phase-3 example: big loot 7 treasures (3 compasses + 4 chests) go blue, red, yellow,
    blue, red, yellow, blue; the small loot's 3 (chests) go red, blue, black; yellow gets none."""
    g = loot_setup(4)
    big = [card(0, 6, 0), card(0, 8, 0), card(0, 10, 0), card(0, 0, 0), card(0, 3, 1), card(0, 4, 1)]
    small = [card(1, 6, 0), card(1, 8, 0), card(1, 0, 0), card(1, 9, 1), card(1, 10, 1)]
    g.column(0, big)      # 6 cards: the big loot (more cards)
    g.column(1, small)    # 5 cards
    for p in (BLUE, RED, YELLOW):
        g.compass(0, p)
    for p in (RED, BLUE, BLACK, YELLOW):
        g.compass(1, p)
    g.run(rules.OP_COAST, 0)
    takers = [a for a, t, k in take_events(g)]
    assert takers == [BLUE, RED, YELLOW, BLUE, RED, YELLOW, BLUE, RED, BLUE, BLACK]


def test_rule_big_loot_is_the_landing_with_more_cards_tie_nearest_the_bow():
    g = loot_setup(4)  # ship at corner 0 facing clockwise: coast 0, landing 0 is nearest the bow
    g.column(0, [card(0, 4, 1), card(0, 5, 1), card(0, 6, 1), card(0, 7, 1), card(0, 9, 1)])
    g.column(1, [card(1, 4, 1), card(1, 5, 1), card(1, 6, 1), card(1, 7, 1), card(1, 9, 1)])
    g.compass(0, 0)
    g.compass(1, 1)
    g.run(rules.OP_COAST, 0)
    explored = [(int(e[1]), int(e[2])) for e in g.events() if e[0] == EV_EXPLORE]
    assert explored == [(0, 1), (1, 2)]  # landing 0 big (1), landing 1 small (2)
    assert take_events(g)[0][0] == 0 and len(take_events(g)) == 1  # small loot: no chest, nothing
    g = Game(4, forced_ship=(1, -1))  # facing counter-clockwise at corner 1: coast 0, landing 1 nearest
    g.state[S_EVENT] = -1
    g.column(0, [card(0, 4, 1), card(0, 5, 1), card(0, 6, 1), card(0, 7, 1), card(0, 9, 1)])
    g.column(1, [card(1, 4, 1), card(1, 5, 1), card(1, 6, 1), card(1, 7, 1), card(1, 9, 1)])
    g.run(rules.OP_COAST, 0)
    assert [int(e[1]) for e in g.events() if e[0] == EV_EXPLORE][0] == 1


def test_rule_big_loot_reveals_one_per_compass_plus_chests_small_only_chests():
    g = loot_setup(4)
    g.column(2, [card(2, 8, 0), card(2, 9, 1), card(2, 10, 0), card(2, 10, 1), card(2, 5, 1), card(2, 6, 1)])
    g.column(3, [card(3, 8, 0), card(3, 9, 1), card(3, 10, 1), card(3, 5, 1), card(3, 6, 1)])
    for p in (0, 1, 2):
        g.compass(2, p)
    g.compass(3, 3)
    g.compass(3, 0)
    g.run(rules.OP_COAST, 1)
    revealed = [(int(e[1]), int(e[6])) for e in g.events() if e[0] == EV_EXPLORE]
    assert revealed == [(2, 3 + 2), (3, 1)]


def test_rule_keep_takes_curse_then_crossed_cubes_discard_sheds_two_plus_amulets():
    g = Game(4)
    g.state[P0 + B_CURSES] = 3
    g.prefer(0, [1])
    g.run(rules.OP_TAKE, 0, 15, 1)            # keep #16 money bag, curse 4
    assert g.curses(0) == 7 and g.at(S_TLOC + 15) == T_KEPT + 0
    g.run(rules.OP_TAKE, 0, 7, 1)             # keep #8 amulet: 2 crossed cubes (assumed table)
    assert g.curses(0) == 5
    # example: red with 3 amulets discards a treasure and sheds 2 + 3 = 5 cubes
    g.set_curses(RED, 9)
    for t in (12, 14, 21):
        rules.keep_treasure(g.state, g.cfg, RED, t)
    g.set_curses(RED, 9)
    g.prefer(RED, [0])
    g.run(rules.OP_TAKE, RED, 3, 1)
    assert g.curses(RED) == 4 and g.at(S_TLOC + 3) == T_DISC


def test_example_blue_keeps_4_curse_red_discards_with_3_amulets_blue_keeps_crossed():
    """Seed cleanup example (5 players): 3 treasures; blue keeps (takes 4 cubes), red discards
    (sheds 5 with 3 amulets), blue keeps one with a crossed cube (sheds 1)."""
    g = loot_setup(5)
    g.column(0, [card(0, 2, 0), card(0, 8, 0), card(0, 5, 1), card(0, 6, 1), card(0, 7, 1)])  # 6 counted
    g.compass(0, BLUE)
    g.compass(0, RED)
    for t in (12, 14, 21):
        rules.keep_treasure(g.state, g.cfg, RED, t)
    g.set_curses(RED, 7)
    g.treasure_top([15, 3, 24])   # money bag curse 4, jewel, amulet with 1 crossed cube
    g.prefer(BLUE, [15, 24, 1])
    g.prefer(RED, [3, 0])
    g.run(rules.OP_COAST, 0)
    assert take_events(g) == [(BLUE, 15, 1), (RED, 3, 0), (BLUE, 24, 1)]
    assert g.curses(BLUE) == 3 + 4 - 1 and g.curses(RED) == 2


def test_rule_cleanup_returns_compasses_and_discards_explored_coast_only():
    g = loot_setup(4)
    g.column(0, [card(0, 4, 1)])
    g.column(4, [card(2, 4, 1)])
    g.compass(0, 1)
    g.compass(4, 1)
    g.run(rules.OP_COAST, 0)
    assert g.stack(0) == [] and g.stack(4) == [1] and g.at(B_SUPPLY, 1) == 2
    assert g.state[S_MLOC + card(2, 4, 1)] == M_COL + 4


def test_rule_final_exploration_every_landing_small_loot_from_the_bow_onwards():
    g = Game(4, forced_ship=(2, -1))   # bow at coast 1, nearest landing 3, then 2, 1, 0, 7, ...
    for landing in (0, 3, 6):
        c = landing % 4
        g.column(landing, [card(c, 8, 0), card(c, 4, 1), card(c, 5, 1), card(c, 6, 1), card(c, 7, 1),
                           card(c, 9, 1)])
        g.compass(landing, 0)
    g.column(5, [card(1, 8, 0)])
    g.state[S_PHASE] = PH_FINAL
    g.run(rules.OP_FINAL)
    order = [(int(e[1]), int(e[2]), int(e[6])) for e in g.events() if e[0] == EV_EXPLORE]
    assert order == [(3, 2, 1), (0, 2, 1), (6, 2, 1)]  # small loot, 1 chest each, in ship order
    assert all(g.stack(landing) == [] for landing in range(8))


def test_rule_treasure_deck_running_dry_jumps_to_game_end():
    g = loot_setup(2)
    s = g.state
    n = g.at(S_TDECK_N)
    for j in range(1, n):  # only one treasure is left in the deck, none discarded
        s[S_TLOC + int(s[S_TDECK + j])] = T_KEPT + 0
    s[S_TDECK_N] = 1
    g.column(0, [card(0, 4, 1), card(0, 5, 1), card(0, 6, 1), card(0, 7, 1)])
    g.compass(0, 0)
    g.compass(0, 1)
    assert g.run(rules.OP_COAST, 0) == 0 and g.at(S_DECKOUT) == 1
    assert take_events(g) == []  # the partial reveal is not handed out (deck_out_distribute=false)


def test_reading_unclaimed_loot_a_landing_left_without_compasses_is_explored_discarded_or_not_revealed():
    """A landing can reach the loot count with no compass on it: here seat 0, with no compass left in
    its supply, takes the only compass off landing 0 to join landing 2. The rulebook reveals one
    treasure per compass plus one per chest and is silent on nobody being there (`unclaimed_loot`):
    by default the chest's treasure is revealed and discarded; `not_revealed` leaves the deck alone."""
    for reading, revealed in (("discarded", 1), ("not_revealed", 0)):
        g = loot_setup(4, unclaimed_loot=reading)
        g.column(0, [card(0, 4, 1), card(0, 5, 1), card(0, 6, 1), card(0, 7, 1), card(0, 8, 0)])  # 5, 1 chest
        for landing in (0, 3, 5):
            g.compass(landing, 0)
        g.give(0, card(1, 4, 1))
        g.prefer(0, [0, card(1, 4, 1), STOP])   # D_SOURCE: the compass leaves landing 0
        g.run(rules.OP_PLAY, 0, 0, 2, 1)
        assert g.stack(0) == [] and g.stack(2) == [0]
        deck = g.at(S_TDECK_N)
        g.run(rules.OP_COAST, 0)
        assert [(int(e[1]), int(e[2]), int(e[6])) for e in g.events() if e[0] == EV_EXPLORE][0] == (0, 1, revealed)
        assert take_events(g) == [] and g.at(S_TDISC_N) == revealed and g.at(S_TDECK_N) == deck - revealed
        assert g.check() == 0


def test_rule_a_player_without_cards_can_only_pass():
    g = Game(4)
    n = rules.action_choices(g.state, g.cfg, 1, g.legal)
    assert n == 1 and g.legal[0] == PASS


def test_rule_amulets_add_cubes_only_when_discarding_a_treasure():
    g = Game(4, forced_ship=(0, 1))
    g.state[S_EVENT] = -1
    for t in (7, 12):
        rules.keep_treasure(g.state, g.cfg, 0, t)
    g.set_curses(0, 8)
    for m in (card(0, 3, 1), card(0, 5, 1)):
        g.give(0, m)
    g.run(rules.OP_ISLET, 0, 0, 0, 0)           # islet T1: exactly its 2 cubes, amulets do not add
    assert g.curses(0) == 6


def test_rule_players_eliminated_by_curses_take_no_healer_and_all_eliminated_means_no_winner():
    g = Game(3)
    for p in range(3):
        g.set_curses(p, 13 + p)
    g.run(rules.OP_SCORING)
    assert all(g.at(B_HEALER, p) == -1 for p in range(3))
    rows = np.zeros((3, 3 + rules.N_RESULT_COLUMNS), dtype=np.int32)
    rules.write_rows(g.state, g.cfg, rows)
    assert (rows[:, 1] == rules.ELIM_SCORE).all() and (rows[:, 2] == 0).all()
    assert (rows[:, rules.C_NO_WINNER] == 1).all() and (rows[:, rules.C_ELIM] == 1).all()
    from simlab.core.results import build_frame

    frame = build_frame(GAME, rows[None], 0, ["random"])
    assert not frame.win.any() and not frame.shared_win.any(), "nobody wins"
    assert (frame["rank"] == 1).all()


def test_rule_two_ones_on_a_high_column_both_go_to_the_front_each_copies():
    g = Game(4)
    g.column(4, [card(2, 4, 0), card(2, 7, 0)])   # draw, discard
    g.give(0, card(2, 1, 0))
    g.give(0, card(2, 1, 1))
    g.prefer(0, [card(2, 1, 0), card(2, 1, 1), STOP, SYM_DISCARD])
    g.run(rules.OP_PLAY, 0, 0, 4, 2)
    assert g.cards_at(4)[:2] == [card(2, 1, 1), card(2, 1, 0)] or g.cards_at(4)[:2] == [card(2, 1, 0), card(2, 1, 1)]
    assert g.cards_at(4)[2:] == [card(2, 4, 0), card(2, 7, 0)]
    assert g.curses(0) == 1 and [g.curses(p) for p in (1, 2, 3)] == [3, 3, 3]


# ---------------------------------------------------------------- plausible alternatives (issue 14)
ALTERNATIVES = [pytest.param(p.name, alt, id=f"{p.name}-{k}") for p in PARAMS.params if p.status == ASSUMPTION
                for k, alt in enumerate(p.plausible_alternatives(), 1)]


@pytest.mark.parametrize("name,alt", ALTERNATIVES)
def test_game_plays_to_the_end_under_every_single_alternative(name, alt):
    """At 2 and 5 players, 300 games of the default seats under one alternative: the invariant checker runs
    after every step (check_invariants), every game ends after round 5 (or a dry treasure deck), the cubes and
    treasures balance, and every score is recomputed from its rows under the alternative's values."""
    values = PARAMS.resolve({name: alt})
    for n in (2, 5):
        seats = GAME.default_seats[:n]
        f = Prepared(RunConfig("loot-island", n, seats, 300, seed=3, params={"check_invariants": True, name: alt},
                               rotate=True)).frame(0, 300)
        assert len(f) == 300 * n and (f.groupby("game").size() == n).all()
        assert ((f.rounds == 5) | (f.deck_out == 1)).all()
        assert (f.curses == values["start_curses"] + f.cubes_taken - f.cubes_discarded).all()
        kept = f[["n_amulet", "n_money", "n_book", "n_jewel", "n_crown", "n_skull"]].sum(axis=1)
        assert (f.treasures_taken == kept + f.treasures_discarded).all()
        in_game = sum(1 << i for i, m in enumerate(values["islet_min_players"]) if m <= n)
        assert (f.islets_in_game == in_game).all()
        for _, game in f.groupby("game"):   # crown places rank the players the cubes (and the fee) leave in
            alive = game[game.eliminated == 0] if values["crown_ranking"] == "after_fee" else game[game.eliminated != 1]
            for row in game.itertuples():
                if row.eliminated:
                    assert row.score == rules.ELIM_SCORE
                    continue
                assert row.score == row.net_gold == recompute(row, row.allen_crosses, alive.crosses.tolist(), values)
