"""Decisions met in real games, for tests of any game's step model: its streams seeded as the kernel
seeds them, its built-in strategies deciding on their observations (the contract suite and each
game's tests of what its observations hide)."""
import numpy as np

from simlab.core.play import EVENT_WIDTH
from simlab.core.registry import module_name
from simlab.core.rng import N_STREAMS, STRATEGY_STREAM, randint, root_key, seed_streams
from simlab.core.model import MAX_CHOICES
from simlab.core.strategy import strategies_for

NO_LOG = np.zeros((0, EVENT_WIDTH), np.int32)


def cfg_of(spec, values):
    return spec.params.pack(spec.params.resolve(values))


def deal(spec, seed, game, players):
    """Game ``game``'s streams, seeded as the kernel seeds it (fixed seating)."""
    streams = np.zeros((N_STREAMS, 4), np.uint64)
    seed_streams(root_key(seed), game, streams, len(spec.chance_streams), players)
    return streams


def heuristics(game):
    """The game's own strategies that are not search players (a test's or user's file left out)."""
    home = module_name("strategies", game)
    return {n: s for n, s in strategies_for(game).items()
            if not s.search and s.decide.py_func.__module__ == home}


def chooser(spec, names, cfg, streams):
    """``choose`` for play_through: each seat's strategy on its observation, from its own stream, as
    the kernel asks it (a uniform one draws exactly its randint)."""
    strategies = [heuristics(spec.name)[n] for n in names]
    obs = np.zeros(spec.model.state_size(), np.int32)

    def choose(state, seat, legal, n):
        s = strategies[seat]
        rng = streams[STRATEGY_STREAM + seat]
        if s.uniform:
            return randint(rng, n)
        spec.model.observe(state, seat, obs)
        return s.decide(obs, cfg, seat, legal, n, s.vector({}), rng)

    return choose


def mixed_seats(spec, players):
    """Built-in heuristics and random play, all seats different where there are enough."""
    names = sorted(heuristics(spec.name))
    return [names[(k * 2 + 1) % len(names)] for k in range(players)]


def decision_points(spec, players, values, games, seed, every=1, seats=None, single=False):
    """(state, seat, legal codes, cfg) at every ``every``-th decision with a choice (with ``single``,
    at every decision, one-choice ones too) of games played through the step functions by ``seats``
    (default: the built-in mix), each deciding on its observation."""
    m = spec.model
    cfg = cfg_of(spec, values)
    legal = np.zeros(MAX_CHOICES, np.int32)
    k = 0
    for g in range(games):
        streams = deal(spec, seed, g, players)
        choose = chooser(spec, seats or mixed_seats(spec, players), cfg, streams)
        state = np.zeros(m.state_size(), np.int32)
        m.new_game(state, cfg, players, streams)
        while (seat := m.to_move(state)) >= 0:
            n = m.legal(state, cfg, legal)
            if n > 1 or single:
                if k % every == 0:
                    yield state.copy(), seat, legal[:n].copy(), cfg
                k += 1
            m.apply(state, cfg, legal[choose(state, seat, legal, n) if n > 1 else 0], streams, NO_LOG)


def table_decisions(spec, players, games, seed, params=None, log=None):
    """(state, seat, legal codes, values, cfg) at every decision of random games played through the
    game's table (``begin``) and its model's steps, each seat drawing from its own stream as the
    kernel's random player does (a decision with one choice is taken without a draw)."""
    model = spec.model
    values = spec.params.resolve(params or {})
    cfg = spec.params.pack(values)
    legal = np.zeros(MAX_CHOICES, np.int32)
    log = NO_LOG if log is None else log
    for g in range(games):
        streams = deal(spec, seed, g, players)
        state = np.zeros(model.state_size(), np.int32)
        spec.table.begin(state, cfg, players, streams, log)
        while (seat := model.to_move(state)) >= 0:
            n = model.legal(state, cfg, legal)
            yield state, seat, legal[:n].copy(), values, cfg
            pick = randint(streams[STRATEGY_STREAM + seat], n) if n > 1 else 0
            model.apply(state, cfg, legal[pick], streams, log)


def observed(model, state, seat):
    """``seat``'s observation of ``state``."""
    obs = np.zeros_like(state)
    model.observe(state, seat, obs)
    return obs


def resampled(model, obs, seat, cfg, draw):
    """What ``seat`` observes of a state drawn among those it cannot tell from the truth."""
    sample = np.zeros_like(obs)
    model.determinize(obs, seat, cfg, np.array([draw + 1, 17, 3, 5], np.uint64), sample)
    return observed(model, sample, seat)
