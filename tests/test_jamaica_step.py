"""Jamaica through the step interface: honest observations, determinisation, copyable states, and the
search player."""
import numpy as np
import pytest

from simlab.core.kernel import COL_SCORE, COL_TIEBREAK
from simlab.core.results import ranks
from simlab.core.rng import N_STREAMS, STRATEGY_STREAM, root_key, seed_streams
from simlab.core.strategy import get_strategy
from simlab.games.jamaica import GAME, invariants, step
from simlab.games.jamaica.components import N_TREASURES, T_HOLD6
from simlab.games.jamaica.state import (B_CARD, B_DRAW, B_HAND, CARD_DOWN, DEC_CARD, GHOST, HIDDEN,
                                        MAX_CHOICES, SB, SH0, STATE_SIZE, S_DEC, S_PLAYERS, S_SSCRATCH, S_STACK,
                                        S_TDECK, S_TDECK_N, S_TOWNER, X_CARD, X_CHOICES, X_NCHOICES, X_PICKED, X_TURN)

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


def decision_points(players, games, seed, seats=("racer", "random", "fighter", "hoarder", "balanced", "random"),
                    **values):
    """(state, seat, legal codes, cfg) at every decision of games played through the step functions,
    each seat's strategy deciding on its observation."""
    cfg = make_cfg(**values)
    legal = np.zeros(MAX_CHOICES, dtype=np.int32)
    obs = np.zeros(STATE_SIZE, dtype=np.int32)
    for g in range(games):
        block = streams(g, seed)
        state = np.zeros(STATE_SIZE, dtype=np.int32)
        step.new_game(state, cfg, players, block)
        while (seat := step.to_move(state)) >= 0:
            n = step.legal(state, cfg, legal)
            yield state.copy(), seat, legal[:n].copy(), cfg
            step.observe(state, seat, obs)
            i = choose(seats[seat], obs, cfg, seat, legal, n, block[STRATEGY_STREAM + seat], copy=False)
            step.apply(state, cfg, legal[i], block, NO_LOG)


def test_observation_hides_other_hands_draw_piles_the_treasure_pile_and_face_down_cards():
    """Hidden information (rules 1, 2(2), 3(2), 5(3)): a seat's observation is the state, but for
    the treasure pile's order, where every treasure card lies that is neither its own nor face up
    (a power card held by a player, Lady Beth on the ghost ship), every action draw pile, the other
    seats' hands, their card of the round until it is revealed and their pending pick."""
    obs = np.zeros(STATE_SIZE, dtype=np.int32)
    seen_down = seen_pick = seen_hidden_treasure = False
    for state, seat, _, _ in decision_points(3, 3, seed=2):
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


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_determinized_state_looks_the_same_to_the_seat_and_every_built_in_strategy_chooses_the_same(players):
    """Hidden information: at decision points of real games (heuristics and random), re-sample what
    the deciding seat cannot see (several rng seeds): the seat's observation of the sample equals
    its observation of the true state, and every built-in strategy, handed the full sampled state,
    chooses what it chose on the full true state (so none reads another seat's hand, a draw pile,
    the treasure pile or a face-down card). Strategies write only into their scratch."""
    obs = np.zeros(STATE_SIZE, dtype=np.int32)
    again = np.zeros(STATE_SIZE, dtype=np.int32)
    sample = np.zeros(STATE_SIZE, dtype=np.int32)
    checked = differs = 0
    for k, (state, seat, legal, cfg) in enumerate(decision_points(players, 2, seed=players)):
        if k % 4:
            continue
        step.observe(state, seat, obs)
        rng = np.array([k + 1, 7, 11, 13], dtype=np.uint64)
        truths = []
        for name in BUILT_IN:
            before = state.copy()
            truths.append(choose(name, state, cfg, seat, legal, len(legal), rng))
            assert (outside_scratch(state) == outside_scratch(before)).all(), f"{name} wrote outside its scratch"
        for s in range(3):
            step.determinize(obs, seat, cfg, np.array([s + 1, k, 3, 5], dtype=np.uint64), sample)
            step.observe(sample, seat, again)
            assert (again == obs).all()
            differs += (sample != state).any()
            for name, truth in zip(BUILT_IN, truths):
                assert choose(name, sample, cfg, seat, legal, len(legal), rng) == truth, (name, k, s)
        checked += 1
    assert checked > 20 and differs > 0


