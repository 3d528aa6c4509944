"""Standard balance measures over result frames (one row per game and seat).

Every function takes a frame as written by the run engine (``game, seat, players, strategy,
score, rank, win, shared_win`` plus the game's columns), possibly several runs concatenated
(different player counts), and returns a small pandas frame with estimates and intervals.
"Win" counts shared wins as wins, so the fair reference for a seat or strategy is the average
win rate of all rows at that player count (1/players when nobody ever shares a win).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .stats import Estimate, difference_of_means, mean, proportion


def combine(frames: list[pd.DataFrame], labels: list[str] | None = None) -> pd.DataFrame:
    """Stack the frames of several runs, renumbering game ids so they stay unique.

    Runs restart at game id 0, so measures that pair rows by game need this. The original id is
    kept in ``run_game`` and the run's label (or index) in ``run``.
    """
    out, offset, deal_offset = [], 0, 0
    for i, f in enumerate(frames):
        f = f.copy()
        f["run"] = labels[i] if labels else str(i)
        f["run_game"] = f["game"]
        if "deal" in f:   # duplicate runs: deals stay distinct clusters across runs too
            f["deal"] = f["deal"] - int(f["deal"].min()) + deal_offset
            deal_offset = int(f["deal"].max()) + 1
        f["game"] = f["game"] - int(f["game"].min()) + offset
        f["strategy"] = f["strategy"].astype(str)
        offset = int(f["game"].max()) + 1
        out.append(f)
    return pd.concat(out, ignore_index=True)


def _by_players(frame: pd.DataFrame):
    for n, g in frame.groupby("players", observed=True, sort=True):
        yield int(n), g


def per_game(frame: pd.DataFrame, column: str) -> pd.Series:
    """A game-level column (the same on every seat row) as one value per game (seat 0's row)."""
    return frame.loc[frame["seat"] == 0, column]


def fair_rate(frame: pd.DataFrame) -> float:
    """The win rate every seat would have in a perfectly fair game at this player count."""
    return float(frame["win"].mean())


def win_by_seat(frame: pd.DataFrame) -> pd.DataFrame:
    """Win rate of each seat (1 = start player), per player count, with Wilson intervals."""
    rows = []
    for n, g in _by_players(frame):
        fair = fair_rate(g)
        for seat, s in g.groupby("seat", sort=True):
            e = proportion(int(s["win"].sum()), len(s))
            rows.append({"players": n, "seat": int(seat) + 1, "games": e.n, "win_rate": e.value, "lo": e.lo,
                         "hi": e.hi, "fair": fair, "mean_score": float(s["score"].mean())})
    return pd.DataFrame(rows)


def tie_rate(frame: pd.DataFrame) -> pd.DataFrame:
    """Share of games whose win is shared (equal score and tie-break), per player count."""
    rows = []
    for n, g in _by_players(frame):
        shared = g.groupby("game")["shared_win"].any()
        e = proportion(int(shared.sum()), len(shared))
        rows.append({"players": n, "games": e.n, "tie_rate": e.value, "lo": e.lo, "hi": e.hi})
    return pd.DataFrame(rows)


def describe(values) -> dict:
    """Mean with interval, spread and quantiles of a sample."""
    v = np.asarray(values, dtype=np.float64)
    e = mean(v)
    q = np.quantile(v, [0.05, 0.25, 0.5, 0.75, 0.95]) if v.size else [math.nan] * 5
    return {"n": e.n, "mean": e.value, "lo": e.lo, "hi": e.hi, "sd": float(v.std(ddof=1)) if v.size > 1 else math.nan,
            "min": float(v.min()) if v.size else math.nan, "p5": q[0], "p25": q[1], "median": q[2], "p75": q[3],
            "p95": q[4], "max": float(v.max()) if v.size else math.nan}


def length_distribution(frame: pd.DataFrame, length_column: str) -> pd.DataFrame:
    return pd.DataFrame([{"players": n, **describe(per_game(g, length_column))} for n, g in _by_players(frame)])


def score_distribution(frame: pd.DataFrame) -> pd.DataFrame:
    """Scores of all seats and of winners, per player count."""
    rows = []
    for n, g in _by_players(frame):
        rows.append({"players": n, "who": "all seats", **describe(g["score"])})
        rows.append({"players": n, "who": "winners", **describe(g.loc[g["win"], "score"])})
    return pd.DataFrame(rows)


def margins(frame: pd.DataFrame) -> pd.DataFrame:
    """Per game: winning score minus the best score of a non-winner (0 when the win is shared on score)."""
    wide = frame.pivot(index="game", columns="seat", values="score").to_numpy(np.float64)
    s = np.sort(wide, axis=1)
    out = pd.DataFrame({"game": frame.loc[frame["seat"] == 0, "game"].to_numpy(),
                        "margin": s[:, -1] - s[:, -2]})
    return out


def winning_margin(frame: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for n, g in _by_players(frame):
        m = margins(g)["margin"].to_numpy()
        close = proportion(int((m <= 1).sum()), len(m))
        rows.append({"players": n, **describe(m), "close_games": close.value, "close_lo": close.lo,
                     "close_hi": close.hi})
    return pd.DataFrame(rows)


def strategy_rates(frame: pd.DataFrame) -> pd.DataFrame:
    """Win rate and mean score of each strategy, per player count (seat effects averaged out by
    rotation when the run was rotated)."""
    rows = []
    for n, g in _by_players(frame):
        fair = fair_rate(g)
        for name, s in g.groupby("strategy", observed=True, sort=True):
            e = proportion(int(s["win"].sum()), len(s))
            m = mean(s["score"])
            rows.append({"players": n, "strategy": str(name), "seats_played": e.n, "win_rate": e.value, "lo": e.lo,
                         "hi": e.hi, "fair": fair, "mean_score": m.value, "score_lo": m.lo, "score_hi": m.hi})
    return pd.DataFrame(rows)


def head_to_head(frame: pd.DataFrame) -> pd.DataFrame:
    """For every ordered pair of different strategies met in the same game: how often A finishes
    ahead of B (a tie counts one half), with a Wilson interval on the half-counted total.

    Returns long format: a, b, meetings, a_ahead (share), lo, hi.
    """
    names = sorted(str(s) for s in frame["strategy"].unique())
    code = {s: i for i, s in enumerate(names)}
    k = len(names)
    ahead = np.zeros((k, k))
    meet = np.zeros((k, k))
    for _, g in _by_players(frame):
        rank = g.pivot(index="game", columns="seat", values="rank").to_numpy()
        strat = g.pivot(index="game", columns="seat", values="strategy").astype(str).replace(code).to_numpy(np.int64)
        seats = rank.shape[1]
        for i in range(seats):
            for j in range(seats):
                if i == j:
                    continue
                a, b = strat[:, i], strat[:, j]
                diff = a != b
                score = np.where(rank[:, i] < rank[:, j], 1.0, np.where(rank[:, i] == rank[:, j], 0.5, 0.0))
                np.add.at(ahead, (a[diff], b[diff]), score[diff])
                np.add.at(meet, (a[diff], b[diff]), 1)
    rows = []
    for x in range(k):
        for y in range(k):
            if x != y and meet[x, y] > 0:
                e = proportion(ahead[x, y], meet[x, y])
                rows.append({"a": names[x], "b": names[y], "meetings": int(meet[x, y]), "a_ahead": e.value,
                             "lo": e.lo, "hi": e.hi})
    return pd.DataFrame(rows, columns=["a", "b", "meetings", "a_ahead", "lo", "hi"])


def ranking(h2h: pd.DataFrame) -> pd.DataFrame:
    """Rank strategies by their average head-to-head share against every other strategy met
    (each opponent weighted equally), with a Wilson interval on the pooled count."""
    rows = []
    for name, g in h2h.groupby("a", sort=False):
        avg = float(g["a_ahead"].mean())
        e = proportion(float((g["a_ahead"] * g["meetings"]).sum()), float(g["meetings"].sum()))
        rows.append({"strategy": name, "avg_ahead": avg, "pooled": e.value, "lo": e.lo, "hi": e.hi,
                     "opponents": len(g), "meetings": int(g["meetings"].sum())})
    out = pd.DataFrame(rows, columns=["strategy", "avg_ahead", "pooled", "lo", "hi", "opponents", "meetings"])
    out = out.sort_values("avg_ahead", ascending=False).reset_index(drop=True)
    out.insert(0, "rank", np.arange(1, len(out) + 1))
    return out


def skill_share(frame: pd.DataFrame, strong: str) -> pd.DataFrame:
    """How much of winning is skill, per player count, from games of ``strong`` against random play.

    skill = (p - f) / (1 - f), with p the strong strategy's win rate and f the fair rate: 0 when
    the heuristic wins no more often than chance (pure luck), 1 when it always wins.
    The interval maps the Wilson interval of p through the same formula.
    """
    rows = []
    for n, g in _by_players(frame):
        fair = fair_rate(g)
        s = g[g["strategy"].astype(str) == strong]
        e = proportion(int(s["win"].sum()), len(s))

        def f(p):
            return (p - fair) / (1 - fair)

        others = g[g["strategy"].astype(str) != strong]
        beats = _pairwise_ahead(g, strong)
        rows.append({"players": n, "strong": strong, "games": e.n, "win_rate": e.value, "lo": e.lo, "hi": e.hi,
                     "fair": fair, "skill": f(e.value), "skill_lo": f(e.lo), "skill_hi": f(e.hi),
                     "beats_random": beats.value, "beats_lo": beats.lo, "beats_hi": beats.hi,
                     "score_gap": float(s["score"].mean() - others["score"].mean())})
    return pd.DataFrame(rows)


def _pairwise_ahead(g: pd.DataFrame, strong: str) -> Estimate:
    h = head_to_head(g)
    h = h[h["a"] == strong]
    return proportion(float((h["a_ahead"] * h["meetings"]).sum()), float(h["meetings"].sum()))


def usage(frame: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """For each numeric seat column: mean for winners vs the other seats, their difference with a
    Welch interval, and the standardized difference (difference / pooled sd).

    A column that never varies is a dead option; a large standardized difference marks a feature
    strongly tied to winning (possibly overpowered, or simply a consequence of scoring).
    """
    rows = []
    for n, g in _by_players(frame):
        win = g["win"].to_numpy(bool)
        for col in columns:
            v = g[col].to_numpy(np.float64)
            d = difference_of_means(v[win], v[~win])
            sd = float(v.std(ddof=1)) if v.size > 1 else 0.0
            rows.append({"players": n, "column": col, "winners": float(v[win].mean()) if win.any() else math.nan,
                         "others": float(v[~win].mean()) if (~win).any() else math.nan, "difference": d.value,
                         "lo": d.lo, "hi": d.hi, "std_diff": d.value / sd if sd > 0 else 0.0,
                         "never_varies": bool(sd == 0), "share_nonzero": float((v != 0).mean())})
    return pd.DataFrame(rows)


def seat_columns(spec) -> list[str]:
    """The game's per-seat columns whose mean means something (counts, amounts, points, 0/1 flags),
    and the named bits of its bitmasks (see :func:`decode_bits`). Game-level columns are equal for
    winners and others; codes, rounds with 0 = never and raw bitmasks cannot be averaged."""
    return [c.name for c in spec.columns if c.per == "seat" and c.kind == "count"] + list(bit_columns(spec))


def bit_columns(spec) -> dict[str, tuple[str, int]]:
    """``"mask: bit name" -> (mask column, bit)`` for every named bit of the game's per-seat bitmasks."""
    return {f"{c.name}: {name}": (c.name, k) for c in spec.columns if c.per == "seat" and c.kind == "mask"
            for k, name in enumerate(c.bits)}


def decode_bits(frame: pd.DataFrame, spec) -> pd.DataFrame:
    """``frame`` with a 0/1 column per named bit of the game's per-seat bitmasks (1 = the bit is set)."""
    bits = bit_columns(spec)
    return frame.assign(**{name: (frame[col].to_numpy(np.int64) >> k) & 1 for name, (col, k) in bits.items()})
