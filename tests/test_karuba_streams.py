"""Karuba's random streams by purpose: a change to one rule, setting or seat's strategy leaves every
random number it does not touch where it was (common random numbers), and a seat with one legal
choice is not asked."""
import numpy as np
from numba import njit

from simlab.core.rng import STRATEGY_STREAM
from simlab.core.runner import Prepared, RunConfig
from simlab.core.strategy import DECIDE_SIGNATURE
from simlab.games.karuba import GAME, rules, step
from simlab.games.karuba.state import (AT_TEMPLE, B_DISCARDED, B_EXPL, B_OPEN, B_PLACED, B_TILE, CHANCE_STREAMS,
                                       DISCARD_ONLY, MAX_CHOICES, R_GOLD, R_SPACES, R_TILES, S_BEACH, S_END, S_ROUND,
                                       S_TEMPLE, S_TURN, STATE_SIZE, T_ORDER)

from karuba_helpers import block, make_cfg, new_game, streams

ACTIONS = (rules.EV_PLACE, rules.EV_DISCARD, rules.EV_MOVE)


def test_chance_streams_are_named_by_purpose_in_the_game_spec():
    """The kernel seeds the rows the game names: setup spaces, tile order, gold draw, in row order."""
    assert GAME.chance_streams == CHANCE_STREAMS
    assert [CHANCE_STREAMS[r] for r in (R_SPACES, R_TILES, R_GOLD)] == ["setup spaces", "tile order",
                                                                        "gold shortage draw"]
    assert len(CHANCE_STREAMS) <= STRATEGY_STREAM


def setup_of(deal, **params):
    """(beaches, temples, tile order) that deal ``deal`` gets under ``params``."""
    state = np.zeros(STATE_SIZE, dtype=np.int32)
    rules.setup(state, make_cfg(**params), 4, streams(deal))
    return (tuple(state[S_BEACH:S_BEACH + 4]), tuple(state[S_TEMPLE:S_TEMPLE + 4]),
            tuple(state[T_ORDER:T_ORDER + 36]))


def test_tile_order_does_not_depend_on_the_distance_rule_or_on_fixed_spaces():
    """Setup (rules doc section 2): the setup spaces draw from their own stream, so every deal reveals
    the same tiles in the same order whatever distance_rule says and whichever spaces are fixed."""
    random = dict(beaches=(0, 0, 0, 0), temples=(0, 0, 0, 0))
    for deal in range(200):
        tiles = {setup_of(deal, **random, distance_rule=rule)[2] for rule in ("ring3", "ring4", "label30")}
        tiles.add(setup_of(deal)[2])                                       # the seed's example, all fixed
        tiles.add(setup_of(deal, beaches=(60, 0, 0, 0), temples=(70, 0, 0, 0))[2])   # brown fixed
        tiles.add(setup_of(deal, beaches=(0, 0, 30, 0), temples=(0, 0, 0, 0))[2])    # one beach fixed
        assert len(tiles) == 1, deal


def test_stricter_distance_rule_keeps_every_setup_it_allows():
    """Setup (rules doc section 2, distance_rule): every try of the joint rejection draws the same
    8 numbers whatever the rule, and ring4 allows a subset of ring3's setups, so a deal's ring4
    setup is its ring3 setup whenever that one is ring4-legal, and only then."""
    random = dict(beaches=(0, 0, 0, 0), temples=(0, 0, 0, 0))
    kept = 0
    for deal in range(400):
        b3, t3, _ = setup_of(deal, **random)
        b4, t4, _ = setup_of(deal, **random, distance_rule="ring4")
        allowed = all(rules.gap_ok(rules.RING4, 10 * (b + 1), 10 * (t + 1)) for b, t in zip(b3, t3))
        assert ((b3, t3) == (b4, t4)) == allowed, deal
        kept += allowed
    assert 0.6 < kept / 400 < 0.9


