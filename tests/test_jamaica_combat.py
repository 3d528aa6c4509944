"""Jamaica: sea battles (3(4)), loot, the 12 treasure cards, scoring and the tie-break."""
import numpy as np
import pytest

from jamaica_helpers import Table, seed_where
from simlab.core.play import COL_SCORE, COL_TIEBREAK
from simlab.games.jamaica import combat, common, scoring, setup, treasure
from simlab.games.jamaica.components import (R_CANNON, R_FOOD, R_GOLD, R_NONE, STAR, T_BETH, T_HOLD6, T_MAP,
                                             T_SABRE)
from simlab.games.jamaica.state import (B_COMBATS, B_DONE, B_HAND_N, B_WINS, DEC_CANNONS, DEC_HOLD, DEC_LOOT,
                                        DEC_SABRE, DEC_TARGET, LOOT_BLIND, LOOT_CARD, LOOT_GIVE, LOOT_HOLD,
                                        LOOT_NONE, OWN_DECK, S_BANK, S_TOWNER)

FOOD, GOLD, CANNON = R_FOOD, R_GOLD, R_CANNON
VALUES = (7, 7, 5, 3, 3, -2, -3, -4)


def battle(t, att, space):
    t.battle(att, space)


def results(t):
    return [e[1:3] for e in t.events(common.EV_RESULT)]


def give(t, card, ship):
    t.give(card, ship)


def meet(t, space=10, ships=(0, 1)):
    for s in ships:
        t.put(s, space)


def loot_options(t, winner, loser):
    n = combat.loot_choices(t.state, t.cfg, winner, loser, t.legal)
    return sorted(int(x) for x in t.legal[:n])


# ------------------------------------------------------------------ battle
def test_rule_battle_higher_strength_wins_and_committed_cannons_go_back_to_the_bank():
    t = Table(2, ghost_ship=False, combat_faces=(4,) * 6)
    t.set_holds(0, [(CANNON, 3)])
    meet(t)
    bank = int(t.state[S_BANK + CANNON - 1])
    t.want(DEC_CANNONS, 2)
    t.want(DEC_LOOT, LOOT_NONE)
    battle(t, 0, 10)
    assert results(t) == [(0, 1)]
    assert t.holds(0)[0] == (CANNON, 1) and t.state[S_BANK + CANNON - 1] == bank + 2
    assert t.state[t.b(0) + B_WINS] == 1 and t.state[t.b(1) + B_COMBATS] == 1


def test_rule_battle_tie_means_nothing_happens():
    t = Table(2, ghost_ship=False, combat_faces=(6,) * 6)
    meet(t)
    battle(t, 0, 10)
    assert results(t) == [(-1, -1)]
    assert t.state[t.b(0) + B_WINS] == 0 and t.state[t.b(1) + B_WINS] == 0
    assert t.holds(1)[:2] == [(GOLD, 3), (FOOD, 3)]


def test_rule_attacker_star_wins_outright_and_the_defender_cannot_answer():
    t = Table(2, ghost_ship=False, combat_faces=(STAR,) * 6)
    t.set_holds(1, [(CANNON, 5)])
    meet(t)
    battle(t, 0, 10)
    assert results(t) == [(0, 1)]
    assert len(t.events(common.EV_ROLL)) == 1 and t.asked(DEC_CANNONS) == 0
    assert t.holds(1)[0] == (CANNON, 5)


def test_rule_defender_star_wins_whatever_the_attacker_had_and_spent_cannons_are_lost():
    t = Table(2, seed=seed_where(False, True), ghost_ship=False)
    t.set_holds(0, [(CANNON, 12)])
    meet(t)
    t.want(DEC_CANNONS, 12)
    battle(t, 0, 10)
    assert results(t) == [(1, 0)]
    assert t.holds(0)[0] == (R_NONE, 0)


def test_rule_attacker_chooses_the_opponent_when_several_ships_share_the_space():
    t = Table(3, combat_faces=(6,) * 6)
    meet(t, ships=(0, 1, 2))
    t.want(DEC_TARGET, 2)
    battle(t, 0, 10)
    assert t.asked(DEC_TARGET) == 2
    assert [e[1:3] for e in t.events(common.EV_COMBAT)] == [(0, 2)]


