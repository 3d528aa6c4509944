"""Jamaica: one test per rule (docs/rules/jamaica.md sections 2-4; rules 1-4), on hand-built states."""
import numpy as np
import pytest

from jamaica_helpers import SAME_STATE, Table, out_of_range
from simlab.core.errors import SimlabError
from simlab.core.rng import randint
from simlab.games.jamaica import check, common, movement, scoring
from simlab.games.jamaica.components import (LAIR, NEXT_INNER, NEXT_OUTER, PARAMS, PORT, PORT_GOLD, R_CANNON, R_FOOD,
                                             R_GOLD, R_NONE, SEA, SEA_FOOD, SPACE_TYPE, TRACK_ORDER)
from simlab.games.jamaica.state import (B_CARD, B_DISC, B_DISC_N, B_DONE, B_DRAW, B_DRAW_N, B_FALL_FOOD, B_FALL_GOLD,
                                        B_HAND, B_HAND_N, B_LAIRS, B_LAP, DEC_CARD, DEC_DICE, DEC_HOLD, DEC_MOVE,
                                        DEC_PAY, DEC_RETREAT, END_PORT_ROYAL, OWN_DECK, OWN_REMOVED, RNG_DICE,
                                        S_BANK, S_BANK_SHORT, S_CAPTAIN, S_DAY, S_END, S_ENDER, S_NIGHT, S_SSCRATCH,
                                        S_TDECK, S_TDECK_N, S_TOKEN, S_TOWNER)

FOOD, GOLD, CANNON = R_FOOD, R_GOLD, R_CANNON


def force_hand(t, ship, cards):
    """Give a ship exactly these cards in hand (the rest of its 11 on the draw pile)."""
    b = t.b(ship)
    rest = [c for c in range(11) if c not in cards]
    for i, c in enumerate(cards):
        t.state[b + B_HAND + i] = c
    t.state[b + B_HAND_N] = len(cards)
    for i, c in enumerate(rest):
        t.state[b + B_DRAW + i] = c
    t.state[b + B_DRAW_N] = len(rest)
    t.state[b + B_DISC_N] = 0


def play_round(t):
    t.play_round()


def move(t, ship, steps, backward=False):
    t.move(ship, steps, backward)


def load(t, ship, res, n):
    t.load(ship, res, n, True, ship)


def walk(t, pos, steps, backward=False, lap=0, ship=0):
    d = np.zeros(8, dtype=np.int32)
    lp = np.zeros(8, dtype=np.int32)
    dn = np.zeros(8, dtype=np.int32)
    n = movement.walk(t.state, t.cfg, ship, pos, lap, steps, backward, d, lp, dn)
    return sorted((int(d[i]), int(lp[i]), int(dn[i])) for i in range(n))


# ------------------------------------------------------------------ components and setup
def test_track_has_50_spaces_29_sea_11_ports_9_lairs_and_laps_of_32_to_44_moves():
    assert len(SPACE_TYPE) == 50
    assert SPACE_TYPE.count(SEA) == 29 and SPACE_TYPE.count(PORT) == 11 and SPACE_TYPE.count(LAIR) == 9
    food = sorted(c for c in SEA_FOOD if c)
    assert [food.count(k) for k in (1, 2, 3, 4)] == [3, 9, 12, 5]
    gold = sorted(c for c in PORT_GOLD if c)
    assert [gold.count(k) for k in (3, 5, 7)] == [6, 4, 1]
    lengths = set()

    def go(s, n):
        for t in (NEXT_OUTER[s], NEXT_INNER[s]):
            if t == 0:
                lengths.add(n + 1)
            elif t > 0:
                go(t, n + 1)
    go(0, 0)
    assert min(lengths) == 32 and max(lengths) == 44


