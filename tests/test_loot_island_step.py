"""Loot Island through the step interface: honest observations, determinisation, copyable states, and the
search player."""
import numpy as np
import pytest
from numba import njit

from simlab.core.kernel import COL_SCORE, COL_TIEBREAK, IllegalChoice
from simlab.core.results import ranks
from simlab.core.rng import N_STREAMS, STRATEGY_STREAM, root_key, seed_streams
from simlab.core.runner import Prepared, RunConfig
from simlab.core.strategy import BLIND_COLUMN, DECIDE_SIGNATURE, SEAT_PARAMS_WIDTH, SEES, UNIFORM, get_strategy
from simlab.games.loot_island import GAME, rules, step
from simlab.games.loot_island.components import N_MAP, N_TREASURE, PARAMS
from simlab.games.loot_island.state import (B_ELIM, B_HAND_N, HIDDEN, M_DRAW, M_HAND, MAX_LEGAL, P0, PB, PH_END, S_ALLEN,
                                            S_EVENT_SEQ, S_HEALERS, S_MDRAW, S_MDRAW_N, S_MLOC, S_PHASE, S_PLAYERS, S_ROUND,
                                            S_TDECK, S_TDECK_N, STATE_SIZE)

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


def decision_points(players, games, seed, seats=("hunter", "random", "collector", "cautious", "random"), **values):
    """(state, seat, legal codes, cfg) at every decision of games played through the step functions, each
    seat's strategy handed its observation."""
    cfg = make_cfg(**values)
    legal = np.zeros(MAX_LEGAL, dtype=np.int32)
    obs = np.zeros(STATE_SIZE, dtype=np.int32)
    for g in range(games):
        block = streams(g, seed)
        state = np.zeros(STATE_SIZE, dtype=np.int32)
        step.new_game(state, cfg, players, block)
        while (seat := step.to_move(state)) >= 0:
            n = step.legal(state, cfg, legal)
            yield state.copy(), seat, legal[:n].copy(), cfg
            i = 0
            if n > 1:
                step.observe(state, seat, obs)
                i = choose(seats[seat], obs, cfg, seat, legal, n, block[STRATEGY_STREAM + seat], copy=False)
            step.apply(state, cfg, legal[i], block, NO_LOG)


def test_observation_hides_the_piles_the_other_hands_later_events_and_face_down_healers():
    """Hidden information (rules: the map and treasure piles lie face down, each player's hand is secret,
    Allen's lies open, the B events and the healers are dealt face down): a seat's observation shows its
    own hand, Allen's and the public board; the draw pile's and treasure deck's cards, where the other
    players' cards are, the events of later rounds and the healers are HIDDEN. Everything else is the
    state's own, at the same offsets."""
    obs = np.zeros(STATE_SIZE, dtype=np.int32)
    hidden_hand = ends = 0
    for k, (state, seat, _, _) in enumerate(decision_points(2, 1, seed=3)):
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
            end = state[S_PHASE] == PH_END   # the end steps reveal the healers
            assert (obs[S_HEALERS:S_HEALERS + 5] == (state[S_HEALERS:S_HEALERS + 5] if end else HIDDEN)).all()
            ends += end
            later = state[S_ROUND]
            assert (obs[S_EVENT_SEQ + later:S_EVENT_SEQ + 5] == HIDDEN).all()
            assert (obs[S_EVENT_SEQ:S_EVENT_SEQ + min(later, 5)] == state[S_EVENT_SEQ:S_EVENT_SEQ + min(later, 5)]).all()
            same = obs == state
            same[S_MDRAW:S_MDRAW + N_MAP] = same[S_TDECK:S_TDECK + N_TREASURE] = True
            same[S_MLOC:S_MLOC + N_MAP] = same[S_HEALERS:S_HEALERS + 5] = same[S_EVENT_SEQ:S_EVENT_SEQ + 5] = True
            assert (~same).sum() <= 1 + 22     # the choice just applied, and others' staged cards
        assert state[S_ALLEN] == 1
    assert hidden_hand > 0 and ends > 0


