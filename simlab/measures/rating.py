"""Ratings from round-robin play: Bradley-Terry strengths on an Elo-like scale, with bootstrap intervals.

Bradley-Terry: entrant i finishes ahead of j with probability p_i / (p_i + p_j). Fitted by
Hunter's MM algorithm (2004) on half-counted results (a tie is half a win each way), which
converges from any start for a connected comparison graph. A prior of one tied game per pair
keeps every strength finite when one entrant beats another in every game (a heuristic against
random play can); at thousands of games per pair it moves a rating by a few tenths of a point.
Ratings are 400 log10(p_i / p_anchor): the Elo scale, on which 200 points mean finishing ahead
about 76% of the time, and the anchor (random play) sits at 0.

Intervals: a bootstrap over deals, drawn jointly for all pairs. Every pair plays the same deals
(one root seed: deal d of one pair is deal d of every other), so a deal that suits an entrant suits
it in every pair it plays; resampling each pair on its own would drop that shared luck and make the
intervals too narrow. A replicate draws one multiset of deals that every pair uses. A pair that plays
fewer deals (one with a search entrant) plays the first ones of the same sequence: the deals are
split into blocks by which pairs play them and drawn with replacement within each block, so every
pair keeps its number of deals. Every replicate is refitted.

A rating's interval is marginal: the rating +- t sqrt(G / (G - 1)) se, with se the SD of its
replicates, G the deals of the entrant's longest pair and t Student's quantile on G - 1 degrees of
freedom (the small-sample expansion of Hesterberg's expanded percentile interval): a bootstrap
knows only the deals it has, and on the 50 deals of a search pair the plain percentile interval
held the rating about 93% of the time, not 95% (simlab calibrate). The differences decide a family
of verdicts at once (places, ties, the strongest entrant), so their intervals are simultaneous:
max-|t| over all pairs (per replicate, the
largest deviation of any difference from its estimate in units of its bootstrap SE; its 95% quantile
c gives d +- c se), so that all of them hold together with 95% confidence. Two entrants whose
difference interval includes 0 are tied.
"""
from __future__ import annotations

import numpy as np
from scipy.stats import t as student_t

from simlab.measures.stats import LEVEL

SCALE = 400.0 / np.log(10.0)   # natural-log strength -> Elo-like points
PRIOR = 1.0                    # games of prior per pair, split half-half


def bradley_terry(wins: np.ndarray, games: np.ndarray, anchor: int = 0, prior: float = PRIOR,
                  tol: float = 1e-10, max_iter: int = 10_000) -> np.ndarray:
    """Ratings (Elo-like points, entrant ``anchor`` at 0) from ``wins[..., i, j]``, how often i finished
    ahead of j (ties half), in ``games[..., i, j]`` meetings (symmetric: ``games[i, j] == games[j, i]``).
    The comparison graph must be connected. Leading axes are independent data sets
    (bootstrap replicates), fitted together."""
    w = np.asarray(wins, dtype=np.float64)
    n = np.asarray(games, dtype=np.float64)
    k = w.shape[-1]
    off = ~np.eye(k, dtype=bool)
    met = off & (n > 0)
    w = w + prior / 2 * met
    n = np.where(off, n + prior * met, 0.0)
    total = (w * off).sum(-1)                      # W_i: half-counted wins of i
    p = np.ones(w.shape[:-1])
    for _ in range(max_iter):
        denom = (n / (p[..., :, None] + p[..., None, :])).sum(-1)
        new = total / denom
        new = new / np.exp(np.log(new).mean(-1, keepdims=True))     # fix the scale: geometric mean 1
        done = np.max(np.abs(np.log(new) - np.log(p))) < tol
        p = new
        if done:
            break
    r = SCALE * np.log(p)
    return r - r[..., anchor:anchor + 1]