def test_rule_setup_each_ship_has_3_gold_and_3_food_in_two_holds_and_a_hand_of_3():
    t = Table(4)
    for p in range(4):
        assert t.holds(p)[:2] == [(GOLD, 3), (FOOD, 3)]
        assert all(c == 0 for _, c in t.holds(p)[2:])
        assert t.state[t.b(p) + B_HAND_N] == 3 and t.state[t.b(p) + B_DRAW_N] == 8
        assert t.pos(p) == 0
    assert t.state[S_BANK + GOLD - 1] == 80 - 12 and t.state[S_BANK + FOOD - 1] == 45 - 12
    assert t.check() == 0


def test_rule_setup_removes_3_treasure_cards_unseen_and_puts_a_token_on_each_lair():
    t = Table(3)
    owners = [int(t.state[S_TOWNER + k]) for k in range(12)]
    assert owners.count(OWN_REMOVED) == 3 and owners.count(OWN_DECK) == 9
    assert t.state[S_TDECK_N] == 9
    tokens = [s for s in range(50) if t.state[S_TOKEN + s]]
    assert tokens == [s for s in range(50) if SPACE_TYPE[s] == LAIR]


# ------------------------------------------------------------------ the round
def test_rule_captain_rolls_two_dice_and_places_them_on_day_and_night():
    for seed in range(1, 50):
        t = Table(3, seed=seed)
        probe = t.streams[RNG_DICE].copy()
        d1, d2 = 1 + randint(probe, 6), 1 + randint(probe, 6)
        if d1 != d2:
            break
    t.state[S_CAPTAIN] = 1
    t.want(DEC_DICE, d2 * 8 + d1)       # the captain swaps them
    t.roll_and_place_dice()
    assert (t.state[S_DAY], t.state[S_NIGHT]) == (d2, d1)
    assert t.asked(DEC_DICE) == 2


def test_rule_everyone_picks_a_card_on_the_same_state_before_any_is_applied():
    t = Table(4)
    hands = [set(t.state[t.b(p) + B_HAND:t.b(p) + B_HAND + 3]) for p in range(4)]
    t.pick_cards()
    assert t.state[S_SSCRATCH + SAME_STATE] == 3   # every picker saw all hands still full
    for p in range(4):
        assert t.state[t.b(p) + B_HAND_N] == 2
        left = set(t.state[t.b(p) + B_HAND:t.b(p) + B_HAND + 2])
        assert hands[p] == left | {t.state[t.b(p) + B_CARD]}   # the picked card left the hand for the table
    assert t.asked(DEC_CARD) == 3


def test_rule_players_act_in_seat_order_from_the_captain_and_the_compass_passes_left():
    t = Table(3)
    t.state[S_CAPTAIN] = 1
    play_round(t)
    order = [e[1] for e in t.events(common.EV_REVEAL)]
    assert order == [1, 2, 0]
    assert t.state[S_CAPTAIN] == 2


def test_rule_each_player_does_the_day_action_with_the_day_die_then_the_night_action():
    t = Table(2, ghost_ship=False)
    for p in range(2):
        force_hand(t, p, [4])           # card 5: load gold by day, move forward by night
    play_round(t)
    seq = [e for e in t.events() if e[0] in (common.EV_LOAD, common.EV_MOVE) and e[1] == 0]
    assert seq[0][0] == common.EV_LOAD and seq[0][2] == GOLD and seq[0][3] == t.state[S_DAY]
    assert seq[1][0] == common.EV_MOVE and seq[1][5] == t.state[S_NIGHT]


def test_rule_played_cards_are_discarded_and_hands_refilled_from_a_reshuffled_discard_pile():
    t = Table(2, ghost_ship=False)
    b = t.b(0)
    # empty draw pile: 3 in hand, 8 in the discard pile
    for i in range(8):
        t.state[b + B_DISC + i] = t.state[b + B_DRAW + i]
    t.state[b + B_DISC_N] = 8
    t.state[b + B_DRAW_N] = 0
    play_round(t)
    assert t.state[b + B_HAND_N] == 3
    assert t.state[b + B_DRAW_N] == 8 and t.state[b + B_DISC_N] == 0   # 8 + the played card, one drawn
    assert t.check() == 0


