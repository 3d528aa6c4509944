"""The calibration checks: one per estimator and setting, each calling the project's own function."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simlab.analysis import fairness as F
from simlab.analysis import tune as T
from simlab.analysis.stats import Estimate, proportion
from simlab.analysis.wording import best_of

from . import COVERAGE, EPS, FAMILY, Check, covered
from .ladder import LADDER_CHECKS
from .worlds import Table

# ---------------------------------------------------------------------------------------------
# luck and skill from duplicate play (fairness.deal_luck)
# ---------------------------------------------------------------------------------------------

def luck_truth(world: Table) -> dict[str, float]:
    """The true shares of a player's result variance: skill (which strategy), deal (what the deal
    gives a strategy wherever it sits: the covariance of its results in two seatings of one deal),
    seat (what changes with the seating), luck = deal + seat."""
    p = world.slot_win_by_deal()                          # [d, r, k]
    n = world.players
    m = p.mean(axis=(0, 1))
    skill = float(((m - m.mean()) ** 2).mean())
    total = m * (1 - m)                                   # a 0/1 win: Var(Y_k) = m_k (1 - m_k)
    deal = (n * n * p.mean(axis=1).var(axis=0) - p.var(axis=0).sum(axis=0)) / (n * (n - 1))
    whole = skill + total.mean()
    return {"skill (strategy)": skill / whole, "deal suits a strategy": deal.mean() / whole,
            "seat within the deal": (total - deal).mean() / whole, "luck (deal and seat)": total.mean() / whole}


def luck_check(setting: str, world: Table, deals: int, fast: int = 150) -> Check:
    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        truth = luck_truth(world)
        rng = np.random.default_rng(seed)
        hits = {c: np.zeros(reps, bool) for c in truth}
        for i in range(reps):
            score, nobody, rotation, deal = world.play(rng, deals, "duplicate")
            t = F.deal_luck(world.frame(score[0], nobody[0], rotation, deal), seed=i).set_index("component")
            for c, v in truth.items():
                hits[c][i] = covered(t.loc[c, "lo"], t.loc[c, "hi"], v)
        return hits
    return Check("luck and skill shares (fairness.deal_luck)", setting, COVERAGE, play, fast=fast, thorough=1000)


# ---------------------------------------------------------------------------------------------
# the best of several options at one table (wording.best_of)
# ---------------------------------------------------------------------------------------------

def best_check(setting: str, world: Table, games: int, fast: int = 400) -> Check:
    """Options at one table (each holds a seat, rotated game by game, as the curse-threshold round
    table): the family of "X is below the best" claims is wrong when an option called below the
    best is truly not."""
    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        truth = world.slot_win_by_deal().mean(axis=(0, 1))
        names = world.strategies
        rng = np.random.default_rng(seed)
        wrong = np.zeros(reps, bool)
        score, nobody, rotation, _ = world.play(rng, games, "rotate", reps)
        for i in range(reps):
            f = world.frame(score[i], nobody[i], rotation, None)
            ests = {}
            for k, name in enumerate(names):
                rows = f[f["strategy"] == name]
                ests[name] = proportion(float(rows["win"].sum()), len(rows))
            best = best_of(ests)
            top = truth[names.index(best.best)]
            wrong[i] = any(truth[k] >= top - EPS for k, name in enumerate(names) if name not in best.tied)
        return {"claims 'below the best'": wrong}
    return Check("the best option at one table (wording.best_of)", setting, FAMILY, play, fast=fast, thorough=2000)


# ---------------------------------------------------------------------------------------------
# tune: a rare yes/no measure of each game on a duplicate mix (tune.interval, tune.tune)
# ---------------------------------------------------------------------------------------------

def rare_games(rng, p: float, rho: float, deals: int, players: int) -> np.ndarray:
    """0/1 per game, rotations of a deal correlated ``rho``: each rotation repeats the deal's own
    draw with probability sqrt(rho), else draws afresh (both at rate p)."""
    base = rng.random(deals) < p
    fresh = rng.random((deals, players)) < p
    keep = rng.random((deals, players)) < np.sqrt(rho)
    return np.where(keep, base[:, None], fresh).ravel().astype(np.float64)


MEASURE = T.MEASURES["curse_elimination_rate"]


def tune_interval_check(p: float, rho: float, deals: int = 500, players: int = 4, fast: int = 400) -> Check:
    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        rng = np.random.default_rng(seed)
        hit = np.zeros(reps, bool)
        deal = pd.Series(np.repeat(np.arange(deals), players))
        for i in range(reps):
            e = T.interval(pd.Series(rare_games(rng, p, rho, deals, players)), deal, MEASURE, players, 0.95)
            hit[i] = covered(e.lo, e.hi, p)
        return {"rate": hit}
    return Check("tune interval (tune.interval)", f"rate {p:.1%}, duplicate rotations correlated {rho:g}, "
                 f"{deals * players:,} games", COVERAGE, play, fast=fast, thorough=2000)


def tune_family_check(truths: tuple[float, ...], band: tuple[float, float], rho: float, batch: int, max_games: int,
                      players: int = 4, fast: int = 200) -> Check:
    """The whole sequential tune: every value's verdict (IN, OUT) must be right together."""
    lo, hi = band

    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        rng = np.random.default_rng(seed)
        wrong = np.zeros(reps, bool)
        level = T.corrected_level(len(truths), batch, max_games)
        deals_max = -(-max_games // players)
        for i in range(reps):
            games = {v: rare_games(rng, p, rho, deals_max, players) for v, p in enumerate(truths)}
            deal = np.repeat(np.arange(deals_max), players)

            def look(v, n):
                n = -(-n // players) * players
                return T.interval(pd.Series(games[v][:n]), pd.Series(deal[:n]), MEASURE, players, level)
            state = T.tune(list(range(len(truths))), look, lo, hi, batch, max_games)
            for v, (verdict, _, _) in state.items():
                inside = lo <= truths[v] <= hi
                wrong[i] |= (verdict == T.IN and not inside) or (verdict == T.OUT and inside)
        return {"IN/OUT verdicts": wrong}
    return Check("tune verdicts (tune.tune, Bonferroni over looks)",
                 f"rates {', '.join(f'{p:.1%}' for p in truths)} against [{lo:.0%}, {hi:.0%}], rotations correlated "
                 f"{rho:g}", FAMILY, play, fast=fast, thorough=1000)


# ---------------------------------------------------------------------------------------------
# the list
# ---------------------------------------------------------------------------------------------

CHECKS: list[Check] = [
    luck_check("2 players, rotations independent", Table((0.35, 0.0), seat=(0.2, 0.0)), 1000),
    luck_check("2 players, rotations correlated about 0.5", Table((0.35, 0.0), seat=(0.2, 0.0), deal_strategy=1.2), 1000),
    luck_check("2 players, the deal decides everything", Table((0.35, 0.0), deal_strategy=1.0, chance=0.0), 1000),
    luck_check("4 players, near-equal strategies, deal and seat effects",
               Table((0.1, 0.05, 0.0, -0.4), seat=(0.15, 0.05, 0.0, 0.0), deal_strategy=0.8, deal_seat=0.5), 500),
    best_check("2 options, equal", Table((0.0, 0.0)), 2000),
    best_check("4 options, equal", Table((0.0, 0.0, 0.0, 0.0)), 2000),
    best_check("5 options, equal", Table((0.0,) * 5), 2000),
    best_check("5 options, two best equal", Table((0.3, 0.3, 0.0, 0.0, -0.3)), 2000),
    *LADDER_CHECKS,
    *[tune_interval_check(p, rho) for rho in (0.0, 0.5, 1.0) for p in (0.001, 0.005, 0.02)],
    tune_family_check((0.01, 0.03, 0.005, 0.02, 0.01), (0.01, 0.03), 1.0, 2000, 20_000),
    tune_family_check((0.01, 0.03, 0.005, 0.02, 0.01), (0.01, 0.03), 0.0, 2000, 20_000),
]
