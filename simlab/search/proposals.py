"""Flat Monte Carlo over the heuristics' proposals: the rollout algorithm, for any game.

Tesauro and Galperin's rollout player (1996) and Bertsekas' rollout algorithm: at a decision, each
candidate action is scored by playing the game out with a base policy after it, and the best mean
wins. With the base policy's own choice among the candidates, the search can only leave it for an
action whose play-outs do better, which is why it improves on the base policy where plain MCTS,
spread over 30-60 legal actions at a budget of a few hundred play-outs, does not (Karuba: 12% against
builder).

Here the candidates are the heuristics' choices at this decision (the model's ``rollout`` with
policies 1..N of the ``policies`` table: the game's heuristics and its tuned sets, computed on a
determinisation: they read only what the seat sees),
so a search costs samples x distinct candidates play-outs, and a decision all heuristics agree on
costs nothing. Each sample is one determinisation (the game's ``determinize``: the search never
sees the true hidden state; rivals' unseen choices earlier in a simultaneous round are made again
by the play-out policy) and one set of chance streams shared by every candidate, so the
candidates are compared on common random numbers: the difference of their means has far less
noise than either mean. Ties go to the earliest candidate, the play-out policy's own choice.
Every random number comes from the deciding seat's own stream.
"""
import numpy as np
from numba import njit

from simlab.core.rng import N_STREAMS, randint
from simlab.core.model import MAX_CHOICES

from .ismcts import _fresh_streams, reach_decision

# params of the strategy (the seat's parameter vector)
P_SAMPLES, P_POLICY, P_PROPOSERS = 0, 1, 2


@njit(cache=True)
def proposals_search(model, policies, obs, cfg, seat, legal, n_legal, params, rng):
    """Index into ``legal[:n_legal]`` of the proposal with the best mean result for ``seat``;
    ``policies`` = (heuristic, weights): policy k is the model's ``rollout`` heuristic ``heuristic[k]``
    with parameters ``weights[k]`` (row 0: uniform random)."""
    proposers = int(params[P_PROPOSERS])
    cand = np.zeros(proposers + 1, np.int64)
    total = np.zeros(proposers + 1, np.float64)
    n_cand = play_out_proposals(model, policies, obs, cfg, seat, legal, n_legal, params, rng, cand, total, False)
    if n_cand == 0:
        return randint(rng, n_legal)
    if n_cand == 1:
        return cand[0]
    best = 0
    for c in range(1, n_cand):
        if total[c] > total[best]:
            best = c
    return cand[best]


@njit   # holds the game's functions as values: compiled once per process (see players.py)
def play_out_proposals(model, policies, obs, cfg, seat, legal, n_legal, params, rng, cand, total, lone):
    """The search's candidates and their play-outs: ``cand[:k]`` the distinct proposals (indices into
    ``legal``, the play-out policy's own first), ``total[:k]`` the sum of ``seat``'s win share over
    the samples after each; returns k. A lone candidate is played out only when ``lone`` (a hint
    wants its estimate; the search does not need it)."""
    to_move, legal_fn, apply, observe, determinize, returns, rollout, state_size, reopen = model
    heuristic, weights = policies[0], policies[1].copy()   # (the registered table is frozen read-only)
    samples = max(1, int(params[P_SAMPLES]))
    policy = int(params[P_POLICY])
    proposers = int(params[P_PROPOSERS])
    h, w = heuristic[policy], weights[policy]
    size = state_size()
    root = np.zeros(size, np.int32)
    s = np.zeros(size, np.int32)
    determinize(obs, seat, cfg, rng, root)
    # candidates: the play-out policy's choice first (it wins ties), then each heuristic's, distinct
    n_cand = 0
    for k in range(proposers + 1):
        p = policy if k == 0 else k
        if p == 0 or (k > 0 and k == policy):
            continue
        i = rollout(root, cfg, seat, legal, n_legal, heuristic[p], weights[p], rng)
        new = True
        for j in range(n_cand):
            new = new and cand[j] != i
        if new:
            cand[n_cand] = i
            n_cand += 1
    if n_cand == 0 or (n_cand == 1 and not lone):
        return n_cand
    streams = np.zeros((N_STREAMS, 4), np.uint64)
    play = np.zeros((N_STREAMS, 4), np.uint64)
    no_log = np.zeros((0, 8), np.int32)
    buf = np.zeros(MAX_CHOICES, np.int32)
    result = np.zeros(8, np.float64)
    for sample in range(samples):
        if sample > 0:
            determinize(obs, seat, cfg, rng, root)
        _fresh_streams(rng, streams)
        reach_decision(model, root, cfg, seat, policy, h, w, rng, streams, buf, no_log)
        for c in range(n_cand):
            s[:] = root
            play[:] = streams
            apply(s, cfg, legal[cand[c]], play, no_log)
            while True:
                p = to_move(s)
                if p < 0:
                    break
                n = legal_fn(s, cfg, buf)
                i = 0 if n == 1 else (randint(rng, n) if policy == 0 else rollout(s, cfg, p, buf, n, h, w, rng))
                apply(s, cfg, buf[i], play, no_log)
            returns(s, cfg, result)
            total[c] += result[seat]
    return n_cand
