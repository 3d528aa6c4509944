"""Jamaica's random streams by purpose: a change of strategy, variant or decision moves only the
draws of its own purposes, so two configurations share every other chance (common random numbers)."""
import numpy as np
import pytest

from jamaica_helpers import FIGHTER, MODE, RANDOM, Table
from simlab.core.rng import STRATEGY_STREAM, randint
from simlab.games.jamaica import GAME, common, setup
from simlab.games.jamaica.components import R_CANNON, R_FOOD, R_GOLD, T_BETH, T_MAP, T_SABRE
from simlab.games.jamaica.state import (B_DISC, B_DISC_N, B_DRAW, B_DRAW_N, B_HAND, B_HAND_N, CHANCE_STREAMS,
                                        DEC_CANNONS, DEC_LOOT, DEC_SABRE, END_RUNNING, GHOST, LOOT_BLIND, LOOT_HOLD,
                                        LOOT_NONE, RNG_BLIND, RNG_COMBAT, RNG_DECK, RNG_DICE, RNG_GHOST_BATTLE,
                                        RNG_SABRE, RNG_TREASURE, S_DIE1, S_DIE2, S_END, S_TDECK, S_TDECK_N)

SEEDS = range(1, 31)


def rows_drawn(before, after):
    """The stream rows a step drew from."""
    return {r for r in range(len(before)) if not np.array_equal(before[r], after[r])}


def pile(t, ship):
    b = t.b(ship)
    return [int(t.state[b + B_DRAW + i]) for i in range(t.state[b + B_DRAW_N])]


def hand(t, ship):
    b = t.b(ship)
    return [int(t.state[b + B_HAND + i]) for i in range(t.state[b + B_HAND_N])]


def treasure_pile(t):
    """The treasure draw pile, top card first."""
    return [int(t.state[S_TDECK + i]) for i in range(t.state[S_TDECK_N] - 1, -1, -1)]


def whole_game(seed, players, modes, **params):
    """Play a game round by round and return what chance decided in it: the dice of each round,
    the treasure cards the lairs gave in order, the faces rolled in each battle between players
    and in each battle the ghost ship fought, and each seat's draw pile after each reshuffle."""
    t = Table(players, seed=seed, **params)
    t.seat_params[:, 0:2] = (8.0, 4.0)                 # the fighter's default cannon stock and hunt
    t.seat_params[:players, MODE] = modes
    dice, decks = [], [[] for _ in range(players)]
    while t.state[S_END] == END_RUNNING:
        before = [t.state[t.b(p) + B_DRAW_N] for p in range(players)]
        t.play_round()
        dice.append((int(t.state[S_DIE1]), int(t.state[S_DIE2])))
        for p in range(players):
            if t.state[t.b(p) + B_DRAW_N] > before[p]:   # the draw pile only grows by a reshuffle
                decks[p].append(pile(t, p))
    assert t.n_events < len(t.log)
    lairs = [e[3] for e in t.events(common.EV_LAIR) if e[3] >= 0]
    battles = {False: [], True: []}                      # faces rolled, by whether the ghost fought
    for e in t.events():
        if e[0] == common.EV_COMBAT:
            faces = []
            battles[GHOST in (e[1], e[2])].append(faces)
        elif e[0] == common.EV_ROLL:
            faces.append(e[3])
    return dice, lairs, battles, decks


def same_prefix(a, b):
    n = min(len(a), len(b))
    return a[:n] == b[:n]


def same_relative_order(a, b):
    both = set(a) & set(b)
    return [c for c in a if c in both] == [c for c in b if c in both]


def assert_same_chance(base, other, lairs=True):
    """Every chance sequence the change does not touch is the same; returns how many reshuffled
    piles held different cards in the two games (then only their common cards' order can agree)."""
    (dice_a, lairs_a, battles_a, decks_a), (dice_b, lairs_b, battles_b, decks_b) = base, other
    assert same_prefix(dice_a, dice_b)
    if lairs:
        assert same_prefix(lairs_a, lairs_b)
    for fa, fb in zip(battles_a[False], battles_b[False]):   # the k-th battle between players
        assert same_prefix(fa, fb)                           # attacker's face, defender's if both rolled
    differ = 0
    for da, db in zip(decks_a, decks_b):
        for pa, pb in zip(da, db):                           # the k-th reshuffle of a seat's deck
            assert same_relative_order(pa, pb)
            differ += set(pa) != set(pb) and len(set(pa) & set(pb)) >= 3
    return differ


def test_streams_the_game_names_every_row_it_draws_from():
    assert GAME.chance_streams == CHANCE_STREAMS and len(CHANCE_STREAMS) <= STRATEGY_STREAM
    assert RNG_DECK + 5 == len(CHANCE_STREAMS) - 1
    rows = {RNG_TREASURE, RNG_DICE, RNG_COMBAT, RNG_GHOST_BATTLE, RNG_SABRE, RNG_BLIND}
    assert rows == set(range(RNG_DECK))


