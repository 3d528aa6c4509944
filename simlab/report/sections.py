"""Standard report sections: each adds findings, a chart and a table for one balance measure.

Used by the ``overview`` experiment and by ``simlab report RUN_DIR``; any experiment can call them.
Every finding names its band (see :mod:`.wording`): a seat's win share in a mirror match against
the fairness band ``SEAT_BAND`` around 1/n, a paired variant effect against the minimum effect
that matters (``SEAT_BAND`` too, in points).
The ``*_bottom_line`` functions give an experiment a plain sentence for its bottom line.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from simlab.measures import balance as M
from simlab.measures import outcomes, unfold
from simlab.measures.catalogue import UNFOLDING
from simlab.measures.stats import LEVEL, Estimate, paired_column_difference
from simlab.report.charts import dot_interval, integer_histogram, new_figure, tip
from simlab.report.page import ASSUMED_ITEM, Ci, Num, Report, formatted, md_escape, num
from simlab.report.rechecks import agreement, is_search
from simlab.report.wording import (CHANGE, FIRST_WORDS, NUMBER, POINTS, SHARE, Band, at_looks_level, best_of,
                                   fmt_count, fmt_estimate, fmt_number, fmt_points, fmt_ratio, fmt_share, join,
                                   looks_levels, words_in)

SEAT_BAND = 0.02       # a seat is "fair" if its win rate is within 2 points of the fair rate
USAGE_FLAG = 0.5       # standardized winners-vs-others difference above which a column is flagged


def rests_on(runs, seating: str = "", only: tuple[str, ...] = ()) -> list[str]:
    """What a report on ``runs`` rests on: the strategies, and the ASSUMED rule readings in force
    (``only``: the ones the answer depends on; default all), named here and valued in the caveats."""
    names = sorted({s for r in runs for s in r.config.seats})
    searchers = sorted({s for r in runs for s in r.config.seats if is_search(r.config.game, s)})
    assumed = sorted({k for r in runs for k in r.provenance.get("assumptions_in_force", {})
                      if not only or k in only})
    players = (f"these heuristics and the search player{'s' if len(searchers) > 1 else ''} "
               f"{join([md_escape(s) for s in searchers])}" if searchers else "these heuristics")
    items = [f"Strategies: {', '.join(md_escape(n) for n in names)}{seating}; the results describe {players}, "
             "not expert human play."]
    if assumed:
        items.append(f"{ASSUMED_ITEM} (no published source; values, sources and plausible alternatives in the game's "
                     f"rules document): {', '.join(f'`{k}`' for k in assumed)}.")
    return items




def constant_in_both(base: pd.Series, variant: pd.Series) -> bool:
    """One value in every game of both arms: a finding to state, not a change to judge (a
    "+0.0 [+0.0, +0.0]" read against a band would be a verdict true by construction)."""
    return base.nunique() == 1 and variant.nunique() == 1 and base.iloc[0] == variant.iloc[0]


def ties(rep: Report, frame: pd.DataFrame) -> None:
    t = M.tie_rate(frame)
    for _, r in t.iterrows():
        rep.verdict(f"Games ending in a shared win, {int(r['players'])} players",
                    Estimate(r["tie_rate"], r["lo"], r["hi"], int(r["games"]), "Wilson"), measure="shared win",
                    players=int(r["players"]))
    rep.table("Shared wins", formatted(t, {"players": "players", "games": "games",
                                           "shared-win rate [95% CI]": Ci("tie_rate")}))


def key_outcomes(rep: Report, frame: pd.DataFrame, spec) -> pd.DataFrame:
    """The game's key outcomes (eliminations by cause, games nobody wins, ...: ``GameSpec.outcomes``)
    per player count, each with its interval clustered by deal: a finding each and a table."""
    t = outcomes.table(frame, spec)
    for r in t.itertuples():
        rep.verdict(f"{r.outcome[0].upper()}{r.outcome[1:]} ({r.key}), {r.players} players",
                    Estimate(r.rate, r.lo, r.hi, int(r.games), "clustered by deal"), measure=r.key, players=int(r.players))
    if len(t):
        rep.table("Key outcomes", formatted(t, {"players": "players", "outcome": "outcome", "key": "key",
                                                "share of": "of", "rate [95% CI]": Ci("rate"),
                                                "games": "games"}),
                  note="What a designer watches besides who wins, as the game declares it (simlab games GAME); the key "
                       "names the outcome for `simlab tune --target`.")
    return t


def _dist_table(d: pd.DataFrame, extra: dict | None = None) -> pd.DataFrame:
    spec = {"players": "players", **(extra or {}), "n": "n",
            "mean [95% CI]": Ci("mean", unit=NUMBER), "sd": Num("sd"),
            **{k: Num(c, "g") for k, c in (("min", "min"), ("5%", "p5"), ("25%", "p25"),
                                                                   ("median", "median"), ("75%", "p75"),
                                                                   ("95%", "p95"), ("max", "max"))}}
    return formatted(d, spec)


def lengths_and_scores(rep: Report, frame: pd.DataFrame, length_column: str) -> None:
    lengths = M.length_distribution(frame, length_column)
    scores = M.score_distribution(frame)
    margin = M.winning_margin(frame)
    groups = {f"{n} players": g for n, g in frame.groupby("players", observed=True)}
    fig, axes = new_figure(13, 3.6, ncols=3)
    integer_histogram(axes[0][0], {k: M.per_game(g, length_column) for k, g in groups.items()},
                      xlabel=f"game length ({length_column})")
    integer_histogram(axes[0][1], {k: g["score"] for k, g in groups.items()}, of="seats", xlabel="score (points)")
    integer_histogram(axes[0][2], {k: M.margins(g)["margin"] for k, g in groups.items()},
                      xlabel="winning margin (points)")
    for ax in axes[0]:
        ax.legend(fontsize=8)
    rep.chart("length-score-margin", fig, "Distributions of game length, scores and winning margin "
              "(winner's score minus the best other score; 0 = tied on score)", title="Game length, scores and margins")
    for _, r in lengths.iterrows():
        rep.verdict(f"Game length ({length_column}), {int(r['players'])} players",
                    Estimate(r["mean"], r["lo"], r["hi"], int(r["n"]), "normal"), unit=NUMBER,
                    measure=f"length ({length_column})", players=int(r["players"]))
    for _, r in margin.iterrows():
        rep.verdict(f"Close games (winning margin 0 or 1 point), {int(r['players'])} players",
                    Estimate(r["close_games"], r["close_lo"], r["close_hi"], int(r["n"]), "Wilson"),
                    measure="close games", players=int(r["players"]))
    rep.table(f"Game length ({length_column})", _dist_table(lengths))
    rep.table("Scores", _dist_table(scores, {"who": "who"}))
    rep.table("Winning margin", _dist_table(margin))


def _strongest(rank: pd.DataFrame):
    names = list(rank["strategy"])
    return best_of({r.strategy: Estimate(r.pooled, r.lo, r.hi, int(r.meetings), "clustered") for r in rank.itertuples()},
                   covariance=rank.attrs["covariance"].loc[names, names].to_numpy())


def strategy_matrix(rep: Report, h2h: pd.DataFrame, names: list[str], note: str = "") -> None:
    """The head-to-head heat map (``M.head_to_head``'s long frame), rows and columns in the order ``names``:
    how often the row strategy finishes ahead of the column strategy, each cell's interval on hover."""
    mat = h2h.pivot(index="a", columns="b", values="a_ahead").reindex(index=names, columns=names)
    cells = h2h.set_index(["a", "b"])
    fig, axes = new_figure(1.2 * len(names) + 2.5, 1.0 * len(names) + 1.5)
    ax = axes[0][0]
    im = ax.imshow(mat.to_numpy(dtype=float), cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right", rotation_mode="anchor")
    ax.set_yticks(range(len(names)), names)
    for i in range(len(names)):
        for j in range(len(names)):
            v = mat.iloc[i, j]
            if not pd.isna(v):
                c = cells.loc[(names[i], names[j])]
                tip(ax.text(j, i, f"{v:.0%}", ha="center", va="center", fontsize=8,
                            color="white" if abs(v - 0.5) > 0.3 else "black"),   # readable on the dark ends
                    f"{names[i]} ahead of {names[j]}: {fmt_share(v, c['lo'], c['hi'])} of "
                    f"{fmt_count(c['meetings'])} meetings")
    ax.set_xlabel("opponent B")
    ax.set_ylabel("strategy A")
    fig.colorbar(im, ax=ax, label="share of meetings A finishes ahead of B")
    rep.chart("strategy-matrix", fig, "Strategy vs strategy: how often the row strategy finishes ahead of the "
              "column strategy in the same game (ties count one half)" + note, title="Strategy vs strategy")


def strategies(rep: Report, frame: pd.DataFrame) -> pd.DataFrame | None:
    """Strategy win rates, the head-to-head matrix and a ranking (needs two or more strategies)."""
    if frame["strategy"].nunique() < 2:
        return None
    rates = M.strategy_rates(frame)
    h2h = M.head_to_head(frame)
    rank = M.ranking(frame)
    strategy_matrix(rep, h2h, list(rank["strategy"]))
    best = _strongest(rank)
    rep.findings.append(f"{md_escape(best.sentence('strongest'))}, by the pooled share of meetings in which a strategy "
                        "finishes ahead of another: " + "; ".join(f"{md_escape(k)} {fmt_estimate(best.estimates[k])}"
                                                                 for k in best.tied) + ".")
    rep.table("Strategy ranking (average head-to-head share)", formatted(rank, {
        "rank": "rank", "strategy": "strategy", "average share ahead": Num("avg_ahead", SHARE),
        "pooled share ahead [95% CI]": Ci("pooled"),
        "opponents": "opponents", "meetings": "meetings"}),
        note="Ranked by point estimate; strategies whose intervals overlap may be statistical ties.")
    rep.table("Head-to-head", formatted(h2h, {"A": "a", "B": "b", "meetings": "meetings",
                                              "A ahead of B [95% CI]": Ci("a_ahead")}))
    rep.table("Win rate by strategy (heads-up runs)", formatted(rates, {
        "players": "players", "strategy": "strategy", "seats played": "seats_played",
        "win rate [95% CI]": Ci("win_rate"), "fair": Num("fair", SHARE),
        "mean score [95% CI]": Ci("mean_score", "score_lo", "score_hi", NUMBER)}))
    return rank


def strategies_bottom_line(rank: pd.DataFrame) -> str:
    """One short sentence: the strongest strategy, or those tied for strongest, and the best one's
    share of meetings ahead (every tied one's share is in the findings)."""
    best = _strongest(rank)
    share = fmt_estimate(best.estimates[best.best])
    if len(best.tied) == 1:
        return f"Head to head, {md_escape(best.best)} is strongest, ahead of another strategy in {share} of meetings."
    return (f"Head to head, {md_escape(join(best.tied))} are tied for strongest ({md_escape(best.best)} ahead in "
            f"{share} of meetings).")


def strategy_mix(rep: Report, frame: pd.DataFrame) -> None:
    """Win rate and mean score of each strategy in a mixed run, per player count (a table)."""
    rates = M.strategy_rates(frame)
    rep.table("Win rate by strategy in the default mix, by player count", formatted(rates, {
        "players": "players", "strategy": "strategy", "seats played": "seats_played",
        "win rate [95% CI]": Ci("win_rate"), "fair": Num("fair", SHARE),
        "mean score [95% CI]": Ci("mean_score", "score_lo", "score_hi", NUMBER)}),
        note="A win rate counts a shared win as a win for each winner, so the rates at one player count can add up "
             "to more than 100% (the fair rate is their average).")


def usage(rep: Report, frame: pd.DataFrame, spec) -> None:
    """Winners vs others for each seat column that can be averaged (counts, amounts, flags, and the
    named bits of bitmasks decoded one by one): dead options and strongly winning features."""
    columns = M.seat_columns(spec)
    if not columns:
        return
    u = M.usage(M.decode_bits(frame, spec), columns)
    counts = sorted(u["players"].unique())
    dead = u[u["never_varies"]].groupby("column", sort=True)["players"].apply(sorted)
    if len(dead):
        def where(ns):
            return "" if ns == counts else f" (at {join([str(n) for n in ns])} players)"
        rep.findings.append("Columns that never vary (dead options, features these strategies never use, or parts "
                            "switched off by the rules in force): "
                            + ", ".join(f"{md_escape(c)}{where(ns)}" for c, ns in dead.items()) + ".")
    strong = u[(u["std_diff"].abs() >= USAGE_FLAG) & ~u["never_varies"]].sort_values("std_diff", key=abs, ascending=False)
    if len(strong):
        items = [f"{r.column} ({r.players}p: {r.winners:.2f} vs {r.others:.2f}, d = {r.std_diff:+.2f})"
                 for r in strong.head(6).itertuples()]
        rep.findings.append(f"Strongest links to winning (standardized difference |d| >= {USAGE_FLAG}): " + "; ".join(items)
                            + ". A large d marks a feature that decides games (possibly overpowered) or one that is "
                              "simply part of the score.")
    top = u[~u["column"].isin(dead.index[dead.map(len) == len(counts)])]     # nothing to draw for a dead column
    top = top.assign(a=top["std_diff"].abs()).sort_values("a", ascending=False)
    top = top.drop_duplicates("column").head(12)["column"].tolist()[::-1]
    counts = sorted(u["players"].unique())
    fig, axes = new_figure(7, 0.35 * len(top) + 1.5)
    ax = axes[0][0]
    for k, n in enumerate(counts):
        g = u[u["players"] == n].set_index("column").reindex(top)
        ax.barh(np.arange(len(top)) + (k - (len(counts) - 1) / 2) * 0.8 / len(counts), g["std_diff"],
                height=0.8 / len(counts), label=f"{n} players")
    ax.set_yticks(range(len(top)), top)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("standardized difference, winners minus others (standard deviations)")
    ax.set_ylabel("game column")
    ax.legend(fontsize=8)
    rep.chart("usage", fig, "Usage: how each game column differs between winners and the other seats",
              title="Usage: winners vs others")
    rep.table("Usage: winners vs others", formatted(u, {
        "players": "players", "column": "column", "winners": Num("winners"),
        "others": Num("others"),
        "difference [95% CI]": Ci("difference", unit=CHANGE),
        "standardized": Num("std_diff"), "share non-zero": Num("share_nonzero", SHARE)}))


def variant_effect(rep: Report, base: pd.DataFrame, variant: pd.DataFrame, label: str,
                   columns: tuple[str, ...] = ("score",), band: float = SEAT_BAND, by_seat: bool = True) -> pd.DataFrame:
    """Paired effect of a rule variant on each seat's win rate (``by_seat``) and on ``columns`` (common
    random numbers: both arms played with the same seed, rows paired by game id and seat). Changes in
    win rates and in 0/1 columns are in percentage points; win rates are read against the minimum
    effect that matters (``band``), other shares are not: a rare event's 30-fold change can be a
    fraction of a point, so its fold is stated instead. At 2 players only the start player's change is judged: the other seat's is
    its mirror image, and judging both would count one finding twice."""
    rows = []
    effect = Band.effect(band)
    if by_seat:
        wins = paired_column_difference(base, variant, "win", by="seat").assign(column="win", unit=POINTS)
        two = base["players"].nunique() == 1 and int(base["players"].iloc[0]) == 2
        for _, r in wins.iterrows():
            if two and int(r["group"]) != 0:
                continue
            e = Estimate(r["difference"], r["lo"], r["hi"], int(r["n"]), "paired normal")
            rep.verdict(f"{label}: change in seat {int(r['group']) + 1}'s win rate "
                        f"({fmt_ratio(r['baseline'], r['variant'])}), paired on common random numbers", e, 0.0,
                        effect, unit=POINTS)
        rows.append(wins)
    for col in columns:
        if constant_in_both(base[col], variant[col]):
            rep.findings.append(f"{label}: {md_escape(col)} is {num(base[col].iloc[0])} in every game of both arms "
                                "(nothing to compare).")
            continue
        share = M.is_share(base[col]) and M.is_share(variant[col])
        d = paired_column_difference(base, variant, col).assign(column=col, unit=POINTS if share else CHANGE)
        r = d.iloc[0]
        e = Estimate(r["difference"], r["lo"], r["hi"], int(r["n"]), "paired normal")
        change = fmt_ratio(r["baseline"], r["variant"]) if share else f"{num(r['baseline'])} -> {num(r['variant'])}"
        rep.verdict(f"{label}: change in {'the' if share else 'mean'} {col} ({change}), paired", e, 0.0,
                    None, unit=POINTS if share else CHANGE)
        rows.append(d)
    table = pd.concat(rows, ignore_index=True)
    if not by_seat:
        return table
    w = table[table["column"] == "win"]
    fig, axes = new_figure(5.5, 3.4)
    ax = axes[0][0]
    dot_interval(ax, [str(int(g) + 1) for g in w["group"]], w["difference"], w["lo"], w["hi"], unit=POINTS,
                 xlabel="seat", ylabel="win-rate change (variant - baseline)", reference=0.0,
                 reference_label="no change", band=effect, what="seat {}, change in win rate")
    ax.legend(fontsize=7)
    rep.chart(f"effect-{label}", fig, f"{label}: paired change in each seat's win rate with 95% intervals; grey: the "
              f"minimum effect that matters (±{band * 100:g} points)", title=f"{label}: change by seat")

    def shown(r, key):
        return fmt_share(r[key], digits=2) if r["unit"] == POINTS else num(r[key], 3)

    rep.table(f"{label}: paired differences", formatted(table, {
        "measure": "column", "seat": lambda r: "" if r["group"] == () else int(r["group"]) + 1, "n": "n",
        "baseline": lambda r: shown(r, "baseline"), "variant": lambda r: shown(r, "variant"),
        "difference [95% CI]": Ci("difference", unit=lambda r: r["unit"], digits=lambda r: None if r["unit"] == POINTS else 3)}))
    return table


# ---------------------------------------------------------------------------------------------
# seat fairness from mirror matches, luck and skill from duplicate play (issue 12 items 4, 5)
# ---------------------------------------------------------------------------------------------

def mirror_seats(rep: Report, mirrors: dict[str, pd.DataFrame], levels: dict[str, float] | None = None) -> pd.DataFrame:
    """Seat fairness read only where it can be: in mirror matches (every seat the same strategy),
    one per strategy. Tie-split win share per seat (fair: 1/n where somebody always wins), the start player's verdict
    per strategy and player count, the seat spread, and whether the strategies agree. A stronger
    player's recheck reads its mirror at the level of its looks (``levels``; 95% otherwise)."""
    from simlab.measures import fairness as F

    levels = levels or {}
    shares = pd.concat([F.seat_shares(f, levels.get(s, LEVEL)).assign(strategy=s, level=levels.get(s, LEVEL))
                        for s, f in mirrors.items()], ignore_index=True)
    spread = F.seat_spread(mirrors)
    # A mirror in which every game ends with all seats level says nothing about seats: the strategy
    # played the same game in every seat (a deterministic strategy where seats act simultaneously).
    level = pd.concat([f.groupby(["players", "game"], observed=True)["win"].all().groupby("players").mean()
                       .rename("all_level").reset_index().assign(strategy=s) for s, f in mirrors.items()])
    shares = shares.merge(level, on=["strategy", "players"])
    blind = level[level["all_level"] == 1.0]
    for strategy, b in blind.groupby("strategy", sort=True):
        rep.findings.append(f"The {md_escape(strategy)} mirror at {join([str(n) for n in sorted(b['players'])])} players "
                            "cannot judge the seats: every game ended with all seats level (the strategy plays the same "
                            "game in every seat), so equal shares there are true by construction and give no verdict.")
    for (strategy, n), g in shares[shares["all_level"] < 1.0].groupby(["strategy", "players"], sort=True):
        first = g[g["seat"] == 1].iloc[0]
        e = Estimate(first["win_share"], first["fair_lo"], first["fair_hi"], int(first["games"]), "clustered by deal",
                     first["level"])
        at = at_looks_level(first["level"])
        rep.verdict(f"Start player's win share, {n} players, {md_escape(strategy)} mirror{at}", e, first["fair"],
                    Band.fairness(first["fair"], SEAT_BAND), measure="start player's win share", players=int(n),
                    arm=f"{strategy} mirror")
    counts = sorted(shares["players"].unique())
    fig, axes = new_figure(min(4.2 * len(counts), 14), 3.8, ncols=len(counts))
    names = list(mirrors)
    for ax, n in zip(axes[0], counts):
        fair = float(shares.loc[shares["players"] == n, "fair"].mean())
        for i, s in enumerate(names):
            g = shares[(shares["players"] == n) & (shares["strategy"] == s)]
            dot_interval(ax, [str(k) for k in g["seat"]], g["win_share"], g["lo"], g["hi"], ylabel="win share",
                         xlabel="seat (1 = start player)", label=s, offset=(i - (len(names) - 1) / 2) * 0.12,
                         reference=fair if i == 0 else None, band=Band.fairness(fair, SEAT_BAND) if i == 0 else None,
                         what=f"{n} players, seat {{}}")
        ax.set_title(f"{n} players")
    # one legend below the panels: inside them it covered the points of the first seats
    handles, labels = axes[0][0].get_legend_handles_labels()
    labels = [f"fairness band (fair share ± {SEAT_BAND * 100:g} points)" if x.startswith("fairness band") else
              "fair share" if x.startswith("fair ") else x for x in labels]
    fig.legend(handles, labels, loc="outside lower center", ncol=len(labels), fontsize=8)
    rep.chart("mirror-seat-shares", fig, "Win share by seat in mirror matches (every seat the same strategy; a shared "
              "win split between the winners, so fair is exactly 1/n where somebody always wins), 95% intervals"
              + looks_levels(levels) + "; green: fairness band "
              f"(±{SEAT_BAND * 100:g} points)", title="Seat fairness in mirror matches")
    rep.table("Win share by seat in mirror matches", formatted(shares, {
        "strategy (every seat)": "strategy", "players": "players", "seat": "seat", "games": "games",
        "win share [95% CI]": Ci("win_share"), "fair": Num("fair", SHARE),
        "win rate": Num("win_rate", SHARE), "mean score": Num("mean_score")}),
        note="Win share: a win shared by k players counts 1/k for each, so the seats' shares add up to 1 (0 in a game "
             "nobody wins) and the fair share is (1 - q)/n, q the share of games nobody wins: exactly 1/n where somebody "
             "always wins. The verdicts read each seat's edge over the fair share with an interval that includes the "
             "estimate of q. Win rate counts a shared win as a win for each winner."
             + (" A stronger player's rows are at the level of its recheck's looks (" + ", ".join(
                 f"{md_escape(k)} {v:.2%}" for k, v in levels.items() if v != LEVEL) + "), so that its verdict "
                "stays wrong at most 5% of the time over its looks." if any(v != LEVEL for v in levels.values()) else ""))
    rep.table("Seat spread in mirror matches", formatted(spread, {
        "strategy (every seat)": "strategy", "players": "players", "games": "games",
        "spread [95% CI]": Ci("spread", unit=POINTS),
        "best seat": "best_seat", "worst seat": "worst_seat"}),
        note="Root mean square distance of the seats' win shares from the fair share, corrected for the luck of the "
             "seats, so a fair game's interval reaches down to 0.")
    return shares


UNSETTLED_SIDE = "not yet settled"


def side_of(win_share: float, fair: float, lo: float, hi: float, games: int, level: float = LEVEL) -> str:
    """The start player's side of the fairness band (fair, favoured, handicapped, not yet settled) from
    its share read against the fair share (``lo``, ``hi``: fair + the edge's interval)."""
    css = Band.fairness(fair, SEAT_BAND).judge(Estimate(win_share, lo, hi, games, "clustered", level)).css
    return "fair" if css == "in" else UNSETTLED_SIDE if css == "und" else (
        "favoured" if win_share > fair else "handicapped")


def start_side(frame: pd.DataFrame, level: float = LEVEL) -> str:
    """The start player's side of the fairness band in one mirror's frame (one player count), its
    interval at ``level``."""
    return start_reading(frame, level)[0]


def start_reading(frame: pd.DataFrame, level: float = LEVEL) -> tuple[str, Estimate, Band]:
    """:func:`start_side` with what it reads: the share's interval against the fair share, and the band."""
    from simlab.measures import fairness as F

    r = F.seat_shares(frame, level).iloc[0]
    e = Estimate(r["win_share"], r["fair_lo"], r["fair_hi"], int(r["games"]), "clustered by deal", level)
    return (side_of(r["win_share"], r["fair"], r["fair_lo"], r["fair_hi"], int(r["games"]), level), e,
            Band.fairness(r["fair"], SEAT_BAND))


def _mirror_sides(shares: pd.DataFrame) -> tuple[dict[int, dict[str, tuple[str, Estimate]]], list[int]]:
    """Per player count and mirror: the start player's side of the fairness band (fair, favoured,
    handicapped, not yet settled) with the share read against it; and the counts at which some mirror
    ended level in every game (it judges nothing)."""
    verdicts: dict[int, dict[str, tuple[str, Estimate]]] = {}
    blind = sorted({int(n) for n in shares.loc[shares["all_level"] == 1.0, "players"]})
    for r in shares[(shares["seat"] == 1) & (shares["all_level"] < 1.0)].itertuples():
        e = Estimate(r.win_share, r.fair_lo, r.fair_hi, int(r.games), "clustered", r.level)
        verdicts.setdefault(int(r.players), {})[r.strategy] = (side_of(r.win_share, r.fair, r.fair_lo, r.fair_hi,
                                                                       int(r.games), r.level), e)
    return verdicts, blind


ALIKE = ("Seat fairness holds by construction: the rules treat every seat alike, so no mirror match measures "
         "it.")


def mirror_bottom_line(shares: pd.DataFrame, strong: tuple[str, ...] = (), alike: str = "") -> str:
    """The answer in one short sentence: the start player's side of the fairness band at every player
    count where the heuristics' mirrors agree, where they disagree, and the largest edge. The
    stronger players (``strong``) and every mirror's own reading are in :func:`mirror_detail`."""
    if alike:
        return ALIKE
    verdicts, _ = _mirror_sides(shares)
    if not verdicts:
        return "No mirror match could judge the seats: in every one all seats ended level in every game."
    groups: dict[str, list[int]] = {}
    for n, every in sorted(verdicts.items()):
        by = {s: v for s, v in every.items() if s not in strong} or every
        sides = {side for side, _ in by.values()}
        groups.setdefault(sides.pop() if len(sides) == 1 else "disputed", []).append(n)
    said = [f"{side} at {join([str(n) for n in ns])} players" for side, ns in groups.items() if side != "disputed"]
    text = "In mirror matches the start player is " + (join(said) if said else "judged differently at every count")
    if said and "disputed" in groups:
        text += f"; the heuristics disagree at {join([str(n) for n in groups['disputed']])}"
    edges = shares[(shares["seat"] == 1) & (shares["all_level"] < 1.0) & ~shares["strategy"].isin(strong)]
    if len(edges):
        r = edges.loc[edges["edge"].abs().idxmax()]
        longer = text + f" (up to {fmt_points(r['edge'], r['edge_lo'], r['edge_hi'])} at {int(r['players'])} players)"
        text = longer if words_in(longer + ".") <= FIRST_WORDS else text
    return text + "."


def mirror_detail(shares: pd.DataFrame, rechecks: dict | None = None, alike: str = "") -> str:
    """Every mirror's reading in one sentence (a finding): per player count the start player's side of
    the band, whether the strategies agree, the furthest share, and the stronger players' mirrors
    (``rechecks``: player -> player count -> :class:`.rechecks.Recheck`) read against the heuristics'
    verdict, each not settled one with why."""
    if alike:
        return (f"Seat fairness holds by construction: {alike}, so no mirror match measures it (a seat difference "
                "there could only come from the order in which the engine asks the seats to choose).")
    verdicts, blind = _mirror_sides(shares)
    parts = []
    for n, every in sorted(verdicts.items()):
        rechecks = rechecks or {}
        by = {s: v for s, v in every.items() if s not in rechecks}
        stronger = {s: rechecks[s][n] for s in every if s in rechecks}
        only_strong = not by      # every other mirror ended level in every game: only these judge
        by = by or every
        sides = {side for side, _ in by.values()}
        fair = float(shares.loc[shares["players"] == n, "fair"].iloc[0])
        worst = max(by.items(), key=lambda kv: abs(kv[1][1].value - fair))
        if len(sides) == 1:
            side = sides.pop()
            agree = (f"only the {join([md_escape(s) for s in by])} mirror{'s' if len(by) > 1 else ''} can judge" if only_strong
                     else f"the {md_escape(next(iter(by)))} mirror" if len(by) == 1
                     else f"all {len(by)} {'heuristic ' if stronger else ''}mirrors agree")
            parts.append(f"{side} at {n} players ({agree}; {'furthest ' if len(by) > 1 else ''}"
                         f"{fmt_estimate(worst[1][1])} with {md_escape(worst[0])}"
                         + (f"; stronger play: {agreement(side, stronger)}" if stronger and not only_strong
                            else "") + ")")
        else:
            parts.append(f"judged differently by the strategies at {n} players ("
                         + ", ".join(f"{side} with {md_escape(s)}" + (f" ({stronger[s].why()})" if s in stronger and not
                                                                      stronger[s].decided else "")
                                     for s, (side, _) in sorted(every.items())) + ")")
    if not parts:
        return ("No mirror match could judge the seats: in every one all seats ended level in every game "
                "(each strategy plays the same game in every seat), so seat fairness is not measured here.")
    return ("In mirror matches the start player is " + "; ".join(parts)
            + f", read against a fair share of 1/n ± {SEAT_BAND * 100:g} points"
            + (f" (mirrors in which every game ended level judge nothing and are left out at "
               f"{join([str(n) for n in blind])} players)" if blind else "") + ".")


def luck_and_skill(rep: Report, duel: pd.DataFrame, field: pd.DataFrame, strong: str) -> pd.DataFrame:
    """Skill: how often ``strong`` finishes ahead of random players in duplicate games, on the Elo
    scale (does not saturate the way a win-rate share does; a heads-up Elo gap at 2 players only).
    Luck: in duplicate games of the default field, what a player's result varies with: the strategy
    it holds (skill against this field), the deal, the seat (:func:`~.fairness.deal_luck`)."""
    from simlab.measures import fairness as F

    gap = F.skill_gap(duel, strong, "random")
    luck = F.deal_luck(field)
    nil = (luck[["share", "lo", "hi"]].abs() < 1e-9).all(axis=1)       # rounding noise of an exact zero
    luck.loc[nil, ["share", "lo", "hi"]] = 0.0
    zero = luck[nil & (luck["component"] == "seat within the deal")]
    if len(zero):
        rep.findings.append(f"The seat within the deal explains exactly none of a player's result at "
                            f"{join([str(n) for n in zero['players']])} players: every seating of a deal plays alike, "
                            "so this is true by construction (the rules treat the seats alike), not a measured finding.")
    mix = join(sorted(field["strategy"].astype(str).unique()))
    for r in gap.itertuples():
        e = Estimate(r.elo_gap, r.elo_lo, r.elo_hi, int(r.pairs_games), "clustered by deal, logistic")
        ahead = (f"{md_escape(strong)} finishes ahead of a random player in {fmt_share(r.ahead, r.ahead_lo, r.ahead_hi)} "
                 "of their meetings")
        if r.heads_up:
            rep.verdict(f"Rating gap from random play to {md_escape(strong)}, heads-up (2 players, Elo points)", e,
                        unit=NUMBER, note=ahead, measure="Elo gap from random play", players=2, arm=strong)
        else:
            rep.verdict(f"{md_escape(strong)} against {r.players - 1} random players, {r.players} players: the share of "
                        "meetings it finishes ahead, read on the Elo scale", e, unit=NUMBER,
                        note=ahead + "; not a heads-up rating, and not comparable across player counts",
                        measure="Elo-scale share ahead of random play", players=int(r.players), arm=strong)
    for r in luck.itertuples():
        if r.component == "skill (strategy)":
            rep.verdict(f"Share of a player's result variance that its strategy explains, {r.players} players "
                        f"(default mix: {md_escape(mix)}, duplicate)",
                        Estimate(r.share, r.lo, r.hi, int(r.deals), "bootstrap over deals"),
                        note="The rest is luck, the deal and the seat. It measures how different these strategies are: "
                             "near-equal strategies leave little to skill in any game")
    fig, axes = new_figure(10, 3.6, ncols=2)
    labels = [str(n) for n in gap["players"]]
    dot_interval(axes[0][0], labels, gap["elo_gap"], gap["elo_lo"], gap["elo_hi"], unit=NUMBER, xlabel="players",
                 ylabel=f"Elo gap, random to {strong}", what="{} players, Elo gap")
    parts = [c for c in luck["component"].unique() if c != "luck (deal and seat)"]
    for i, comp in enumerate(parts):
        g = luck[luck["component"] == comp]
        dot_interval(axes[0][1], [str(n) for n in g["players"]], g["share"], g["lo"], g["hi"], xlabel="players",
                     ylabel="part of the result's variance (fraction)", label=comp, offset=(i - 1) * 0.12, unit=NUMBER,
                     what="{} players, " + comp)
    axes[0][1].legend(fontsize=7)
    rep.chart("luck-and-skill", fig, f"Left: how far {strong} is above random play, on the Elo scale (heads-up at 2 "
              "players only); right: what a player's result in duplicate games of the default mix varies with; "
              "95% intervals", title="Luck and skill")
    rep.table("Rating gap from random play", formatted(gap, {
        "players": "players", "meetings": "pairs_games",
        f"{strong} ahead of random [95% CI]": Ci("ahead", "ahead_lo", "ahead_hi"),
        "Elo gap [95% CI]": Ci("elo_gap", "elo_lo", "elo_hi", NUMBER, 0),
        "heads-up": lambda r: "yes" if r["heads_up"] else "no: one against random players"}),
        note="Elo gap = 400 log10(p / (1 - p)), p the share of meetings (same game, a tie counting one half) in which "
             "the heuristic finishes ahead of a random player. Only at 2 players is it a heads-up Elo gap; at 3+ players "
             "it reads a pairwise share of a multi-player game on the same scale, which is neither a heads-up rating "
             "nor comparable across player counts. Intervals: Wilson at the effective sample size of the deals; "
             "an upper bound of ∞ means the heuristic finished ahead in every meeting.")
    rep.table("What a player's result varies with (default mix, duplicate play)", formatted(luck, {
        "players": "players", "component": "component", "deals": "deals",
        # parts of one variance, not shares of players or games: the deal's part is a covariance, which can be
        # negative, so the column is a signed fraction, never a percentage
        "part of the variance [95% CI]": Ci("share", unit=CHANGE, digits=3)}),
        note=f"Every deal (all chance) played in every seat rotation, by {mix}. The variance of a player's win share "
             "splits into: skill, how much the strategy it holds explains (the spread of the strategies' means: it "
             "describes this field, not the game); deal, what a deal gives a strategy wherever it sits (the covariance "
             "of its results in two seatings of one deal: negative when a deal's fortunes follow the seat); and seat, "
             "the rest, what changes with the seating (which seat holds the better chance, turn order, in-game "
             "chance). Luck is deal and seat together. Each part is a fraction of the one variance (the parts add up "
             "to 1); the deal's part is a covariance and can be below 0. Unbiased estimates, bootstrap intervals over "
             "deals.")
    skill = luck[luck["component"] == "skill (strategy)"][["players", "share", "lo", "hi"]]
    return gap.merge(skill.rename(columns={"share": "skill_share", "lo": "skill_lo", "hi": "skill_hi"}),
                     on="players").assign(mix=mix)


def luck_bottom_line(s: pd.DataFrame, strong: str) -> str:
    """One sentence: the heads-up rating gap (or the pairwise share at the fewest players), and how
    much the default mix's strategies explain at the most players, said as a trait of the mix."""
    first, last = s.iloc[0], s.iloc[-1]
    if first.heads_up and math.isinf(first.elo_hi):     # it won (nearly) every meeting: only a lower bound is known
        won = ("won every one of its" if first.ahead == 1 else f"finished ahead in {fmt_share(first.ahead)} of its")
        gap = (f"Heads-up, {md_escape(strong)} {won} {int(first.pairs_games):,} meetings with random play: at least "
               f"{first.elo_lo:,.0f} Elo above it")
    elif first.heads_up:
        gap = f"Heads-up, {md_escape(strong)} is {fmt_number(first.elo_gap, first.elo_lo, first.elo_hi, 0)} Elo above random play"
    else:
        gap = (f"The strongest, {md_escape(strong)}, finishes ahead of a random player in "
               f"{fmt_share(first.ahead, first.ahead_lo, first.ahead_hi)} of meetings at {int(first.players)} players")
    return (f"{gap}; the default mix's strategies explain {fmt_share(last.skill_share, last.skill_lo, last.skill_hi)} of "
            f"a player's result at {int(last.players)} players, a trait of that mix rather than of the game.")


def unfolding(rep: Report, replays: list[unfold.Replay]) -> pd.DataFrame:
    """How games unfold, per player count, from games replayed with their standings after every
    round (:func:`.unfold.replay`): a chart of the eventual winners' and the other seats' mean score
    by round, a finding per player count (when the winner is decided, how often the lead changes)
    and a table of the measures."""
    from simlab.report.charts import interval_band

    ncols = min(3, len(replays))
    nrows = -(-len(replays) // ncols)
    fig, axes = new_figure(4.2 * ncols, 3.4 * nrows, ncols=ncols, nrows=nrows)
    for ax in axes.flat[len(replays):]:
        ax.set_visible(False)
    rows = []
    for ax, (config, n_games, traj, result) in zip(axes.flat, replays):
        s = unfold.summary(unfold.measures(traj, result))
        paths = unfold.winner_paths(traj, result)
        for who, label in (("winner", "eventual winner"), ("others", "other seats")):
            p = paths[paths["who"] == who]
            interval_band(ax, p["round"], p["mean"], p["lo"], p["hi"], label, unit=NUMBER,
                          what=f"{config.players} players, round {{}}")
        ax.set_title(f"{config.players} players", fontsize=10)
        ax.set_xlabel("round")
        ax.set_ylabel("score if the game ended then (points)")
        ax.legend(fontsize=8)
        decided, changes, halftime = s["decided_share"], s["lead_changes"], s["halftime_leader_wins"]
        rep.findings.append(
            f"How a game unfolds at {config.players} players ({fmt_count(n_games)} games): the eventual winner leads "
            f"for good from round {s['median_decided_round']:g} of {s['median_rounds']:g} (medians; on average "
            f"from {fmt_estimate(decided)} of the way through); the lead changes {fmt_estimate(changes, NUMBER)} "
            f"times per game, the leader at half-time wins {fmt_estimate(halftime)} of games, and a player last "
            f"after a third of the game still wins {fmt_estimate(s['comeback'])} of the time "
            f"({fmt_share(1 / config.players)} if the standings then told nothing).")
        rows.append({"players": config.players, "games": n_games, "rounds": s["median_rounds"],
                     **{f"{m.key}_{k}": getattr(s[m.key], k) for m in UNFOLDING for k in ("value", "lo", "hi")}})
    rep.chart("unfolding", fig, "Mean score by round of the eventual winner and of the other seats, with 95% "
              "intervals over games: the standings after each round are the score each seat would have if the game "
              "ended then, by the game's own end scoring, and a game's last round is its final score; rounds "
              "that fewer than 10% of the games reach are left out", title="How a game unfolds")
    table = pd.DataFrame(rows)

    def est(m, unit):
        return Ci(f"{m}_value", f"{m}_lo", f"{m}_hi", unit)

    rep.table("How a game unfolds", formatted(table, {
        "players": "players", "games": "games", "rounds (median)": Num("rounds", "g"),
        **{f"{m.name} [95% CI]": est(m.key, m.unit) for m in UNFOLDING}}),
        note="Leaders are all seats tied for the top score; a change of that set is a lead change. Decided at: the "
             "round from which an eventual winner leads, alone or tied, to the end. Drama (after Ludii's): in the "
             "rounds the winner trails, the gap to the leader as a share of the game's top score; 0 when the winner "
             "never trails. Half-time: after round ceil(R/2) of R; tied leaders count by the share of them who win. "
             "Last after a third: the seats with the lowest score after round ceil(R/3), counted the same way (none "
             "when every seat is level then). Intervals are over deals.")
    return table