# ------------------------------------------------------------------ loading
def test_rule_load_puts_the_die_amount_into_an_empty_hold():
    t = Table(2, ghost_ship=False)
    bank = int(t.state[S_BANK + CANNON - 1])
    load(t, 0, CANNON, 4)
    assert t.holds(0)[:3] == [(GOLD, 3), (FOOD, 3), (CANNON, 4)]
    assert t.state[S_BANK + CANNON - 1] == bank - 4


def test_rule_load_never_adds_to_a_hold_that_already_holds_that_resource():
    t = Table(2, ghost_ship=False)
    load(t, 0, GOLD, 2)
    assert t.holds(0)[:3] == [(GOLD, 3), (FOOD, 3), (GOLD, 2)]


def test_rule_load_with_no_empty_hold_empties_a_hold_of_another_kind_first():
    t = Table(2, ghost_ship=False)
    t.set_holds(0, [(GOLD, 3), (FOOD, 3), (CANNON, 2), (GOLD, 1), (FOOD, 2)])
    bank_c = int(t.state[S_BANK + CANNON - 1])
    t.want(DEC_HOLD, 2)
    load(t, 0, GOLD, 5)
    assert t.asked(DEC_HOLD) == 3            # the food, cannon and food holds; never a gold hold
    assert t.holds(0)[2] == (GOLD, 5)
    assert t.state[S_BANK + CANNON - 1] == bank_c + 2
    assert t.check() == 0


def test_rule_load_is_ignored_when_every_hold_holds_that_resource():
    t = Table(2, ghost_ship=False)
    t.set_holds(0, [(GOLD, 1)] * 5)
    bank = int(t.state[S_BANK + GOLD - 1])
    load(t, 0, GOLD, 6)
    assert t.holds(0)[:5] == [(GOLD, 1)] * 5 and t.state[S_BANK + GOLD - 1] == bank
    assert t.events(common.EV_IGNORED)


@pytest.mark.parametrize("limited", [False, True])
def test_reading_bank_limited_a_load_takes_what_is_left_or_the_whole_die(limited):
    """Item 11: the printed stock (80 doubloons) as a hard limit, or not; bank_short counts either way."""
    t = Table(2, ghost_ship=False, bank=(8, 45, 45), bank_limited=limited)   # 2 doubloons left after setup
    load(t, 0, GOLD, 5)
    assert t.holds(0)[2] == ((GOLD, 2) if limited else (GOLD, 5))
    assert t.state[S_BANK + GOLD - 1] == (0 if limited else -3) and t.state[S_BANK_SHORT] == 1
    load(t, 1, GOLD, 4)
    assert t.holds(1)[2] == ((R_NONE, 0) if limited else (GOLD, 4))   # an empty bank loads nothing
    assert t.check() == 0


# ------------------------------------------------------------------ moving
def test_rule_move_is_exactly_the_die_and_the_player_chooses_the_branch_at_a_fork():
    t = Table(2, ghost_ship=False)
    assert walk(t, 6, 2) == [(8, 0, 0), (14, 0, 0)]
    assert walk(t, 15, 1, backward=True) == [(12, 0, 0), (14, 0, 0)]
    t.set_holds(0, [(GOLD, 3), (FOOD, 8)])
    t.put(0, 6)
    t.want(DEC_MOVE, 14)
    move(t, 0, 2)
    assert t.pos(0) == 14 and t.asked(DEC_MOVE) == 2
    assert t.holds(0)[1] == (FOOD, 4)          # the inner channel costs 4 food


