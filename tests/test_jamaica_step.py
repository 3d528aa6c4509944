"""Jamaica through the step interface: honest observations, determinisation, copyable states, and the
search player."""
import numpy as np

from simlab.core.rng import N_STREAMS, root_key, seed_streams
from simlab.core.strategy import get_strategy
from simlab.games.jamaica import GAME, invariants, step
from simlab.games.jamaica.components import N_TREASURES, T_HOLD6
from simlab.games.jamaica.state import (B_CARD, B_DRAW, B_HAND, CARD_DOWN, DEC_CARD, GHOST, HIDDEN, MAX_CHOICES, SB,
                                        SH0, STATE_SIZE, S_DEC, S_PLAYERS, S_SSCRATCH, S_STACK, S_TDECK, S_TOWNER,
                                        X_CARD, X_CHOICES, X_NCHOICES, X_PICKED, X_TURN)

from step_points import decision_points

BUILT_IN = ("random", "racer", "hoarder", "fighter", "balanced")
NO_LOG = np.zeros((0, 8), dtype=np.int32)
SCRATCH = [(S_STACK, S_STACK + 128), (S_SSCRATCH, S_SSCRATCH + 24)]   # where a strategy may write


def make_cfg(**values):
    return GAME.params.pack(GAME.params.resolve(values))


def streams(deal=0, seed=1):
    block = np.zeros((N_STREAMS, 4), dtype=np.uint64)
    seed_streams(root_key(seed), deal, block)
    return block


def base(ship):
    return SH0 + ship * SB


def outside_scratch(a):
    keep = np.ones(len(a), dtype=bool)
    for lo, hi in SCRATCH:
        keep[lo:hi] = False
    return a[keep]


def choose(name, state, cfg, seat, legal, n, rng, copy=True):
    """Index the built-in strategy ``name`` picks (drawing from a copy of ``rng`` unless ``copy`` is False)."""
    strat = get_strategy("jamaica", name)
    return strat.decide(state, cfg, seat, legal, n, strat.vector({}), rng.copy() if copy else rng)


def check_invariants(state, cfg):
    """The rules' invariants (resources, holds, treasure and action cards conserved, ships on the
    track) and the step machine's: a pending decision has two or more legal choices."""
    assert invariants.check_state(state, cfg) == 0
    if state[X_TURN] >= 0:
        assert state[X_TURN] < state[S_PLAYERS] and state[X_NCHOICES] >= 2


def test_observation_hides_other_hands_draw_piles_the_treasure_pile_and_face_down_cards():
    """Hidden information (rules 1, 2(2), 3(2), 5(3)): a seat's observation is the state, but for
    the treasure pile's order, where every treasure card lies that is neither its own nor face up
    (a power card held by a player, Lady Beth on the ghost ship), every action draw pile, the other
    seats' hands, their card of the round until it is revealed and their pending pick."""
    obs = np.zeros(STATE_SIZE, dtype=np.int32)
    seen_down = seen_pick = seen_hidden_treasure = False
    for state, seat, _, _ in decision_points(GAME, 3, {}, 3, seed=2, single=True):
        for viewer in range(3):
            step.observe(state, viewer, obs)
            assert (obs[S_TDECK:S_TDECK + 12] == HIDDEN).all()
            for k in range(N_TREASURES):
                o = state[S_TOWNER + k]
                face_up = o == viewer or (0 <= o < GHOST and k <= T_HOLD6)
                assert obs[S_TOWNER + k] == (o if face_up else HIDDEN)
                seen_hidden_treasure |= o >= 0 and not face_up
            for q in range(3):
                b = base(q)
                assert (obs[b + B_DRAW:b + B_DRAW + 11] == HIDDEN).all()
                mine = q == viewer
                hand = state[b + B_HAND:b + B_HAND + 6] if mine else HIDDEN
                assert (obs[b + B_HAND:b + B_HAND + 6] == hand).all()
                down = state[X_CARD + q] == CARD_DOWN and not mine
                assert obs[b + B_CARD] == (HIDDEN if down else state[b + B_CARD])
                assert obs[X_PICKED + q] == (state[X_PICKED + q] if mine else HIDDEN)
                seen_down |= down
                seen_pick |= not mine and state[X_PICKED + q] >= 0
            if state[S_DEC] == DEC_CARD and viewer != seat:
                assert (obs[X_CHOICES:X_CHOICES + state[X_NCHOICES]] == HIDDEN).all()
            same = obs == state
            same[S_TDECK:S_TDECK + 12] = same[S_TOWNER:S_TOWNER + 12] = True
            same[X_CHOICES:X_CHOICES + MAX_CHOICES] = same[X_PICKED:X_PICKED + 6] = True
            for q in range(3):
                b = base(q)
                same[b + B_DRAW:b + B_DRAW + 11] = same[b + B_HAND:b + B_HAND + 6] = same[b + B_CARD] = True
            assert same.all(), "nothing else is hidden"
    assert seen_down and seen_pick and seen_hidden_treasure


def test_built_in_play_never_stops_at_a_decision_with_one_choice():
    """Rules: a decision with a single legal option (doubles, one branch, one target) is taken
    without asking; every stop of the step machine offers two or more choices."""
    stops = 0
    for players in (2, 4, 6):
        for _, _, codes, _ in decision_points(GAME, players, {}, 2, seed=3, single=True):
            assert len(codes) >= 2 and len(set(codes.tolist())) == len(codes)
            stops += 1
    assert stops > 300

