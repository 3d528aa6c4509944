"""Interval estimates for balance reports, built on :mod:`simlab.core.intervals`.

Every number a report states comes as an :class:`Estimate`: the value, its 95% interval, the
sample size and the method. Proportions use Wilson intervals, means a normal interval (or a
percentile bootstrap when asked), comparisons of a variant with its baseline the paired
difference on common random numbers, and :func:`sequential` runs batches until an interval is
narrow enough.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Callable

import numpy as np
import pandas as pd
from scipy.stats import t as student_t

from simlab.core.intervals import Z95, wilson

# The units a measure is stated in: a proportion; a difference of two proportions; a number; a
# difference of numbers.
SHARE, POINTS, NUMBER, CHANGE = "share", "points", "number", "change"
UNITS = (SHARE, POINTS, NUMBER, CHANGE)

LEVEL = 0.95


def z_of(level: float = LEVEL) -> float:
    """Two-sided normal quantile for a confidence level (1.96 for 95%)."""
    return Z95 if level == LEVEL else NormalDist().inv_cdf(0.5 + level / 2)


@dataclass(frozen=True)
class Estimate:
    """A number with its interval: ``value`` in [``lo``, ``hi``] at ``level`` from ``n`` observations."""

    value: float
    lo: float
    hi: float
    n: int
    method: str
    level: float = LEVEL

    @property
    def width(self) -> float:
        return self.hi - self.lo

    def within(self, low: float, high: float) -> "Estimate":
        """The interval cut to the bounds ``[low, high]`` that hold the truth (a share's [0, 1]): the
        truth is never outside them, so the cut loses no coverage."""
        return Estimate(self.value, max(self.lo, low), min(self.hi, high), self.n, self.method, self.level)

    def fmt(self, percent: bool = False, digits: int | None = None) -> str:
        if percent:
            d = 1 if digits is None else digits
            return f"{self.value:.{d}%} [{self.lo:.{d}%}, {self.hi:.{d}%}]"
        d = 2 if digits is None else digits
        return f"{self.value:.{d}f} [{self.lo:.{d}f}, {self.hi:.{d}f}]"

    def __str__(self) -> str:
        return self.fmt()


def proportion(k: float, n: float, level: float = LEVEL) -> Estimate:
    """A rate k/n with its Wilson score interval."""
    lo, hi = wilson(k, n, z_of(level))
    return Estimate(k / n if n else math.nan, lo, hi, int(n), "Wilson", level)


def mean(values, level: float = LEVEL) -> Estimate:
    """Mean with a normal (t-free, large-sample) interval: mean +- z * sd / sqrt(n)."""
    v = np.asarray(values, dtype=np.float64)
    n = v.size
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, "normal", level)
    m = float(v.mean())
    half = z_of(level) * (float(v.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf)
    return Estimate(m, m - half, m + half, n, "normal", level)


def bootstrap_mean(values, reps: int = 2000, seed: int = 0, level: float = LEVEL,
                   statistic: Callable | None = None) -> Estimate:
    """Percentile bootstrap interval of ``statistic`` (default: the mean) from ``reps`` resamples.

    Resampling is done in blocks so memory stays small for large samples; ``seed`` makes the
    interval itself reproducible.
    """
    v = np.asarray(values, dtype=np.float64)
    n = v.size
    stat = statistic or (lambda a: a.mean(axis=-1))
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, "bootstrap", level)
    rng = np.random.default_rng(seed)
    out = np.empty(reps)
    block = max(1, min(reps, 4_000_000 // max(1, n)))
    for start in range(0, reps, block):
        k = min(block, reps - start)
        out[start:start + k] = stat(v[rng.integers(0, n, size=(k, n))])
    a = (1 - level) / 2
    lo, hi = np.quantile(out, [a, 1 - a])
    return Estimate(float(stat(v[None, :])[0]), float(lo), float(hi), n, f"bootstrap ({reps} resamples)", level)


def difference_of_means(a, b, level: float = LEVEL) -> Estimate:
    """Unpaired difference mean(a) - mean(b) with a normal (Welch) interval."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.size < 2 or b.size < 2:
        return Estimate(math.nan, math.nan, math.nan, int(a.size + b.size), "Welch normal", level)
    d = float(a.mean() - b.mean())
    se = math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
    half = z_of(level) * se
    return Estimate(d, d - half, d + half, int(a.size + b.size), "Welch normal", level)


def paired_difference(variant, baseline, level: float = LEVEL) -> Estimate:
    """Mean of ``variant - baseline`` over paired observations, normal interval on the differences.

    With common random numbers (same root seed in both arms, rows paired by game id and seat)
    the two arms are positively correlated, so this interval is narrower than the unpaired one.
    """
    d = np.asarray(variant, dtype=np.float64) - np.asarray(baseline, dtype=np.float64)
    e = mean(d, level)
    return Estimate(e.value, e.lo, e.hi, e.n, "paired normal", level)


def clustered_mean(values, clusters, level: float = LEVEL, method: str = "clustered") -> Estimate:
    """Mean of ``values`` with a cluster-robust interval (clusters = games or deals).

    With y_c and m_c the sum and count of cluster c, the mean is sum(y) / sum(m) and its variance
    G / (G - 1) * sum((y_c - mean * m_c)^2) / sum(m)^2 (G clusters): correct however many rows a
    cluster holds and however they are correlated within it. The quantile is Student's t on the
    clusters that carry the variance (:func:`critical_value`), the normal one when they are many.
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
    parts = (y - mu * m) ** 2
    var = g / (g - 1) * float(parts.sum()) / m.sum() ** 2
    half = critical_value(parts, level) * math.sqrt(var)
    return Estimate(float(mu), float(mu - half), float(mu + half), g, method, level)


def critical_value(parts: np.ndarray, level: float = LEVEL) -> float:
    """Student's t quantile for a cluster-robust variance made of the clusters' squared deviations
    ``parts``. Its degrees of freedom are the clusters that carry the variance: with a few large
    terms (a rare event; a paired change that flips only a few games) it rests on those few, which
    a normal quantile ignores. Four times Satterthwaite's effective number of terms, at most G - 1:
    the rule that kept coverage within [93%, 97.5%] for rare events on duplicate deals whose
    rotations share them with correlation 0 to 1, and for paired changes on common random numbers
    (simlab calibrate); with many clusters of like size it is the normal quantile."""
    g = len(parts)
    total = float(parts.sum())
    df = min(g - 1.0, max(1.0, 4 * total ** 2 / float((parts ** 2).sum()))) if total > 0 else g - 1.0
    return float(student_t.ppf(0.5 + level / 2, df))


def paired_frames(baseline: pd.DataFrame, variant: pd.DataFrame, keys=("game", "seat")) -> pd.DataFrame:
    """Join two arms' rows on ``keys`` (game id and seat): columns get suffixes _base and _var."""
    keys = list(keys)
    joined = baseline.merge(variant, on=keys, suffixes=("_base", "_var"), how="inner", validate="one_to_one")
    if len(joined) != len(baseline) or len(joined) != len(variant):
        raise ValueError("the two arms do not cover the same games and seats; run both with the same "
                         "seed, games and player count")
    return joined


def paired_column_difference(baseline: pd.DataFrame, variant: pd.DataFrame, column: str, by=None,
                             keys=("game", "seat"), level: float = LEVEL) -> pd.DataFrame:
    """Paired difference variant - baseline of ``column`` (overall, or per value of ``by``).

    The interval is clustered by game (by deal in duplicate play): the seats of one game, and the
    rotations of one deal, are not independent pairs. Returns a frame with n, baseline mean,
    variant mean, difference and its interval.
    """
    j = paired_frames(baseline, variant, keys)
    j["_d"] = j[f"{column}_var"].astype(float) - j[f"{column}_base"].astype(float)
    j["_cluster"] = j["deal_base"] if "deal_base" in j else j["game"]
    groups = [((), j)] if by is None else j.groupby(by if by in keys else f"{by}_base", observed=True)
    rows = []
    for key, g in groups:
        e = clustered_mean(g["_d"], g["_cluster"], level, "paired, clustered by game")
        rows.append({"group": key, "n": len(g), "baseline": g[f"{column}_base"].astype(float).mean(),
                     "variant": g[f"{column}_var"].astype(float).mean(), "difference": e.value,
                     "lo": e.lo, "hi": e.hi})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------------
# sequential sampling: run until an interval is narrow enough
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class StoppingRule:
    """Run batches until the watched interval is at most ``target_width`` wide (hi - lo).

    The rule: play ``min_games``; after each look, if the width w at n games exceeds the target,
    project the games needed from the square-root law, n * (w / target)^2, add 10% margin,
    and continue to at least ``n + min_games`` and at most ``max_games`` games (rounded up to a
    multiple of ``unit``). Stop at the first look with w <= target, or at ``max_games``.
    Batches cover consecutive game-id ranges, so the rows (and hence the estimate at any total)
    are those of a fixed-size run of the same total: randomness is fixed by game ids, not by
    batches. The repeated looks (usually two or three) make the nominal 95% coverage very
    slightly optimistic; the report states the looks taken.
    """

    target_width: float
    min_games: int = 1000
    max_games: int = 1_000_000
    unit: int = 1000

    def next_total(self, n: int, width: float) -> int:
        if width <= self.target_width or n >= self.max_games:
            return n
        want = n * (width / self.target_width) ** 2 * 1.1 if math.isfinite(width) else 2 * n
        want = max(want, n + self.min_games)
        want = int(math.ceil(want / self.unit) * self.unit)
        return min(self.max_games, want)


@dataclass
class SequentialResult:
    rule: StoppingRule
    games: int = 0
    estimate: Estimate | None = None
    looks: list[tuple[int, float]] = field(default_factory=list)
    reached: bool = False

    def describe(self) -> str:
        looks = ", ".join(f"{n:,} games: width {w:.4f}" for n, w in self.looks)
        end = "target reached" if self.reached else f"stopped at the cap of {self.rule.max_games:,} games"
        return f"target interval width {self.rule.target_width:g}; looks: {looks}; {end}"


def sequential(play_to: Callable[[int], None], measure: Callable[[], Estimate], rule: StoppingRule,
               start: int | None = None) -> SequentialResult:
    """Apply ``rule``: ``play_to(n)`` extends the sample to ``n`` games in total, ``measure()``
    gives the watched estimate of the sample so far."""
    n = int(math.ceil((start or rule.min_games) / rule.unit) * rule.unit)
    n = min(n, rule.max_games)
    result = SequentialResult(rule)
    while True:
        play_to(n)
        est = measure()
        result.games, result.estimate = n, est
        result.looks.append((n, est.width))
        if est.width <= rule.target_width:
            result.reached = True
            return result
        nxt = rule.next_total(n, est.width)
        if nxt <= n:
            return result
        n = nxt