def test_rule_reaching_port_royal_stops_the_ship_and_its_night_action_is_ignored():
    t = Table(3)
    t.state[S_CAPTAIN] = 0
    t.put(0, 49)
    force_hand(t, 0, [7])                     # card 8: forward by day, forward by night
    play_round(t)
    b = t.b(0)
    assert t.pos(0) == 0 and t.state[b + B_DONE] == 1 and t.state[S_ENDER] == 0
    assert len([e for e in t.events(common.EV_MOVE) if e[1] == 0]) == 1
    # the round is played out by the others, then the game ends
    assert sorted(e[1] for e in t.events(common.EV_REVEAL)) == [0, 1, 2]
    assert t.state[S_END] == END_PORT_ROYAL


def test_rule_a_forward_move_past_port_royal_stops_on_it():
    t = Table(2, ghost_ship=False)
    assert walk(t, 47, 6) == [(0, 0, 1)]


def test_rule_backward_from_port_royal_goes_behind_the_start_line_and_needs_a_full_lap():
    t = Table(2, ghost_ship=False)
    assert walk(t, 0, 2, backward=True) == [(48, -1, 0)]
    t.set_holds(0, [(GOLD, 3), (FOOD, 9)])
    move(t, 0, 2, backward=True)
    assert t.pos(0) == 48 and t.state[t.b(0) + B_LAP] == -1
    assert scoring.space_points(t.state, t.cfg, 0) == -5      # behind_score: behind the line scores -5, not 9
    assert walk(t, 48, 3, lap=-1) == [(1, 0, 0)]            # crossing the line is not a finish


# ------------------------------------------------------------------ costs
def test_rule_ending_at_sea_costs_the_food_pips():
    t = Table(2, ghost_ship=False)
    move(t, 0, 2)                               # space 2: 3 food
    assert t.holds(0)[1] == (R_NONE, 0) and t.events(common.EV_PAY)[-1][2:4] == (FOOD, 3)


def test_rule_ending_in_port_costs_the_gold_on_the_pin():
    t = Table(2, ghost_ship=False)
    bank = int(t.state[S_BANK + GOLD - 1])
    move(t, 0, 5)                               # space 5: port, 3 gold
    assert t.holds(0)[0] == (R_NONE, 0) and t.state[S_BANK + GOLD - 1] == bank + 3


def test_rule_a_pirate_lair_is_free_and_its_treasure_token_gives_a_treasure_card():
    t = Table(2, ghost_ship=False)
    top = int(t.state[S_TDECK + t.state[S_TDECK_N] - 1])
    move(t, 0, 4)
    assert t.holds(0)[:2] == [(GOLD, 3), (FOOD, 3)]
    assert t.state[S_TOKEN + 4] == 0 and t.state[S_TOWNER + top] == 0 and t.state[t.b(0) + B_LAIRS] == 1
    t.put(1, 0)
    move(t, 1, 4)                               # token gone: nothing more to take
    assert t.state[t.b(1) + B_LAIRS] == 0


def test_rule_payment_may_come_from_any_holds_of_that_resource():
    for plan, expect in ((0, [(R_NONE, 0), (FOOD, 2)]), (1, [(FOOD, 2), (R_NONE, 0)])):
        t = Table(2, ghost_ship=False)
        t.set_holds(0, [(FOOD, 2), (FOOD, 3)])
        t.want(DEC_PAY, plan)
        t.pay(0, FOOD, 3)
        assert t.holds(0)[:2] == expect and t.asked(DEC_PAY) == 2


# ------------------------------------------------------------------ shortage and fall back
def test_rule_fall_back_when_short_pays_everything_then_stops_on_the_first_payable_space():
    t = Table(2, ghost_ship=False)
    t.set_holds(0, [(FOOD, 2)])
    t.put(0, 9)
    t.state[S_TOKEN + 9] = 0
    move(t, 0, 1)                               # space 10 costs 3 food, it has 2
    assert t.pos(0) == 9 and t.holds(0)[0] == (R_NONE, 0)
    assert t.state[t.b(0) + B_FALL_FOOD] == 1
    short = t.events(common.EV_SHORT)[-1]
    assert short[1:6] == (0, FOOD, 3, 2, 10)
    assert t.check() == 0


