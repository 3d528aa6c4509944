"""Loot Island, 2 players: Allen, the open virtual third player, and the switch that removes him."""
from loot_island_helpers import Game, card, play_code
from simlab.games.loot_island import rules
from simlab.games.loot_island.components import EV_A3, EV_B9, SYM_DRAW
from simlab.games.loot_island.state import (B_ALLEN_USES, B_CROSSES, B_GOLD, B_HAND_N, B_ISLETS, B_SUPPLY, PASS,
                                            S_ALLEN, S_CORNER, S_EVENT, S_MUST_PASS, S_TLOC, STOP, T_DISC, T_KEPT)

ALLEN = 2


def allen_game(**kw):
    g = Game(2, forced_ship=(0, 1), **kw)
    g.state[S_EVENT] = -1
    return g


def test_allen_gets_an_open_hand_of_six_and_a_compass_supply():
    g = Game(2, deal=True)
    assert g.at(S_ALLEN) == 1 and g.at(B_HAND_N, ALLEN) == 6 and g.at(B_SUPPLY, ALLEN) == 3
    assert g.curses(ALLEN) == 0


def test_switch_two_players_without_allen():
    g = Game(2, deal=True, allen=False)
    assert g.at(S_ALLEN) == 0 and g.at(B_HAND_N, ALLEN) == 0
    n = rules.action_choices(g.state, g.cfg, 0, g.legal)
    assert not any(200 <= int(x) < 300 or int(x) >= 400 for x in g.legal[:n])


def test_allen_cards_offered_on_a_players_turn_only_in_the_two_player_game():
    g = allen_game()
    g.give(ALLEN, card(1, 6, 1))
    n = rules.action_choices(g.state, g.cfg, 0, g.legal)
    codes = set(int(x) for x in g.legal[:n])
    assert play_code(3, 1, allen=True) in codes and PASS in codes


def test_example_blue_plays_allens_cards_his_compass_on_top_the_draw_helps_blue_only():
    g = allen_game()
    g.compass(4, 0)
    for m in (card(2, 5, 0), card(2, 6, 1)):
        g.give(ALLEN, m)
    g.prefer(0, [card(2, 5, 0), card(2, 6, 1), STOP])
    g.run(rules.OP_PLAY, 0, ALLEN, 4, 2)
    assert g.stack(4) == [0, ALLEN]
    assert g.at(B_HAND_N, 0) == 1 and g.at(B_HAND_N, ALLEN) == 0   # blue drew; Allen never draws
    assert g.at(B_ALLEN_USES, 0) == 1 and g.at(B_ALLEN_USES, 1) == 0
    assert g.at(B_HAND_N, 1) == 0


def test_allen_is_immune_to_the_one_card_curse_humans_are_not():
    g = allen_game()
    g.give(ALLEN, card(0, 1, 0))
    g.prefer(1, [card(0, 1, 0)])
    g.run(rules.OP_PLAY, 1, ALLEN, 0, 0)
    assert [g.curses(p) for p in range(3)] == [4, 4, 0]


def test_allens_front_one_copies_nothing_unless_switched_to_the_actor():
    for reading, expect in (("none", 0), ("actor", 1)):
        g = allen_game(one_copy_allen=reading)
        g.column(6, [card(3, 5, 0)])
        g.give(ALLEN, card(3, 1, 1))
        g.prefer(0, [card(3, 1, 1), SYM_DRAW])
        g.run(rules.OP_PLAY, 0, ALLEN, 6, 3)
        assert g.at(B_HAND_N, 0) == expect