def test_streams_a_seat_changing_strategy_leaves_every_chance_sequence_unchanged():
    """Seat 1 plays at random instead of as a fighter: the dice of each round, the lairs' cards,
    each battle's faces and each deck's reshuffles are the same, though the games differ."""
    differ = played_apart = 0
    for seed in SEEDS:
        base = whole_game(seed, 4, [FIGHTER] * 4)
        other = whole_game(seed, 4, [FIGHTER, RANDOM, FIGHTER, FIGHTER])
        differ += assert_same_chance(base, other)
        played_apart += base[1] != other[1] or base[2] != other[2]
    assert played_apart > len(SEEDS) // 2 and differ > 0


def test_streams_ghost_ship_takes_lady_beth_out_of_the_shuffled_pile_the_other_cards_keep_their_order():
    """Rules 5(3): with the ghost ship the same shuffle of the 12 cards deals the pile, less Lady Beth."""
    for seed in SEEDS:
        with_ghost, without = Table(2, seed=seed), Table(2, seed=seed, ghost_ship=False)
        expected = [k for k in treasure_pile(without) if k != T_BETH]
        assert same_prefix(treasure_pile(with_ghost), expected) and T_BETH not in treasure_pile(with_ghost)
        for p in range(2):
            assert hand(with_ghost, p) == hand(without, p) and pile(with_ghost, p) == pile(without, p)


def test_streams_ghost_ship_on_or_off_leaves_the_dice_decks_lairs_and_players_battles_as_they_were():
    """Rules 5: the ghost ship's battles draw from their own row, so the players' k-th battle rolls
    the same faces with and without it; the lairs give the same cards, Lady Beth apart."""
    differ = ghost_battles = 0
    for seed in SEEDS:
        base = whole_game(seed, 2, [FIGHTER] * 2, ghost_ship=False)
        other = whole_game(seed, 2, [FIGHTER] * 2)
        differ += assert_same_chance(base, other, lairs=False)
        assert same_prefix([k for k in base[1] if k != T_BETH], other[1])
        ghost_battles += len(other[2][True])
    assert ghost_battles > 0 and differ > 0


def test_streams_each_seat_deals_its_action_deck_from_its_own_row_whatever_the_player_count():
    """Rules 1(3): a seat's 11 cards are shuffled from that seat's row alone."""
    for seed in SEEDS[:10]:
        two, four = Table(2, seed=seed), Table(4, seed=seed)
        for p in range(2):
            assert hand(two, p) + pile(two, p) == hand(four, p) + pile(four, p)


def test_streams_morgans_map_draws_the_next_card_of_the_same_pile_and_leaves_the_other_decks_alone():
    """Treasure: Morgan's Map raises its owner's hand to 4; the other seats' draws do not move."""
    plain, mapped = Table(3, seed=4), Table(3, seed=4)
    mapped.give(T_MAP, 0)
    top = pile(plain, 0)[-1]
    for p in range(3):
        setup.refill(plain.state, plain.cfg, p, plain.streams)
        setup.refill(mapped.state, mapped.cfg, p, mapped.streams)
    assert hand(mapped, 0) == hand(plain, 0) + [top]
    assert [hand(mapped, p) + pile(mapped, p) for p in (1, 2)] == [hand(plain, p) + pile(plain, p) for p in (1, 2)]


def test_streams_a_reshuffle_spends_the_same_draws_whatever_was_discarded_and_keeps_common_cards_in_order():
    """Rules 2(4): two discard piles of different cards reshuffled from the same row come out with
    their common cards in the same order, and the row has moved on by the same draws."""
    for seed in SEEDS[:10]:
        a, b = Table(2, seed=seed), Table(2, seed=seed)
        for t, discarded in ((a, [0, 1, 2, 3, 4, 5, 6, 7]), (b, [9, 7, 5, 3, 1, 10])):
            base = t.b(0)
            t.state[base + B_DRAW_N] = 0
            t.state[base + B_DISC_N] = len(discarded)
            t.state[base + B_DISC:base + B_DISC + len(discarded)] = discarded
            setup.reshuffle(t.state, 0, t.streams)
        assert sorted(pile(a, 0)) == list(range(8)) and sorted(pile(b, 0)) == [1, 3, 5, 7, 9, 10]
        assert same_relative_order(pile(a, 0), pile(b, 0))
        assert np.array_equal(a.streams, b.streams)


def test_streams_a_reshuffle_is_a_uniform_shuffle_of_the_discarded_cards():
    """Ordering all 11 cards and keeping the discarded ones' order deals every order of them equally often."""
    t = Table(2, seed=1)
    counts = np.zeros((3, 3), dtype=np.int64)     # counts[card index, position] for discards 2, 5, 9
    base = t.b(0)
    for _ in range(6000):
        t.state[base + B_DRAW_N] = 0
        t.state[base + B_DISC_N] = 3
        t.state[base + B_DISC:base + B_DISC + 3] = (2, 5, 9)
        setup.reshuffle(t.state, 0, t.streams)
        for pos, card in enumerate(pile(t, 0)):
            counts[(2, 5, 9).index(card), pos] += 1
    assert np.abs(counts / 6000 - 1 / 3).max() < 0.03