def action_trace(prep, game):
    """(setup events, tile per round, {seat: [(round, event kind, choice fields)]}) of one game."""
    _, ev = prep.play(game, 1, log_capacity=5000)
    setup = [tuple(e) for e in ev[ev[:, 0] == rules.EV_SETUP]]
    tiles = list(ev[ev[:, 0] == rules.EV_TILE][:, 2])
    acts = {}
    rnd = 0
    for e in ev:
        if e[0] == rules.EV_TILE:
            rnd = e[1]
        elif e[0] in ACTIONS:
            # the choice only: a move's treasure found (e[5]) depends on the gold handed out
            fields = (e[2], e[3], e[4]) if e[0] == rules.EV_MOVE else (e[2],)
            acts.setdefault(int(e[1]), []).append((rnd, int(e[0])) + tuple(int(x) for x in fields))
    return setup, tiles, acts


def assert_same_chance(a, b, seats, games):
    """Setup, tile order and the choices of ``seats`` agree between two configurations, game by game,
    over the rounds both played."""
    for g in range(games):
        sa, ta, aa = action_trace(a, g)
        sb, tb, ab = action_trace(b, g)
        n = min(len(ta), len(tb))
        assert sa == sb and ta[:n] == tb[:n], g
        for s in seats:
            assert [x for x in aa[s] if x[0] <= n] == [x for x in ab[s] if x[0] <= n], (g, s)


def test_changing_one_seats_strategy_moves_no_chance_and_no_other_seats_draws():
    """Chance by purpose: replacing seat 1's random play by the builder leaves the setup, the tile
    order and the choices of the other random seat (its own stream, its own island) unchanged."""
    before = Prepared(RunConfig("karuba", 4, ("random", "random", "builder", "collector"), 1, seed=4))
    after = Prepared(RunConfig("karuba", 4, ("builder", "random", "builder", "collector"), 1, seed=4))
    assert_same_chance(before, after, seats=(1, 2, 3), games=30)


def test_gold_shortage_draw_moves_no_other_purpose():
    """Gold supply (rules doc section 6): the draw of the placers served has its own stream, so with
    gold_shortage=draw instead of nobody every seat's random play stays the same; the draw itself
    does change who gets gold in some games."""
    seats = ("random",) * 4
    nobody = Prepared(RunConfig("karuba", 4, seats, 1, seed=6, params={"gold_supply": 6}))
    draw = Prepared(RunConfig("karuba", 4, seats, 1, seed=6, params={"gold_supply": 6, "gold_shortage": "draw"}))
    assert_same_chance(nobody, draw, seats=range(4), games=30)
    gold = [p.frame(0, 300).gold.to_numpy() for p in (nobody, draw)]
    assert (gold[0] != gold[1]).any()


@njit(DECIDE_SIGNATURE)
def refuses_single_choice(state, cfg, seat, legal, n_legal, params, rng):
    """Place or discard by the first legal code; an index out of range (an engine error) when asked
    with one legal choice."""
    return 0 if n_legal > 1 else n_legal


def test_a_seat_with_one_legal_choice_is_not_asked():
    """Decisions: a seat whose island is full and whose explorers cannot move has only the pure
    discard; the engine takes it without calling the strategy (which would answer out of range)."""
    state, cfg = new_game(2)
    b = block(0)
    state[b + B_TILE:b + B_TILE + 30] = 7                # seat 0: a full island of crossings
    state[b + B_OPEN:b + B_OPEN + 4] = (1 << 30) - 1
    state[b + B_EXPL:b + B_EXPL + 4] = AT_TEMPLE         # with every explorer home
    buf = np.zeros(MAX_CHOICES, dtype=np.int32)
    rules.reveal(state, cfg, np.zeros((0, 8), dtype=np.int32), 0)
    state[S_TURN] = 0
    assert step.legal(state, cfg, buf) == 1 and buf[0] == DISCARD_ONLY
    fns = (refuses_single_choice,) * 6
    step.play_from(state, cfg, np.arange(2, dtype=np.int64), fns, np.zeros((6, 8)), streams(),
                   np.zeros((0, 8), dtype=np.int32))
    assert state[S_END] != 0 and state[b + B_DISCARDED] == state[S_ROUND]   # seat 0 only ever discarded
    assert state[block(1) + B_PLACED] > 0                                    # seat 1 was asked and placed
