"""Interval estimates used by summaries and reports."""
from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion k/n (good near 0 and 1, unlike the normal one)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def effective_wilson(p: float, var: float, clusters: int, rows: float, z: float, trials: float = 1.0) -> tuple[float, float]:
    """Wilson's interval for a share p of ``rows`` in ``clusters`` clusters with cluster-robust
    variance ``var``, at Korn and Graubard's effective sample size n_eff = p (1 - p) / var: fewer
    trials than rows where a cluster's rows go together, more where they pull against each other.
    With no event (or nothing but events) the clusters count as the trials, all a cluster of
    perfectly correlated rows is worth; with a variance of 0 and 0 < p < 1, rows x ``trials``."""
    if not 0 < p < 1:
        n_eff = float(clusters)
    elif var > 0:
        n_eff = p * (1 - p) / var
    else:
        n_eff = rows * trials
    return wilson(p * n_eff, n_eff, z)


def mean_ci(total: float, total_sq: float, n: float, z: float = Z95) -> tuple[float, float, float]:
    """Mean with a normal-approximation interval from running sums (fine for n in the hundreds+)."""
    if n <= 0:
        return (math.nan, math.nan, math.nan)
    mean = total / n
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def mean_ci_of(values, z: float = Z95) -> tuple[float, float, float]:
    v = np.asarray(values, dtype=np.float64)
    return mean_ci(float(v.sum()), float((v * v).sum()), float(v.size), z)


def median_interval(values, level: float = 0.95) -> tuple[float, float, float]:
    """Distribution-free interval for the median of ``values``: the order statistics whose binomial
    coverage is the smallest at least ``level`` (for 5 values that is their min-max, 93.8%, the most
    5 values can give). Returns (low, high, coverage). For noisy timings, whose rounds vary by tens
    of percent on a shared machine, this says whether a guard is decided without assuming a shape."""
    v = sorted(values)
    n = len(v)
    if n == 0:
        return (math.nan, math.nan, 0.0)
    below = [math.comb(n, i) / 2.0 ** n for i in range(n + 1)]   # P(exactly i values below the median)
    k = 0   # interval [v[k], v[n-1-k]]: it misses the median when at most k values lie below or above it
    while k + 1 <= (n - 1) // 2 and 1 - 2 * sum(below[:k + 2]) >= level:
        k += 1
    return (v[k], v[n - 1 - k], 1 - 2 * sum(below[:k + 1]))
