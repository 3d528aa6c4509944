"""Loot Island: where should the curse-cube elimination threshold sit?

The threshold (parameter ``curse_threshold``, printed 13) is swept over every value from 4 to 20
with ``Context.sweep`` (one run per value, all on the same root seed, so the values pair game by
game) at 2-5 players. Each run is a round table of risk appetites rotated through the seats: the
hunter heuristic with curse caps 5, 8, 11 (its default), 14, and a threshold-blind risk taker
(``hunter:cap=40:heed_threshold=0``: no cap and no price on reaching the threshold, only the
healer's rate per cube). The table grows with the player count (2 players: cap 11 and the blind
risk taker; 3: cap 5 joins; 4: cap 14; 5: cap 8).

Eliminations are split by cause: by curse cubes (``eliminated`` = 1) and by the healer fee (2,
which rests on the ASSUMED healer cards).

The threshold **binds** at a value while play or outcome there differs measurably from the top of
the sweep (the 95% interval of the difference excludes 0) in at least one of: the share of
players eliminated by curses, the winners' curse cubes, the blind risk taker's win rate. From N up
it stops binding: N is the lowest value from which no higher value binds.

**Greed pays** at a value when the blind risk taker, the greediest appetite, is among the best
responses there (the appetites whose win rate is statistically tied with the best,
``wording.best_of``). Below M greed no longer pays: M is the lowest value from which greed pays at
every higher value. A heeding cap of t-1 or more never binds before the threshold t does, so such
caps play alike: they are not counted as greed.
"""
from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from simlab.analysis import sections
from simlab.analysis.charts import interval_band, new_figure
from simlab.analysis.experiment import Context, Experiment
from simlab.analysis.report import ci, formatted, num
from simlab.analysis.stats import Estimate, difference_of_means, mean, proportion
from simlab.analysis.wording import (NUMBER, POINTS, Band, best_of, compare, difference, fmt_estimate, fmt_points,
                                     fmt_share, join)

THRESHOLDS = tuple(range(4, 21))
PRINTED = 13
PLAYERS = (2, 3, 4, 5)
BLIND = "hunter:cap=40:heed_threshold=0"
APPETITES = {"hunter:cap=5": "cap 5", "hunter:cap=8": "cap 8", "hunter:cap=11": "cap 11",
             "hunter:cap=14": "cap 14", BLIND: "blind"}          # seat spec -> short name, least greedy first
TABLES = {2: ("hunter:cap=11", BLIND), 3: ("hunter:cap=5", "hunter:cap=11", BLIND),
          4: ("hunter:cap=5", "hunter:cap=11", "hunter:cap=14", BLIND),
          5: ("hunter:cap=5", "hunter:cap=8", "hunter:cap=11", "hunter:cap=14", BLIND)}
GREEDY = "blind"
# what "binds" watches, each compared with the top of the sweep: column stem -> words
BINDING = {"curse_out": "share of players eliminated by curses", "win_cubes": "winners' curse cubes",
           "blind_win": "blind risk taker's win rate"}
ASSUMED_HERE = ("healer_per_cube", "healer_fixed", "islet_action", "islet_value", "treasure_crossed")


# ---------------------------------------------------------------------------------------------
# measures of one run
# ---------------------------------------------------------------------------------------------

def _est(e: Estimate, stem: str) -> dict:
    return {stem: e.value, f"{stem}_lo": e.lo, f"{stem}_hi": e.hi}


def _rate(rows: pd.Series) -> Estimate:
    """A per-player rate with its Wilson interval (which keeps an upper bound when nothing happened). Over
    one appetite's rows the games are independent; over several seats of a game, an elimination of one
    player hardly changes another's, so the rows are taken as independent."""
    return proportion(float(rows.sum()), len(rows))


