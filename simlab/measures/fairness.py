"""Measures a designer can trust: fair shares, clustered intervals, seat spread, skill and luck.

The rules of measurement this module encodes:

* **Win share** splits a shared win: each of k winners of a game gets 1/k. Shares of one game sum
  to 1 (0 when every player was eliminated), so in a fair game every seat's expected share is
  exactly ``(1 - q) / players``, q the share of games nobody wins: ``1 / players`` in a game where
  somebody always wins.
* **Clustered intervals**: rows of the same game (or the same duplicate deal) are not
  independent; where several of them are pooled (a strategy that holds two seats, a duplicate
  deal played in every rotation) the interval is computed from per-cluster sums (the
  cluster-robust, "sandwich" variance of a ratio mean), never as if each row were a new game.
* **Seat spread** replaces the old balance index ``1 - (max - min)``, which is biased: even a
  perfectly fair game shows a gap between its luckiest and unluckiest seat, so its interval
  never covered the fair value. The spread is the root mean square of the seat shares' distance
  from ``1 / players``, estimated without that bias (the sampling noise of each seat's share is
  subtracted before the square root), with a bootstrap interval; a fair game's interval
  covers 0.
* **Skill gap**: the rating distance (Elo points, logistic scale) between a strong strategy and
  a weak one from how often the strong one finishes ahead of the weak one in the same game.
  On a log-odds scale it keeps separating games where a plain win rate saturates near 100%.
* **Deal luck**: from duplicate play (every deal played in every seat rotation) the variance of
  a strategy's result splits into what its identity explains (skill), how much a deal suits one
  strategy more than another, and what changes between rotations of one deal (which seat holds
  the better chance, turn order, the strategies' own randomness); luck is the last two together.
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping

import numpy as np
import pandas as pd

from simlab.core.intervals import effective_wilson

from simlab.measures.stats import LEVEL, Estimate, clustered_mean, critical_value


# ---------------------------------------------------------------------------------------------
# win shares and clusters
# ---------------------------------------------------------------------------------------------

def win_share(frame: pd.DataFrame) -> pd.Series:
    """Each row's share of its game's win: 1/k for each of k winners, 0 for the others."""
    winners = frame.groupby("game", sort=False)["win"].transform("sum").to_numpy(np.float64)
    share = np.where(frame["win"].to_numpy(bool), 1.0 / np.maximum(winners, 1.0), 0.0)
    return pd.Series(share, index=frame.index, name="win_share")


def deal_of(frame: pd.DataFrame) -> pd.Series:
    """The cluster a row belongs to: its duplicate deal when the run was played in duplicate,
    else its game (rows of one game are never independent of each other)."""
    return frame["deal"] if "deal" in frame else frame["game"]


def clustered_proportion(values, clusters, level: float = LEVEL, trials: float = 1.0,
                         method: str = "Wilson at the effective sample size, clustered") -> Estimate:
    """A rate or share (``values`` in [0, 1]) whose rows come in clusters (the rotations of a
    duplicate deal, the seats of a game), with an interval that stays honest for rare events:
    :func:`cluster_proportion` of the clusters' sums and sizes."""
    v = np.asarray(values, dtype=np.float64)
    _, idx = np.unique(np.asarray(clusters), return_inverse=True)
    return cluster_proportion(np.bincount(idx, weights=v), np.bincount(idx).astype(np.float64), level, trials, method)


def cluster_proportion(sums, sizes, level: float = LEVEL, trials: float = 1.0,
                       method: str = "Wilson at the effective sample size, clustered") -> Estimate:
    """The share sum(sums) / sum(sizes) of clusters (``sums[c]``: the 0-1 values of cluster c added
    up, ``sizes[c]`` its rows), with Korn and Graubard's (1998) effective sample size: with p the
    share and v its cluster-robust variance (:func:`clustered_mean`), the sample is worth
    n_eff = p (1 - p) / v independent 0/1 trials, more than its rows where a cluster's rows pull
    against each other (a duplicate deal's two seatings), fewer where they go together; the interval
    is Wilson's at n_eff, with Student's t (:func:`critical_value`) in place of the normal quantile.
    A normal interval collapses to a point when no event happened (or nothing but events); here the
    sample then counts as G trials (G clusters), all a cluster of perfectly correlated rows is worth,
    so the bound stays. Where every cluster is alike (a variance of 0 with 0 < p < 1) it counts as
    rows x ``trials`` independent trials (``trials``: the 0/1 outcomes a row holds, n for a game's
    share of its n players) rather than claim certainty."""
    y = np.asarray(sums, dtype=np.float64)
    m = np.asarray(sizes, dtype=np.float64)
    g, rows = y.size, m.sum()
    if g < 2:
        return Estimate(float(y.sum() / rows) if rows else math.nan, 0.0, 1.0, g, method, level)
    p = float(y.sum() / rows)
    parts = (y - p * m) ** 2
    var = g / (g - 1) * float(parts.sum()) / rows ** 2
    lo, hi = effective_wilson(p, var, g, rows, critical_value(parts, level), trials)
    return Estimate(p, lo, hi, g, method, level)