@pytest.mark.parametrize("players,values", [(2, {}), (3, {"healers_face_up": True}), (4, {"events_face_up": True}),
                                            (5, {"start_hand_variant": True})])
def test_determinized_state_looks_the_same_to_the_seat_and_every_built_in_strategy_chooses_the_same(players, values):
    """Hidden information: at decision points of real games (heuristics and random), re-sample what the
    deciding seat cannot see (several rng seeds): the seat's observation of the sample equals its
    observation of the true state, and every built-in strategy, handed the full sampled state, chooses
    what it chose on its observation and on the true state (so none reads a hidden card, event or
    healer). Strategies do not write into what they receive."""
    obs = np.zeros(STATE_SIZE, dtype=np.int32)
    again = np.zeros(STATE_SIZE, dtype=np.int32)
    sample = np.zeros(STATE_SIZE, dtype=np.int32)
    checked = 0
    for k, (state, seat, legal, cfg) in enumerate(decision_points(players, 1, seed=players, **values)):
        if k % 5 or len(legal) < 2:
            continue
        step.observe(state, seat, obs)
        rng = np.array([k + 1, 7, 11, 13], dtype=np.uint64)
        samples = []
        for s in range(3):
            step.determinize(obs, seat, cfg, np.array([s + 1, k, 3, 5], dtype=np.uint64), sample)
            step.observe(sample, seat, again)
            assert (again == obs).all(), (k, s, np.nonzero(again != obs))
            samples.append(sample.copy())
        for name in BUILT_IN:
            before = obs.copy()
            seen = choose(name, obs, cfg, seat, legal, len(legal), rng)
            assert (obs == before).all(), f"{name} wrote into the observation it was given"
            assert choose(name, state, cfg, seat, legal, len(legal), rng) == seen, (name, k)
            for s, x in enumerate(samples):
                assert choose(name, x, cfg, seat, legal, len(legal), rng) == seen, (name, k, s)
        checked += 1
    assert checked > 20


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


@pytest.mark.parametrize("players", [2, 4])
def test_determinized_states_are_valid_and_random_play_reaches_the_end(players):
    """determinize gives a state the rules accept: the invariants hold (every card and treasure in exactly
    one place, piles and locations agreeing, hands of their sizes), the seat's hand is its own, and
    random play from it reaches the end with the invariants holding after every step. The sample
    differs from the truth where it should: the draw pile or the other hands."""
    sample = np.zeros(STATE_SIZE, dtype=np.int32)
    obs = np.zeros(STATE_SIZE, dtype=np.int32)
    rng = np.array([3, 1, 4, 1], dtype=np.uint64)
    differs = 0
    for k, (state, seat, _, cfg) in enumerate(decision_points(players, 1, seed=7)):
        if k % 23:
            continue
        step.observe(state, seat, obs)
        step.determinize(obs, seat, cfg, rng, sample)
        assert rules.check_invariants(sample, cfg) == 0
        for q in range(players):
            assert sample[P0 + q * PB + B_HAND_N] == state[P0 + q * PB + B_HAND_N]
            assert ((sample[S_MLOC:S_MLOC + N_MAP] == M_HAND + q).sum() == state[P0 + q * PB + B_HAND_N])
        mine = state[S_MLOC:S_MLOC + N_MAP] == M_HAND + seat
        assert (sample[S_MLOC:S_MLOC + N_MAP][mine] == M_HAND + seat).all()
        differs += (sample[S_MLOC:S_MLOC + N_MAP] != state[S_MLOC:S_MLOC + N_MAP]).any()
        play_randomly(sample, cfg, streams(k, 99), lambda n: (k * 7 + 3) % n)
        assert step.to_move(sample) == -1
    assert differs > 0