def point(frame: pd.DataFrame, threshold: int, players: int) -> tuple[dict, list[dict]]:
    """The threshold-level measures of one run and one row per appetite, with 95% intervals."""
    f = frame.assign(strategy=frame["strategy"].astype(str), curse=(frame["eliminated"] == 1).astype(float),
                     fee=(frame["eliminated"] == 2).astype(float))
    games = f.groupby("game")
    heed = f[f["strategy"] != BLIND]
    blind = f[f["strategy"] == BLIND]
    win_cubes = f.loc[f["win"], "curses"].to_numpy(dtype=float)
    row = {"players": players, "threshold": threshold, "games": f["game"].nunique(),
           **_est(_rate(f["curse"]), "curse_out"), **_est(_rate(f["fee"]), "fee_out"),
           **_est(_rate(heed["curse"]), "heed_curse"), **_est(_rate(heed["fee"]), "heed_fee"),
           **_est(_rate(blind["curse"]), "blind_curse"), **_est(_rate(blind["fee"]), "blind_fee"),
           **_est(_rate(blind["win"]), "blind_win"), **_est(mean(win_cubes), "win_cubes"),
           "win_cubes_sd": float(win_cubes.std(ddof=1)) if win_cubes.size > 1 else math.nan,
           "win_cubes_n": int(win_cubes.size), "no_winner": float(games["no_winner"].first().mean())}
    apps = []
    for spec, g in f.groupby("strategy"):
        apps.append({"players": players, "threshold": threshold, "appetite": APPETITES[spec], "seats": len(g),
                     **_est(_rate(g["win"]), "win"), "fair": 1.0 / players,
                     "curse_out": float(g["curse"].mean()), "fee_out": float(g["fee"].mean()),
                     "cubes": float(g["curses"].mean()), "score": float(g["score"].mean())})
    return row, apps


def estimate(r: Mapping, stem: str) -> Estimate:
    return Estimate(r[stem], r[f"{stem}_lo"], r[f"{stem}_hi"], 0, "")


# ---------------------------------------------------------------------------------------------
# the two thresholds: where it stops binding, where greed starts to pay
# ---------------------------------------------------------------------------------------------

def holds_from(flags: Mapping[int, bool]) -> int | None:
    """The lowest key from which ``flags`` holds at every higher key; None if it fails at the top."""
    start = None
    for k in sorted(flags, reverse=True):
        if not flags[k]:
            break
        start = k
    return start


def binding(sweep: pd.DataFrame) -> dict[int, list[str]]:
    """Per threshold of one player count: the BINDING measures that differ from the top of the sweep
    (the interval of the difference excludes 0; the runs pair by game, so treating them as
    independent is conservative). The winners' cubes use Welch's interval."""
    top = sweep.loc[sweep["threshold"].idxmax()]
    out = {}
    for _, r in sweep.iterrows():
        moved = []
        for stem in BINDING:
            if stem == "win_cubes":
                d = _welch(r, top)
            else:
                d = difference(estimate(r, stem), estimate(top, stem))
            if r["threshold"] != top["threshold"] and compare(d) != "a statistical tie":
                moved.append(stem)
        out[int(r["threshold"])] = moved
    return out


def _welch(a: Mapping, b: Mapping) -> Estimate:
    """Difference of two means from their summaries (mean, sd, n), normal interval."""
    se = math.hypot(a["win_cubes_sd"] / math.sqrt(a["win_cubes_n"]), b["win_cubes_sd"] / math.sqrt(b["win_cubes_n"]))
    d = a["win_cubes"] - b["win_cubes"]
    return Estimate(d, d - 1.959964 * se, d + 1.959964 * se, int(a["win_cubes_n"] + b["win_cubes_n"]), "Welch")


def best_responses(apps: pd.DataFrame) -> dict[int, tuple[str, ...]]:
    """Per threshold of one player count: the appetites tied for the best win rate (best first)."""
    return {int(t): best_of({r.appetite: Estimate(r.win, r.win_lo, r.win_hi, int(r.seats), "Wilson")
                             for r in g.itertuples()}).tied
            for t, g in apps.groupby("threshold")}


def stops_binding(sweep: pd.DataFrame) -> int | None:
    return holds_from({t: not moved for t, moved in binding(sweep).items()})


def greed_pays_from(apps: pd.DataFrame) -> int | None:
    return holds_from({t: GREEDY in tied for t, tied in best_responses(apps).items()})


# ---------------------------------------------------------------------------------------------
# words
# ---------------------------------------------------------------------------------------------

