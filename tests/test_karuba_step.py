"""Karuba through the step interface: honest observations, determinisation, copyable states, and the
search player."""
import numpy as np
import pytest

from simlab.core.kernel import COL_SCORE, COL_TIEBREAK
from simlab.core.results import ranks
from simlab.core.rng import STRATEGY_STREAM
from simlab.core.strategy import get_strategy
from simlab.games.karuba import GAME, rules, step
from simlab.games.karuba.state import (HIDDEN, MAX_CHOICES, MAX_PLAYERS, OBS_VIEW, S_ROUND, S_SEQ, S_TURN,
                                       STATE_SIZE, T_CHOSEN, T_ORDER)

from karuba_helpers import check_invariants, streams

BUILT_IN = ("random", "builder", "racer", "collector")
NO_LOG = np.zeros((0, 8), dtype=np.int32)


def make_cfg(**values):
    return GAME.params.pack(GAME.params.resolve(values))


def choose(name, state, cfg, seat, legal, n, rng, copy=True):
    """Index the built-in strategy ``name`` picks (drawing from a copy of ``rng`` unless ``copy`` is False)."""
    strat = get_strategy("karuba", name)
    return strat.decide(state, cfg, seat, legal, n, strat.vector({}), rng.copy() if copy else rng)


def decision_points(players, games, seed, seats=("builder", "random", "collector", "racer"), **values):
    """(state, seat, legal codes, cfg) at every decision of games played through the step functions."""
    cfg = make_cfg(**values)
    legal = np.zeros(MAX_CHOICES, dtype=np.int32)
    for g in range(games):
        block = streams(g, seed)
        state = np.zeros(STATE_SIZE, dtype=np.int32)
        step.new_game(state, cfg, players, block)
        while (seat := step.to_move(state)) >= 0:
            n = step.legal(state, cfg, legal)
            yield state.copy(), seat, legal[:n].copy(), cfg
            i = choose(seats[seat], state[:OBS_VIEW], cfg, seat, legal, n, block[STRATEGY_STREAM + seat],
                       copy=False) if n > 1 else 0
            step.apply(state, cfg, legal[i], block, NO_LOG)


def test_observation_hides_the_face_down_tiles_and_the_other_seats_choices_and_nothing_else():
    """Hidden information (rules: the tiles are turned up one by one; the round's choices are made at
    the same time): a seat's observation shows the islands, the setup and the tiles revealed so far,
    its own choice this round, and HIDDEN for the tile order still face down and for the choices the
    other seats made this round. Its first OBS_VIEW entries are the state's own (the view built-in
    play hands the strategies without copying)."""
    obs = np.zeros(STATE_SIZE, dtype=np.int32)
    seen_pending = False
    for state, seat, _, _ in decision_points(4, 2, seed=1):
        rnd = state[S_ROUND]
        for viewer in range(4):
            step.observe(state, viewer, obs)
            assert (obs[:OBS_VIEW] == state[:OBS_VIEW]).all()
            shown = rnd   # round r has shown exactly r tiles: no future tile leaks
            assert (obs[S_SEQ + shown:S_SEQ + 36] == HIDDEN).all() and (obs[S_SEQ:S_SEQ + shown] > 0).all()
            assert (obs[T_ORDER:T_ORDER + 36] == HIDDEN).all()
            for p in range(MAX_PLAYERS):
                assert obs[T_CHOSEN + p] == (state[T_CHOSEN + p] if p == viewer else HIDDEN)
        seen_pending |= seat > 0
    assert seen_pending


