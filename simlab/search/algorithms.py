"""The search players' algorithms, written once and compiled once per game against that game's own
step functions (:mod:`.specialise` writes a copy of this file for each game with the game's functions
bound to the names below, so numba caches each game's search like any kernel: a second process's
first decision is read from the cache, not compiled again).

**The rollout algorithm** (``proposals_search``). Flat Monte Carlo over the heuristics' proposals: the rollout algorithm, for any game.

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

**SO-ISMCTS** (``ismcts``). Information-set Monte Carlo tree search with determinisation (SO-ISMCTS), for any game.

Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree Search": the tree is
built over the searching seat's information sets. Each iteration

1. samples a *determinisation*: a full state consistent with the seat's observation (the game's
   ``determinize``; the search never sees the true hidden state), and fresh chance streams; the
   choices other seats made unseen earlier in a simultaneous round are made again by the play-out
   policy (:func:`reach_decision`);
2. descends the tree from the root choosing, among the children whose actions are legal in this
   determinisation, the one with the best UCB score computed with *availability* counts (how
   often a child was legal when its parent was visited), expanding one untried legal action;
   with the heuristics as its prior (``bias`` > 0: the game's heuristics and tuned sets each
   propose a choice at the node, on this determinisation), the untried choice most of them
   propose is expanded first, and a choice's score gains ``bias`` x its share of the proposals /
   (visits + 1): Chaslot et al.'s progressive bias, which steers the first visits to what the
   heuristics would play and fades as the choice's own results accumulate;
3. plays out to the end with the play-out policy (by default the strongest heuristic; uniform, or
   any of the game's heuristics or tuned sets);
4. backs the seats' results (tie-split win shares) up the path: each node adds the result of the
   seat that chose its action.

Decisions with a single legal choice are played without a node. The answer is the most visited
legal root action. Every random number comes from the deciding seat's own stream, so a search is
reproducible and leaves the game's chance streams untouched.

The tree lives in flat arrays sized by the iteration budget (one node per iteration at most).

This file itself is never compiled: it is the template, and its names below are bound only in each
game's copy.
"""
import math

import numpy as np
from numba import njit

from simlab.core.model import CODE_LIMIT, MAX_CHOICES
from simlab.core.play import lean
from simlab.core.rng import N_STREAMS, next_u64, randint, uniform

# BOUND PER GAME: the step functions, the play-out policy and its table (row k: heuristic index, parameters)
to_move = legal_fn = apply = observe = determinize = returns = rollout = state_size = reopen = None
HEURISTIC = WEIGHTS = None
# END BOUND

# params of the strategies (a seat's parameter vector)
P_SAMPLES, P_POLICY, P_PROPOSERS = 0, 1, 2     # rollout
P_ITERS, P_EXPLORE, P_MCTS_POLICY, P_BIAS = 0, 1, 2, 3    # mcts


@njit(cache=True)
def _fresh_streams(rng, streams):
    """Chance streams for one play-out, drawn from the searcher's own stream."""
    for r in range(streams.shape[0]):
        for k in range(4):
            streams[r, k] = next_u64(rng)
        if streams[r, 0] == 0 and streams[r, 1] == 0 and streams[r, 2] == 0 and streams[r, 3] == 0:
            streams[r, 0] = np.uint64(1)


@lean
def play_to_end(s, cfg, policy, h, w, rng, streams, buf, no_log):
    """Play ``s`` to the end with play-out ``policy`` in every seat (0: uniform); returns the decisions
    made (those with a choice). Lean (no reference counts: see :func:`simlab.core.play.lean`), as the
    kernels' own loops are: with counts, the game's rules compiled for the search spent a third of a
    play-out counting."""
    decisions = 0
    while True:
        p = to_move(s)
        if p < 0:
            return decisions
        n = legal_fn(s, cfg, buf)
        i = 0
        if n > 1:
            i = randint(rng, n) if policy == 0 else rollout(s, cfg, p, buf, n, h, w, rng)
            decisions += 1
        apply(s, cfg, buf[i], streams, no_log)


