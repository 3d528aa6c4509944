"""Loot Island: every islet (T1..T7) and every event (A1..A4, B1..B14), one test each."""
from loot_island_helpers import Game, card, islet_code
from simlab.games.loot_island import rules
from simlab.games.loot_island.board import EV_B10_DISCARD, EV_EXPLORE, EV_ISLET, EV_PASS, EV_TAKE
from simlab.games.loot_island.components import (EV_A1, EV_A2, EV_A3, EV_A4, EV_B1, EV_B2, EV_B3, EV_B4, EV_B5,
                                                 EV_B6, EV_B7, EV_B8, EV_B9, EV_B10, EV_B11, EV_B12, EV_B13, EV_B14)
from simlab.games.loot_island.state import (B_HAND_N, B_SUPPLY, ISLET_DOWN, ISLET_OUT, M_DISC, S_A2, S_A2_N, S_CORNER,
                                            S_EVENT, S_EVENT_SEQ, S_FACING, S_ISLET, S_MLOC, S_ROUND, S_START, S_TLOC,
                                            SKIP, STOP, SUPPLY, T_DECK, T_DISC, T_KEPT)

T1, T2, T3, T4, T5, T6, T7 = range(7)


def islet_game(n=4, **kw):
    g = Game(n, forced_ship=(0, 1), **kw)
    g.state[S_EVENT] = -1
    return g


def pay(g, p, colour=0, k=2):
    cards = [card(colour, v, 1) for v in (3, 5, 7, 9)[:k]]
    for m in cards:
        g.give(p, m)
    return cards


def explored(g):
    return [(int(e[1]), int(e[2]), int(e[6])) for e in g.events() if e[0] == EV_EXPLORE]


def takers(g):
    return [int(e[1]) for e in g.events() if e[0] == EV_TAKE]


