"""Calibration of the rating ladder (:mod:`simlab.analysis.rating`): every pair plays the same deals."""
from __future__ import annotations

from itertools import combinations

import numpy as np

from simlab.analysis import rating

from . import COVERAGE, EPS, FAMILY, Check, covered

def ladder_truth(skills, suits_sd: float, chance: float, seed: int = 12345, deals: int = 200_000) -> np.ndarray:
    """Bradley-Terry ratings (entrant 0 at 0) fitted to the exact pairwise shares of the world."""
    k = len(skills)
    rng = np.random.default_rng(seed)
    v = np.asarray(skills) + rng.standard_normal((deals, k)) * suits_sd
    wins = np.zeros((k, k))
    for i, j in combinations(range(k), 2):
        d = v[:, i] - v[:, j]
        p = (np.where(d > 0, 1.0, np.where(d < 0, 0.0, 0.5)) if chance == 0 else 1 / (1 + np.exp(-d / chance))).mean()
        wins[i, j], wins[j, i] = p, 1 - p
    games = 1.0 - np.eye(k)
    return rating.bradley_terry(wins * 1e6, games * 1e6, anchor=0, prior=0.0)


def ladder_games(rng, skills, suits_sd: float, seat_sd: float, chance: float, deals: int):
    """Every pair's per-deal results on shared deals: the deal suits each entrant (``suits``) and
    favours a seat (``favours``); each deal is played in both seat orders."""
    k = len(skills)
    suits = rng.standard_normal((deals, k)) * suits_sd
    favours = rng.standard_normal(deals) * seat_sd
    clusters = {}
    for i, j in combinations(range(k), 2):
        w = np.zeros(deals)
        for first in (0, 1):       # rotation 0: i in the first seat; rotation 1: j
            edge = favours if first == 0 else -favours
            d = skills[i] + suits[:, i] - skills[j] - suits[:, j] + edge
            if chance:
                d = d + chance * (rng.gumbel(size=deals) - rng.gumbel(size=deals))
            w += np.where(d > 0, 1.0, np.where(d < 0, 0.0, 0.5))
        clusters[(i, j)] = (w, np.full(deals, 2.0))
    return clusters


def ladder_check(setting: str, skills, suits_sd: float, seat_sd: float, chance: float, deals: int,
                 fast: int = 200) -> Check:
    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        truth = ladder_truth(skills, suits_sd, chance)
        k = len(skills)
        rng = np.random.default_rng(seed)
        hits = {f"rating of entrant {e}": np.zeros(reps, bool) for e in range(1, k)}
        wrong = np.zeros(reps, bool)
        for i in range(reps):
            lad = rating.bootstrap(ladder_games(rng, skills, suits_sd, seat_sd, chance, deals), k, reps=400, seed=i)
            for e in range(1, k):
                hits[f"rating of entrant {e}"][i] = covered(lad["lo"][e], lad["hi"][e], truth[e])
            d = truth[:, None] - truth[None, :]
            wrong[i] = bool(((lad["diff_lo"] > 0) & (d <= EPS)).any() or ((lad["diff_hi"] < 0) & (d >= -EPS)).any())
        return {**hits, "order claims (places, ties)": (FAMILY, wrong)}
    return Check("rating ladder (rating.bootstrap)", setting, COVERAGE, play, fast=fast, thorough=1000)


LADDER_CHECKS = [
    ladder_check("5 entrants, large deal effects (as Karuba)", (0.0, 1.0, 1.6, 1.7, 2.5), 1.2, 0.5, 0.3, 300),
    ladder_check("5 entrants, no deal effects", (0.0, 1.0, 1.6, 1.7, 2.5), 0.0, 0.0, 1.0, 300),
]