def clustered_means(values, options, clusters, names) -> tuple[np.ndarray, np.ndarray]:
    """The mean of ``values`` for each option in ``names`` (a row belongs to ``options[row]``: an
    appetite's seats, a strategy's meetings) and the options' covariance, cluster-robust over the
    ``clusters`` (games or deals) their rows share. Options at one table are negatively correlated,
    one seat's win being another's loss: their differences vary more than independent estimates'
    would (:func:`~.wording.best_of` reads them with this covariance)."""
    v = np.asarray(values, dtype=np.float64)
    code = {name: i for i, name in enumerate(names)}
    k = np.array([code[o] for o in options], dtype=np.int64)
    _, c = np.unique(np.asarray(clusters), return_inverse=True)
    g = int(c.max()) + 1
    y = np.zeros((g, len(names)))
    m = np.zeros((g, len(names)))
    np.add.at(y, (c, k), v)
    np.add.at(m, (c, k), 1.0)
    mu = y.sum(axis=0) / m.sum(axis=0)
    u = (y - mu * m) / m.sum(axis=0)            # each cluster's linearised contribution to each mean
    return mu, g / max(g - 1, 1) * (u.T @ u)


def clustered_difference(values, clusters, in_a, level: float = LEVEL) -> Estimate:
    """mean(values | in_a) - mean(values | not in_a) when both groups share clusters (e.g. two
    strategies in the same games): the covariance between the groups' cluster sums is kept."""
    v = np.asarray(values, dtype=np.float64)
    a = np.asarray(in_a, dtype=bool)
    _, idx = np.unique(np.asarray(clusters), return_inverse=True)
    ya = np.bincount(idx, weights=v * a)
    yb = np.bincount(idx, weights=v * ~a)
    ma = np.bincount(idx, weights=a.astype(np.float64))
    mb = np.bincount(idx, weights=(~a).astype(np.float64))
    g = ya.size
    mua, mub = ya.sum() / ma.sum(), yb.sum() / mb.sum()
    # linearised contribution of each cluster to the difference of the two ratio means
    u = (ya - mua * ma) / ma.sum() - (yb - mub * mb) / mb.sum()
    var = g / max(g - 1, 1) * float((u ** 2).sum())
    half = critical_value(u ** 2, level) * math.sqrt(var)
    d = float(mua - mub)
    return Estimate(d, d - half, d + half, g, "clustered difference", level)


# ---------------------------------------------------------------------------------------------
# seat fairness (mirror matches only)
# ---------------------------------------------------------------------------------------------

def is_mirror(frame: pd.DataFrame) -> bool:
    """Every seat plays the same strategy (the only setting where a seat effect can be read)."""
    return frame["strategy"].astype(str).nunique() == 1


