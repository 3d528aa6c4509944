"""Measures a designer can trust: fair shares, clustered intervals, seat spread, skill and luck.

The rules of measurement this module encodes:

* **Win share** splits a shared win: each of k winners of a game gets 1/k. Shares of one game sum
  to 1 (0 when every player was eliminated), so in a fair game every seat's expected share is
  exactly ``1 / players``: a fair reference that needs no estimate.
* **Clustered intervals**: rows of the same game (or the same duplicate deal) are not
  independent; where several of them are pooled (a strategy that holds two seats, a duplicate
  deal played in every rotation) the interval is computed from per-cluster sums (the
  cluster-robust, "sandwich" variance of a ratio mean), never as if each row were a new game.
* **Seat spread** replaces the old balance index ``1 - (max - min)``, which is biased: even a
  perfectly fair game shows a gap between its luckiest and unluckiest seat, so its interval
  never covered the fair value. The spread is the root mean square of the seat shares' distance
  from ``1 / players``, estimated without that bias (the sampling noise of each seat's share is
  subtracted before the square root), with a bootstrap interval; a fair game's interval
  covers 0.
* **Skill gap**: the rating distance (Elo points, logistic scale) between a strong strategy and
  a weak one from how often the strong one finishes ahead of the weak one in the same game.
  On a log-odds scale it keeps separating games where a plain win rate saturates near 100%.
* **Deal luck**: from duplicate play (every deal played in every seat rotation) the variance of
  a strategy's result splits into what its identity explains (skill), how much a deal suits one
  strategy more than another, and what changes between rotations of one deal (which seat holds
  the better chance, turn order, the strategies' own randomness); luck is the last two together.
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping

import numpy as np
import pandas as pd

from .stats import LEVEL, Estimate, z_of


# ---------------------------------------------------------------------------------------------
# win shares and clusters
# ---------------------------------------------------------------------------------------------

def win_share(frame: pd.DataFrame) -> pd.Series:
    """Each row's share of its game's win: 1/k for each of k winners, 0 for the others."""
    winners = frame.groupby("game", sort=False)["win"].transform("sum").to_numpy(np.float64)
    share = np.where(frame["win"].to_numpy(bool), 1.0 / np.maximum(winners, 1.0), 0.0)
    return pd.Series(share, index=frame.index, name="win_share")


def deal_of(frame: pd.DataFrame) -> pd.Series:
    """The cluster a row belongs to: its duplicate deal when the run was played in duplicate,
    else its game (rows of one game are never independent of each other)."""
    return frame["deal"] if "deal" in frame else frame["game"]


def clustered_mean(values, clusters, level: float = LEVEL, method: str = "clustered") -> Estimate:
    """Mean of ``values`` with a cluster-robust normal interval (clusters = games or deals).

    With y_c and m_c the sum and count of cluster c, the mean is sum(y) / sum(m) and its variance
    G / (G - 1) * sum((y_c - mean * m_c)^2) / sum(m)^2 (G clusters): correct however many rows a
    cluster holds and however they are correlated within it.
    """
    v = np.asarray(values, dtype=np.float64)
    c = np.asarray(clusters)
    if v.size == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, method, level)
    _, idx = np.unique(c, return_inverse=True)
    y = np.bincount(idx, weights=v)
    m = np.bincount(idx).astype(np.float64)
    g = y.size
    mu = y.sum() / m.sum()
    if g < 2:
        return Estimate(float(mu), -math.inf, math.inf, g, method, level)
    var = g / (g - 1) * float(((y - mu * m) ** 2).sum()) / m.sum() ** 2
    half = z_of(level) * math.sqrt(var)
    return Estimate(float(mu), float(mu - half), float(mu + half), g, method, level)


def clustered_difference(values, clusters, in_a, level: float = LEVEL) -> Estimate:
    """mean(values | in_a) - mean(values | not in_a) when both groups share clusters (e.g. two
    strategies in the same games): the covariance between the groups' cluster sums is kept."""
    v = np.asarray(values, dtype=np.float64)
    a = np.asarray(in_a, dtype=bool)
    _, idx = np.unique(np.asarray(clusters), return_inverse=True)
    ya = np.bincount(idx, weights=v * a)
    yb = np.bincount(idx, weights=v * ~a)
    ma = np.bincount(idx, weights=a.astype(np.float64))
    mb = np.bincount(idx, weights=(~a).astype(np.float64))
    g = ya.size
    mua, mub = ya.sum() / ma.sum(), yb.sum() / mb.sum()
    # linearised contribution of each cluster to the difference of the two ratio means
    u = (ya - mua * ma) / ma.sum() - (yb - mub * mb) / mb.sum()
    var = g / max(g - 1, 1) * float((u ** 2).sum())
    half = z_of(level) * math.sqrt(var)
    d = float(mua - mub)
    return Estimate(d, d - half, d + half, g, "clustered difference", level)