@pytest.mark.parametrize("players", [2, 3, 4])
def test_determinized_state_looks_the_same_to_the_seat_and_every_built_in_strategy_chooses_the_same(players):
    """Hidden information: at decision points of real games (heuristics and random), re-sample what
    the deciding seat cannot see (several rng seeds): the seat's observation of the sample equals
    its observation of the true state, and every built-in strategy, handed the full sampled state,
    chooses what it chose on the true state (so none reads the hidden tile order or the other seats'
    pending choices). Strategies do not write into what they receive."""
    obs = np.zeros(STATE_SIZE, dtype=np.int32)
    again = np.zeros(STATE_SIZE, dtype=np.int32)
    sample = np.zeros(STATE_SIZE, dtype=np.int32)
    checked = 0
    for k, (state, seat, legal, cfg) in enumerate(decision_points(players, 2, seed=players)):
        if k % 3 or len(legal) < 2:
            continue
        step.observe(state, seat, obs)
        rng = np.array([k + 1, 7, 11, 13], dtype=np.uint64)
        for name in BUILT_IN:
            before = state.copy()
            truth = choose(name, state, cfg, seat, legal, len(legal), rng)
            assert (state == before).all(), f"{name} wrote into the state it was given"
            for s in range(3):
                step.determinize(obs, seat, cfg, np.array([s + 1, k, 3, 5], dtype=np.uint64), sample)
                step.observe(sample, seat, again)
                assert (again == obs).all()
                assert choose(name, sample, cfg, seat, legal, len(legal), rng) == truth, (name, k, s)
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("players", [2, 4])
def test_determinized_states_are_valid_and_random_play_reaches_the_end(players):
    """determinize gives a state the rules accept: the invariants hold (tiles conserved, the hidden
    order a permutation agreeing with the revealed tiles), the sampled choices of seats that already
    chose this round are legal for them, and uniform random play from it reaches the end, the
    invariants holding after every round. The sample differs from the truth in the face-down order."""
    sample = np.zeros(STATE_SIZE, dtype=np.int32)
    obs = np.zeros(STATE_SIZE, dtype=np.int32)
    legal = np.zeros(MAX_CHOICES, dtype=np.int32)
    rng = np.array([3, 1, 4, 1], dtype=np.uint64)
    differs = 0
    for k, (state, seat, _, cfg) in enumerate(decision_points(players, 1, seed=7)):
        if k % 9:
            continue
        step.observe(state, seat, obs)
        step.determinize(obs if k % 2 else obs[:OBS_VIEW].copy(), seat, cfg, rng, sample)
        check_invariants(sample, cfg)
        differs += (sample[T_ORDER:T_ORDER + 36] != state[T_ORDER:T_ORDER + 36]).any()
        for p in range(sample[S_TURN]):
            n = rules.legal_choices(sample, p, cfg, legal)
            assert sample[T_CHOSEN + p] in legal[:n]
        block = streams(k, 99)
        while step.to_move(sample) >= 0:
            n = step.legal(sample, cfg, legal)
            step.apply(sample, cfg, legal[k % n], block, NO_LOG)
            if step.to_move(sample) <= 0:
                check_invariants(sample, cfg)
        assert sample[S_TURN] == -1
    assert differs > 0


def test_apply_of_every_legal_code_from_mid_game_states_gives_a_valid_state():
    """The step interface: from states met in real games (every seat position in the round), each
    legal choice applied to a copy gives a state that keeps the invariants, with the next seat to
    choose or a new round revealed."""
    legal = np.zeros(MAX_CHOICES, dtype=np.int32)
    for k, (state, seat, codes, cfg) in enumerate(decision_points(3, 1, seed=4, bonus_tiles=True)):
        if k % 5:
            continue
        for code in codes:
            s = state.copy()
            step.apply(s, cfg, code, streams(k), NO_LOG)
            check_invariants(s, cfg)
            if seat < 2:
                assert s[S_TURN] == seat + 1 and s[T_CHOSEN + seat] == code
                same = s[:OBS_VIEW] == state[:OBS_VIEW]
                same[S_TURN] = True
                assert same.all(), "nothing a seat sees changes before the round is carried out, but whose turn it is"
            else:
                assert s[S_TURN] in (0, -1)
                assert s[S_TURN] == -1 or (s[S_ROUND] == state[S_ROUND] + 1 and step.legal(s, cfg, legal) >= 1)


def test_a_copy_of_a_mid_game_state_with_the_same_streams_finishes_identically():
    """The state is the whole game: a copy taken mid-round, played on with copies of the same
    streams and strategies, ends in the same state and the same result rows."""
    cfg = make_cfg(gold_supply=4, gold_shortage="draw")   # the gold draw: chance after setup too
    fns = tuple(get_strategy("karuba", s).decide for s in ("racer", "random", "collector", "random", "random", "random"))
    seat_params = np.array([get_strategy("karuba", s).vector({}) for s in ("racer", "random", "collector")] * 2)
    slots = np.arange(3, dtype=np.int64)
    for g in range(4):
        block = streams(g, 21)
        state = np.zeros(STATE_SIZE, dtype=np.int32)
        step.new_game(state, cfg, 3, block)
        legal = np.zeros(MAX_CHOICES, dtype=np.int32)
        for _ in range(31 + g):   # into round 11 or 12, some seats having chosen
            step.apply(state, cfg, legal[(g * 7) % step.legal(state, cfg, legal)], block, NO_LOG)
        ends = []
        for _ in range(2):
            s, b = state.copy(), block.copy()
            step.play_from(s, cfg, slots, fns, seat_params, b, NO_LOG)
            rows = np.zeros((3, 3 + len(GAME.columns)), dtype=np.int32)
            rules.write_rows(s, cfg, rows)
            ends.append((s, rows))
        assert (ends[0][0] == ends[1][0]).all() and (ends[0][1] == ends[1][1]).all()
        assert ends[0][0][S_TURN] == -1


