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