# ---------------------------------------------------------------------------------------------
# seat fairness (mirror matches only)
# ---------------------------------------------------------------------------------------------

def is_mirror(frame: pd.DataFrame) -> bool:
    """Every seat plays the same strategy (the only setting where a seat effect can be read)."""
    return frame["strategy"].astype(str).nunique() == 1


def seat_shares(frame: pd.DataFrame, level: float = LEVEL) -> pd.DataFrame:
    """Per player count and seat: win share with its interval, the exact fair value 1/n, the edge
    over fair in points, plain win rate and mean score. Refuses frames that are not mirrors."""
    if not is_mirror(frame):
        raise ValueError("seat fairness needs a mirror match (every seat the same strategy); got "
                         + ", ".join(sorted(frame["strategy"].astype(str).unique())))
    f = frame.assign(win_share=win_share(frame))
    rows = []
    for n, g in f.groupby("players", observed=True, sort=True):
        for seat, s in g.groupby("seat", sort=True):
            e = clustered_mean(s["win_share"], deal_of(s), level)
            rows.append({"players": int(n), "seat": int(seat) + 1, "games": len(s), "win_share": e.value,
                         "lo": e.lo, "hi": e.hi, "fair": 1.0 / int(n), "edge": e.value - 1.0 / int(n),
                         "win_rate": float(s["win"].mean()), "mean_score": float(s["score"].mean())})
    return pd.DataFrame(rows)