def test_allen_takes_the_highest_numbered_treasure_keeps_crowns_discards_the_rest():
    g = allen_game()
    g.column(0, [card(0, v, 1) for v in (2, 3, 4, 5)])
    g.compass(0, ALLEN)
    g.compass(0, 0)
    g.treasure_top([58, 73, 6])       # #59 crown, #74 crown (highest), #7 money bag
    g.run(rules.OP_COAST, 0)
    assert g.at(S_TLOC + 73) == T_KEPT + ALLEN and g.at(B_CROSSES, ALLEN) == 4
    g = allen_game()
    g.column(0, [card(0, v, 1) for v in (2, 3, 4, 5)])
    g.compass(0, ALLEN)
    g.treasure_top([58])
    g.run(rules.OP_COAST, 0)
    assert g.at(S_TLOC + 58) == T_KEPT + ALLEN
    g = allen_game()
    g.column(0, [card(0, v, 1) for v in (2, 3, 4, 5)])
    g.compass(0, ALLEN)
    g.treasure_top([69])               # a money bag: Allen discards it, takes no curse
    g.run(rules.OP_COAST, 0)
    assert g.at(S_TLOC + 69) == T_DISC and g.curses(ALLEN) == 0


def test_example_allens_islet_reveals_an_amulet_and_discards_it():
    g = allen_game()
    for m in (card(1, 3, 1), card(1, 7, 1)):
        g.give(ALLEN, m)
    g.treasure_top([7])               # #8 amulet
    g.prefer(0, [1])
    g.run(rules.OP_ISLET, 0, ALLEN, 5, 1)
    assert g.at(S_TLOC + 7) == T_DISC and g.curses(ALLEN) == 0 and g.curses(0) == 3
    assert g.at(B_ALLEN_USES, 0) == 1 and g.at(B_ISLETS, 0) == 0


def test_example_red_uses_allens_cards_for_the_ship_islet_and_does_not_move_it():
    g = allen_game()
    for m in (card(1, 3, 1), card(1, 7, 1)):
        g.give(ALLEN, m)
    g.prefer(1, [0])
    g.run(rules.OP_ISLET, 1, ALLEN, 6, 1)
    assert g.at(S_CORNER) == 0 and g.at(B_HAND_N, ALLEN) == 0


def test_reading_a3_the_player_using_an_islet_with_allens_cards_takes_the_cube_as_b9_makes_him_pass():
    """A3: 'every time a player uses an islet he takes a curse cube'. B9 treats the player who pays with
    Allen's cards as the islet's user (he must pass at once); A3 reads 'uses' the same way by default
    (`a3_with_allen` = actor). The other reading, nobody (Allen never takes cubes), stays a switch."""
    for reading, cube in (("actor", 1), ("nobody", 0)):
        g = allen_game(a3_with_allen=reading)
        g.state[S_EVENT] = EV_A3
        for m in (card(1, 3, 1), card(1, 7, 1)):
            g.give(ALLEN, m)
        g.run(rules.OP_ISLET, 0, ALLEN, 4, 1)
        assert g.curses(0) == 3 + cube and g.curses(1) == 3 and g.curses(ALLEN) == 0
    g = allen_game()
    g.state[S_EVENT] = EV_B9
    g.give(ALLEN, card(1, 3, 1))
    g.run(rules.OP_ISLET, 0, ALLEN, 4, 1)
    assert g.at(S_MUST_PASS) == 1


def test_allens_crosses_count_in_the_crown_places():
    g = Game(2)
    for t in (19, 73):
        rules.keep_treasure(g.state, g.cfg, ALLEN, t)    # Allen: 8 crosses
    rules.keep_treasure(g.state, g.cfg, 0, 2)             # seat 0: 3 crosses
    for p in (0, 1):
        g.set_curses(p, 0)
    g.run(rules.OP_SCORING)
    assert g.at(B_GOLD + 4, 0) == 2 + 18                  # second place behind Allen


def test_allen_never_holds_a_non_crown_and_never_curses_over_many_games():
    from simlab.core.runner import Prepared, RunConfig
    prep = Prepared(RunConfig("loot-island", 2, ("hunter", "random"), 1, seed=5, params={"check_invariants": True},
                              rotate=True))
    frame = prep.frame(0, 400)
    assert (frame.allen_uses > 0).mean() > 0.3
    assert frame.allen_crosses.min() >= 0