def seat_shares(frame: pd.DataFrame, level: float = LEVEL) -> pd.DataFrame:
    """Per player count and seat: win share with its interval, the fair share, the edge over fair
    with its own interval, plain win rate and mean score. Refuses frames that are not mirrors.

    The fair share is (1 - q) / n, with q the share of games nobody wins (every player eliminated,
    as Loot Island allows; 0 in most games, where it is exactly 1/n). With q estimated, the edge
    is the clustered mean of each game's (seat's share - the game's total share / n), so its
    interval carries the estimate of q too; ``fair_lo``/``fair_hi`` are the share's interval read
    against the fair share (fair + the edge's interval), which a fairness band judges."""
    if not is_mirror(frame):
        raise ValueError("seat fairness needs a mirror match (every seat the same strategy); got "
                         + ", ".join(sorted(frame["strategy"].astype(str).unique())))
    f = frame.assign(win_share=win_share(frame))
    f["game_total"] = f.groupby("game", sort=False)["win_share"].transform("sum")
    rows = []
    for n, g in f.groupby("players", observed=True, sort=True):
        fair = float(g.groupby("game")["game_total"].first().mean()) / int(n)
        for seat, s in g.groupby("seat", sort=True):
            e = clustered_mean(s["win_share"], deal_of(s), level)
            edge = clustered_mean(s["win_share"] - s["game_total"] / int(n), deal_of(s), level)
            rows.append({"players": int(n), "seat": int(seat) + 1, "games": len(s), "win_share": e.value,
                         "lo": e.lo, "hi": e.hi, "fair": fair, "edge": edge.value, "edge_lo": edge.lo,
                         "edge_hi": edge.hi, "fair_lo": fair + edge.lo, "fair_hi": fair + edge.hi,
                         "win_rate": float(s["win"].mean()), "mean_score": float(s["score"].mean())})
    return pd.DataFrame(rows)


