"""Loot Island's random streams by purpose: a change of rule, variant or strategy moves only the draws
it touches, so the arms of a paired comparison share every other random number (common random
numbers; docs/rules/loot_island.md, "How simlab models chance")."""
import numpy as np
import pytest
from loot_island_helpers import Game
from simlab.core.play import MAX_SEATS
from simlab.core.rng import N_STREAMS, randint, root_key, seed_streams
from simlab.core.strategy import get_strategy, strategy
from simlab.games.loot_island import rules
from simlab.games.loot_island.components import O
from simlab.games.loot_island.state import (R_CORNER, R_EVENT_A, R_EVENTS_B, R_FACING, R_HEALERS, R_MAP, R_TIER,
                                            S_ALLEN, S_CORNER, S_EVENT_SEQ, S_FACING, S_HEALERS, S_MDRAW, S_MDRAW_N,
                                            S_ROUND, S_TDECK, S_TDECK_N)


@strategy("loot-island", "t_spend", "test script: legal[0] like t_prefer with no preferences, but draws 3 numbers "
                                    "from its own stream at every call")
def t_spend(state, cfg, seat, legal, n_legal, params, rng):
    for _ in range(3):
        randint(rng, 1000)
    return 0


@strategy("loot-island", "t_strict", "test script: legal[0], and fails if asked with a single legal choice")
def t_strict(state, cfg, seat, legal, n_legal, params, rng):
    if n_legal < 2:
        raise ValueError("asked with one legal choice")
    return 0


def played(n=4, seed=3, seat_strategies=None, **overrides):
    """A whole game on a fresh deal: the final state and its trace."""
    g = Game(n, seed=seed, **overrides)
    fns = [get_strategy("loot-island", "t_prefer").decide] * MAX_SEATS
    for seat, name in (seat_strategies or {}).items():
        fns[seat] = get_strategy("loot-island", name).decide
    g.fns = tuple(fns)
    g.run(rules.OP_RUN)
    return g


def map_pile(g):
    return [int(x) for x in g.state[S_MDRAW:S_MDRAW + g.at(S_MDRAW_N)]]


def tier_order(g, deck):
    """Treasures of treasure deck ``deck`` (1 = I .. 4 = IV) in deck order."""
    return [int(t) for t in g.state[S_TDECK:S_TDECK + g.at(S_TDECK_N)] if g.cfg[O.treasure_deck + t] == deck]


def chance_at_setup(g):
    return (g.at(S_CORNER), g.at(S_FACING), map_pile(g), [int(x) for x in g.state[S_TDECK:S_TDECK + g.at(S_TDECK_N)]],
            [int(x) for x in g.state[S_HEALERS:S_HEALERS + 5]], [int(x) for x in g.state[S_EVENT_SEQ:S_EVENT_SEQ + 5]])


def test_a_strategy_draws_only_from_its_own_stream():
    """Seat 1 makes the same choices with and without spending random numbers: the whole game (map
    and treasure reshuffles, B3 flips included) and its trace stay the same."""
    for seed in range(4):
        a = played(seed=seed)
        b = played(seed=seed, seat_strategies={1: "t_spend"})
        assert np.array_equal(a.state, b.state)
        assert np.array_equal(a.events(), b.events())


def test_changing_one_seats_strategy_leaves_the_setup_chance_rows_where_setup_left_them():
    """The rows drawn only at setup (ship, treasure tiers, healers, events) end the game where setup
    left them, whatever the strategies did in between."""
    for seat_strategies in ({}, {2: "random"}, {0: "hunter", 1: "random", 3: "collector"}):
        g = Game(4, seed=11)
        after_setup = g.streams.copy()
        fns = [get_strategy("loot-island", "t_prefer").decide] * MAX_SEATS
        for seat, name in seat_strategies.items():
            fns[seat] = get_strategy("loot-island", name).decide
        g.fns = tuple(fns)
        g.run(rules.OP_RUN)
        for row in (R_CORNER, R_FACING, R_TIER, R_TIER + 1, R_TIER + 2, R_TIER + 3, R_HEALERS, R_EVENT_A, R_EVENTS_B):
            assert np.array_equal(g.streams[row], after_setup[row]), row


def test_the_engine_never_asks_a_strategy_with_one_legal_choice():
    """With a single legal choice the engine takes it without calling the strategy (so a random
    strategy spends nothing on it)."""
    played(n=2, seat_strategies={0: "t_strict", 1: "t_strict"})
    played(n=4, seat_strategies={s: "t_strict" for s in range(4)})