@njit(cache=True)
def reach_decision(s, cfg, seat, policy, h, w, rng, streams, buf, no_log):
    """Reopen the choices made this round that ``seat`` cannot see (the model's ``reopen``) and make
    them again with the play-out policy, up to ``seat``'s own decision.

    In a simultaneous round asked in seat order (Karuba), ``determinize`` can only draw the earlier
    seats' pending choices uniformly; a search planning against such rivals overrates its own
    choices (a Karuba rollout mirror gave the start player 55.1% at 2 players). The rivals choose
    here as the search models them everywhere else. A no-op in games without such rounds: no
    random number is drawn then.
    """
    reopen(s, seat)
    while True:
        p = to_move(s)
        if p == seat or p < 0:
            return
        n = legal_fn(s, cfg, buf)
        i = 0 if n == 1 else (randint(rng, n) if policy == 0 else rollout(s, cfg, p, buf, n, h, w, rng))
        apply(s, cfg, buf[i], streams, no_log)


@njit(cache=True)
def ismcts(obs, cfg, seat, legal, n_legal, params, rng):
    """Index into ``legal[:n_legal]`` of the action the search prefers for ``seat``."""
    iters = max(1, int(params[P_ITERS]))
    explore = params[P_EXPLORE]
    policy = int(params[P_MCTS_POLICY])
    bias = params[P_BIAS]
    weights = WEIGHTS.copy()   # (the table is a constant, read-only)
    h, w = HEURISTIC[policy], weights[policy]
    n_policies = HEURISTIC.shape[0] - 1
    cap = iters + 2
    # tree: node 0 is the root (the seat's decision)
    action = np.zeros(cap, np.int64)
    chooser = np.zeros(cap, np.int64)
    first_child = np.full(cap, -1, np.int64)
    sibling = np.full(cap, -1, np.int64)
    visits = np.zeros(cap, np.float64)
    avail = np.zeros(cap, np.float64)
    total = np.zeros(cap, np.float64)
    prior = np.zeros(cap, np.float64)          # the heuristics' share of proposals for a child, when expanded
    n_nodes = 1
    path = np.zeros(cap, np.int64)
    size = state_size()
    s = np.zeros(size, np.int32)
    buf = np.zeros(MAX_CHOICES, np.int32)
    untried = np.zeros(MAX_CHOICES, np.int32)
    mark = np.zeros(CODE_LIMIT, np.int64)      # mark[code] == stamp: code is legal at this visit
    votes = np.zeros(CODE_LIMIT, np.float64)   # the heuristics proposing code at this visit (its prior)
    stamp = 0
    streams = np.zeros((N_STREAMS, 4), np.uint64)
    no_log = np.zeros((0, 8), np.int32)
    result = np.zeros(8, np.float64)
    for _ in range(iters):
        determinize(obs, seat, cfg, rng, s)
        _fresh_streams(rng, streams)
        reach_decision(s, cfg, seat, policy, h, w, rng, streams, buf, no_log)
        node = 0
        depth = 0
        expanded = False
        while True:
            p = to_move(s)
            if p < 0:
                break
            n = legal_fn(s, cfg, buf)
            if n == 1:
                apply(s, cfg, buf[0], streams, no_log)
                continue
            if expanded:  # below the new leaf: play out
                play_to_end(s, cfg, policy, h, w, rng, streams, buf, no_log)
                break
            stamp += 1
            for k in range(n):
                mark[buf[k]] = stamp
                votes[buf[k]] = 0.0
            if bias > 0.0:   # the heuristics' proposals here, on this determinisation: the prior
                for k in range(1, n_policies + 1):
                    votes[buf[rollout(s, cfg, p, buf, n, HEURISTIC[k], weights[k], rng)]] += 1.0 / n_policies
            # availability of existing children; untried = legal codes without a child
            c = first_child[node]
            while c >= 0:
                if mark[action[c]] == stamp:
                    avail[c] += 1.0
                    mark[action[c]] = -stamp       # has a child
                c = sibling[c]
            n_untried = 0
            for k in range(n):
                if mark[buf[k]] == stamp:
                    untried[n_untried] = buf[k]
                    n_untried += 1
            if n_untried > 0 and n_nodes < cap:
                code = untried[randint(rng, n_untried)]
                if bias > 0.0:   # the untried choice the heuristics propose most first (ties: at random)
                    top = votes[code]
                    for k in range(n_untried):
                        if votes[untried[k]] > top:
                            top = votes[untried[k]]
                            code = untried[k]
                child = n_nodes
                n_nodes += 1
                action[child] = code
                prior[child] = votes[code]
                chooser[child] = p
                avail[child] = 1.0
                sibling[child] = first_child[node]
                first_child[node] = child
                expanded = True
            else:
                child = -1
                best = -1e300
                c = first_child[node]
                while c >= 0:
                    if mark[action[c]] == -stamp:
                        if visits[c] == 0:
                            score = 1e300
                        else:
                            score = (total[c] / visits[c] + explore * math.sqrt(math.log(avail[c]) / visits[c])
                                     + bias * votes[action[c]] / (visits[c] + 1.0))   # progressive bias
                        score += 1e-9 * uniform(rng)          # random among equals
                        if score > best:
                            best = score
                            child = c
                    c = sibling[c]
                if child < 0:  # tree full (cannot happen with one expansion per iteration)
                    expanded = True
                    continue
                code = action[child]
            apply(s, cfg, code, streams, no_log)
            path[depth] = child
            depth += 1
            node = child
        returns(s, cfg, result)
        visits[0] += 1.0
        for d in range(depth):
            v = path[d]
            visits[v] += 1.0
            total[v] += result[chooser[v]]
    # the most visited root action among the real legal choices; among equally visited ones (a small
    # budget spreads one visit over each), the best mean result with the heuristics' prior at expansion
    best_i = 0
    best_visits = -1.0
    best_value = -1e300
    for i in range(n_legal):
        c = first_child[0]
        while c >= 0:
            if action[c] == legal[i]:
                value = total[c] / max(visits[c], 1.0) + bias * prior[c] / (visits[c] + 1.0)
                if visits[c] > best_visits or (visits[c] == best_visits and value > best_value):
                    best_visits = visits[c]
                    best_value = value
                    best_i = i
            c = sibling[c]
    return best_i