@pytest.mark.parametrize("players,values", [(2, {}), (3, {"steal_blind": False}), (5, {"bank_limited": True})])
def test_determinized_states_are_valid_and_random_play_reaches_the_end(players, values):
    """determinize gives a state the rules accept: the invariants hold (resources, treasure and
    action cards conserved, each ship's treasure count kept), the pending decision offers the same
    choices, and uniform random play from it reaches the end, the invariants holding after every
    step. The samples differ from the truth in what the seat cannot see."""
    sample = np.zeros(STATE_SIZE, dtype=np.int32)
    obs = np.zeros(STATE_SIZE, dtype=np.int32)
    legal = np.zeros(MAX_CHOICES, dtype=np.int32)
    rng = np.array([3, 1, 4, 1], dtype=np.uint64)
    differs = 0
    for k, (state, seat, codes, cfg) in enumerate(decision_points(players, 2, seed=7, **values)):
        if k % 7:
            continue
        step.observe(state, seat, obs)
        step.determinize(obs, seat, cfg, rng, sample)
        check_invariants(sample, cfg)
        n = step.legal(sample, cfg, legal)
        assert (legal[:n] == codes).all()
        differs += (sample[S_TDECK:S_TDECK + sample[S_TDECK_N]] != state[S_TDECK:S_TDECK + state[S_TDECK_N]]).any()
        block = streams(k, 99)
        while step.to_move(sample) >= 0:
            n = step.legal(sample, cfg, legal)
            step.apply(sample, cfg, legal[k % n], block, NO_LOG)
            check_invariants(sample, cfg)
    assert differs > 0


def test_apply_of_every_legal_code_from_mid_game_states_gives_a_valid_state():
    """The step interface: from states met in real games (every kind of decision), each legal
    choice applied to a copy gives a state that keeps the invariants, stopped at a decision with two
    or more choices or at the end."""
    kinds = set()
    for players, values in ((2, {}), (4, {"steal_blind": False})):
        for k, (state, seat, codes, cfg) in enumerate(decision_points(players, 3, seed=4, **values)):
            if k % 3:
                continue
            kinds.add(int(state[S_DEC]))
            for code in codes:
                s = state.copy()
                step.apply(s, cfg, code, streams(k), NO_LOG)
                check_invariants(s, cfg)
    assert len(kinds) >= 8, kinds


def test_a_copy_of_a_mid_game_state_with_the_same_streams_finishes_identically():
    """The state is the whole game: a copy taken mid-round, played on with copies of the same
    streams and strategies, ends in the same state and the same result rows."""
    cfg = make_cfg()
    names = ("racer", "random", "fighter", "random", "random", "random")
    fns = tuple(get_strategy("jamaica", s).decide for s in names)
    seat_params = np.array([get_strategy("jamaica", s).vector({}) for s in names])
    slots = np.arange(6, dtype=np.int64)
    for g in range(4):
        block = streams(g, 21)
        state = np.zeros(STATE_SIZE, dtype=np.int32)
        step.new_game(state, cfg, 3, block)
        legal = np.zeros(MAX_CHOICES, dtype=np.int32)
        for _ in range(40 + g):
            step.apply(state, cfg, legal[(g * 7) % step.legal(state, cfg, legal)], block, NO_LOG)
        ends = []
        for _ in range(2):
            s, b = state.copy(), block.copy()
            step.play_from(s, cfg, slots, fns, seat_params, b, NO_LOG)
            rows = np.zeros((3, 3 + len(GAME.columns)), dtype=np.int32)
            step.write_rows(s, cfg, rows)
            ends.append((s, rows))
        assert (ends[0][0] == ends[1][0]).all() and (ends[0][1] == ends[1][1]).all()
        assert ends[0][0][X_TURN] == -1


def test_returns_are_the_tie_split_win_shares_of_the_result_rows():
    """The search's utility (rules 4): each winner (most points, ties to the ship further ahead) gets
    1/k of a win among k tied winners, everyone else 0: the frame's ``win`` split among shared winners."""
    legal = np.zeros(MAX_CHOICES, dtype=np.int32)
    out = np.zeros(6, dtype=np.float64)
    for g in range(60):
        players = 2 + g % 5
        cfg = make_cfg()
        block = streams(g, 5)
        state = np.zeros(STATE_SIZE, dtype=np.int32)
        step.new_game(state, cfg, players, block)
        while step.to_move(state) >= 0:
            n = step.legal(state, cfg, legal)
            i = choose("random", state, cfg, 0, legal, n, block[STRATEGY_STREAM], copy=False)
            step.apply(state, cfg, legal[i], block, NO_LOG)
        rows = np.zeros((players, 3 + len(GAME.columns)), dtype=np.int32)
        step.write_rows(state, cfg, rows)
        win = ranks(rows[None, :, COL_SCORE], rows[None, :, COL_TIEBREAK])[0] == 1
        step.returns(state, cfg, out)
        assert np.allclose(out[:players], win / win.sum())


def test_built_in_play_never_stops_at_a_decision_with_one_choice():
    """Rules: a decision with a single legal option (doubles, one branch, one target) is taken
    without asking; every stop of the step machine offers two or more choices."""
    stops = 0
    for players in (2, 4, 6):
        for _, _, codes, _ in decision_points(players, 2, seed=3):
            assert len(codes) >= 2 and len(set(codes.tolist())) == len(codes)
            stops += 1
    assert stops > 300

