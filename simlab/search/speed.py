"""How fast the search players are, per game: play-outs per second and decisions per second.

A search player's strength per millisecond rests on two rates: how many play-outs (a sampled state
played to the end by a play-out policy in every seat) one core runs per second, and how long one
decision of ``rollout`` at its defaults takes. Both are measured from states met in real games, at
decisions with a choice, spread over the whole game (a play-out from the start is the longest one;
the search's start mid-game). ``simlab bench --search`` prints them.
"""
from __future__ import annotations

import time

import numpy as np
from simlab.core.game import get_game
from simlab.core.rng import N_STREAMS, STRATEGY_STREAM, randint, root_key, seed_streams
from simlab.core.model import MAX_CHOICES
from simlab.core.strategy import get_strategy, strategies_for



def _model(game: str):
    """The game's registered search model (``None, None`` for a game without search players)."""
    from .players import SEARCH_MODELS

    strategies_for(game)   # loads the strategies of the game, then the search players of a game with a model
    m = SEARCH_MODELS.get(game)
    return (m, m.model) if m else (None, None)


def decision_states(game: str, players: int, policy: int, n_states: int = 200, seed: int = 1):
    """(state, seat) at decisions with more than one choice, sampled evenly over games played with
    play-out ``policy`` in every seat, and the packed rule values in force (the defaults)."""
    m, model = _model(game)
    st = m.step
    spec = get_game(game)
    cfg = spec.params.pack(spec.params.resolve({}))
    h, w = m.policies[0][policy], m.policies[1][policy].copy()
    found = []
    buf = np.zeros(MAX_CHOICES, np.int32)
    no_log = np.zeros((0, 8), np.int32)
    deal = 0
    while len(found) < 4 * n_states and deal < 10 * n_states:
        streams = np.zeros((N_STREAMS, 4), np.uint64)
        seed_streams(root_key(seed), deal, streams)
        rng = streams[STRATEGY_STREAM]
        s = np.zeros(st.state_size(), np.int32)
        st.new_game(s, cfg, players, streams)
        while (p := st.to_move(s)) >= 0:
            n = st.legal(s, cfg, buf)
            i = 0
            if n > 1:
                found.append((s.copy(), p))
                i = randint(rng, n) if policy == 0 else model[6](s, cfg, p, buf, n, h, w, rng)
            st.apply(s, cfg, buf[i], streams, no_log)
        deal += 1
    pick = np.linspace(0, len(found) - 1, min(n_states, len(found))).astype(int)
    return [found[i] for i in pick], cfg


def search_speed(game: str, players: int, seconds: float) -> dict | None:
    """Play-outs per second (uniform and the ``rollout`` player's default play-out policy) and
    ``rollout``'s decisions per second at its defaults, one core; ``None`` for a game without
    search players."""
    m, model = _model(game)
    if m is None:
        return None
    policy = m.names.index(m.play_out) + 1 if m.play_out else 0   # (uniform where none is declared)
    states, cfg = decision_states(game, players, policy)
    starts = np.stack([s for s, _ in states])
    out = {"game": game, "players": players, "play_out": m.play_out, "states": len(states)}
    for key, pol in (("uniform", 0), ("policy", policy)):
        rng = np.array([7, 11, 13, 17], np.uint64)
        t = time.perf_counter()
        m.search.playouts(starts, cfg, pol, 1, rng)          # compile (not timed)
        out[f"compile_{key}"] = time.perf_counter() - t
        count, done, decisions, t = 16, 0, 0, time.perf_counter()
        while time.perf_counter() - t < seconds:
            decisions += m.search.playouts(starts, cfg, pol, count, rng)
            done += count
            count *= 2
        elapsed = time.perf_counter() - t
        out[f"playouts_{key}"] = done / elapsed
        out[f"decisions_{key}"] = decisions / elapsed
    times = decision_times(game, "rollout", states, cfg)
    out["compile_search"] = times[0]
    times = times[1:]
    out["search_decisions"] = len(times)
    out["search_ms_mean"] = float(1000 * times.mean())
    out["search_ms_p99"] = float(1000 * np.quantile(times, 0.99))
    return out


def decision_times(game: str, seat: str, states: list, cfg: np.ndarray) -> np.ndarray:
    """Seconds of each decision of the seat spec ``seat`` (``mcts:iters=200``) at every state of
    ``states`` ((state, seat) pairs from :func:`decision_states`), after one first decision (the
    first element: it may compile)."""
    from simlab.core.strategy import SeatSpec

    m, _ = _model(game)
    spec = SeatSpec.parse(seat)
    search = get_strategy(game, spec.name)
    vector = search.vector(dict(spec.values))
    obs = np.zeros(len(states[0][0]), np.int32)
    legal = np.zeros(MAX_CHOICES, np.int32)
    rng = np.array([3, 5, 7, 9], np.uint64)
    times = []
    for k in range(len(states) + 1):   # every sampled state once, after one decision that may compile
        s, who = states[max(0, k - 1)]
        m.step.observe(s, who, obs)
        n = m.step.legal(s, cfg, legal)
        t = time.perf_counter()
        search.decide(obs, cfg, who, legal, n, vector, rng)
        times.append(time.perf_counter() - t)
    return np.array(times)


def ms_per_decision(game: str, seats: list[str], n_states: int = 100) -> dict[str, float]:
    """Mean milliseconds a decision of each search seat spec in ``seats``, one core, over the same
    ``n_states`` 2-player decision states (played with the game's play-out policy), the first
    (compiling) decision left out."""
    m, _ = _model(game)
    policy = m.names.index(m.play_out) + 1 if m.play_out else 0
    states, cfg = decision_states(game, 2, policy, n_states)
    return {s: float(1000 * decision_times(game, s, states, cfg)[1:].mean()) for s in seats}
