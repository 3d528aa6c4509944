"""Running tallies of a run, and the plain-text summary the CLI prints after it."""
from __future__ import annotations

import numpy as np

from .stats import mean_ci, wilson


class Summary:
    """Running per-seat and per-strategy tallies, so a huge run never needs all rows in memory."""

    def __init__(self):
        self.by_seat: dict[tuple[int, str], np.ndarray] = {}
        self.by_strategy: dict[str, np.ndarray] = {}
        self.games = 0
        self.length = np.zeros(2)
        self.shared_games = 0

    def add(self, frame, length_column: str) -> None:
        first = frame[frame["seat"] == 0]
        self.games += len(first)
        lengths = first[length_column].to_numpy(np.float64)
        self.length += (lengths.sum(), (lengths * lengths).sum())
        self.shared_games += int(frame.groupby("game")["shared_win"].any().sum())
        score = frame["score"].to_numpy(np.float64)
        stats = frame.assign(score2=score * score, n=1).groupby(["seat", "strategy"], observed=True)[
            ["n", "win", "shared_win", "score", "score2"]].sum()
        for key, row in stats.iterrows():
            self.by_seat[key] = self.by_seat.get(key, 0) + row.to_numpy(np.float64)
            self.by_strategy[key[1]] = self.by_strategy.get(key[1], 0) + row.to_numpy(np.float64)

    def format(self, players: int) -> str:
        """Win rate per seat and per strategy with 95% intervals, mean score, game length."""
        fair = 1 / players
        lines = [f"{self.games:,} games, {players} players. Fair win rate {fair:.1%}. 95% confidence intervals."]
        mean_len, lo_len, hi_len = mean_ci(self.length[0], self.length[1], self.games)
        lines.append(f"Game length: {mean_len:.2f} [{lo_len:.2f}, {hi_len:.2f}]; "
                     f"games with a shared win: {self.shared_games / max(1, self.games):.1%}")
        header = f"{'':<6}{'strategy':<28}{'games':>9}  {'win rate':<24}{'mean score':<24}"
        for title, rows in (("By seat", sorted(self.by_seat.items())),
                            ("By strategy", sorted(self.by_strategy.items()))):
            if title == "By strategy" and len(rows) < 2:
                continue
            lines += ["", title, header]
            for key, (n, wins, shared, score, score2) in rows:
                seat, name = (f"{key[0] + 1}", key[1]) if isinstance(key, tuple) else ("", key)
                lo, hi = wilson(wins, n)
                m, mlo, mhi = mean_ci(score, score2, n)
                lines.append(f"{seat:<6}{name:<28}{int(n):>9,}  {wins / n:>6.1%} [{lo:.1%}, {hi:.1%}]   "
                             f"{m:>6.2f} [{mlo:.2f}, {mhi:.2f}]")
        return "\n".join(lines)