def seat_spread(mirrors: Mapping[str, pd.DataFrame], reps: int = 400, seed: int = 0,
                level: float = LEVEL) -> pd.DataFrame:
    """Root mean square distance of the seats' win shares from 1/n, in share units, per strategy
    (the key of ``mirrors``, a mirror match's frame) and player count.

    Estimate: sqrt(max(0, mean_s((p_s - 1/n)^2) - mean_s(var(p_s)))), i.e. the squared distance
    minus its expected value in a fair game (the sampling variance of each seat's share, from
    the per-game share vectors). Interval: percentile bootstrap over games (Poisson weights) of
    the same bias-corrected quantity, square-rooted after clipping at 0, so a fair game's
    interval reaches down to 0. Each mirror is resampled by a generator of its own from
    ``seed``; mirrors with the same games at every player count thus draw the same weights,
    which are drawn once for all of them (the draws are most of the cost).
    """
    tables = {}
    for strategy, frame in mirrors.items():
        f = frame.assign(win_share=win_share(frame))
        tables[strategy] = {int(n): g.pivot(index="game", columns="seat", values="win_share").to_numpy(np.float64)
                            for n, g in f.groupby("players", observed=True, sort=True)}
    alike = defaultdict(list)   # games at every player count -> the mirrors that share its draws
    for strategy, t in tables.items():
        alike[tuple((n, len(w)) for n, w in t.items())].append(strategy)
    boots = {}
    for shape, strategies in alike.items():
        rng = np.random.default_rng(seed)
        for n, games in shape:
            for s in strategies:
                boots[s, n] = np.empty(reps)
            block = max(1, min(reps, 2_000_000 // max(1, games)))
            for start in range(0, reps, block):
                k = min(block, reps - start)
                weights = rng.poisson(1.0, size=(k, games)).astype(np.float64)
                for s in strategies:
                    boots[s, n][start:start + k] = _excess_square(weights, tables[s][n], n)
    rows = []
    for strategy, t in tables.items():
        for n, w in t.items():
            point = _excess_square(np.ones((1, len(w))), w, n)[0]
            lo, hi = np.quantile(boots[strategy, n], [(1 - level) / 2, 1 - (1 - level) / 2])
            rates = w.mean(axis=0)
            rows.append({"strategy": strategy, "players": n, "games": len(w), "spread": math.sqrt(max(point, 0.0)),
                         "lo": math.sqrt(max(lo, 0.0)), "hi": math.sqrt(max(hi, 0.0)),
                         "best_seat": int(rates.argmax()) + 1, "worst_seat": int(rates.argmin()) + 1})
    return pd.DataFrame(rows)


def _excess_square(weights, w, n: int):
    """Per row of ``weights`` (one per resample, one column per game): the seats' mean squared
    distance from 1/n minus its sampling variance, from the per-game share vectors ``w[game, seat]``."""
    tot = weights.sum(axis=-1, keepdims=True)
    p = (weights @ w) / tot
    ex2 = (weights @ (w * w)) / tot
    var = (ex2 - p * p) / (tot - 1)
    return ((p - 1.0 / n) ** 2).mean(axis=-1) - var.mean(axis=-1)


# ---------------------------------------------------------------------------------------------
# skill and luck
# ---------------------------------------------------------------------------------------------

def elo(p: float) -> float:
    """Rating difference (Elo points) at which the stronger side finishes ahead with probability p."""
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return 400.0 * math.log10(p / (1.0 - p))


def ahead_share(frame: pd.DataFrame, strong: str, weak: str, level: float = LEVEL) -> Estimate:
    """How often ``strong`` finishes ahead of ``weak`` in the same game (a tie counts one half),
    over every (strong seat, weak seat) pair of every game, clustered by deal."""
    f = frame[["game", "seat", "rank", "strategy"]].copy()
    f["strategy"] = f["strategy"].astype(str)
    f["cluster"] = deal_of(frame).to_numpy()
    s = f[f["strategy"] == strong]
    w = f[f["strategy"] == weak]
    pairs = s.merge(w, on="game", suffixes=("_s", "_w"))
    if pairs.empty:
        raise ValueError(f"{strong} and {weak} never meet in these games")
    score = np.where(pairs["rank_s"] < pairs["rank_w"], 1.0, np.where(pairs["rank_s"] == pairs["rank_w"], 0.5, 0.0))
    return clustered_mean(score, pairs["cluster_s"], level, "clustered pairwise")


def skill_gap(frame: pd.DataFrame, strong: str, weak: str = "random", level: float = LEVEL) -> pd.DataFrame:
    """Per player count: the Elo gap from ``weak`` to ``strong`` with its interval.

    The interval is built on the logit scale (delta method on the clustered standard error of the
    ahead share, with the share kept a half meeting away from 0 and 1), so a heuristic that beats
    random play in 99.5% of meetings gets a finite, honest upper bound instead of infinity."""
    rows = []
    for n, g in frame.groupby("players", observed=True, sort=True):
        e = ahead_share(g, strong, weak, level)
        p = min(max(e.value, 0.5 / e.n), 1 - 0.5 / e.n)
        se = (e.hi - e.lo) / (2 * z_of(level)) / (p * (1 - p))
        centre = math.log(p / (1 - p))
        lo, hi = (1 / (1 + math.exp(-(centre + k * z_of(level) * se))) for k in (-1, 1))
        rows.append({"players": int(n), "strong": strong, "weak": weak, "pairs_games": e.n,
                     "ahead": e.value, "ahead_lo": lo, "ahead_hi": hi,
                     "elo_gap": elo(e.value), "elo_lo": elo(lo), "elo_hi": elo(hi)})
    return pd.DataFrame(rows)


COMPONENTS = ("skill (strategy)", "deal suits a strategy", "seat within the deal")


def deal_luck(frame: pd.DataFrame, column: str = "win_share", reps: int = 200, seed: int = 0,
              level: float = LEVEL) -> pd.DataFrame:
    """Variance shares of a duplicate run's results: strategy (skill), deal (luck), rotation.

    Needs a duplicate run (``deal`` column; every deal in all n rotations). With y the result of
    the strategy in slot k in rotation r of deal d (``column``; the win share by default):

    * rotation: R = mean over (d, k) of the variance of y across the n rotations;
    * deal: L = variance over d of (mean_r y - strategy mean), averaged over k, minus R / n
      (the part of the deal means' spread that rotation noise alone would produce);
    * skill: S = variance over k of the strategy means.

    Shares are S, L, R over S + L + R, with bootstrap intervals over deals, plus ``luck`` = L + R
    (everything the strategies do not explain: what the deal gives each strategy and each seat,
    turn order included). The skill share depends on the field of strategies: a field of equals
    has no skill variance by construction.
    """
    if "deal" not in frame:
        raise ValueError("deal luck needs a duplicate run (simlab run ... --duplicate)")
    f = frame.assign(win_share=win_share(frame)) if column == "win_share" else frame
    rng = np.random.default_rng(seed)
    rows = []
    for n, g in f.groupby("players", observed=True, sort=True):
        n = int(n)
        game_id = g["run_game"] if "run_game" in g else g["game"]   # the run's own id (see measures.combine)
        g = g.assign(slot=g["strategy"].astype(str) + "#" + ((g["seat"] + game_id) % n).astype(str))
        y = g.pivot_table(index=["deal", "game"], columns="slot", values=column, aggfunc="first")
        deals = y.index.get_level_values("deal").to_numpy()
        # cube[d, r, k]: deal d, its r-th rotation, slot k
        order = np.argsort(deals, kind="stable")
        vals = y.to_numpy(np.float64)[order]
        d_ids = deals[order]
        full = np.bincount(np.unique(d_ids, return_inverse=True)[1]) == n
        if not full.all():
            keep = np.isin(d_ids, np.unique(d_ids)[full])
            vals, d_ids = vals[keep], d_ids[keep]
        cube = vals.reshape(-1, n, vals.shape[1])

        point = _variance_shares(cube, np.ones((1, len(cube))), n)[0]
        # resampled deals as counts per deal (the same draws as indexing cube once per resample)
        draws = rng.integers(0, len(cube), (reps, len(cube)))
        counts = np.bincount((draws + len(cube) * np.arange(reps)[:, None]).ravel(),
                             minlength=reps * len(cube)).reshape(reps, len(cube))
        boots = _variance_shares(cube, counts.astype(np.float64), n)
        lo = np.quantile(boots, (1 - level) / 2, axis=0)
        hi = np.quantile(boots, 1 - (1 - level) / 2, axis=0)
        for i, part in enumerate(COMPONENTS):
            rows.append({"players": n, "component": part, "share": float(point[i]), "lo": float(lo[i]),
                         "hi": float(hi[i]), "deals": len(cube)})
        luck = boots[:, 1] + boots[:, 2]
        rows.append({"players": n, "component": "luck (deal and seat)", "share": float(point[1] + point[2]),
                     "lo": float(np.quantile(luck, (1 - level) / 2)), "hi": float(np.quantile(luck, 1 - (1 - level) / 2)),
                     "deals": len(cube)})
    return pd.DataFrame(rows)


def _variance_shares(cube, weights, n: int):
    """Skill, deal and rotation shares (see :func:`deal_luck`) of ``cube[d, r, k]`` with deal d
    counted ``weights[b, d]`` times, for every row b at once (a bootstrap resample is a row of counts)."""
    total = weights.sum(axis=1)                                   # [b]
    deal_mean = cube.mean(axis=1)                                 # [d, k]
    strat = weights @ deal_mean / total[:, None]                  # [b, k]
    rot = weights @ cube.var(axis=1, ddof=1).mean(axis=1) / total
    spread = (weights @ deal_mean ** 2 - total[:, None] * strat ** 2) / (total[:, None] - 1)
    deal = spread.mean(axis=1) - rot / n
    skill = strat.var(axis=1, ddof=1) if strat.shape[1] > 1 else np.zeros(len(total))
    parts = np.maximum(np.stack([skill, deal, rot], axis=1), 0.0)
    sums = parts.sum(axis=1, keepdims=True)
    return np.divide(parts, sums, out=np.zeros_like(parts), where=sums > 0)


# ---------------------------------------------------------------------------------------------
# paired comparisons: how much pairing bought
# ---------------------------------------------------------------------------------------------

def pairing_gain(base: pd.DataFrame, variant: pd.DataFrame, column: str, keys=("game", "seat"),
                 level: float = LEVEL) -> dict:
    """For a paired comparison of ``column``: the correlation between arms, the paired and unpaired
    interval half-widths of the difference (clustered by game), and their ratio (< 1: pairing helped)."""
    keys = list(keys)
    j = base[keys + [column]].merge(variant[keys + [column]], on=keys, suffixes=("_a", "_b"), validate="one_to_one")
    a = j[f"{column}_a"].to_numpy(np.float64)
    b = j[f"{column}_b"].to_numpy(np.float64)
    paired = clustered_mean(b - a, j["game"], level)
    ea = clustered_mean(a, j["game"], level)
    eb = clustered_mean(b, j["game"], level)
    unpaired_half = math.hypot((ea.hi - ea.lo) / 2, (eb.hi - eb.lo) / 2)
    paired_half = (paired.hi - paired.lo) / 2
    corr = float(np.corrcoef(a, b)[0, 1]) if a.std() > 0 and b.std() > 0 else math.nan
    return {"column": column, "n": len(j), "difference": paired.value, "lo": paired.lo, "hi": paired.hi,
            "correlation": corr, "paired_half_width": paired_half, "unpaired_half_width": unpaired_half,
            "ratio": paired_half / unpaired_half if unpaired_half > 0 else math.nan}