def seat_spread(mirrors: Mapping[str, pd.DataFrame], reps: int = 400, seed: int = 0,
                level: float = LEVEL) -> pd.DataFrame:
    """Root mean square distance of the seats' win shares from the fair share (1/n when somebody
    always wins; see :func:`seat_shares`), in share units, per strategy (the key of ``mirrors``, a
    mirror match's frame) and player count.

    Estimate: sqrt(max(0, mean_s((p_s - 1/n)^2) - mean_s(var(p_s)))), i.e. the squared distance
    minus its expected value in a fair game (the sampling variance of each seat's share, from
    the per-game share vectors). Interval: percentile bootstrap over games (Poisson weights) of
    the same bias-corrected quantity, square-rooted after clipping at 0, so a fair game's
    interval reaches down to 0. Each mirror is resampled by a generator of its own from
    ``seed``; mirrors with the same games at every player count thus draw the same weights,
    which are drawn once for all of them (the draws are most of the cost).
    """
    tables = {}
    for strategy, frame in mirrors.items():
        f = frame.assign(win_share=win_share(frame))
        tables[strategy] = {int(n): g.pivot(index="game", columns="seat", values="win_share").to_numpy(np.float64)
                            for n, g in f.groupby("players", observed=True, sort=True)}
    alike = defaultdict(list)   # games at every player count -> the mirrors that share its draws
    for strategy, t in tables.items():
        alike[tuple((n, len(w)) for n, w in t.items())].append(strategy)
    boots = {}
    for shape, strategies in alike.items():
        rng = np.random.default_rng(seed)
        for n, games in shape:
            for s in strategies:
                boots[s, n] = np.empty(reps)
            block = max(1, min(reps, 2_000_000 // max(1, games)))
            for start in range(0, reps, block):
                k = min(block, reps - start)
                weights = rng.poisson(1.0, size=(k, games)).astype(np.float64)
                for s in strategies:
                    boots[s, n][start:start + k] = _excess_square(weights, tables[s][n], n)
    rows = []
    for strategy, t in tables.items():
        for n, w in t.items():
            point = _excess_square(np.ones((1, len(w))), w, n)[0]
            lo, hi = np.quantile(boots[strategy, n], [(1 - level) / 2, 1 - (1 - level) / 2])
            rates = w.mean(axis=0)
            rows.append({"strategy": strategy, "players": n, "games": len(w), "spread": math.sqrt(max(point, 0.0)),
                         "lo": math.sqrt(max(lo, 0.0)), "hi": math.sqrt(max(hi, 0.0)),
                         "best_seat": int(rates.argmax()) + 1, "worst_seat": int(rates.argmin()) + 1})
    return pd.DataFrame(rows)


def spread_change(base: pd.DataFrame, variant: pd.DataFrame, reps: int = 1000, seed: int = 0,
                  level: float = LEVEL) -> Estimate:
    """How much further from fair the seats are in ``variant`` than in ``base`` (two mirror matches of
    one player count on the same games): the change in the seat spread (:func:`seat_spread`), negative
    when the variant is fairer. The interval resamples the games of both arms together (they are
    paired: the same deals), so it keeps what pairing buys."""
    n = int(base["players"].iloc[0])
    shares = [f.assign(win_share=win_share(f)).pivot(index="game", columns="seat", values="win_share")
              for f in (base, variant)]
    games = shares[0].index.intersection(shares[1].index)
    a, b = (x.loc[games].to_numpy(np.float64) for x in shares)

    def spread(weights, w):
        return np.sqrt(np.maximum(_excess_square(weights, w, n), 0.0))

    point = float(spread(np.ones((1, len(games))), b)[0] - spread(np.ones((1, len(games))), a)[0])
    weights = np.random.default_rng(seed).poisson(1.0, size=(reps, len(games))).astype(np.float64)
    boots = spread(weights, b) - spread(weights, a)
    lo, hi = np.quantile(boots, [(1 - level) / 2, 1 - (1 - level) / 2])
    return Estimate(point, float(lo), float(hi), len(games), "paired bootstrap over games of the seat spread")


def _excess_square(weights, w, n: int):
    """Per row of ``weights`` (one per resample, one column per game): the seats' mean squared
    distance from the fair share minus its sampling variance, from the per-game share vectors
    ``w[game, seat]``. The fair share is the seats' mean, (1 - q) / n with q the share of games
    nobody wins (1/n when somebody always wins); the variance of that mean is added back, since
    centring on it removes it."""
    tot = weights.sum(axis=-1, keepdims=True)
    p = (weights @ w) / tot
    ex2 = (weights @ (w * w)) / tot
    var = (ex2 - p * p) / (tot - 1)
    t = w.mean(axis=1)                                    # each game's total share / n
    mt = (weights @ t)[:, None] / tot
    var_fair = ((weights @ (t * t))[:, None] / tot - mt * mt) / (tot - 1)
    return ((p - p.mean(axis=-1, keepdims=True)) ** 2).mean(axis=-1) - var.mean(axis=-1) + var_fair[:, 0]


# ---------------------------------------------------------------------------------------------
# skill and luck
# ---------------------------------------------------------------------------------------------

def elo(p: float) -> float:
    """Rating difference (Elo points) at which the stronger side finishes ahead with probability p."""
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return 400.0 * math.log10(p / (1.0 - p))


def ahead_share(frame: pd.DataFrame, strong: str, weak: str, level: float = LEVEL) -> Estimate:
    """How often ``strong`` finishes ahead of ``weak`` in the same game (a tie counts one half),
    over every (strong seat, weak seat) pair of every game: a Wilson interval at the effective
    sample size of the deals (:func:`clustered_proportion`), since a game's pairs and a deal's
    rotations are not independent meetings."""
    f = frame[["game", "seat", "rank", "strategy"]].copy()
    f["strategy"] = f["strategy"].astype(str)
    f["cluster"] = deal_of(frame).to_numpy()
    s = f[f["strategy"] == strong]
    w = f[f["strategy"] == weak]
    pairs = s.merge(w, on="game", suffixes=("_s", "_w"))
    if pairs.empty:
        raise ValueError(f"{strong} and {weak} never meet in these games")
    score = np.where(pairs["rank_s"] < pairs["rank_w"], 1.0, np.where(pairs["rank_s"] == pairs["rank_w"], 0.5, 0.0))
    e = clustered_proportion(score, pairs["cluster_s"], level, method="clustered pairwise, Wilson")
    return Estimate(e.value, e.lo, e.hi, len(pairs), e.method, level)


def skill_gap(frame: pd.DataFrame, strong: str, weak: str = "random", level: float = LEVEL) -> pd.DataFrame:
    """Per player count: how often ``strong`` finishes ahead of ``weak`` in the same game, and that
    share on the Elo scale, 400 log10(p / (1 - p)).

    At 2 players this is the heads-up Elo gap. At 3+ players it is the same reading of a pairwise
    share within a game of one ``strong`` against several ``weak`` players: not a heads-up rating,
    and not comparable across player counts (``heads_up`` says which). The interval is the ahead
    share's (:func:`ahead_share`) mapped to the scale: never zero wide, and finite unless ``strong``
    finished ahead in every meeting (then only its lower bound is finite: no sample can bound the
    gap above). The point estimate keeps the share half a meeting away from 0 and 1, so it stays
    finite too."""
    rows = []
    for n, g in frame.groupby("players", observed=True, sort=True):
        e = ahead_share(g, strong, weak, level)
        p = min(max(e.value, 0.5 / e.n), 1 - 0.5 / e.n)
        rows.append({"players": int(n), "strong": strong, "weak": weak, "pairs_games": e.n, "heads_up": int(n) == 2,
                     "ahead": e.value, "ahead_lo": e.lo, "ahead_hi": e.hi,
                     "elo_gap": elo(p), "elo_lo": elo(e.lo), "elo_hi": elo(e.hi)})
    return pd.DataFrame(rows)


COMPONENTS = ("skill (strategy)", "deal suits a strategy", "seat within the deal", "luck (deal and seat)")


def deal_luck(frame: pd.DataFrame, column: str = "win_share", reps: int = 1000, seed: int = 0,
              level: float = LEVEL) -> pd.DataFrame:
    """What a player's result (``column``; the win share by default) depends on, as shares of its
    variance, from a duplicate run (``deal`` column; every deal in all n seat rotations).

    Picking a game of the run at random and one of its players, the result Y varies with the
    strategy that player holds, the deal and the seat. Its variance splits exactly into

    * **skill (strategy)**: the variance of the strategies' expected results (over the field's
      slots, as a population: the field is what it is);
    * **deal suits a strategy**: what a deal gives a strategy wherever it sits, measured as the
      covariance of the strategy's results in two different seatings of the same deal (negative
      when a deal's fortunes follow the seat, not the strategy);
    * **seat within the deal**: the rest of the variance, what changes with the seating (which
      seat holds the better chance, turn order, the game's and the strategies' own randomness);

    and ``luck`` is the last two together, everything the strategy does not explain. Each is
    estimated without bias from the deals (:func:`_variance_shares`); the shares' intervals are
    percentile bootstraps over deals. The skill share describes the field played: two near-equal
    strategies leave little to skill in any game, so it says how different these strategies are,
    not how much skill the game allows.
    """
    if "deal" not in frame:
        raise ValueError("deal luck needs a duplicate run (simlab run ... --duplicate)")
    f = frame.assign(win_share=win_share(frame)) if column == "win_share" else frame
    rng = np.random.default_rng(seed)
    rows = []
    for n, g in f.groupby("players", observed=True, sort=True):
        n = int(n)
        game_id = g["run_game"] if "run_game" in g else g["game"]   # the run's own id (see measures.combine)
        g = g.assign(slot=g["strategy"].astype(str) + "#" + ((g["seat"] + game_id) % n).astype(str))
        y = g.pivot_table(index=["deal", "game"], columns="slot", values=column, aggfunc="first")
        deals = y.index.get_level_values("deal").to_numpy()
        # cube[d, r, k]: deal d, its r-th rotation, slot k
        order = np.argsort(deals, kind="stable")
        vals = y.to_numpy(np.float64)[order]
        d_ids = deals[order]
        full = np.bincount(np.unique(d_ids, return_inverse=True)[1]) == n
        if not full.all():
            keep = np.isin(d_ids, np.unique(d_ids)[full])
            vals, d_ids = vals[keep], d_ids[keep]
        cube = vals.reshape(-1, n, vals.shape[1])

        point = _variance_shares(cube, np.ones((1, len(cube))))[0]
        # resampled deals as counts per deal (the same draws as indexing cube once per resample)
        draws = rng.integers(0, len(cube), (reps, len(cube)))
        counts = np.bincount((draws + len(cube) * np.arange(reps)[:, None]).ravel(),
                             minlength=reps * len(cube)).reshape(reps, len(cube))
        boots = _variance_shares(cube, counts.astype(np.float64))
        lo = np.quantile(boots, (1 - level) / 2, axis=0)
        hi = np.quantile(boots, 1 - (1 - level) / 2, axis=0)
        # skill is a variance's share, in [0, 1]: so are its estimate and bounds, and luck, all but skill, with it
        # (deal + seat may then add up to slightly more than luck, by the skill estimate's clipped noise)
        for i in (COMPONENTS.index("skill (strategy)"), COMPONENTS.index("luck (deal and seat)")):
            point[i], lo[i], hi[i] = np.clip([point[i], lo[i], hi[i]], 0.0, 1.0)
        for i, part in enumerate(COMPONENTS):
            rows.append({"players": n, "component": part, "share": float(point[i]), "lo": float(lo[i]),
                         "hi": float(hi[i]), "deals": len(cube)})
    return pd.DataFrame(rows)


def _variance_shares(cube, weights):
    """The shares of :func:`deal_luck` (skill, deal, seat, luck) of ``cube[d, r, k]`` (deal d, its
    rotation r, slot k), deal d counted ``weights[b, d]`` times, for every row b at once (a
    bootstrap resample is a row of counts).

    Unbiased pieces, with M[d, k] the mean of slot k over the rotations of deal d and s2 a sample
    variance over deals (n - 1 in the denominator):

    * slot k's variance T_k = mean over (d, r) of (y - m_k)^2 + s2(M_k) / D (the second term puts
      back what centring on the estimated mean m_k took away);
    * the covariance between two rotations C_k = (n^2 s2(M_k) - sum_r s2(y_r,k)) / (n (n - 1)),
      the mean over rotation pairs of their sample covariances;
    * skill S = var(m) - (tr(V) - 1'V1 / K) / K, the population variance of the K slot means
      less what their sampling noise V = Cov(M) / D adds to it.

    Total S + mean_k T_k; deal = mean C, seat = mean (T - C), luck = mean T."""
    b = weights.shape[0]
    n = cube.shape[1]
    total = weights.sum(axis=1)[:, None]                                   # [b, 1]: D

    def s2(x):   # sample variance over deals of x[d, ...] for every resample: [b, ...]
        m = weights @ x.reshape(len(x), -1) / total
        return ((weights @ x.reshape(len(x), -1) ** 2 - total * m * m) / (total - 1)).reshape((b,) + x.shape[1:])

    deal_mean = cube.mean(axis=1)                                          # M[d, k]
    m = weights @ deal_mean / total                                        # [b, k]
    spread = (weights @ (cube ** 2).mean(axis=1)) / total - m * m          # mean of (y - m_k)^2
    s2_deal = s2(deal_mean)                                                # [b, k]
    var = spread + s2_deal / total
    cov = (n * n * s2_deal - s2(cube).sum(axis=1)) / (n * (n - 1))
    k = m.shape[1]
    noise = (s2_deal.sum(axis=1) - s2(deal_mean.sum(axis=1, keepdims=True))[:, 0] / k) / total[:, 0] / k
    skill = m.var(axis=1) - noise if k > 1 else np.zeros(b)
    whole = skill + var.mean(axis=1)
    parts = np.stack([skill, cov.mean(axis=1), (var - cov).mean(axis=1), var.mean(axis=1)], axis=1)
    return np.divide(parts, whole[:, None], out=np.zeros_like(parts), where=whole[:, None] > 0)


# ---------------------------------------------------------------------------------------------
# paired comparisons: how much pairing bought
# ---------------------------------------------------------------------------------------------

def pairing_gain(base: pd.DataFrame, variant: pd.DataFrame, column: str, keys=("game", "seat"),
                 level: float = LEVEL) -> dict:
    """For a paired comparison of ``column``: the correlation between arms, the paired and unpaired
    interval half-widths of the difference (clustered by game), and their ratio (< 1: pairing helped)."""
    keys = list(keys)
    j = base[keys + [column]].merge(variant[keys + [column]], on=keys, suffixes=("_a", "_b"), validate="one_to_one")
    a = j[f"{column}_a"].to_numpy(np.float64)
    b = j[f"{column}_b"].to_numpy(np.float64)
    paired = clustered_mean(b - a, j["game"], level)
    ea = clustered_mean(a, j["game"], level)
    eb = clustered_mean(b, j["game"], level)
    unpaired_half = math.hypot((ea.hi - ea.lo) / 2, (eb.hi - eb.lo) / 2)
    paired_half = (paired.hi - paired.lo) / 2
    corr = float(np.corrcoef(a, b)[0, 1]) if a.std() > 0 and b.std() > 0 else math.nan
    return {"column": column, "n": len(j), "difference": paired.value, "lo": paired.lo, "hi": paired.hi,
            "correlation": corr, "paired_half_width": paired_half, "unpaired_half_width": unpaired_half,
            "ratio": paired_half / unpaired_half if unpaired_half > 0 else math.nan}
