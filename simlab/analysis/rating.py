"""Ratings from round-robin play: Bradley-Terry strengths on an Elo-like scale, with bootstrap intervals.

Bradley-Terry: entrant i finishes ahead of j with probability p_i / (p_i + p_j). Fitted by
Hunter's MM algorithm (2004) on half-counted results (a tie is half a win each way), which
converges from any start for a connected comparison graph. A prior of one tied game per pair
keeps every strength finite when one entrant beats another in every game (a heuristic against
random play can); at thousands of games per pair it moves a rating by a few tenths of a point.
Ratings are 400 log10(p_i / p_anchor): the Elo scale, on which 200 points mean finishing ahead
about 76% of the time, and the anchor (random play) sits at 0.

Intervals: a percentile bootstrap over games, resampling each pair's clusters (its duplicate deals,
or its games) with replacement within the pair, since every pair is its own run; every replicate
is refitted. A difference between two entrants is read from the same replicates, so its interval
keeps the correlation between their ratings; two entrants whose difference interval includes 0
are tied.
"""
from __future__ import annotations

import numpy as np

from .stats import LEVEL

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


def bootstrap(clusters: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]], k: int, anchor: int = 0,
              reps: int = 1000, seed: int = 0, level: float = LEVEL) -> dict:
    """Fit and bootstrap a ladder of ``k`` entrants. ``clusters[(i, j)]``: per cluster (deal or game)
    of the pair's run, i's half-counted wins over j and the games played. Returns the ratings, their
    replicates (``reps`` x ``k``) and the interval bounds of every rating and every difference."""
    rng = np.random.default_rng(seed)
    wins = np.zeros((reps + 1, k, k))
    games = np.zeros((reps + 1, k, k))
    for (i, j), (w, n) in clusters.items():
        w, n = np.asarray(w, dtype=np.float64), np.asarray(n, dtype=np.float64)
        pick = rng.integers(0, w.size, size=(reps, w.size))
        sw = np.concatenate([[w.sum()], w[pick].sum(1)])
        sn = np.concatenate([[n.sum()], n[pick].sum(1)])
        wins[:, i, j] += sw
        wins[:, j, i] += sn - sw
        games[:, i, j] += sn
        games[:, j, i] += sn
    fit = bradley_terry(wins, games, anchor)
    a = (1 - level) / 2
    rep = fit[1:]
    diff = rep[:, :, None] - rep[:, None, :]
    return {"rating": fit[0], "replicates": rep,
            "lo": np.quantile(rep, a, axis=0), "hi": np.quantile(rep, 1 - a, axis=0),
            "diff_lo": np.quantile(diff, a, axis=0), "diff_hi": np.quantile(diff, 1 - a, axis=0)}


def places(rating: np.ndarray, diff_lo: np.ndarray, diff_hi: np.ndarray) -> list[tuple[int, int]]:
    """The places each entrant can hold given the intervals: from 1 + the entrants decidedly above it
    to k - the entrants decidedly below it (a place range wider than one is a tie)."""
    k = len(rating)
    above = (diff_hi < 0).sum(1)      # j with r_i - r_j wholly below 0
    below = (diff_lo > 0).sum(1)
    return [(int(above[i]) + 1, k - int(below[i])) for i in range(k)]
