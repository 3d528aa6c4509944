"""Information-set Monte Carlo tree search with determinisation (SO-ISMCTS), for any game.

Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree Search": the tree is
built over the searching seat's information sets. Each iteration

1. samples a *determinisation*: a full state consistent with the seat's observation (the game's
   ``determinize``; the search never sees the true hidden state), and fresh chance streams; the
   choices other seats made unseen earlier in a simultaneous round are made again by the play-out
   policy (:func:`reach_decision`);
2. descends the tree from the root choosing, among the children whose actions are legal in this
   determinisation, the one with the best UCB score computed with *availability* counts (how
   often a child was legal when its parent was visited), expanding one untried legal action;
3. plays out to the end with the rollout policy (uniform, or one of the game's heuristics or tuned sets);
4. backs the seats' results (tie-split win shares) up the path: each node adds the result of the
   seat that chose its action.

Decisions with a single legal choice are played without a node. The answer is the most visited
legal root action. Every random number comes from the deciding seat's own stream, so a search is
reproducible and leaves the game's chance streams untouched.

The tree lives in flat arrays sized by the iteration budget (one node per iteration at most).
"""
import math

import numpy as np
from numba import njit

from simlab.core.rng import N_STREAMS, next_u64, randint, uniform
from simlab.core.model import CODE_LIMIT, MAX_CHOICES

# params of the strategy (the seat's parameter vector)
P_ITERS, P_EXPLORE, P_POLICY = 0, 1, 2


@njit(cache=True)
def _fresh_streams(rng, streams):
    """Chance streams for one play-out, drawn from the searcher's own stream."""
    for r in range(streams.shape[0]):
        for k in range(4):
            streams[r, k] = next_u64(rng)
        if streams[r, 0] == 0 and streams[r, 1] == 0 and streams[r, 2] == 0 and streams[r, 3] == 0:
            streams[r, 0] = np.uint64(1)


@njit
def reach_decision(model, s, cfg, seat, policy, h, w, rng, streams, buf, no_log):
    """Reopen the choices made this round that ``seat`` cannot see (the model's ``reopen``) and make
    them again with the play-out policy, up to ``seat``'s own decision.

    In a simultaneous round asked in seat order (Karuba), ``determinize`` can only draw the earlier
    seats' pending choices uniformly; a search planning against such rivals overrates its own
    choices (a Karuba rollout mirror gave the start player 55.1% at 2 players). The rivals choose
    here as the search models them everywhere else. A no-op in games without such rounds: no
    random number is drawn then.
    """
    to_move, legal_fn, apply = model[0], model[1], model[2]
    rollout, reopen = model[6], model[8]
    reopen(s, seat)
    while True:
        p = to_move(s)
        if p == seat or p < 0:
            return
        n = legal_fn(s, cfg, buf)
        i = 0 if n == 1 else (randint(rng, n) if policy == 0 else rollout(s, cfg, p, buf, n, h, w, rng))
        apply(s, cfg, buf[i], streams, no_log)


@njit(cache=True)
def ismcts(model, policies, obs, cfg, seat, legal, n_legal, params, rng):
    """Index into ``legal[:n_legal]`` of the action the search prefers for ``seat``; ``policies`` as
    in :func:`simlab.search.proposals.proposals_search`."""
    to_move, legal_fn, apply, observe, determinize, returns, rollout, state_size, reopen = model
    iters = max(1, int(params[P_ITERS]))
    explore = params[P_EXPLORE]
    policy = int(params[P_POLICY])
    h, w = policies[0][policy], policies[1][policy].copy()   # (the registered table is frozen read-only)
    cap = iters + 2
    # tree: node 0 is the root (the seat's decision)
    action = np.zeros(cap, np.int64)
    chooser = np.zeros(cap, np.int64)
    first_child = np.full(cap, -1, np.int64)
    sibling = np.full(cap, -1, np.int64)
    visits = np.zeros(cap, np.float64)
    avail = np.zeros(cap, np.float64)
    total = np.zeros(cap, np.float64)
    n_nodes = 1
    path = np.zeros(cap, np.int64)
    size = state_size()
    s = np.zeros(size, np.int32)
    buf = np.zeros(MAX_CHOICES, np.int32)
    untried = np.zeros(MAX_CHOICES, np.int32)
    mark = np.zeros(CODE_LIMIT, np.int64)      # mark[code] == stamp: code is legal at this visit
    stamp = 0
    streams = np.zeros((N_STREAMS, 4), np.uint64)
    no_log = np.zeros((0, 8), np.int32)
    result = np.zeros(8, np.float64)
    for _ in range(iters):
        determinize(obs, seat, cfg, rng, s)
        _fresh_streams(rng, streams)
        reach_decision(model, s, cfg, seat, policy, h, w, rng, streams, buf, no_log)
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
                i = randint(rng, n) if policy == 0 else rollout(s, cfg, p, buf, n, h, w, rng)
                apply(s, cfg, buf[i], streams, no_log)
                continue
            stamp += 1
            for k in range(n):
                mark[buf[k]] = stamp
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
                child = n_nodes
                n_nodes += 1
                action[child] = code
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
                            score = total[c] / visits[c] + explore * math.sqrt(math.log(avail[c]) / visits[c])
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
    # the most visited root action among the real legal choices
    best_i = 0
    best_visits = -1.0
    for i in range(n_legal):
        c = first_child[0]
        while c >= 0:
            if action[c] == legal[i] and visits[c] > best_visits:
                best_visits = visits[c]
                best_i = i
            c = sibling[c]
    return best_i
