"""Running tallies of a run, and the plain-text summary the CLI prints after it."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.stats import t as student_t

from .intervals import effective_wilson

# per key, summed over clusters: clusters G, rows m, m^2, then for wins and for scores y, y^2, y m
G, M, M2, WIN, WIN2, WINM, SCORE, SCORE2, SCOREM = range(9)


class Summary:
    """Running tallies of a run by cluster, so a huge run never needs all rows in memory.

    A cluster is what shares chance: a duplicate deal (its rotations) or else a game (its seats).
    For each key (seat and strategy; strategy; the game as a whole) the tally keeps, over clusters,
    the sums of m, m^2 and of y, y^2, y m for each quantity y (wins, scores; lengths and shared wins
    of the game), which is all a cluster-robust variance needs. A deal that a chunk boundary splits
    waits, summed, until its other rows arrive (chunks come in any order)."""

    def __init__(self):
        self.by_seat: dict[tuple[int, str], np.ndarray] = {}
        self.by_strategy: dict[str, np.ndarray] = {}
        self.game = np.zeros(9)          # y: length (as WIN), shared wins (as SCORE); m: games
        self.games = 0
        self.waiting: tuple[pd.DataFrame, pd.DataFrame] | None = None

    def add(self, frame: pd.DataFrame, length_column: str) -> None:
        per_cluster = int(frame["players"].iloc[0]) if "deal" in frame else 1     # games a complete cluster holds
        cluster = frame["deal"] if "deal" in frame else frame["game"]
        rows = frame.assign(cluster=cluster.to_numpy(), n=1.0, win=frame["win"].astype(np.float64),
                            score=frame["score"].astype(np.float64))
        seats = rows.groupby(["cluster", "seat", "strategy"], observed=True)[["n", "win", "score"]].sum()
        first = rows[rows["seat"] == 0].set_index("game")
        games = pd.DataFrame({"cluster": first["cluster"], "games": 1.0,
                              "length": first[length_column].astype(np.float64),
                              "shared": frame.groupby("game")["shared_win"].any().astype(np.float64)})
        games = games.groupby("cluster")[["games", "length", "shared"]].sum()
        if self.waiting is not None:
            seats = pd.concat([self.waiting[0], seats]).groupby(level=[0, 1, 2], observed=True).sum()
            games = pd.concat([self.waiting[1], games]).groupby(level=0).sum()
        whole = games.index[games["games"] == per_cluster]
        self.waiting = (seats[~seats.index.get_level_values(0).isin(whole)], games.drop(whole))
        self._fold(seats[seats.index.get_level_values(0).isin(whole)], games.loc[whole])

    def _fold(self, seats: pd.DataFrame, games: pd.DataFrame) -> None:
        self.games += int(games["games"].sum())
        self.game += _sums(games["games"], games["length"], games["shared"])
        for key, g in seats.groupby(level=[1, 2], observed=True):
            self.by_seat[key] = self.by_seat.get(key, 0) + _sums(g["n"], g["win"], g["score"])
        strategies = seats.groupby(level=[0, 2], observed=True).sum()
        for name, g in strategies.groupby(level=1, observed=True):
            self.by_strategy[name] = self.by_strategy.get(name, 0) + _sums(g["n"], g["win"], g["score"])

    def rows(self) -> list[dict]:
        """Per seat and strategy (``seat`` 1-based) and per strategy (``seat`` None): games, win rate
        and mean score with their 95% intervals, clustered by deal (duplicate play) or game."""
        if self.waiting is not None and len(self.waiting[1]):      # an unfinished run: its split deals as they are
            self._fold(*self.waiting)
            self.waiting = None
        out = []
        for key, t in sorted(self.by_seat.items()) + sorted(self.by_strategy.items()):
            seat, name = (key[0] + 1, key[1]) if isinstance(key, tuple) else (None, key)
            out.append({"seat": seat, "strategy": name, "games": int(t[M]), "win_rate": _rate(t), "score": _mean(t, SCORE)})
        return out

    def format(self, players: int) -> str:
        """Win rate per seat and per strategy with 95% intervals, mean score, game length."""
        rows = self.rows()
        fair = 1 / players
        lines = [f"{self.games:,} games, {players} players. Fair win rate {fair:.1%}. 95% confidence intervals, "
                 "clustered by deal (duplicate) or game."]
        mean_len, lo_len, hi_len = _mean(self.game, WIN)
        shared = self.game[SCORE] / max(1.0, self.game[M])
        lines.append(f"Game length: {mean_len:.2f} [{lo_len:.2f}, {hi_len:.2f}]; games with a shared win: {shared:.1%}")
        header = f"{'':<6}{'strategy':<28}{'games':>9}  {'win rate':<24}{'mean score':<24}"
        for title, part in (("By seat", [r for r in rows if r["seat"] is not None]),
                            ("By strategy", [r for r in rows if r["seat"] is None])):
            if title == "By strategy" and len(part) < 2:
                continue
            lines += ["", title, header]
            for r in part:
                (rate, lo, hi), (m, mlo, mhi) = r["win_rate"], r["score"]
                lines.append(f"{r['seat'] or '':<6}{r['strategy']:<28}{r['games']:>9,}  {rate:>6.1%} [{lo:.1%}, {hi:.1%}]   "
                             f"{m:>6.2f} [{mlo:.2f}, {mhi:.2f}]")
        return "\n".join(lines)


def _sums(m, wins, scores) -> np.ndarray:
    m, y, s = (np.asarray(x, dtype=np.float64) for x in (m, wins, scores))
    return np.array([len(m), m.sum(), (m * m).sum(), y.sum(), (y * y).sum(), (y * m).sum(),
                     s.sum(), (s * s).sum(), (s * m).sum()])


def _variance(t: np.ndarray, at: int) -> tuple[float, float]:
    """The ratio mean sum(y) / sum(m) of quantity ``at`` and its cluster-robust variance."""
    mu = t[at] / t[M]
    g = t[G]
    spread = t[at + 1] - 2 * mu * t[at + 2] + mu * mu * t[M2]           # sum over clusters of (y - mu m)^2
    return mu, (g / (g - 1) * max(spread, 0.0) / t[M] ** 2 if g > 1 else math.inf)


def _quantile(t: np.ndarray) -> float:
    return float(student_t.ppf(0.975, max(1.0, t[G] - 1)))


def _mean(t: np.ndarray, at: int) -> tuple[float, float, float]:
    if t[M] <= 0:
        return (math.nan, math.nan, math.nan)
    mu, var = _variance(t, at)
    half = _quantile(t) * math.sqrt(var)
    return (mu, mu - half, mu + half)


def _rate(t: np.ndarray) -> tuple[float, float, float]:
    p, var = _variance(t, WIN)
    lo, hi = effective_wilson(p, var, int(t[G]), t[M], _quantile(t)) if math.isfinite(var) else (0.0, 1.0)
    return (p, lo, hi)