def test_rule_winner_takes_all_contents_of_one_hold_under_the_loading_rules():
    t = Table(2, ghost_ship=False, combat_faces=(STAR,) * 6)
    t.set_holds(0, [(GOLD, 1), (FOOD, 1), (CANNON, 1), (FOOD, 2), (CANNON, 2)])
    t.set_holds(1, [(GOLD, 6), (FOOD, 3)])
    meet(t)
    t.want(DEC_LOOT, LOOT_HOLD + 0)
    t.want(DEC_HOLD, 2)
    battle(t, 0, 10)
    assert t.holds(1)[0] == (R_NONE, 0)
    assert t.holds(0)[2] == (GOLD, 6) and t.asked(DEC_HOLD) == 4   # a full hold board: empty a non-gold hold
    assert t.check() == 0


def test_rule_winner_may_give_the_loser_a_cursed_treasure_card_instead():
    t = Table(2, ghost_ship=False, combat_faces=(STAR,) * 6)
    give(t, 11, 0)                               # Cursed -4
    meet(t)
    assert LOOT_GIVE + 11 in loot_options(t, 0, 1)
    t.want(DEC_LOOT, LOOT_GIVE + 11)
    battle(t, 0, 10)
    assert t.state[S_TOWNER + 11] == 1


def test_rule_face_down_treasures_are_stolen_blind_and_face_up_powers_by_choice():
    t = Table(2, ghost_ship=False)
    give(t, 4, 1)
    give(t, 9, 1)
    give(t, T_SABRE, 1)
    opts = loot_options(t, 0, 1)
    assert LOOT_CARD + T_SABRE in opts and LOOT_BLIND in opts
    assert LOOT_CARD + 4 not in opts and LOOT_CARD + 9 not in opts
    looking = Table(2, ghost_ship=False, steal_blind=False)
    give(looking, 4, 1)
    assert LOOT_CARD + 4 in loot_options(looking, 0, 1) and LOOT_BLIND not in loot_options(looking, 0, 1)


def test_rule_a_blind_steal_takes_one_of_the_losers_face_down_cards():
    t = Table(2, ghost_ship=False, combat_faces=(STAR,) * 6)
    give(t, 4, 1)
    give(t, 10, 1)
    meet(t)
    t.want(DEC_LOOT, LOOT_BLIND)
    battle(t, 0, 10)
    owners = (int(t.state[S_TOWNER + 4]), int(t.state[S_TOWNER + 10]))
    assert sorted(owners) == [0, 1]


def test_rule_winner_may_decline_loot_unless_the_reading_forbids_it():
    t = Table(2, ghost_ship=False)
    assert LOOT_NONE in loot_options(t, 0, 1)
    strict = Table(2, ghost_ship=False, may_decline_loot=False)
    assert LOOT_NONE not in loot_options(strict, 0, 1)


# ------------------------------------------------------------------ the treasure cards
def test_treasure_morgans_map_gives_a_hand_of_four():
    t = Table(2, ghost_ship=False)
    give(t, T_MAP, 0)
    setup.refill(t.state, t.cfg, 0, t.streams)
    setup.refill(t.state, t.cfg, 1, t.streams)
    assert t.state[t.b(0) + B_HAND_N] == 4 and t.state[t.b(1) + B_HAND_N] == 3
    assert t.check() == 0


def test_treasure_sarans_sabre_rerolls_its_owners_die():
    t = Table(2, ghost_ship=False, combat_faces=(10,) * 6)
    give(t, T_SABRE, 0)
    t.want(DEC_SABRE, 1)
    face, free = t.sabre_window(0, 2, 3, 0, 1, True)   # 3 cannons committed
    assert (face, free) == (10, False)
    assert t.events(common.EV_SABRE)[-1][1:6] == (0, 0, 2, 10, 13)
    face, free = t.sabre_window(0, 2, 3, 0, 1, False)   # once per battle
    assert (face, free) == (2, False)


def test_treasure_sarans_sabre_forces_the_opponent_to_reroll_even_a_star():
    t = Table(2, ghost_ship=False, combat_faces=(4,) * 6)
    give(t, T_SABRE, 1)
    t.want(DEC_SABRE, 1)
    face, free = t.sabre_window(0, STAR, 0, 0, 1, True)
    assert face == 4 and not free
    t2 = Table(2, ghost_ship=False, combat_faces=(4,) * 6)
    give(t2, T_SABRE, 1)
    t2.want(DEC_SABRE, 0)                     # kept: still usable later in the battle
    assert t2.sabre_window(0, STAR, 0, 0, 1, True) == (STAR, True)


def test_treasure_lady_beth_adds_two_to_combat_strength():
    t = Table(2, ghost_ship=False, combat_faces=(4,) * 6)
    give(t, T_BETH, 1)
    meet(t)
    battle(t, 0, 10)
    assert results(t) == [(1, 0)]                # 4 against 4 + 2
    rolls = t.events(common.EV_ROLL)
    assert rolls[0][4] == 4 and rolls[1][4] == 6