def test_apply_of_every_legal_code_from_mid_game_states_gives_a_valid_state():
    """The step interface: from states met in real games (every kind of decision), each legal choice
    applied to a copy gives a state that keeps the invariants, with a next decision that has legal
    choices, or the game over."""
    legal = np.zeros(MAX_LEGAL, dtype=np.int32)
    kinds = set()
    for k, (state, seat, codes, cfg) in enumerate(decision_points(3, 2, seed=4, debug_checks=True)):
        if k % 3:
            continue
        kinds.add(int(state[41]))
        for code in codes:
            s = state.copy()
            step.apply(s, cfg, code, streams(k), NO_LOG)
            assert rules.check_invariants(s, cfg) == 0
            assert step.to_move(s) == -1 or step.legal(s, cfg, legal) >= 1
    assert len(kinds) >= 8


def test_a_copy_of_a_mid_game_state_with_the_same_streams_finishes_identically():
    """The state is the whole game: a copy taken mid-game (inside a procedure: a play being built, a loot
    being shared), played on with copies of the same streams and strategies, ends in the same state and
    the same result rows."""
    cfg = make_cfg()
    names = ("hunter", "random", "collector", "random", "random", "random")
    fns = tuple(get_strategy("loot-island", s).decide for s in names)
    width = max(len(get_strategy("loot-island", s).vector({})) for s in names)
    seat_params = np.zeros((6, width))
    for i, s in enumerate(names):
        v = get_strategy("loot-island", s).vector({})
        seat_params[i, :len(v)] = v
    slots = np.arange(3, dtype=np.int64)
    legal = np.zeros(MAX_LEGAL, dtype=np.int32)
    for g in range(4):
        block = streams(g, 21)
        state = np.zeros(STATE_SIZE, dtype=np.int32)
        step.new_game(state, cfg, 3, block)
        for _ in range(60 + 17 * g):
            step.apply(state, cfg, legal[(g * 7) % step.legal(state, cfg, legal)], block, NO_LOG)
        ends = []
        for _ in range(2):
            s, b = state.copy(), block.copy()
            step.play_from(s, cfg, slots, fns, seat_params, b, NO_LOG)
            rows = np.zeros((3, 3 + len(GAME.columns)), dtype=np.int32)
            rules.write_rows(s, cfg, rows)
            ends.append((s, rows))
        assert (ends[0][0] == ends[1][0]).all() and (ends[0][1] == ends[1][1]).all()
        assert step.to_move(ends[0][0]) == -1


def test_returns_are_the_win_shares_of_the_result_rows():
    """The search's utility: the winner (most gold among the players still in, ties to the tie-break
    column) gets 1, everyone else 0, and nobody wins when all are eliminated: the frame's ``win``."""
    legal = np.zeros(MAX_LEGAL, dtype=np.int32)
    out = np.zeros(5, dtype=np.float64)
    nobody = 0
    for g in range(40):
        players = 2 + g % 4
        cfg = make_cfg(curse_threshold=5)   # more eliminations
        block = streams(g, 5)
        state = np.zeros(STATE_SIZE, dtype=np.int32)
        step.new_game(state, cfg, players, block)
        while step.to_move(state) >= 0:
            n = step.legal(state, cfg, legal)
            i = choose("random", state, cfg, 0, legal, n, block[STRATEGY_STREAM], copy=False) if n > 1 else 0
            step.apply(state, cfg, legal[i], block, NO_LOG)
        rows = np.zeros((players, 3 + len(GAME.columns)), dtype=np.int32)
        rules.write_rows(state, cfg, rows)
        elim = np.array([state[P0 + p * PB + B_ELIM] for p in range(players)])
        win = (ranks(rows[None, :, COL_SCORE], rows[None, :, COL_TIEBREAK], elim[None])[0] == 1) & (elim == 0)
        step.returns(state, cfg, out)
        assert np.allclose(out[:players], win / max(win.sum(), 1))
        nobody += win.sum() == 0
    assert nobody > 0



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
    legal = np.zeros(MAX_LEGAL, dtype=np.int32)
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