def deal_draws(played: np.ndarray, reps: int, rng: np.random.Generator) -> np.ndarray:
    """How often each deal is drawn in each of ``reps`` replicates (``reps`` x deals), from ``played``
    (pairs x deals: which pairs play each deal). Deals played by the same pairs form a block (pairs
    with fewer deals play a prefix, so the blocks are [0, L1), [L1, L2), ...), drawn with replacement
    within it: a pair covers whole blocks, so it keeps its number of deals in every replicate."""
    _, block = np.unique(played.T, axis=0, return_inverse=True)
    block = block.ravel()
    deals = block.size
    order = np.argsort(block, kind="stable")              # the deals, block by block
    sorted_block = block[order]
    first = np.searchsorted(sorted_block, sorted_block)   # per position: its block's first position and size
    size = np.bincount(block)[sorted_block]
    drawn = order[first + rng.integers(0, size, size=(reps, deals))]
    rows = np.arange(reps)[:, None] * deals
    return np.bincount((rows + drawn).ravel(), minlength=reps * deals).reshape(reps, deals).astype(np.float64)


def bootstrap(clusters: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]], k: int, anchor: int = 0,
              reps: int = 1000, seed: int = 0, level: float = LEVEL) -> dict:
    """Fit and bootstrap a ladder of ``k`` entrants. ``clusters[(i, j)]``: per deal of the pair's run
    (ids shared by all pairs: the same id is the same deal), the deal ids, i's half-counted wins over
    j and the games played. Returns the ratings, their replicates (``reps`` x ``k``), the marginal
    interval of every rating (``lo``, ``hi``) and the simultaneous interval of every difference
    (``diff_lo[i, j]``, ``diff_hi[i, j]``: of rating i minus rating j)."""
    pairs = np.array(list(clusters), dtype=np.int64).reshape(-1, 2)
    ids = np.unique(np.concatenate([np.asarray(d) for d, _, _ in clusters.values()]))
    wins = np.zeros((len(pairs), ids.size))           # pair x deal
    games = np.zeros((len(pairs), ids.size))
    for p, (d, w, n) in enumerate(clusters.values()):
        at = np.searchsorted(ids, d)
        np.add.at(wins[p], at, w)
        np.add.at(games[p], at, n)
    counts = np.vstack([np.ones(ids.size), deal_draws(games > 0, reps, np.random.default_rng(seed))])
    sw, sn = counts @ wins.T, counts @ games.T          # (1 + reps) x pair: the data, then the replicates
    i, j = pairs.T
    w = np.zeros((reps + 1, k, k))
    n = np.zeros((reps + 1, k, k))
    w[:, i, j], w[:, j, i] = sw, sn - sw
    n[:, i, j] = n[:, j, i] = sn
    fit = bradley_terry(w, n, anchor)
    rep = fit[1:]
    longest = np.zeros(k)                   # per entrant: the deals of its longest pair (one deal: no interval to read)
    np.maximum.at(longest, np.concatenate([i, j]), np.tile((games > 0).sum(1), 2))
    g = np.maximum(longest, 2)
    half = np.sqrt(g / (g - 1)) * student_t.ppf(0.5 + level / 2, g - 1) * rep.std(0, ddof=1)
    est = fit[0][:, None] - fit[0][None, :]
    diff = rep[:, :, None] - rep[:, None, :]
    se = diff.std(0, ddof=1)            # max-|t|: per replicate, the largest deviation of any difference in SEs
    t = np.divide(np.abs(diff - est), se, out=np.zeros_like(diff), where=se > 0)
    c = np.quantile(t.max((1, 2)), level)
    return {"rating": fit[0], "replicates": rep,
            "lo": fit[0] - half, "hi": fit[0] + half,
            "diff_lo": est - c * se, "diff_hi": est + c * se}


def places(rating: np.ndarray, diff_lo: np.ndarray, diff_hi: np.ndarray) -> list[tuple[int, int]]:
    """The places each entrant can hold given the intervals: from 1 + the entrants decidedly above it
    to k - the entrants decidedly below it (a place range wider than one is a tie)."""
    k = len(rating)
    above = (diff_hi < 0).sum(1)      # j with r_i - r_j wholly below 0
    below = (diff_lo > 0).sum(1)
    return [(int(above[i]) + 1, k - int(below[i])) for i in range(k)]
