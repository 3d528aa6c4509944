"""Loot Island through the step interface: honest observations, determinisation, copyable states, and the
search player."""
import numpy as np
import pytest
from numba import njit

from simlab.core.play import IllegalChoice
from simlab.core.rng import N_STREAMS, root_key, seed_streams
from simlab.core.runner import Prepared, RunConfig
from simlab.core.strategy import BLIND_COLUMN, DECIDE_SIGNATURE, SEAT_PARAMS_WIDTH, SEES, UNIFORM, get_strategy
from simlab.games.loot_island import rules, step
from simlab.games.loot_island.components import N_MAP, N_TREASURE, PARAMS
from simlab.games.loot_island.state import (B_HAND_BITS, B_HAND_N, HIDDEN, M_DRAW, M_HAND, MAX_LEGAL, P0, PB,
                                            PH_END, S_ALLEN, S_EVENT_SEQ, S_HEALERS, S_MDRAW, S_MDRAW_N, S_MLOC,
                                            S_PHASE, S_PLAYERS, S_ROUND, S_TDECK, S_TDECK_N, STATE_SIZE)
from simlab.games.loot_island import GAME

from step_points import decision_points

BUILT_IN = ("random", "cautious", "hunter", "collector")
NO_LOG = np.zeros((0, 8), dtype=np.int32)


def make_cfg(**values):
    return PARAMS.pack(PARAMS.resolve(values))


def streams(deal=0, seed=1):
    """A game's block of random streams, seeded as the kernel seeds deal ``deal`` of a run with root seed ``seed``."""
    block = np.zeros((N_STREAMS, 4), dtype=np.uint64)
    seed_streams(root_key(seed), deal, block)
    return block


def choose(name, state, cfg, seat, legal, n, rng, copy=True):
    """Index the built-in strategy ``name`` picks (drawing from a copy of ``rng`` unless ``copy`` is False)."""
    strat = get_strategy("loot-island", name)
    return strat.decide(state, cfg, seat, legal, n, strat.vector({}), rng.copy() if copy else rng)


def test_observation_hides_the_piles_the_other_hands_later_events_and_face_down_healers():
    """Hidden information (rules: the map and treasure piles lie face down, each player's hand is secret,
    Allen's lies open, the B events and the healers are dealt face down): a seat's observation shows its
    own hand, Allen's and the public board; the draw pile's and treasure deck's cards, where the other
    players' cards are, the events of later rounds and the healers are HIDDEN. Everything else is the
    state's own, at the same offsets."""
    obs = np.zeros(STATE_SIZE, dtype=np.int32)
    hidden_hand = ends = 0
    for k, (state, seat, _, _) in enumerate(decision_points(GAME, 2, {}, 1, seed=3, single=True)):
        if k % 4 and state[S_PHASE] != PH_END:
            continue
        n = state[S_PLAYERS]
        for viewer in range(n):
            step.observe(state, viewer, obs)
            assert (obs[S_MDRAW:S_MDRAW + N_MAP] == HIDDEN).all() and (obs[S_TDECK:S_TDECK + N_TREASURE] == HIDDEN).all()
            assert obs[S_MDRAW_N] == state[S_MDRAW_N] and obs[S_TDECK_N] == state[S_TDECK_N]
            for m in range(N_MAP):
                loc = state[S_MLOC + m]
                secret = loc == M_DRAW or (M_HAND <= loc < M_HAND + n and loc != M_HAND + viewer)
                assert obs[S_MLOC + m] == (HIDDEN if secret else loc)
                hidden_hand += secret and loc != M_DRAW
            for a in range(n + 1):   # each hand's bits by colour: the other players' hidden, Allen's open
                bits = obs[P0 + a * PB + B_HAND_BITS:P0 + a * PB + B_HAND_BITS + 4]
                assert (bits == HIDDEN).all() if a < n and a != viewer else (bits == state[
                    P0 + a * PB + B_HAND_BITS:P0 + a * PB + B_HAND_BITS + 4]).all()
            end = state[S_PHASE] == PH_END   # the end steps reveal the healers
            assert (obs[S_HEALERS:S_HEALERS + 5] == (state[S_HEALERS:S_HEALERS + 5] if end else HIDDEN)).all()
            ends += end
            later = state[S_ROUND]
            assert (obs[S_EVENT_SEQ + later:S_EVENT_SEQ + 5] == HIDDEN).all()
            assert (obs[S_EVENT_SEQ:S_EVENT_SEQ + min(later, 5)] == state[S_EVENT_SEQ:S_EVENT_SEQ + min(later, 5)]).all()
            same = obs == state
            same[S_MDRAW:S_MDRAW + N_MAP] = same[S_TDECK:S_TDECK + N_TREASURE] = True
            same[S_MLOC:S_MLOC + N_MAP] = same[S_HEALERS:S_HEALERS + 5] = same[S_EVENT_SEQ:S_EVENT_SEQ + 5] = True
            for a in range(n):
                same[P0 + a * PB + B_HAND_BITS:P0 + a * PB + B_HAND_BITS + 4] = True
            assert (~same).sum() <= 1 + 22     # the choice just applied, and others' staged cards
        assert state[S_ALLEN] == 1
    assert hidden_hand > 0 and ends > 0


