"""Calibration of the rating ladder (:mod:`simlab.measures.rating`): every pair plays the same deals, and
a pair with a search entrant only the first of them, as on the real ladders."""
from __future__ import annotations

from itertools import combinations
from statistics import NormalDist

import numpy as np
from numpy.polynomial.hermite_e import hermegauss

from simlab.measures import rating

from . import COVERAGE, EPS, FAMILY, Check, covered

SHORT = 10      # a pair with a search entrant plays this fraction (1/SHORT) of the deals


def pair_deals(k: int, deals: int, short=()) -> dict[tuple[int, int], int]:
    """Deals each pair plays: all of them, or the first ``deals // SHORT`` when a ``short`` entrant is in it."""
    return {(i, j): deals // SHORT if {i, j} & set(short) else deals for i, j in combinations(range(k), 2)}


def share(d, chance: float):
    """Chance of finishing ahead by ``d`` before the game's chance (logistic of scale ``chance``; a tie half)."""
    return np.where(d > 0, 1.0, np.where(d < 0, 0.0, 0.5)) if chance == 0 else 1 / (1 + np.exp(-d / chance))


def pair_share(gap: float, spread: float, chance: float) -> float:
    """Share of games ahead for an entrant ``gap`` stronger, when the deal (how it suits each, which seat
    it favours) adds a normal of SD ``spread``: by Gauss-Hermite quadrature, or the normal CDF without
    chance. Exact, so that equal entrants are exactly level (a tie claimed either way is wrong)."""
    if spread == 0 or chance > 0:
        x, w = hermegauss(201)
        return float(w @ share(gap + spread * x, chance) / w.sum())
    return NormalDist(0, spread).cdf(gap)


def ladder_truth(skills, suits_sd: float, seat_sd: float, chance: float, weights: dict | None = None) -> np.ndarray:
    """Bradley-Terry ratings (entrant 0 at 0) fitted to the exact pairwise shares of the world (either seat
    order: the seat's favour adds to the deal's spread), each pair weighted by its deals (``weights``) as
    the estimator weighs it: Bradley-Terry need not fit the shares exactly, and then what it estimates
    depends on the weights."""
    k = len(skills)
    spread = float(np.hypot(np.sqrt(2) * suits_sd, seat_sd))
    wins, games = np.zeros((k, k)), np.zeros((k, k))
    for (i, j), n in (weights or pair_deals(k, 1)).items():
        p = pair_share(skills[i] - skills[j], spread, chance)
        wins[i, j], wins[j, i] = p * n, (1 - p) * n
        games[i, j] = games[j, i] = n
    return rating.bradley_terry(wins * 1e6, games * 1e6, anchor=0, prior=0.0)


def ladder_games(rng, skills, suits_sd: float, seat_sd: float, chance: float, deals: dict[tuple[int, int], int]):
    """Every pair's per-deal results on shared deals (deal ``d`` of every pair is the same deal; a pair
    plays the first ``deals[(i, j)]``): the deal suits each entrant (``suits``) and favours a seat
    (``favours``); each deal is played in both seat orders."""
    k = len(skills)
    most = max(deals.values())
    suits = rng.standard_normal((most, k)) * suits_sd
    favours = rng.standard_normal(most) * seat_sd
    clusters = {}
    for (i, j), m in deals.items():
        w = np.zeros(m)
        for edge in (favours[:m], -favours[:m]):      # i in the first seat, then j
            d = skills[i] + suits[:m, i] - skills[j] - suits[:m, j] + edge
            if chance:
                d = d + chance * (rng.gumbel(size=m) - rng.gumbel(size=m))
            w += np.where(d > 0, 1.0, np.where(d < 0, 0.0, 0.5))
        clusters[(i, j)] = (np.arange(m), w, np.full(m, 2.0))
    return clusters


def ladder_check(setting: str, skills, suits_sd: float, seat_sd: float, chance: float, deals: int, short=(),
                 fast: int = 200) -> Check:
    """Ratings (each entrant's interval holds its truth) and the order claims (places, ties: no
    difference interval excludes 0 on the wrong side), with the pairs of ``short`` entrants on
    1/SHORT of the ``deals``."""
    k = len(skills)
    per_pair = pair_deals(k, deals, short)

    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        truth = ladder_truth(skills, suits_sd, seat_sd, chance, per_pair)
        d = truth[:, None] - truth[None, :]
        rng = np.random.default_rng(seed)
        hits = np.zeros((reps, k - 1), bool)
        wrong = np.zeros(reps, bool)
        for i in range(reps):
            lad = rating.bootstrap(ladder_games(rng, skills, suits_sd, seat_sd, chance, per_pair), k, reps=400, seed=i)
            hits[i] = [covered(lad["lo"][e], lad["hi"][e], truth[e]) for e in range(1, k)]
            wrong[i] = bool(((lad["diff_lo"] > 0) & (d <= EPS)).any() or ((lad["diff_hi"] < 0) & (d >= -EPS)).any())
        return {**{f"rating of entrant {e}": hits[:, e - 1] for e in range(1, k)},
                "order claims (places, ties)": (FAMILY, wrong)}
    return Check("rating ladder (rating.bootstrap)", setting, COVERAGE, play, fast=fast, thorough=1000)


KARUBA = (1.2, 0.5, 0.3)     # deal effects (suits), seat effects (favours), chance: large deal effects, as Karuba's

LADDER_CHECKS = [
    ladder_check("5 entrants, large deal effects (as Karuba)", (0.0, 1.0, 1.6, 1.7, 2.5), *KARUBA, 300),
    ladder_check("5 entrants, no deal effects", (0.0, 1.0, 1.6, 1.7, 2.5), 0.0, 0.0, 1.0, 300),
    ladder_check("5 entrants, large deal effects, the top two on 1/10 of the deals (as search entrants)",
                 (0.0, 1.0, 1.6, 1.7, 2.5), *KARUBA, 500, short=(3, 4)),
    ladder_check("8 entrants, three level and two level (the two on 1/10 of the deals), large deal effects",
                 (0.0, 0.9, 1.5, 1.5, 1.5, 2.2, 2.4, 2.4), *KARUBA, 500, short=(6, 7)),
]