def spans(values: Mapping[int, str]) -> str:
    """'4-7: a; 8: b; 9-20: c' from a value per threshold, consecutive equal values merged."""
    parts, keys = [], sorted(values)
    i = 0
    while i < len(keys):
        j = i
        while j + 1 < len(keys) and keys[j + 1] == keys[j] + 1 and values[keys[j + 1]] == values[keys[i]]:
            j += 1
        parts.append(f"{keys[i]}{'-' + str(keys[j]) if j > i else ''}: {values[keys[i]]}")
        i = j + 1
    return "; ".join(parts)


def per_count(values: Mapping[int, object], say) -> str:
    """One phrase for every player count when they agree, else one per count."""
    if len({str(v) for v in values.values()}) == 1:
        return f"{say(next(iter(values.values())))} at {PLAYERS[0]}-{PLAYERS[-1]} players"
    return ", ".join(f"{say(v)} at {n} players" for n, v in values.items())


def binds_words(n_from: int | None) -> str:
    if n_from is None:
        return "the threshold binds even at the top of the sweep"
    if n_from == THRESHOLDS[0]:
        return f"the threshold binds nowhere in {THRESHOLDS[0]}-{THRESHOLDS[-1]}"
    return f"from {n_from} up the threshold stops binding"


def greed_words(m_from: int | None) -> str:
    if m_from is None:
        return f"greed does not pay even at {THRESHOLDS[-1]}"
    if m_from == THRESHOLDS[0]:
        return f"greed pays at every threshold down to {THRESHOLDS[0]}"
    return f"below {m_from} greed no longer pays"


# ---------------------------------------------------------------------------------------------
# the experiment
# ---------------------------------------------------------------------------------------------