def battle_rows(t, att=0, space=10):
    """Fight one battle on ``space``; returns the rows it drew from."""
    for s in (0, 1):
        t.put(s, space)
    before = t.streams.copy()
    t.battle(att, space)
    return rows_drawn(before, t.streams)


def test_streams_an_attackers_star_spends_the_defenders_face_so_later_battles_roll_the_same_dice():
    """Rules 3(4): an attacker's star ends the battle before the defender rolls; its die is spent
    all the same, so the next battle between players rolls the same faces."""
    star, no_star = (Table(2, seed=3, ghost_ship=False, combat_faces=(f,) * 6) for f in (0, 4))
    for t in (star, no_star):
        t.want(DEC_LOOT, LOOT_NONE)
        assert battle_rows(t) == {RNG_COMBAT}
    assert len(star.events(common.EV_ROLL)) == 1 and len(no_star.events(common.EV_ROLL)) == 2
    assert np.array_equal(star.streams, no_star.streams)


def test_streams_the_sabres_reroll_draws_from_its_own_row():
    """Treasure: Saran's Sabre re-rolls from its own row; the combat dice go on as without it."""
    used, kept = (Table(2, seed=3, ghost_ship=False) for _ in range(2))
    for t, use in ((used, 1), (kept, 0)):
        t.give(T_SABRE, 0)
        t.want(DEC_SABRE, use)
        t.want(DEC_LOOT, LOOT_NONE)
        assert battle_rows(t) == ({RNG_COMBAT, RNG_SABRE} if use else {RNG_COMBAT})
    assert len(used.events(common.EV_SABRE)) == 1
    assert np.array_equal(used.streams[RNG_COMBAT], kept.streams[RNG_COMBAT])


def test_streams_a_blind_steal_draws_from_its_own_row():
    """Rules 3(4) [S5]: which face-down card a blind steal takes is its own chance."""
    blind, hold = (Table(2, seed=3, ghost_ship=False, combat_faces=(4,) * 6) for _ in range(2))
    for t, loot in ((blind, LOOT_BLIND), (hold, LOOT_HOLD + 0)):
        t.give(4, 1)
        t.give(9, 1)
        t.set_holds(0, [(R_CANNON, 20)])   # 20 cannons committed: the attacker wins
        t.want(DEC_CANNONS, 20)
        t.want(DEC_LOOT, loot)
        assert battle_rows(t) == ({RNG_COMBAT, RNG_BLIND} if loot == LOOT_BLIND else {RNG_COMBAT})
    assert np.array_equal(blind.streams[RNG_COMBAT], hold.streams[RNG_COMBAT])


@pytest.mark.parametrize("att", [0, GHOST])
def test_streams_battles_the_ghost_ship_fights_draw_only_from_the_ghost_row(att):
    """Rules 5(7): the ghost's battles (dice, a Sabre re-roll, a blind steal) leave the players' rows alone."""
    t = Table(2, seed=3, combat_faces=(4,) * 6)
    t.put(GHOST, 10)
    t.put(0, 10)
    t.give(T_SABRE, 0)
    t.give(5, GHOST)                       # a card lying face down with the ghost ship
    t.want(DEC_SABRE, 1)
    t.want(DEC_LOOT, LOOT_BLIND)
    t.set_holds(0, [(R_CANNON, 20), (R_GOLD, 3), (R_FOOD, 3)])
    t.want(DEC_CANNONS, 20)                # the player wins and steals blind
    before = t.streams.copy()
    t.battle(att, 10)
    assert rows_drawn(before, t.streams) == {RNG_GHOST_BATTLE}
    assert len(t.events(common.EV_SABRE)) == 1
    assert [e[3] for e in t.events(common.EV_LOOT)] == [LOOT_BLIND]


def test_streams_each_strategy_draws_from_its_own_slots_row_never_from_chance():
    """Rules 2(2): every seat picks a card; random seats draw from their slot's row only."""
    t = Table(4, seed=2)
    t.seat_params[:, MODE] = RANDOM
    t.seat_slot[:] = (5, 3, 4, 2, 0, 1)
    before = t.streams.copy()
    t.pick_cards()
    assert rows_drawn(before, t.streams) == {STRATEGY_STREAM + s for s in (5, 3, 4, 2)}


def test_a_decision_with_one_legal_option_is_taken_without_asking_the_strategy():
    """Rules 2(1): doubles leave the captain nothing to place, so no strategy is called."""
    for seed in SEEDS:
        t = Table(2, seed=seed)
        probe = t.streams[RNG_DICE].copy()
        if randint(probe, 6) == randint(probe, 6):
            break
    else:
        pytest.fail("no double in the seeds tried")
    t.seat_params[:, MODE] = RANDOM
    before = t.streams.copy()
    t.roll_and_place_dice()
    assert t.state[S_DIE1] == t.state[S_DIE2] and rows_drawn(before, t.streams) == {RNG_DICE}