@njit(cache=True)
def proposals_search(obs, cfg, seat, legal, n_legal, params, rng):
    """Index into ``legal[:n_legal]`` of the proposal with the best mean result for ``seat``: policy k
    of the table is the play-out policy ``rollout`` with heuristic ``HEURISTIC[k]`` and parameters
    ``WEIGHTS[k]`` (row 0: uniform random)."""
    proposers = int(params[P_PROPOSERS])
    cand = np.zeros(proposers + 1, np.int64)
    total = np.zeros(proposers + 1, np.float64)
    n_cand = play_out_proposals(obs, cfg, seat, legal, n_legal, params, rng, cand, total, False)
    if n_cand == 0:
        return randint(rng, n_legal)
    if n_cand == 1:
        return cand[0]
    best = 0
    for c in range(1, n_cand):
        if total[c] > total[best]:
            best = c
    return cand[best]


@njit(cache=True)
def play_out_proposals(obs, cfg, seat, legal, n_legal, params, rng, cand, total, lone):
    """The search's candidates and their play-outs: ``cand[:k]`` the distinct proposals (indices into
    ``legal``, the play-out policy's own first), ``total[:k]`` the sum of ``seat``'s win share over
    the samples after each; returns k. A lone candidate is played out only when ``lone`` (a hint
    wants its estimate; the search does not need it)."""
    heuristic, weights = HEURISTIC, WEIGHTS.copy()   # (the table is a constant, read-only)
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
        reach_decision(root, cfg, seat, policy, h, w, rng, streams, buf, no_log)
        for c in range(n_cand):
            s[:] = root
            play[:] = streams
            apply(s, cfg, legal[cand[c]], play, no_log)
            play_to_end(s, cfg, policy, h, w, rng, play, buf, no_log)
            returns(s, cfg, result)
            total[c] += result[seat]
    return n_cand


@njit(cache=True)
def playouts(starts, cfg, policy, count, rng):
    """Play ``count`` play-outs, cycling over the states ``starts``, with play-out ``policy`` in
    every seat (0 uniform); returns the decisions made (those with a choice)."""
    h, w = HEURISTIC[policy], WEIGHTS[policy].copy()
    s = np.zeros(starts.shape[1], np.int32)
    buf = np.zeros(MAX_CHOICES, np.int32)
    streams = np.zeros((N_STREAMS, 4), np.uint64)
    no_log = np.zeros((0, 8), np.int32)
    decisions = 0
    for k in range(count):
        s[:] = starts[k % starts.shape[0]]
        _fresh_streams(rng, streams)
        decisions += play_to_end(s, cfg, policy, h, w, rng, streams, buf, no_log)
    return decisions