def analyse(ctx: Context):
    rep = ctx.report("Loot Island: the curse-cube elimination threshold",
                     f"Where should the elimination threshold sit (printed: {PRINTED})? Swept over every value from "
                     f"{THRESHOLDS[0]} to {THRESHOLDS[-1]} at {PLAYERS[0]}-{PLAYERS[-1]} players, each run a round table "
                     f"of risk appetites (hunters with curse caps 5 to 14 that heed the threshold, and a threshold-blind "
                     f"risk taker); {ctx.games:,} games per run. Up to which value does the threshold change play or "
                     "outcome, and from which value does greed pay?")
    rows, apps = [], []
    for n in PLAYERS:
        runs = ctx.sweep(f"table-{n}p", ctx.config(n, TABLES[n]), "curse_threshold", THRESHOLDS)
        for t, r in runs.items():
            row, app = point(r.frame(), t, n)
            rows.append(row)
            apps += app
    t = pd.DataFrame(rows)
    a = pd.DataFrame(apps)
    a["order"] = a["appetite"].map({v: i for i, v in enumerate(APPETITES.values())})
    a = a.sort_values(["players", "threshold", "order"]).drop(columns="order").reset_index(drop=True)

    moved = {n: binding(t[t["players"] == n]) for n in PLAYERS}
    best = {n: best_responses(a[a["players"] == n]) for n in PLAYERS}
    n_from = {n: holds_from({k: not v for k, v in moved[n].items()}) for n in PLAYERS}
    m_from = {n: holds_from({k: GREEDY in v for k, v in best[n].items()}) for n in PLAYERS}
    t["binds"] = [", ".join(BINDING[s] for s in moved[r.players][r.threshold]) for r in t.itertuples()]
    a["among the best"] = [r.appetite in best[r.players][r.threshold] for r in a.itertuples()]

    # findings
    at = t[t["threshold"] == PRINTED].set_index("players")
    for n in PLAYERS:
        g = t[t["players"] == n]
        where = [k for k, v in moved[n].items() if v]
        rep.findings.append(
            f"{n} players, does the threshold bind (a measure differs from threshold {THRESHOLDS[-1]}: "
            f"{join(list(BINDING.values()))})? " + (f"It binds at {spans({k: '+'.join(v) for k, v in moved[n].items() if v})}"
                                                    .replace("curse_out", "curse eliminations").replace("win_cubes", "winners' cubes")
                                                    .replace("blind_win", "blind's win rate") if where else "Nowhere")
            + f"; {binds_words(n_from[n])}. Curse eliminations fall from {fmt_share(g['curse_out'].max())} to "
            f"{fmt_share(g['curse_out'].min())} of players over the sweep.")
        rep.findings.append(
            f"{n} players, best responses by threshold (appetites whose win rate is a statistical tie with the best "
            f"listed together; table: {join([APPETITES[s] for s in TABLES[n]])}): "
            + spans({k: join(v) for k, v in best[n].items()}) + f"; {greed_words(m_from[n])}.")
    for n in PLAYERS:
        r = at.loc[n]
        rep.verdict(f"{n} players, threshold {PRINTED}: the blind risk taker's win rate", estimate(r, "blind_win"),
                    1.0 / n, Band.effect(sections.SEAT_BAND, around=1.0 / n), reference_label="an even share",
                    note=f"It is eliminated by curses in {fmt_estimate(estimate(r, 'blind_curse'))} of its games")
        rep.verdict(f"{n} players, threshold {PRINTED}: players eliminated by curses (heeding appetites)",
                    estimate(r, "heed_curse"), note="They refuse cubes that reach the threshold; only cubes they "
                    "cannot refuse eliminate them")
        rep.verdict(f"{n} players, threshold {PRINTED}: players eliminated by the healer fee (all appetites; rests "
                    "on the ASSUMED healer cards)", estimate(r, "fee_out"))

    # charts
    fig, axes = new_figure(13, 7, ncols=2, nrows=2)
    for ax, n in zip(axes.flat, PLAYERS):
        g = t[t["players"] == n]
        interval_band(ax, g["threshold"], g["blind_curse"], g["blind_curse_lo"], g["blind_curse_hi"],
                      "blind risk taker: by curses", what=f"{n} players, threshold {{}}")
        interval_band(ax, g["threshold"], g["heed_curse"], g["heed_curse_lo"], g["heed_curse_hi"],
                      "heeding appetites: by curses", what=f"{n} players, threshold {{}}")
        interval_band(ax, g["threshold"], g["fee_out"], g["fee_out_lo"], g["fee_out_hi"],
                      "all: by healer fee (ASSUMED healers)", what=f"{n} players, threshold {{}}")
        _axes(ax, f"{n} players", "players eliminated (%)")
    rep.chart("eliminations-by-cause", fig, "Share of players eliminated, by cause, against the threshold, with 95% "
              "interval bands: the blind risk taker by curses, the threshold-heeding appetites by curses, and every "
              "player by the healer fee (this one rests on the ASSUMED healer cards); dotted: the printed "
              f"{PRINTED}", title="Eliminations by cause")
    fig, axes = new_figure(13, 7, ncols=2, nrows=2)
    for ax, n in zip(axes.flat, PLAYERS):
        g = a[a["players"] == n]
        for name in [APPETITES[s] for s in TABLES[n]]:
            h = g[g["appetite"] == name]
            interval_band(ax, h["threshold"], h["win"], h["win_lo"], h["win_hi"], name,
                          what=f"{n} players, threshold {{}}")
        ax.axhline(1.0 / n, color="black", ls="--", lw=1, label=f"even share 1/{n}")
        _axes(ax, f"{n} players", "win rate (%)")
    rep.chart("best-response", fig, "Win rate of each risk appetite at the round table against the threshold, with "
              "95% interval bands; dashed: an even share (1/n); dotted: the printed "
              f"{PRINTED}. Caps are the hunter's curse caps (it heeds the threshold); blind: no cap, ignores the "
              "threshold", title="Which risk appetite wins")

    # tables
    rep.table("Threshold sweep: eliminations by cause and what binds", formatted(t, {
        "players": "players", "threshold": "threshold", "games": "games",
        "curse eliminations, all [95% CI]": lambda r: ci(r, "curse_out", "curse_out_lo", "curse_out_hi"),
        "by curses, heeding": lambda r: ci(r, "heed_curse", "heed_curse_lo", "heed_curse_hi"),
        "by curses, blind": lambda r: ci(r, "blind_curse", "blind_curse_lo", "blind_curse_hi"),
        "by healer fee, all (ASSUMED healers)": lambda r: ci(r, "fee_out", "fee_out_lo", "fee_out_hi"),
        "blind's win rate": lambda r: ci(r, "blind_win", "blind_win_lo", "blind_win_hi"),
        "winners' cubes": lambda r: ci(r, "win_cubes", "win_cubes_lo", "win_cubes_hi", NUMBER),
        "nobody wins": lambda r: fmt_share(r["no_winner"]),
        f"differs from {THRESHOLDS[-1]}": "binds"}),
        note="Shares per player; intervals over games. 'Differs' lists the measures whose difference from the top of "
             "the sweep has a 95% interval excluding 0 (the threshold binds there).")
    rep.table("Round table: win rate of each risk appetite", formatted(a, {
        "players": "players", "threshold": "threshold", "appetite": "appetite",
        "win rate [95% CI]": lambda r: ci(r, "win", "win_lo", "win_hi"),
        "minus even share": lambda r: fmt_points(r["win"] - r["fair"]),
        "among the best": lambda r: "yes" if r["among the best"] else "",
        "out by curses": lambda r: fmt_share(r["curse_out"]), "out by healer fee": lambda r: fmt_share(r["fee_out"]),
        "cubes": lambda r: num(r["cubes"]), "mean score": lambda r: num(r["score"])}),
        note="'Among the best': the appetite's win rate is a statistical tie with the highest at its table and threshold.")

    # bottom line
    rep.bottom_line = [
        f"{_cap(per_count(n_from, binds_words))}, and {per_count(m_from, greed_words)} (greed: the threshold-blind "
        f"risk taker is among the best responses at the table, ties counted).",
        f"At the printed {PRINTED} the blind risk taker wins {fmt_estimate(estimate(at.loc[2], 'blind_win'))} of "
        f"2-player games (even share 50%) and {fmt_estimate(estimate(at.loc[5], 'blind_win'))} at 5 players (even "
        f"share 20%), and curses eliminate it in {fmt_estimate(estimate(at.loc[2], 'blind_curse'))} and "
        f"{fmt_estimate(estimate(at.loc[5], 'blind_curse'))} of its games; the best responses there are "
        + "; ".join(f"{join(best[n][PRINTED])} at {n} players" for n in PLAYERS) + ".",
        f"Players who heed the threshold are almost never eliminated by curses "
        f"({fmt_estimate(estimate(at.loc[5], 'heed_curse'))} at 5 players, threshold {PRINTED}); healer-fee "
        f"eliminations ({fmt_estimate(estimate(at.loc[2], 'fee_out'))} of players at 2 players, "
        f"{fmt_estimate(estimate(at.loc[5], 'fee_out'))} at 5) rest on the ASSUMED healer cards.",
    ]
    rep.rests_on = sections.rests_on(ctx.runs, " (a round table of risk appetites, rotated through the seats: "
                                                "hunters with curse caps, heeding the threshold, and the blind risk "
                                                "taker, which ignores it)", only=ASSUMED_HERE)
    rep.rests_on.append("Healer-fee eliminations rest entirely on the ASSUMED healer cards (`healer_per_cube`, "
                        "`healer_fixed`); curse eliminations rest on the printed rules and the treasure, islet and "
                        "event data (islet values ASSUMED).")
    rep.caveats.append("The heeding appetites price a cube that would reach the threshold at 60 gold, so only cubes "
                       "they cannot refuse (1s, events, islets) eliminate them; the blind risk taker "
                       "(`heed_threshold=0`) weighs cubes only by the healer's rate. A heeding cap of t-1 or more "
                       "never binds before threshold t does, so such caps play (almost) alike: at thresholds up to "
                       "12 the caps 11 and 14 are close to the same player. Human players may sit anywhere between.")
    rep.caveats.append(f"'Binds' compares each threshold with the top of the sweep ({THRESHOLDS[-1]}) on "
                       f"{len(BINDING)} measures at the 95% level, each independently: a few false alarms among the "
                       f"{len(THRESHOLDS) - 1} comparisons per player count are possible; the runs share one seed, so "
                       "the independent intervals used are conservative.")
    return rep


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _axes(ax, title: str, ylabel: str) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.axvline(PRINTED, color="grey", ls=":", lw=1)
    ax.set_xticks(list(THRESHOLDS))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("curse threshold (cubes)")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)


EXPERIMENT = Experiment("curse-threshold", "The curse-threshold sweep", __doc__, analyse, game="loot-island",
                        players=PLAYERS)
