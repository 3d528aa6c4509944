"""Jamaica: the two-player ghost ship (rules 5) and the switch that plays 2 players without it."""
import pytest

from jamaica_helpers import Table, out_of_range, scripted
from simlab.core.runner import Prepared, RunConfig
from simlab.games.jamaica import combat, common
from simlab.games.jamaica.components import R_FOOD, R_GOLD, STAR, T_BETH
from simlab.games.jamaica.state import (B_DONE, B_LAP, BACKWARD_FLAG, DEC_GHOST, DEC_LOOT, GHOST, LOOT_BLIND,
                                        LOOT_CARD, LOOT_GIVE, LOOT_HOLD, OWN_DECK, OWN_REMOVED, S_BANK, S_CAPTAIN,
                                        S_DAY, S_ENDER, S_GHOST, S_NIGHT, S_TDECK_N, S_TOKEN, S_TOWNER)

FOOD, GOLD = R_FOOD, R_GOLD


def ghost_turn(t, day=3, night=3):
    t.state[S_DAY] = day
    t.state[S_NIGHT] = night
    t.ghost_turn()


def ghost_moves(t):
    return [e for e in t.events(common.EV_MOVE) if e[1] == GHOST]


def test_ghost_rule_setup_5_and_3_doubloons_lady_beth_and_a_full_pile_for_the_lairs():
    t = Table(2)
    assert t.state[S_GHOST] == 1
    assert t.holds(GHOST)[:2] == [(GOLD, 5), (GOLD, 3)]
    assert t.state[S_TOWNER + T_BETH] == GHOST
    owners = [int(t.state[S_TOWNER + k]) for k in range(12)]
    assert owners.count(OWN_REMOVED) == 2 and owners.count(OWN_DECK) == 9 == t.state[S_TDECK_N]
    assert t.check() == 0


def test_ghost_rule_switch_plays_two_players_without_the_ghost_ship():
    t = Table(2, ghost_ship=False)
    assert t.state[S_GHOST] == 0 and t.state[S_TOWNER + T_BETH] in (OWN_DECK, OWN_REMOVED)
    assert Table(3).state[S_GHOST] == 0


def test_ghost_rule_moves_forward_when_behind_both_players():
    t = Table(2)
    t.put(0, 10)
    t.put(1, 20)
    t.put(GHOST, 2)
    ghost_turn(t, 1, 2)
    moves = ghost_moves(t)
    assert [(m[2], m[3], m[4]) for m in moves] == [(2, 3, 0), (3, 5, 0)]   # day die, then night die


def test_ghost_rule_moves_backward_when_ahead_of_both_players():
    t = Table(2)
    t.put(0, 10)
    t.put(1, 20)
    t.put(GHOST, 30)
    ghost_turn(t, 2, 1)
    assert [(m[2], m[3], m[4]) for m in ghost_moves(t)] == [(30, 28, 1), (28, 27, 1)]


def test_ghost_rule_between_the_players_the_captain_chooses_its_direction():
    t = Table(2)
    t.put(0, 10)
    t.put(1, 30)
    t.put(GHOST, 20)
    t.state[S_CAPTAIN] = 1
    t.want(DEC_GHOST, 17 + BACKWARD_FLAG)
    ghost_turn(t, 3, 1)
    assert t.asked(DEC_GHOST) >= 2
    assert ghost_moves(t)[0][3] == 17


def test_ghost_rule_never_pays_and_takes_a_lairs_treasure_face_down():
    t = Table(2)
    t.put(0, 20)
    t.put(1, 30)
    before = t.holds(GHOST)
    ghost_turn(t, 2, 2)                        # 0 -> 2 (sea) -> 4 (lair)
    assert t.pos(GHOST) == 4 and t.holds(GHOST) == before
    assert t.state[S_TOKEN + 4] == 0
    assert sum(1 for k in range(12) if t.state[S_TOWNER + k] == GHOST) == 2
    assert t.check() == 0


def test_ghost_rule_the_other_player_decides_for_it_in_battle_and_it_keeps_only_doubloons():
    t = Table(2, combat_faces=(STAR,) * 6)
    t.fns = (scripted, out_of_range) + (scripted,) * 4     # seat 1 must never be asked here
    t.put(1, 10)
    t.put(GHOST, 10)
    t.set_holds(1, [(FOOD, 4), (GOLD, 2)])
    bank_food = int(t.state[S_BANK + FOOD - 1])
    t.want(DEC_LOOT, LOOT_HOLD + 0)
    t.battle(GHOST, 10)
    assert [e[1:3] for e in t.events(common.EV_RESULT)] == [(GHOST, 1)]
    assert t.holds(1)[0] == (0, 0) and t.state[S_BANK + FOOD - 1] == bank_food + 4
    assert t.holds(GHOST)[:3] == [(GOLD, 5), (GOLD, 3), (0, 0)]
    t.want(DEC_LOOT, LOOT_HOLD + 1)
    t.battle(GHOST, 10)
    assert t.holds(GHOST)[:3] == [(GOLD, 5), (GOLD, 3), (GOLD, 2)]
    assert t.check() == 0


def test_ghost_rule_it_never_gives_cursed_cards_and_never_loses_lady_beth():
    t = Table(2)
    t.give(11, GHOST)
    t.give(10, 1)
    n = combat.loot_choices(t.state, t.cfg, GHOST, 1, t.legal)
    assert not any(c >= LOOT_GIVE for c in t.legal[:n])
    n = combat.loot_choices(t.state, t.cfg, 1, GHOST, t.legal)
    opts = [int(c) for c in t.legal[:n]]
    assert LOOT_CARD + T_BETH not in opts and LOOT_GIVE + 10 in opts
    assert LOOT_BLIND in opts                # its lair cards are face down


