"""Karuba through the step interface: honest observations, determinisation, copyable states, and the
search player."""
import numpy as np

from simlab.core.strategy import get_strategy
from simlab.games.karuba import GAME, rules, step
from simlab.games.karuba.state import (HIDDEN, MAX_CHOICES, MAX_PLAYERS, OBS_VIEW, S_ROUND, S_SEQ, S_TURN,
                                       STATE_SIZE, T_CHOSEN, T_ORDER)

from karuba_helpers import streams
from step_points import decision_points

BUILT_IN = ("random", "builder", "racer", "collector")
NO_LOG = np.zeros((0, 8), dtype=np.int32)


def make_cfg(**values):
    return GAME.params.pack(GAME.params.resolve(values))


def choose(name, state, cfg, seat, legal, n, rng, copy=True):
    """Index the built-in strategy ``name`` picks (drawing from a copy of ``rng`` unless ``copy`` is False)."""
    strat = get_strategy("karuba", name)
    return strat.decide(state, cfg, seat, legal, n, strat.vector({}), rng.copy() if copy else rng)


def test_observation_hides_the_face_down_tiles_and_the_other_seats_choices_and_nothing_else():
    """Hidden information (rules: the tiles are turned up one by one; the round's choices are made at
    the same time): a seat's observation shows the islands, the setup and the tiles revealed so far,
    its own choice this round, and HIDDEN for the tile order still face down and for the choices the
    other seats made this round. Its first OBS_VIEW entries are the state's own (the view built-in
    play hands the strategies without copying)."""
    obs = np.zeros(STATE_SIZE, dtype=np.int32)
    seen_pending = False
    for state, seat, _, _ in decision_points(GAME, 4, {}, 2, seed=1, single=True):
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


def test_the_search_reopens_earlier_seats_unseen_choices_and_makes_them_with_its_play_out_policy():
    """Simultaneous rounds (rules: every player decides on the same revealed tile at the same time):
    for a search at a later seat the earlier seats' choices this round are hidden, and determinize can
    only draw them uniformly. ``reopen`` forgets them and gives the round back to seat 0 on the same
    islands; ``reach_decision`` has them made by the play-out policy (here builder, which reads only
    what its seat sees), so each earlier seat's choice is builder's on the view and the search is back
    at its own decision. At seat 0 nothing is reopened."""
    from simlab.search.players import SEARCH_MODELS
    get_strategy("karuba", "rollout")   # (registers the search players: Karuba's copy of the search)
    reach_decision = SEARCH_MODELS["karuba"].search.reach_decision
    builder = get_strategy("karuba", "builder")
    weights = builder.vector({})
    obs = np.zeros(STATE_SIZE, dtype=np.int32)
    sample = np.zeros(STATE_SIZE, dtype=np.int32)
    buf = np.zeros(MAX_CHOICES, dtype=np.int32)
    block = streams(0, 5)
    checked = 0
    for k, (state, seat, legal, cfg) in enumerate(decision_points(GAME, 3, {}, 1, seed=7, seats=("random",) * 3, single=True)):
        step.observe(state, seat, obs)
        step.determinize(obs, seat, cfg, np.array([k + 1, 2, 3, 4], dtype=np.uint64), sample)
        drawn = sample.copy()
        step.reopen(sample, seat)
        if seat == 0:
            assert (sample == drawn).all()
            continue
        assert step.to_move(sample) == 0 and (sample[T_CHOSEN:T_CHOSEN + seat] == HIDDEN).all()
        reach_decision(sample, cfg, seat, 1, 1, weights, np.array([9, k, 1, 1], dtype=np.uint64),
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
