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

from simlab.measures.fairness import clustered_means, clustered_proportion
from simlab.measures.stats import Estimate, clustered_mean, difference_of_means, mean


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
    """Win rate of each seat (1 = start player), per player count, with intervals clustered by the
    chance the games drew (a duplicate deal's rotations share it)."""
    rows = []
    for n, g in _by_players(frame):
        fair = fair_rate(g)
        for seat, s in g.groupby("seat", sort=True):
            e = _rate(s["win"], s)
            rows.append({"players": n, "seat": int(seat) + 1, "games": len(s), "win_rate": e.value, "lo": e.lo,
                         "hi": e.hi, "fair": fair, "mean_score": float(s["score"].mean())})
    return pd.DataFrame(rows)


def _rate(values: pd.Series, rows: pd.DataFrame) -> Estimate:
    """A rate over ``rows`` (one value each), its interval clustered by their games' chance."""
    return clustered_proportion(values.astype(np.float64), chance_of(rows))


def tie_rate(frame: pd.DataFrame) -> pd.DataFrame:
    """Share of games whose win is shared (equal score and tie-break), per player count."""
    rows = []
    for n, g in _by_players(frame):
        first = g[g["seat"] == 0].set_index("game", drop=False).sort_index()
        shared = g.groupby("game")["shared_win"].any().loc[first.index]
        e = _rate(shared, first)
        rows.append({"players": n, "games": len(first), "tie_rate": e.value, "lo": e.lo, "hi": e.hi})
    return pd.DataFrame(rows)


def describe(values, clusters=None) -> dict:
    """Mean with interval (clustered when ``clusters`` says which values share a game or a deal),
    spread and quantiles of a sample."""
    v = np.asarray(values, dtype=np.float64)
    e = mean(v) if clusters is None else clustered_mean(v, np.asarray(clusters))
    q = np.quantile(v, [0.05, 0.25, 0.5, 0.75, 0.95]) if v.size else [math.nan] * 5
    return {"n": v.size, "mean": e.value, "lo": e.lo, "hi": e.hi, "sd": float(v.std(ddof=1)) if v.size > 1 else math.nan,
            "min": float(v.min()) if v.size else math.nan, "p5": q[0], "p25": q[1], "median": q[2], "p75": q[3],
            "p95": q[4], "max": float(v.max()) if v.size else math.nan}


def length_distribution(frame: pd.DataFrame, length_column: str) -> pd.DataFrame:
    return pd.DataFrame([{"players": n, **describe(per_game(g, length_column), chance_of(g[g["seat"] == 0]))}
                         for n, g in _by_players(frame)])


def score_distribution(frame: pd.DataFrame) -> pd.DataFrame:
    """Scores of all seats and of winners, per player count (a game's seats are one cluster)."""
    rows = []
    for n, g in _by_players(frame):
        won = g[g["win"]]
        rows.append({"players": n, "who": "all seats", **describe(g["score"], chance_of(g))})
        rows.append({"players": n, "who": "winners", **describe(won["score"], chance_of(won))})
    return pd.DataFrame(rows)


def margins(frame: pd.DataFrame) -> pd.DataFrame:
    """Per game: winning score minus the best score of a non-winner (0 when the win is shared on score),
    and the game's ``chance`` (:func:`chance_of`)."""
    wide = frame.pivot(index="game", columns="seat", values="score")
    s = np.sort(wide.to_numpy(np.float64), axis=1)
    first = frame[frame["seat"] == 0].set_index("game", drop=False).loc[wide.index]
    return pd.DataFrame({"game": wide.index.to_numpy(), "margin": s[:, -1] - s[:, -2],
                         "chance": chance_of(first).to_numpy()})


def winning_margin(frame: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for n, g in _by_players(frame):
        m = margins(g)
        close = clustered_proportion((m["margin"] <= 1).astype(np.float64), m["chance"])
        rows.append({"players": n, **describe(m["margin"], m["chance"]), "close_games": close.value,
                     "close_lo": close.lo, "close_hi": close.hi})
    return pd.DataFrame(rows)


def strategy_rates(frame: pd.DataFrame) -> pd.DataFrame:
    """Win rate and mean score of each strategy, per player count (seat effects averaged out by
    rotation when the run was rotated), clustered by the games' chance (a strategy holding two seats,
    a duplicate deal's rotations)."""
    rows = []
    for n, g in _by_players(frame):
        fair = fair_rate(g)
        for name, s in g.groupby("strategy", observed=True, sort=True):
            e = _rate(s["win"], s)
            m = clustered_mean(s["score"], chance_of(s))
            rows.append({"players": n, "strategy": str(name), "seats_played": len(s), "win_rate": e.value, "lo": e.lo,
                         "hi": e.hi, "fair": fair, "mean_score": m.value, "score_lo": m.lo, "score_hi": m.hi})
    return pd.DataFrame(rows)


def meetings(frame: pd.DataFrame) -> pd.DataFrame:
    """Every ordered pair of seats of a game held by different strategies: a, b, whether a finished
    ahead of b (1, a tie 0.5, else 0) and ``chance``, the random streams the game was played with
    (:func:`chance_of`)."""
    parts = []
    for n, g in _by_players(frame):
        g = g.sort_values(["game", "seat"])
        rank = g["rank"].to_numpy().reshape(-1, n)
        strat = g["strategy"].astype(str).to_numpy().reshape(-1, n)
        chance = chance_of(g).to_numpy().reshape(-1, n)[:, 0]
        for i in range(n):
            for j in range(n):
                diff = strat[:, i] != strat[:, j]
                if i == j or not diff.any():
                    continue
                score = np.where(rank[:, i] < rank[:, j], 1.0, np.where(rank[:, i] == rank[:, j], 0.5, 0.0))
                parts.append(pd.DataFrame({"a": strat[diff, i], "b": strat[diff, j], "ahead": score[diff],
                                           "chance": chance[diff]}))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=["a", "b", "ahead", "chance"])