@pytest.mark.parametrize("fixed", [{"ship_facing": "clockwise"}, {"forced_ship": (2, 0)}, {"forced_ship": (1, -1)}])
def test_a_fixed_ship_corner_or_facing_moves_no_deck_healer_or_event(fixed):
    """The ship's corner and facing draw from their own rows: fixing them leaves the map deck, the
    treasure deck, the healers and the events as dealt with a random ship."""
    for seed in range(5):
        free = chance_at_setup(Game(3, seed=seed))
        held = chance_at_setup(Game(3, seed=seed, **fixed))
        assert held[2:] == free[2:]


def test_each_treasure_deck_is_shuffled_from_its_own_row():
    """Which treasure decks are used depends on the player count; a deck used in both games is in
    the same order in both (2 players use I and IV, 4 players I, II and IV, 5 players all four)."""
    for seed in range(5):
        two, four, five = Game(2, seed=seed), Game(4, seed=seed), Game(5, seed=seed)
        for deck in (1, 4):
            assert tier_order(two, deck) == tier_order(four, deck) == tier_order(five, deck)
        assert tier_order(four, 2) == tier_order(five, 2)
        assert tier_order(two, 2) == [] and len(tier_order(five, 3)) > 0


def test_events_off_or_a_forced_a_event_leaves_the_other_chance_as_dealt():
    """Events draw from their own rows (A event, B events): switching them off moves nothing else,
    and forcing round 1's A event leaves the B events of rounds 2-5 as drawn."""
    for seed in range(5):
        base = chance_at_setup(Game(4, seed=seed))
        off = chance_at_setup(Game(4, seed=seed, events_enabled=False))
        assert off[:5] == base[:5] and off[5] == [-1] * 5
        a = base[5][0]
        forced = chance_at_setup(Game(4, seed=seed, forced_events=((a + 1) % 4 + 1, 0, 0, 0, 0)))
        assert forced[:5] == base[:5] and forced[5][1:] == base[5][1:] and forced[5][0] != a


def test_allen_on_or_off_deals_the_players_the_same_start_hands():
    """Allen draws from the bottom of the map pile, the players from the top: with Allen on and off
    the players get the same start hands, and Allen's hand is the pile's bottom cards."""
    for seed in range(5):
        on = Game(2, seed=seed, deal=True)
        off = Game(2, seed=seed, deal=True, allen=False)
        assert on.at(S_ALLEN) == 1 and off.at(S_ALLEN) == 0
        bottom = map_pile(Game(2, seed=seed))[:on.values["allen_hand"]]
        for p in (0, 1):
            assert on.hand(p) == off.hand(p)
        assert sorted(on.hand(2)) == sorted(bottom)
        assert map_pile(on) == map_pile(off)[len(bottom):]


def test_allen_on_or_off_keeps_the_players_refills_while_the_pile_lasts():
    """Phase 1 of round 2 with the same discards in both arms: each player draws the same cards,
    Allen's refill comes from the bottom."""
    for seed in range(3):
        arms = []
        for allen in (True, False):
            g = Game(2, seed=seed, deal=True, allen=allen, prefs={0: [1000], 1: [1000]})  # keep the hand (STOP)
            for p in (0, 1):
                for m in g.hand(p)[:2]:
                    rules.discard_map(g.state, m)
            g.state[S_EVENT_SEQ + 1] = -1  # no event in round 2
            g.state[S_ROUND] = 2
            g.run(rules.OP_PHASE1)
            arms.append(g)
        for p in (0, 1):
            assert arms[0].hand(p) == arms[1].hand(p)
        assert len(arms[0].hand(2)) == arms[0].values["allen_hand"]


def test_the_map_row_feeds_the_map_deck_only():
    """Re-seeding the map deck's row deals other map cards but the same ship, treasure deck, healers
    and events."""
    g = Game(3)
    streams = np.zeros((N_STREAMS, 4), dtype=np.uint64)
    seed_streams(root_key(5), 0, streams)
    other = streams.copy()
    other[R_MAP, 0] ^= np.uint64(12345)
    a, b = Game(3), Game(3)
    rules.setup(a.state, g.cfg, 3, streams)
    rules.setup(b.state, g.cfg, 3, other)
    ca, cb = chance_at_setup(a), chance_at_setup(b)
    assert ca[2] != cb[2] and sorted(ca[2]) == sorted(cb[2]) == list(range(88))
    assert ca[:2] == cb[:2] and ca[3:] == cb[3:]