def test_returns_are_the_tie_split_win_shares_of_the_result_rows():
    """The search's utility: each winner (most points, ties to more tiles placed) gets 1/k of a win
    among k tied winners, everyone else 0: the frame's ``win`` split among shared winners."""
    legal = np.zeros(MAX_CHOICES, dtype=np.int32)
    out = np.zeros(4, dtype=np.float64)
    shared = 0
    for g in range(60):
        players = 2 + g % 3
        cfg = make_cfg(gold_points=0)   # fewer points: more ties
        block = streams(g, 5)
        state = np.zeros(STATE_SIZE, dtype=np.int32)
        step.new_game(state, cfg, players, block)
        while step.to_move(state) >= 0:
            n = step.legal(state, cfg, legal)
            i = choose("random", state, cfg, 0, legal, n, block[STRATEGY_STREAM], copy=False)
            step.apply(state, cfg, legal[i], block, NO_LOG)
        rows = np.zeros((players, 3 + len(GAME.columns)), dtype=np.int32)
        rules.write_rows(state, cfg, rows)
        win = ranks(rows[None, :, COL_SCORE], rows[None, :, COL_TIEBREAK])[0] == 1
        step.returns(state, cfg, out)
        assert np.allclose(out[:players], win / win.sum())
        shared += win.sum() > 1
    assert shared > 0



def test_the_search_reopens_earlier_seats_unseen_choices_and_makes_them_with_its_play_out_policy():
    """Simultaneous rounds (rules: every player decides on the same revealed tile at the same time):
    for a search at a later seat the earlier seats' choices this round are hidden, and determinize can
    only draw them uniformly. ``reopen`` forgets them and gives the round back to seat 0 on the same
    islands; ``reach_decision`` has them made by the play-out policy (here builder, which reads only
    what its seat sees), so each earlier seat's choice is builder's on the view and the search is back
    at its own decision. At seat 0 nothing is reopened."""
    from simlab.search.ismcts import reach_decision
    from strategies.karuba import rollout
    model = (step.to_move, step.legal, step.apply, step.observe, step.determinize, step.returns, rollout,
             step.state_size, step.reopen)
    builder = get_strategy("karuba", "builder")
    weights = builder.vector({})
    obs = np.zeros(STATE_SIZE, dtype=np.int32)
    sample = np.zeros(STATE_SIZE, dtype=np.int32)
    buf = np.zeros(MAX_CHOICES, dtype=np.int32)
    block = streams(0, 5)
    checked = 0
    for k, (state, seat, legal, cfg) in enumerate(decision_points(3, 1, seed=7, seats=("random",) * 3)):
        step.observe(state, seat, obs)
        step.determinize(obs, seat, cfg, np.array([k + 1, 2, 3, 4], dtype=np.uint64), sample)
        drawn = sample.copy()
        step.reopen(sample, seat)
        if seat == 0:
            assert (sample == drawn).all()
            continue
        assert step.to_move(sample) == 0 and (sample[T_CHOSEN:T_CHOSEN + seat] == HIDDEN).all()
        reach_decision(model, sample, cfg, seat, 1, 1, weights, np.array([9, k, 1, 1], dtype=np.uint64),
                       block, buf, NO_LOG)
        assert step.to_move(sample) == seat
        assert (np.delete(sample[:OBS_VIEW], S_TURN) == np.delete(state[:OBS_VIEW], S_TURN)).all()
        for p in range(seat):
            view = state[:OBS_VIEW].copy()
            view[S_TURN] = p
            n = rules.legal_choices(view, p, cfg, buf)
            assert sample[T_CHOSEN + p] == buf[choose("builder", view, cfg, p, buf, n, np.zeros(4, np.uint64) + 1)]
        checked += 1
    assert checked > 20