# ---------------------------------------------------------------- islets
def test_islet_costs_two_cards_of_one_colour_and_turns_face_down_until_next_round():
    g = islet_game()
    g.give(0, card(0, 4, 1))
    g.give(0, card(1, 4, 1))
    n = rules.action_choices(g.state, g.cfg, 0, g.legal)
    assert not any(int(x) >= 300 for x in g.legal[:n])     # two colours: no islet
    cards = pay(g, 0)
    n = rules.action_choices(g.state, g.cfg, 0, g.legal)
    assert islet_code(T5, 0) in set(int(x) for x in g.legal[:n])
    g.run(rules.OP_ISLET, 0, 0, T5, 0)
    paid = [m for m in cards + [card(0, 4, 1)] if g.state[S_MLOC + m] == M_DISC]
    assert len(paid) == 2 and g.at(B_HAND_N, 0) == 2 + 2  # 4 cards - 2 paid + 2 drawn
    assert g.at(S_ISLET + T5) == ISLET_DOWN
    n = rules.action_choices(g.state, g.cfg, 0, g.legal)
    assert not any(300 <= int(x) < 400 and (int(x) - 300) // 4 == T5 for x in g.legal[:n])


def test_islet_T1_discards_the_shown_two_cubes():
    g = islet_game()
    pay(g, 0)
    g.run(rules.OP_ISLET, 0, 0, T1, 0)
    assert g.curses(0) == 1


def test_islet_T2_discards_three_cubes_and_is_used_only_with_five_players():
    g = islet_game(5)
    pay(g, 0)
    g.set_curses(0, 5)
    g.run(rules.OP_ISLET, 0, 0, T2, 0)
    assert g.curses(0) == 2
    assert islet_game(4).at(S_ISLET + T2) == ISLET_OUT


def test_islet_T3_moves_own_compass_to_the_bottom_of_its_stack():
    g = islet_game()
    for p in (1, 2, 0):
        g.compass(6, p)
    pay(g, 0)
    g.prefer(0, [6])
    g.run(rules.OP_ISLET, 0, 0, T3, 0)
    assert g.stack(6) == [0, 1, 2]


def test_islet_T3_may_be_used_only_to_block_it():
    g = islet_game()
    for p in (1, 0):
        g.compass(6, p)
    pay(g, 0)
    g.prefer(0, [SKIP])
    g.run(rules.OP_ISLET, 0, 0, T3, 0)
    assert g.stack(6) == [1, 0] and g.at(S_ISLET + T3) == ISLET_DOWN


def test_islet_T4_moves_a_compass_to_a_landing_without_adding_cards():
    g = islet_game()
    g.compass(5, 0)
    g.compass(2, 3)
    pay(g, 0)
    g.prefer(0, [2, 5])          # target landing 2, compass taken from landing 5
    g.run(rules.OP_ISLET, 0, 0, T4, 0)
    assert g.stack(2) == [3, 0] and g.stack(5) == [] and g.cards_at(2) == []
    g2 = islet_game()
    pay(g2, 0)
    g2.prefer(0, [4, SUPPLY])    # from the personal supply (islet_move_from_supply)
    g2.run(rules.OP_ISLET, 0, 0, T4, 0)
    assert g2.stack(4) == [0] and g2.at(B_SUPPLY, 0) == 2


def test_islet_T5_draws_two_map_cards():
    g = islet_game()
    pay(g, 0)
    g.run(rules.OP_ISLET, 0, 0, T5, 0)
    assert g.at(B_HAND_N, 0) == 2


def test_islet_T6_takes_a_cube_reveals_a_treasure_and_keeps_it():
    g = islet_game()
    pay(g, 0)
    g.treasure_top([6])           # #7 money bag, 7 gold, curse 2
    g.prefer(0, [1])              # carry it out, then keep
    g.run(rules.OP_ISLET, 0, 0, T6, 0)
    assert g.curses(0) == 3 + 1 + 2 and g.at(S_TLOC + 6) == T_KEPT + 0


def test_islet_T6_treasure_may_be_discarded_to_shed_cubes():
    g = Game(4, forced_ship=(0, 1), strategy_name="t_discard")
    g.state[S_EVENT] = -1
    pay(g, 0)
    g.treasure_top([6])
    g.run(rules.OP_ISLET, 0, 0, T6, 0)
    assert g.curses(0) == 3 + 1 - 2 and g.at(S_TLOC + 6) == T_DISC


def test_islet_T6_may_be_used_only_to_block_it():
    g = Game(4, forced_ship=(0, 1), strategy_name="t_last")
    g.state[S_EVENT] = -1
    pay(g, 0)
    g.treasure_top([6])
    g.run(rules.OP_ISLET, 0, 0, T6, 0)   # t_last: D_DO legal [1, 0] -> 0
    assert g.curses(0) == 3 and g.at(S_TLOC + 6) == T_DECK


def test_islet_T7_moves_the_ship_or_not():
    g = islet_game()
    pay(g, 0)
    g.prefer(0, [1])
    g.run(rules.OP_ISLET, 0, 0, T7, 0)
    assert g.at(S_CORNER) == 1 and rules.current_coast(g.state) == 1
    g = islet_game()
    pay(g, 0)
    g.prefer(0, [0])              # the rulebook's red player decides not to move the ship
    g.run(rules.OP_ISLET, 0, 0, T7, 0)
    assert g.at(S_CORNER) == 0


# ---------------------------------------------------------------- events A
def test_event_A1_players_may_draw_two_extra_cards_for_two_curses():
    g = Game(4, deal=True, forced_events=(1, 0, 0, 0, 0))
    g.prefer(0, [1])
    g.prefer(1, [0])
    g.state[S_ROUND] = 1
    g.run(rules.OP_EVENT)
    assert g.at(S_EVENT) == EV_A1
    assert (g.at(B_HAND_N, 0), g.curses(0)) == (9, 5)
    assert (g.at(B_HAND_N, 1), g.curses(1)) == (7, 3)


def test_event_A2_one_treasure_per_player_a_passer_must_take_and_keep_one():
    g = Game(4, forced_events=(2, 0, 0, 0, 0))
    g.state[S_ROUND] = 1
    g.run(rules.OP_EVENT)
    assert g.at(S_EVENT) == EV_A2 and g.at(S_A2_N) == 4
    pool = [int(t) for t in g.state[S_A2:S_A2 + 4]]
    g.prefer(2, [pool[2]])
    g.run(rules.OP_PASS, 2, 0)
    assert g.at(S_TLOC + pool[2]) == T_KEPT + 2 and g.at(S_A2_N) == 3
    g2 = Game(2, forced_events=(2, 0, 0, 0, 0))
    g2.state[S_ROUND] = 1
    g2.run(rules.OP_EVENT)
    assert g2.at(S_A2_N) == 2     # Allen is not counted


def test_event_A3_using_an_islet_costs_a_curse_cube():
    g = islet_game()
    g.state[S_EVENT] = EV_A3
    pay(g, 0)
    g.run(rules.OP_ISLET, 0, 0, T5, 0)
    assert g.curses(0) == 4


def big_and_small(g, chests_big=1, chests_small=2):
    big = [card(0, 8, 0), card(0, 10, 0), card(0, 0, 0), card(0, 6, 0)][:chests_big]
    big += [card(0, v, 1) for v in (2, 3, 4, 5, 7, 9)][:6 - chests_big]
    small = [card(1, 8, 0), card(1, 10, 0), card(1, 0, 0)][:chests_small]
    small += [card(1, v, 1) for v in (4, 5, 6, 7, 9)][:5 - chests_small]
    g.column(0, big)
    g.column(1, small)
    g.compass(0, 0)
    g.compass(0, 1)
    g.compass(1, 2)


def test_event_A4_big_loot_one_fewer_small_loot_one_more():
    g = islet_game()
    g.state[S_EVENT] = EV_A4
    big_and_small(g)
    g.run(rules.OP_COAST, 0)
    assert explored(g) == [(0, 1, 2 + 1 - 1), (1, 2, 2 + 1)]


# ---------------------------------------------------------------- events B
def test_event_B1_the_ship_moves_again():
    g = Game(4, forced_ship=(0, 1), forced_events=(0, 5, 0, 0, 0))
    g.state[S_ROUND] = 2
    g.run(rules.OP_PHASE1)
    assert g.at(S_EVENT) == EV_B1 and g.at(S_CORNER) == 2


def test_event_B2_the_ship_turns_to_the_coast_explored_last_round():
    g = Game(4, forced_ship=(1, 1), forced_events=(0, 6, 0, 0, 0))
    last = rules.current_coast(g.state)
    g.state[S_ROUND] = 2
    g.run(rules.OP_PHASE1)
    assert g.at(S_EVENT) == EV_B2 and g.at(S_FACING) == -1 and rules.current_coast(g.state) == last


def test_event_B3_a_random_islet_turns_face_down():
    for seed in range(5):
        g = Game(4, seed=seed, forced_events=(0, 7, 0, 0, 0))
        g.state[S_ROUND] = 2
        g.run(rules.OP_EVENT)
        down = [i for i in range(7) if g.at(S_ISLET + i) == ISLET_DOWN]
        assert g.at(S_EVENT) == EV_B3 and len(down) == 1 and down[0] != T2


def test_event_B4_at_most_two_compasses_on_the_island():
    g = islet_game()
    g.state[S_EVENT] = EV_B4
    for landing in (1, 3, 5):
        g.compass(landing, 0)
    g.prefer(0, [3])
    g.run(rules.OP_B4)
    assert g.stack(3) == [] and g.at(B_SUPPLY, 0) == 1
    g.give(0, card(2, 5, 1))
    g.prefer(0, [5, card(2, 5, 1), STOP])   # a new landing: the compass must come from landing 5
    g.run(rules.OP_PLAY, 0, 0, 6, 2)
    assert g.stack(6) == [0] and g.stack(5) == [] and g.at(B_SUPPLY, 0) == 1


def test_event_B5_hands_refilled_to_one_fewer_and_allen_gets_five():
    g = Game(4, deal=True, forced_events=(0, 9, 0, 0, 0))
    g.state[S_ROUND] = 2
    for p in range(4):
        g.prefer(p, [STOP])
    for m in g.hand(0)[:4]:
        rules.discard_map(g.state, m)
    g.run(rules.OP_PHASE1)
    assert g.at(S_EVENT) == EV_B5 and g.at(B_HAND_N, 0) == 6 and g.at(B_HAND_N, 1) == 7
    g2 = Game(2, deal=True, forced_events=(0, 9, 0, 0, 0))
    g2.state[S_ROUND] = 2
    g2.prefer(0, [STOP])
    g2.prefer(1, [STOP])
    g2.run(rules.OP_PHASE1)
    assert g2.at(B_HAND_N, 2) == 5


def test_event_B6_discard_symbol_sheds_two_cubes():
    g = islet_game()
    g.state[S_EVENT] = EV_B6
    g.give(0, card(3, 9, 0))
    g.compass(4, 1)
    g.prefer(0, [card(3, 9, 0), STOP])
    g.run(rules.OP_PLAY, 0, 0, 4, 3)
    assert g.curses(0) == 1 and g.curses(1) == 1 and g.curses(2) == 3


def test_event_B7_an_islet_costs_one_extra_card_of_any_colour():
    g = islet_game()
    g.state[S_EVENT] = EV_B7
    pay(g, 0)
    n = rules.action_choices(g.state, g.cfg, 0, g.legal)
    assert not any(int(x) >= 300 for x in g.legal[:n])
    g.give(0, card(2, 6, 1))
    n = rules.action_choices(g.state, g.cfg, 0, g.legal)
    assert islet_code(T5, 0) in set(int(x) for x in g.legal[:n])
    g.run(rules.OP_ISLET, 0, 0, T1, 0)
    assert g.at(B_HAND_N, 0) == 0 and g.state[S_MLOC + card(2, 6, 1)] == M_DISC


def test_event_B8_taking_the_start_tile_gives_the_others_two_cubes():
    g = islet_game()
    g.state[S_EVENT] = EV_B8
    g.run(rules.OP_PASS, 1, 0)
    g.run(rules.OP_PASS, 2, 1)
    assert [g.curses(p) for p in range(4)] == [5, 3, 5, 5]


def test_event_B9_an_islet_costs_one_card_and_its_user_passes_at_once():
    g = Game(4, deal=True, forced_ship=(0, 1))
    g.state[S_EVENT] = EV_B9
    first = g.hand(0)[0]
    g.prefer(0, [islet_code(T5, first // 22), first])
    g.run(rules.OP_PHASE2)
    ev = [(int(e[0]), int(e[1])) for e in g.events() if e[0] in (EV_ISLET, EV_PASS)]
    assert ev[:2] == [(EV_ISLET, 0), (EV_PASS, 0)]
    assert g.at(B_HAND_N, 0) == 7 - 1 + 2 and g.at(S_START) == 0


def test_event_B10_players_at_a_small_loot_shed_up_to_two_cubes():
    g = islet_game()
    g.state[S_EVENT] = EV_B10
    big_and_small(g)
    g.compass(1, 3)
    g.prefer(2, [1])   # keep whatever is taken
    g.run(rules.OP_COAST, 0)
    kept_curse = sum(g.values["treasure_curse"][int(e[2])] - g.values["treasure_crossed"][int(e[2])]
                     for e in g.events() if e[0] == EV_TAKE and e[1] == 3)
    assert g.curses(3) == max(0, 3 + kept_curse - 2)
    assert any(e[0] == EV_B10_DISCARD and e[1] == 2 for e in g.events())
    assert not any(e[0] == EV_B10_DISCARD and e[1] in (0, 1) for e in g.events())


def test_event_B11_big_and_small_loot_reveal_one_fewer():
    g = islet_game()
    g.state[S_EVENT] = EV_B11
    big_and_small(g)
    g.run(rules.OP_COAST, 0)
    assert explored(g) == [(0, 1, 2 + 1 - 1), (1, 2, 2 - 1)]


def test_event_B12_the_landing_with_fewer_cards_is_the_big_loot():
    g = islet_game()
    g.state[S_EVENT] = EV_B12
    big_and_small(g)
    g.run(rules.OP_COAST, 0)
    assert [(a, b) for a, b, c in explored(g)] == [(1, 1), (0, 2)]
    assert explored(g)[0][2] == 1 + 2   # one compass + two chests at landing 1


def test_event_B13_bottom_islet_moves_to_the_top_and_loot_goes_top_down():
    g = islet_game()
    g.state[S_EVENT] = EV_B13
    for p in (0, 1, 2):
        g.compass(6, p)
    pay(g, 0)
    g.prefer(0, [6])
    g.run(rules.OP_ISLET, 0, 0, T3, 0)
    assert g.stack(6) == [1, 2, 0]
    g = islet_game()
    g.state[S_EVENT] = EV_B13
    g.column(0, [card(0, v, 1) for v in (2, 3, 4, 5, 7)])
    for p in (0, 1, 2):
        g.compass(0, p)
    g.run(rules.OP_COAST, 0)
    assert takers(g) == [2, 1, 0]


def test_event_B14_the_explored_coast_and_the_next_one_are_explored():
    g = islet_game()
    g.state[S_EVENT] = EV_B14
    g.column(0, [card(0, v, 1) for v in (2, 3, 4, 5, 7)])
    g.column(2, [card(1, v, 1) for v in (2, 3, 4, 5, 7)])
    g.column(4, [card(2, v, 1) for v in (2, 3, 4, 5, 7)])
    for landing in (0, 2, 4):
        g.compass(landing, 1)
    g.state[S_ROUND] = 2
    g.run(rules.OP_PHASE3)
    assert [a for a, b, c in explored(g) if b == 1] == [0, 2]
    assert g.stack(4) == [1] and g.stack(0) == [] and g.stack(2) == []


def test_event_pool_leaves_events_out_and_rounds_without_one_have_no_event():
    pool = (0, 1, 0, 0) + (1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    for seed in range(5):
        g = Game(4, seed=seed, event_pool=pool)
        seq = [int(e) for e in g.state[S_EVENT_SEQ:S_EVENT_SEQ + 5]]
        assert seq[0] == EV_A2 and sorted(seq[1:3]) == [EV_B1, EV_B2] and seq[3:] == [-1, -1]


def test_event_B4_allens_surplus_compass_is_chosen_by_the_start_player():
    g = Game(2, forced_ship=(0, 1))
    g.state[S_EVENT] = EV_B4
    g.state[S_START] = 1
    for landing in (0, 2, 4):
        g.compass(landing, 2)
    g.prefer(1, [2])
    g.run(rules.OP_B4)
    assert g.stack(2) == [] and g.stack(0) == [2] and g.at(B_SUPPLY, 2) == 1


def test_event_B6_also_doubles_a_discard_copied_by_a_front_one():
    g = islet_game()
    g.state[S_EVENT] = EV_B6
    g.column(2, [card(1, 7, 0)])
    g.give(0, card(1, 1, 0))
    g.prefer(0, [card(1, 1, 0), 3])
    g.run(rules.OP_PLAY, 0, 0, 2, 1)
    assert g.curses(0) == 1