def play_randomly(state, cfg, block, pick):
    """Play on to the end, choice ``pick(n)`` at each decision; the invariants hold after every step."""
    legal = np.zeros(MAX_LEGAL, dtype=np.int32)
    steps = 0
    while step.to_move(state) >= 0:
        n = step.legal(state, cfg, legal)
        assert n >= 1
        step.apply(state, cfg, legal[pick(n)], block, NO_LOG)
        assert rules.check_invariants(state, cfg) == 0
        steps += 1
    return steps


@njit(DECIDE_SIGNATURE)
def sees_nothing(state, cfg, seat, legal, n_legal, params, rng):
    """Picks the first choice while every entry it is given is HIDDEN; answers outside the list otherwise."""
    for j in range(state.shape[0]):
        if state[j] != HIDDEN:
            return -1
    return 0


@njit(DECIDE_SIGNATURE)
def sees_its_hand(state, cfg, seat, legal, n_legal, params, rng):
    """Picks the first choice while it is shown the player count and its own hand's cards; answers
    outside the list otherwise."""
    if state[S_PLAYERS] == HIDDEN or state[P0 + seat * PB + B_HAND_N] == HIDDEN:
        return -1
    return 0


def test_a_blind_strategy_is_shown_nothing_and_the_others_their_observation():
    """A strategy registered blind (uniform random) is spared the observation's copy: play_from hands it
    a buffer in which every entry is HIDDEN, never the state or another seat's observation; a strategy
    not marked blind gets its seat's observation. The runner marks the slot from the registry."""
    assert get_strategy("loot-island", "random").blind
    assert not any(get_strategy("loot-island", s).blind for s in BUILT_IN if s != "random")
    assert list(Prepared(RunConfig("loot-island", 2, ("random", "hunter"), 1)).seat_params[:2, BLIND_COLUMN]) == [UNIFORM, SEES]
    cfg = make_cfg()
    slots = np.arange(3, dtype=np.int64)
    for blind_slot, fns in ((0, (sees_nothing, sees_its_hand, sees_its_hand) * 2),
                            (1, (sees_its_hand, sees_nothing, sees_its_hand) * 2)):
        seat_params = np.zeros((6, SEAT_PARAMS_WIDTH))
        seat_params[blind_slot, BLIND_COLUMN] = 1
        state = np.zeros(STATE_SIZE, dtype=np.int32)
        step.new_game(state, cfg, 3, streams(blind_slot, 8))
        step.play_from(state, cfg, slots, fns, seat_params, streams(blind_slot, 8), NO_LOG)
        assert step.to_move(state) == -1
        seat_params[blind_slot, BLIND_COLUMN] = 0   # not marked blind: shown its observation, not nothing
        state = np.zeros(STATE_SIZE, dtype=np.int32)
        step.new_game(state, cfg, 3, streams(blind_slot, 8))
        with pytest.raises(IllegalChoice):
            step.play_from(state, cfg, slots, fns, seat_params, streams(blind_slot, 8), NO_LOG)