def chance_of(frame: pd.DataFrame) -> pd.Series:
    """The chance each row's game drew: runs on one root seed share it game by game (or deal by deal
    in duplicate play), so games of different runs (combined by :func:`combine`) with the same id
    are not independent. Rows with one value are one cluster."""
    game = frame["run_game"] if "run_game" in frame else frame["game"]
    return game // frame["players"].astype(np.int64) if "deal" in frame else game


def head_to_head(frame: pd.DataFrame) -> pd.DataFrame:
    """For every ordered pair of different strategies met in the same game: how often A finishes
    ahead of B (a tie counts one half), with an interval clustered by the chance the games shared
    (:func:`~.fairness.clustered_proportion`: one game holds several meetings of a pair at 3+
    players, and runs on one seed share their deals).

    Returns long format: a, b, meetings, a_ahead (share), lo, hi.
    """
    rows = []
    for (a, b), g in meetings(frame).groupby(["a", "b"], sort=True):
        e = clustered_proportion(g["ahead"], g["chance"])
        rows.append({"a": a, "b": b, "meetings": len(g), "a_ahead": e.value, "lo": e.lo, "hi": e.hi})
    return pd.DataFrame(rows, columns=["a", "b", "meetings", "a_ahead", "lo", "hi"])


def ranking(frame: pd.DataFrame) -> pd.DataFrame:
    """Rank strategies by their average head-to-head share against every other strategy met
    (each opponent weighted equally), with the pooled share over all its meetings and its interval
    clustered by the chance the games shared. ``attrs["covariance"]``: the pooled shares'
    covariance (a strategy's meeting is its opponent's too), for :func:`~.wording.best_of`."""
    meet = meetings(frame)
    h2h = meet.groupby(["a", "b"])["ahead"].mean().reset_index()
    rows = []
    for name, g in meet.groupby("a", sort=False):
        e = clustered_proportion(g["ahead"], g["chance"])
        rows.append({"strategy": name, "avg_ahead": float(h2h.loc[h2h["a"] == name, "ahead"].mean()), "pooled": e.value,
                     "lo": e.lo, "hi": e.hi, "opponents": int((h2h["a"] == name).sum()), "meetings": len(g)})
    out = pd.DataFrame(rows, columns=["strategy", "avg_ahead", "pooled", "lo", "hi", "opponents", "meetings"])
    out = out.sort_values("avg_ahead", ascending=False).reset_index(drop=True)
    out.insert(0, "rank", np.arange(1, len(out) + 1))
    names = list(out["strategy"])
    _, cov = clustered_means(meet["ahead"], meet["a"], meet["chance"], names)
    out.attrs["covariance"] = pd.DataFrame(cov, index=names, columns=names)
    return out


def skill_share(frame: pd.DataFrame, strong: str) -> pd.DataFrame:
    """How much of winning is skill, per player count, from games of ``strong`` against random play.

    skill = (p - f) / (1 - f), with p the strong strategy's win rate and f the fair rate: 0 when
    the heuristic wins no more often than chance (pure luck), 1 when it always wins.
    The interval maps the interval of p (clustered by the games' chance) through the same formula.
    """
    rows = []
    for n, g in _by_players(frame):
        fair = fair_rate(g)
        s = g[g["strategy"].astype(str) == strong]
        e = _rate(s["win"], s)

        def f(p):
            return (p - fair) / (1 - fair)

        others = g[g["strategy"].astype(str) != strong]
        beats = _pairwise_ahead(g, strong)
        rows.append({"players": n, "strong": strong, "games": len(s), "win_rate": e.value, "lo": e.lo, "hi": e.hi,
                     "fair": fair, "skill": f(e.value), "skill_lo": f(e.lo), "skill_hi": f(e.hi),
                     "beats_random": beats.value, "beats_lo": beats.lo, "beats_hi": beats.hi,
                     "score_gap": float(s["score"].mean() - others["score"].mean())})
    return pd.DataFrame(rows)


def _pairwise_ahead(g: pd.DataFrame, strong: str) -> Estimate:
    """How often ``strong`` finishes ahead of another strategy in its games, clustered by their chance."""
    m = meetings(g)
    m = m[m["a"] == strong]
    return clustered_proportion(m["ahead"], m["chance"])


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


def is_share(values) -> bool:
    """A column of 0s and 1s: its mean is a share, and a change in it is in percentage points."""
    v = pd.Series(values).dropna()
    return bool(len(v)) and bool(v.isin([0, 1]).all())


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