def test_rule_fall_back_onto_a_lair_takes_its_treasure():
    t = Table(2, ghost_ship=False)
    t.set_holds(0, [(FOOD, 2)])
    t.put(0, 9)
    t.state[S_TOKEN + 9] = 1
    move(t, 0, 1)
    assert t.pos(0) == 9 and t.state[t.b(0) + B_LAIRS] == 1


def test_rule_fall_back_for_lack_of_gold_stops_on_a_sea_space_it_can_pay_and_pays_it():
    t = Table(2, ghost_ship=False)
    t.set_holds(0, [(GOLD, 2), (FOOD, 5)])
    t.put(0, 17)
    move(t, 0, 1)                               # port 18 costs 3 gold
    assert t.pos(0) == 17 and t.holds(0)[:2] == [(R_NONE, 0), (FOOD, 3)]
    assert t.state[t.b(0) + B_FALL_GOLD] == 1


def test_rule_fall_back_chooses_the_branch_at_a_fork():
    t = Table(2, ghost_ship=False)
    t.set_holds(0, [(GOLD, 5)])
    t.state[S_TOKEN + 11] = 0
    t.put(0, 14)
    t.want(DEC_RETREAT, 6)
    move(t, 0, 1)                               # 15 costs 3 food: back over 12|14 to 11 (lair) or 6 (port, 5 gold)
    assert t.asked(DEC_RETREAT) == 2
    assert t.pos(0) == 6 and t.holds(0)[0] == (R_NONE, 0)


def test_rule_fall_back_onto_an_occupied_space_fights_first():
    t = Table(2, ghost_ship=False, combat_faces=(4, 4, 4, 4, 4, 4))
    t.set_holds(0, [(FOOD, 2)])
    t.put(0, 9)
    t.put(1, 9)
    t.state[S_TOKEN + 9] = 0
    move(t, 0, 1)
    assert t.pos(0) == 9
    assert [e[1:4] for e in t.events(common.EV_COMBAT)] == [(0, 1, 9)]


def test_rule_no_battle_in_port_royal():
    t = Table(2, ghost_ship=False)
    t.put(0, 49)
    t.put(1, 48)
    move(t, 1, 2)
    assert t.pos(1) == 0 and not t.events(common.EV_COMBAT)


def test_a_strategy_answer_outside_the_legal_choices_is_refused():
    t = Table(2, ghost_ship=False, decide=out_of_range)
    with pytest.raises(ValueError):
        t.pick_cards()


def test_seeded_setup_is_reproducible():
    a, b, c = Table(4, seed=7), Table(4, seed=7), Table(4, seed=8)
    assert np.array_equal(a.state, b.state)
    assert not np.array_equal(a.state, c.state)


def test_track_order_rises_along_every_link_and_interleaves_the_lanes_of_a_fork():
    """Item 10: the physical order puts a lane's spaces by the part of the lane covered."""
    for s in range(50):
        for nxt in (NEXT_OUTER[s], NEXT_INNER[s]):
            if nxt > 0:
                assert TRACK_ORDER[nxt] > TRACK_ORDER[s]
    fork_a = sorted(range(6, 16), key=lambda s: TRACK_ORDER[s])
    assert fork_a == [6, 7, 8, 13, 9, 10, 14, 11, 12, 15]


def test_a_track_order_that_does_not_rise_along_the_track_is_refused():
    values = PARAMS.resolve({"track_order": (0,) + TRACK_ORDER[1:7] + (100,) + TRACK_ORDER[8:]})
    with pytest.raises(SimlabError, match="track_order: space 7 follows space 6"):
        check(values, 2)
    check(PARAMS.resolve({}), 2)
