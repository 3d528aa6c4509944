"""Loot Island end of game: the rulebook's worked scoring examples (docs/rules/loot_island.md section 4.1)
and one test per end rule."""
import itertools

import numpy as np
from loot_island_helpers import Game
from simlab.games.loot_island import rules
from simlab.games.loot_island.board import EV_HEALER
from simlab.games.loot_island.components import PARAMS
from simlab.games.loot_island.state import (B_ELIM, B_FEE, B_GOLD, B_GROSS, B_HEALER, B_NET, ELIM_CURSES, ELIM_FEE,
                                            ELIM_NONE, S_HEALERS, S_START)

CFG = PARAMS.pack(PARAMS.defaults())
V = PARAMS.defaults()
AMULET, MONEY, BOOK, JEWEL, CROWN, SKULL = range(6)


def parts_of(ids):
    parts = np.zeros(6, dtype=np.int64)
    total = rules.treasure_value(CFG, np.array(ids, dtype=np.int64), len(ids), parts)
    return int(total), [int(x) for x in parts]


def crowns(crosses):
    n = len(crosses)
    c = np.zeros(6, dtype=np.int64)
    c[:n] = crosses
    active = np.zeros(6, dtype=np.int64)
    active[:n] = 1
    prize = np.zeros(6, dtype=np.int64)
    rules.crown_prizes(CFG, c, active, n, prize)
    return [int(x) for x in prize[:n]]


def test_example_money_bags_7_plus_12_make_19():
    assert parts_of([6, 15])[1][MONEY] == 19        # #7 (7 gold) and #16 (12 gold)


def test_example_book_3x_times_money_bag_curse_4_is_12_and_unpaired_2x_book_is_0():
    total, parts = parts_of([48, 4, 15])             # #49 3x book, #5 2x book, #16 money bag curse 4
    assert parts[BOOK] == 12 and parts[MONEY] == 12


def test_rule_books_pair_optimally_one_treasure_per_book_never_book_with_book():
    ids = [48, 55, 4, 15, 69, 1]                     # books x3 x3 x2; curses 4, 5, 2
    brute = 0
    books = [t for t in ids if V["treasure_type"][t] == BOOK]
    others = [t for t in ids if V["treasure_type"][t] != BOOK]
    for perm in itertools.permutations(others, min(len(books), len(others))):
        brute = max(brute, sum(V["treasure_book"][b] * V["treasure_curse"][o] for b, o in zip(books, perm)))
    assert parts_of(ids)[1][BOOK] == brute == 3 * 5 + 3 * 4 + 2 * 2


def test_rule_books_pair_optimally_in_any_held_set_against_brute_force():
    """Every held set, not only the example: 400 random sets of up to 8 of the 74 treasures, books
    and others in any mix (curse 0 included), scored against every pairing."""
    rng = np.random.default_rng(5)
    for _ in range(400):
        ids = [int(t) for t in rng.choice(74, size=int(rng.integers(0, 9)), replace=False)]
        books = [t for t in ids if V["treasure_type"][t] == BOOK]
        others = [t for t in ids if V["treasure_type"][t] != BOOK]
        brute = max(sum(V["treasure_book"][b] * V["treasure_curse"][o] for b, o in zip(books, perm))
                    for perm in itertools.permutations(others, min(len(books), len(others))))
        assert parts_of(ids)[1][BOOK] == brute, ids


def test_example_jewels_3_2_4_3_3_are_worth_43():
    total, parts = parts_of([9, 1, 20, 34, 71])       # jewels 3, 2, 4, 3, 3
    assert parts[JEWEL] == 43


def test_rule_jewel_sets_of_two_and_three_split_at_best():
    for k, bonus in ((1, 0), (2, 8), (3, 20), (4, 20), (5, 28), (6, 40), (8, 48)):
        assert rules.jewel_bonus(CFG, k) == bonus


def test_example_crowns_6_6_3_0_get_21_21_11_0():
    assert crowns([6, 6, 3, 0]) == [21, 21, 11, 0]