def test_treasure_sixth_hold_is_an_extra_hold_and_goes_with_its_contents_when_stolen():
    t = Table(2, ghost_ship=False, combat_faces=(STAR,) * 6)
    t.set_holds(1, [(GOLD, 1), (FOOD, 1), (CANNON, 1), (FOOD, 2), (CANNON, 2)])
    give(t, T_HOLD6, 1)
    t.load(1, GOLD, 4, True, 1)
    assert t.holds(1)[5] == (GOLD, 4)          # loaded into the 6th hold, nothing dumped
    meet(t)
    t.want(DEC_LOOT, LOOT_CARD + T_HOLD6)
    battle(t, 0, 10)
    assert t.state[S_TOWNER + T_HOLD6] == 0
    assert t.holds(0)[5] == (GOLD, 4) and t.holds(1)[5] == (R_NONE, 0)
    assert t.check() == 0


@pytest.mark.parametrize("card", range(4, 12))
def test_treasure_value_card_scores_its_printed_points(card):
    t = Table(2, ghost_ship=False)
    before = scoring.score(t.state, t.cfg, 0)
    give(t, card, 0)
    assert scoring.treasure_points(t.state, t.cfg, 0) == VALUES[card - 4]
    assert scoring.score(t.state, t.cfg, 0) == before + VALUES[card - 4]


def test_treasure_powers_score_nothing():
    t = Table(2, ghost_ship=False)
    for k in (T_MAP, T_SABRE, T_BETH, T_HOLD6):
        give(t, k, 0)
    assert scoring.treasure_points(t.state, t.cfg, 0) == 0


def test_treasure_lair_draws_stop_when_the_pile_is_empty():
    t = Table(2, ghost_ship=False)
    for k in range(12):
        if t.state[S_TOWNER + k] == OWN_DECK:
            t.give(k, 1)
    treasure.take_lair(t.state, 0, 4, t.log)
    assert t.events(common.EV_LAIR)[-1][3] == -1 and t.check() == 0


# ------------------------------------------------------------------ scoring and the end
def test_rule_score_is_space_value_plus_gold_in_holds_plus_treasures():
    t = Table(2, ghost_ship=False)
    t.set_holds(0, [(GOLD, 4), (GOLD, 2), (FOOD, 9)])
    give(t, 4, 0)                               # +7
    give(t, 9, 0)                               # -2
    for space, points in ((0, -5), (20, -5), (40, -5), (41, 2), (45, 6), (49, 10)):
        t.put(0, space)
        assert scoring.space_points(t.state, t.cfg, 0) == points
        assert scoring.score(t.state, t.cfg, 0) == points + 6 + 5
    t.put(0, 0)
    t.state[t.b(0) + B_DONE] = 1
    assert scoring.score(t.state, t.cfg, 0) == 15 + 6 + 5


def test_rule_a_tie_goes_to_the_ship_further_along_the_race():
    t = Table(2, ghost_ship=False)
    t.put(0, 43)
    t.put(1, 42)
    t.set_holds(0, [(GOLD, 1)])
    t.set_holds(1, [(GOLD, 2)])                # 4 + 1 = 3 + 2
    rows = np.zeros((2, 40), dtype=np.int32)
    scoring.write_rows(t.state, t.cfg, rows)
    assert rows[0, COL_SCORE] == rows[1, COL_SCORE] == 5
    assert rows[0, COL_TIEBREAK] > rows[1, COL_TIEBREAK]


@pytest.mark.parametrize("red,yellow,ahead", [
    (12, 14, 0),    # end of the outer lane (6/7 of the way) beats the end of the inner channel (2/3)
    (7, 5, 0),      # first outer-lane space is past the port before the fork (fewest-moves-left ranked it behind)
    (13, 8, 0),     # inner channel 1/3 of the way beats outer lane 2/7
    (13, 9, 1),     # ... and loses to outer lane 3/7
    (20, 20, -1),   # the same space: still tied, a shared win
])
def test_rule_a_tie_goes_to_the_ship_further_ahead_in_the_physical_order_along_a_fork(red, yellow, ahead):
    """Item 10, rules 4: equal scores go to the ship further ahead, judged as the ghost's direction is."""
    t = Table(2, ghost_ship=False)
    t.put(0, red)
    t.put(1, yellow)
    rows = np.zeros((2, 40), dtype=np.int32)
    scoring.write_rows(t.state, t.cfg, rows)
    tb = rows[:, COL_TIEBREAK]
    assert (tb[0] == tb[1]) if ahead < 0 else (tb[ahead] > tb[1 - ahead])