def test_ghost_rule_battles_against_it_use_lady_beth():
    t = Table(2, combat_faces=(4,) * 6)
    t.put(0, 10)
    t.put(GHOST, 10)
    t.battle(0, 10)
    assert [e[1:3] for e in t.events(common.EV_RESULT)] == [(GHOST, 0)]


@pytest.mark.parametrize("ends", [False, True])
def test_ghost_rule_reaching_port_royal_ends_the_game_only_under_that_reading(ends):
    t = Table(2, ghost_ends_game=ends)
    t.put(0, 49)
    t.put(1, 20)
    t.put(GHOST, 48)
    t.state[t.b(GHOST) + B_LAP] = 0
    t.want(DEC_GHOST, 1)                       # sail on past Port Royal when allowed
    ghost_turn(t, 3, 1)
    assert (t.state[S_ENDER] == GHOST) == ends


# ------------------------------------------------------------------ item 10: ahead and behind by the physical order
def first_course(t, captain=0):
    """(may sail forward, may sail back) as judged before the ghost's first move."""
    t.state[S_CAPTAIN] = captain
    ghost_turn(t, 1, 1)
    return tuple(t.events(common.EV_GHOST_DIR)[0][1:3])


FORWARD, BACK, EITHER = (1, 0), (0, 1), (1, 1)


@pytest.mark.parametrize("ghost,red,yellow,course", [
    (7, 4, 15, EITHER),     # seed 11 round 2: on the outer lane past Red at 4, before Yellow at 15: between
    (13, 9, 11, FORWARD),   # inner channel 1/3 of the way: behind outer-lane ships 3/7 and 5/7 of the way
    (14, 9, 10, BACK),      # inner channel 2/3 of the way: ahead of outer-lane ships 3/7 and 4/7 of the way
    (12, 14, 15, EITHER),   # end of the outer lane (6/7): ahead of the inner channel's end (2/3), behind the merge
    (7, 5, 13, EITHER),     # first outer-lane space (1/7): past the port before the fork, behind the channel's 1/3
    (26, 22, 25, FORWARD),  # fork B: inner 1/3 behind outer 3/7 and 6/7
    (39, 33, 34, BACK),     # fork C: inner 1/3 ahead of outer 1/7 and 2/7
])
def test_ghost_rule_ahead_and_behind_follow_the_physical_order_along_the_forks(ghost, red, yellow, course):
    """Item 10, rules 5(5): a ship on a fork's lane is placed by the part of its lane it has covered."""
    t = Table(2)
    t.put(0, red)
    t.put(1, yellow)
    t.put(GHOST, ghost)
    assert first_course(t) == course


def test_ghost_rule_laps_come_first_past_port_royal_and_behind_the_start_line():
    t = Table(2)
    t.put(0, 45)
    t.put(1, 49)
    t.put(GHOST, 2, lap=1)                       # sailed on past Port Royal: ahead of both
    assert first_course(t) == BACK
    t = Table(2)
    t.put(0, 48, lap=-1)                         # behind the start line: behind a ghost on space 2
    t.put(1, 5)
    t.put(GHOST, 2)
    assert first_course(t) == EITHER
    t = Table(2)
    t.state[t.b(0) + B_DONE] = 1                 # Red finished this round: ahead of everything on the lap
    t.put(1, 30)
    t.put(GHOST, 49)
    assert first_course(t) == EITHER


@pytest.mark.parametrize("level,yellow,course", [
    ("neither", 30, EITHER), ("behind", 30, FORWARD), ("ahead", 30, EITHER),
    ("neither", 10, EITHER), ("behind", 10, EITHER), ("ahead", 10, BACK),
    ("neither", 20, EITHER), ("behind", 20, FORWARD), ("ahead", 20, BACK),
])
def test_ghost_reading_level_with_a_player_counts_as_the_ghost_level_parameter_says(level, yellow, course):
    """Item 10: the ghost on Red's space (level); Yellow ahead (30), behind (10) or level too (20)."""
    t = Table(2, ghost_level=level)
    t.put(0, 20)
    t.put(1, yellow)
    t.put(GHOST, 20)
    assert first_course(t) == course


# ------------------------------------------------------------------ item 11: the two-player readings, both ways
@pytest.mark.parametrize("removed,pile", [(2, 9), (3, 8)])
def test_ghost_reading_treasure_pile_lady_beth_goes_to_the_ghost_then_2_or_3_are_removed(removed, pile):
    """Rules 1(1) remove 3 cards, 5(3) give Lady Beth to the ghost: ghost_removed says how many go after her."""
    t = Table(2, ghost_removed=removed)
    owners = [int(t.state[S_TOWNER + k]) for k in range(12)]
    assert owners[T_BETH] == GHOST
    assert owners.count(OWN_REMOVED) == removed and owners.count(OWN_DECK) == pile == t.state[S_TDECK_N]
    assert t.check() == 0


@pytest.mark.parametrize("ends", [False, True])
def test_ghost_reading_port_royal_over_whole_games(ends):
    f = Prepared(RunConfig("jamaica", 2, ("racer", "hoarder"), 600, seed=8, params={"ghost_ends_game": ends})
                 ).frame(0, 600)
    by_ghost = f[f.ender == GHOST]
    assert (len(by_ghost) > 0) == ends
    assert (by_ghost.end_reason == 1).all() and (by_ghost.finished_round == 0).all()