def test_rule_crown_places_ties_split_rounded_down_zero_crosses_nothing():
    assert crowns([5, 4, 3, 2, 1]) == [25, 18, 11, 4, 0]
    assert crowns([3, 3, 3]) == [(25 + 18 + 11) // 3] * 3
    assert crowns([0, 0]) == [0, 0]
    assert crowns([2, 7, 2]) == [14, 25, 14]


def test_example_skulls_two_alike_one_different_with_four_other_types_is_27():
    # amulet, 2 money bags, 2 crowns, 1 jewel, skulls: two L (4 + 3 gold) and one F (4 gold)
    ids = [7, 6, 10, 0, 16, 1, 17, 28, 29]
    total, parts = parts_of(ids)
    assert parts[SKULL] == 27


def test_rule_skull_sets_counted_optimally_against_brute_force():
    def brute(kinds, others):
        best = 0
        skulls = list(kinds)
        n = len(skulls)
        # assign each skull to one of n sets; a set must hold distinct kinds
        for labels in itertools.product(range(n), repeat=n):
            sets = {}
            ok = True
            for s, lab in zip(skulls, labels):
                if s in sets.setdefault(lab, set()):
                    ok = False
                    break
                sets[lab].add(s)
            if ok:
                best = max(best, sum((0, 1, 3, 6)[len(v)] for v in sets.values()))
        return best * others

    for kinds in ([1, 1, 2], [1, 2, 3], [1, 1, 2, 2, 3], [1, 1, 1, 2], [3, 3, 2, 1, 1, 2]):
        k = [kinds.count(1), kinds.count(2), kinds.count(3)]
        assert rules.skull_bonus(CFG, k[0], k[1], k[2], 3) == brute(kinds, 3)


def test_example_healer_fees_7_and_17():
    assert rules.healer_fee(CFG, 2, 5) == 7      # 1 per cube + 2, 5 cubes
    assert rules.healer_fee(CFG, 13, 12) == 17   # flat 17, 12 cubes


def end_game(n, cubes, start=0, healers=None, kept=None, **overrides):
    g = Game(n, **overrides)
    g.state[S_START] = start
    for p, c in enumerate(cubes):
        g.set_curses(p, c)
    if healers:
        for i, h in enumerate(healers):
            g.state[S_HEALERS + i] = h
    for p, ids in (kept or {}).items():
        for t in ids:
            rules.keep_treasure(g.state, g.cfg, p, t)
        g.set_curses(p, cubes[p])
    g.run(rules.OP_SCORING)
    return g


def test_rule_thirteen_curse_cubes_eliminate_twelve_do_not():
    g = end_game(3, [13, 12, 0], kept={0: [15], 1: [11, 16]})
    assert g.at(B_ELIM, 0) == ELIM_CURSES and g.at(B_ELIM, 1) in (ELIM_NONE, ELIM_FEE)
    g = end_game(3, [13, 12, 0], kept={1: [15, 10]}, healers=[13, 0, 1])
    assert g.at(B_ELIM, 1) == ELIM_NONE


def test_rule_healers_chosen_fewest_cubes_first_ties_nearest_start_clockwise_zero_cubes_none():
    g = end_game(4, [5, 2, 0, 2], start=2)
    order = [int(e[1]) for e in g.events() if e[0] == EV_HEALER]
    assert order == [3, 1, 0] and g.at(B_HEALER, 2) == -1 and g.at(B_FEE, 2) == 0


def test_rule_fee_subtracted_last_and_below_zero_eliminates():
    g = end_game(2, [5, 4], healers=[2, 13], kept={0: [15]})
    fees = sorted([g.at(B_FEE, 0), g.at(B_FEE, 1)])
    assert g.at(B_GROSS, 1) == 0 and g.at(B_ELIM, 1) == ELIM_FEE
    assert g.at(B_NET, 0) == g.at(B_GROSS, 0) - g.at(B_FEE, 0)
    assert fees[0] >= 6


def test_rule_start_tile_is_worth_5_gold():
    g = end_game(3, [0, 0, 0], start=1)
    assert g.at(B_GOLD + 6, 1) == 5 and g.at(B_GROSS, 1) == 5 and g.at(B_GROSS, 0) == 0


def test_rule_crowns_ranked_among_players_still_in_only():
    # seat 0 (7 crosses) is eliminated by curses: seat 1 (3) becomes first
    g = end_game(3, [14, 0, 0], kept={0: [19, 36, 51], 1: [2], 2: [0]})
    assert g.at(B_GOLD + CROWN, 1) == 2 + 25 and g.at(B_GOLD + CROWN, 2) == 4 + 18


def test_reading_crown_ranking_before_or_after_the_healer_fee_eliminates():
    """Seat 0 leads the crowns (4 crosses) but its fee (healer 2/cube + 5, 12 cubes: 29) exceeds its
    treasure (1 gold + 25 for first place; seat 1 holds the start tile), so the fee eliminates it. The
    rulebook's end step 4 counts the treasure value, crown places included, before the fee: seats 1
    and 2 keep 2nd and 3rd (`crown_ranking` = before_fee). Under after_fee they move up to 1st and 2nd."""
    for reading, second, third in (("before_fee", 18, 11), ("after_fee", 25, 18)):
        g = end_game(3, [12, 0, 0], start=1, healers=[8, 0, 1], kept={0: [19], 1: [2], 2: [0]},
                     crown_ranking=reading)
        assert g.at(B_HEALER, 0) == 8 and g.at(B_FEE, 0) == 29 and g.at(B_GROSS, 0) == 1 + 25
        assert g.at(B_ELIM, 0) == ELIM_FEE
        assert g.at(B_GOLD + CROWN, 1) == 2 + second and g.at(B_GOLD + CROWN, 2) == 4 + third
        assert g.at(B_NET, 1) == g.at(B_GROSS, 1) == 2 + second + 5
        assert g.at(B_NET, 2) == g.at(B_GROSS, 2) == 4 + third
