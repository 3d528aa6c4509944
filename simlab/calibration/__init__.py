"""Calibration: every interval and verdict the reports state, checked against a known truth.

A report's "95% interval" and "a statistical tie" are promises. Each :class:`Check` here plays a
synthetic world (:mod:`.worlds`) with a known truth under one dependence structure the tool
creates (independent games, duplicate rotations correlated 0 to 1, seats at one table, pairs on
shared deals, rare events, small samples), hands every sample to the project's own estimator, and
counts: for an interval, how often it holds the truth (its **coverage**, to lie in
[93%, 97.5%] for a 95% interval); for a family of verdicts, how often at least one of them is
wrong (its **family-wise error**, at most 5%: not measurably above it).

Two tiers: ``fast`` (the test suite: a few hundred samples per check, fixed seeds; a check fails
when its measured rate is incompatible with the target at the 99% level, which a broken method
is) and ``thorough`` (``simlab calibrate``: thousands of samples, the measured rate itself must
lie in the target range).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

from simlab.core.intervals import wilson

COVERAGE, FAMILY = "coverage", "family-wise error"
LOW, HIGH = 0.93, 0.975          # a 95% interval's measured coverage must lie here
FWER = 0.05                      # a family of verdicts may be wrong together at most this often
TIERS = ("fast", "thorough")
EPS = 1e-9                       # a truth this close to an interval's end counts as inside it


def covered(lo: float, hi: float, truth: float) -> bool:
    return lo - EPS <= truth <= hi + EPS


@dataclass(frozen=True)
class Check:
    """One estimator in one setting. ``play(reps, seed)`` returns, per quantity the estimator
    states, one boolean per sample: covered (``COVERAGE``) or at least one verdict wrong (``FAMILY``);
    a quantity of the other kind than the check's comes as ``(kind, booleans)``."""

    estimator: str
    setting: str
    kind: str
    play: Callable[[int, int], dict[str, np.ndarray]]
    fast: int = 300
    thorough: int = 2000
    seed: int = 1

    @property
    def name(self) -> str:
        return f"{self.estimator} | {self.setting}"


def target(kind: str) -> str:
    return f"[{LOW:.1%}, {HIGH:.1%}]" if kind == COVERAGE else f"<= {FWER:.0%}"


def judge(kind: str, hits: int, reps: int, tier: str) -> bool:
    """Thorough: a coverage must lie in [93%, 97.5%]; a family-wise error must not be shown above 5%
    (its 95% interval reaches 5%): a method that controls it exactly sits at 5% in its least
    favourable case, all options equal, so its measured rate is above 5% half the time. Fast: the
    rate's 99% interval reaches the target (a small sample cannot rule a method in, but it rules a
    broken one out)."""
    rate = hits / reps
    if tier == "thorough":
        return LOW <= rate <= HIGH if kind == COVERAGE else wilson(hits, reps)[0] <= FWER
    lo, hi = wilson(hits, reps, 2.5758293035489)
    return (hi >= LOW and lo <= HIGH) if kind == COVERAGE else lo <= FWER


def run_check(check: Check, tier: str = "fast", reps: int | None = None, seed: int | None = None) -> pd.DataFrame:
    """Play ``check`` and return one row per quantity: measured rate, its 95% interval, verdict."""
    n = reps or (check.fast if tier == "fast" else check.thorough)
    start = time.perf_counter()
    outcomes = check.play(n, check.seed if seed is None else seed)
    seconds = time.perf_counter() - start
    rows = []
    for quantity, hit in outcomes.items():
        kind, hit = hit if isinstance(hit, tuple) else (check.kind, hit)
        hit = np.asarray(hit, dtype=bool)
        k, m = int(hit.sum()), hit.size
        lo, hi = wilson(k, m)
        rows.append({"estimator": check.estimator, "setting": check.setting, "quantity": quantity,
                     "kind": kind, "target": target(kind), "samples": m, "measured": k / m,
                     "lo": lo, "hi": hi, "ok": judge(kind, k, m, tier), "seconds": seconds})
    return pd.DataFrame(rows)


def table_text(results: pd.DataFrame) -> str:
    """The results as a fixed-width table a terminal prints."""
    lines = []
    w_est = max(9, *(len(s) for s in results["estimator"]))
    w_set = max(7, *(len(s) for s in results["setting"]))
    w_q = max(8, *(len(s) for s in results["quantity"]))
    head = f"{'estimator':<{w_est}}  {'setting':<{w_set}}  {'quantity':<{w_q}}  {'target':<15} {'samples':>7}  {'measured [95% CI]':<24} ok"
    lines += [head, "-" * len(head)]
    for r in results.itertuples():
        measured = f"{r.measured:6.1%} [{r.lo:.1%}, {r.hi:.1%}]"
        what = "coverage" if r.kind == COVERAGE else "FWER"
        lines.append(f"{r.estimator:<{w_est}}  {r.setting:<{w_set}}  {r.quantity:<{w_q}}  {what + ' ' + r.target:<15} "
                     f"{r.samples:>7,}  {measured:<24} {'yes' if r.ok else 'NO'}")
    return "\n".join(lines)


def seconds_text(s: float) -> str:
    return f"{s:.1f} s" if s < 120 else f"{math.floor(s / 60)} min {s % 60:.0f} s"
