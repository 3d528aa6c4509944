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

The threshold **binds** at a value while play or outcome there differs measurably from the same
table without a threshold (a run at 99, out of reach; the 95% interval of the difference excludes
0) in at least one of: the share of players eliminated by curses, the winners' curse cubes, the
blind risk taker's win rate. From N up it stops binding: N is the lowest value swept from which no
higher value binds.

**Greed pays** at a value when an appetite greedier than the default hunter (cap 14, or the blind
risk taker) is among the best responses there (the appetites whose win rate is not statistically below
the best one's, ``wording.best_of``, read with the covariance of seats at one table and held to 95%
together). Below M greed no longer pays: M is the lowest value from which greed pays at every
higher value.

**Stronger play** (:mod:`simlab.studies.strength`): each stronger player (the search player, each
tuned set) plays a 2-player mirror at the printed threshold and without one; the bottom line says
whether the printed value binds its players as it binds (or not) the heeding hunters at 2 players.
"""
from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from simlab.core.intervals import Z95
from simlab.measures.fairness import clustered_means
from simlab.measures.stats import LEVEL, Estimate, mean, proportion, z_of
from simlab.report import sections
from simlab.report import rechecks
from simlab.report.charts import interval_band, new_figure
from simlab.report.page import Ci, Num, formatted
from simlab.report.wording import (NUMBER, POINTS, SHARE, TIE, Band, best_of, bottom_line_problems, compare,
                                   difference, fmt_estimate, fmt_share, join)
from simlab.studies import strength
from simlab.studies.experiment import Context, Experiment

THRESHOLDS = tuple(range(4, 21))
NO_THRESHOLD = 99                      # the parameter's top: nobody holds 99 cubes, the reference "without a threshold"
PRINTED = 13
PLAYERS = (2, 3, 4, 5)
BLIND = "hunter:cap=40:heed_threshold=0"
APPETITES = {"hunter:cap=5": "cap 5", "hunter:cap=8": "cap 8", "hunter:cap=11": "cap 11",
             "hunter:cap=14": "cap 14", BLIND: "blind"}          # seat spec -> short name, least greedy first
TABLES = {2: ("hunter:cap=11", BLIND), 3: ("hunter:cap=5", "hunter:cap=11", BLIND),
          4: ("hunter:cap=5", "hunter:cap=11", "hunter:cap=14", BLIND),
          5: ("hunter:cap=5", "hunter:cap=8", "hunter:cap=11", "hunter:cap=14", BLIND)}
GREEDY = ("cap 14", "blind")                # greedier than the default hunter (cap 11)
# what "binds" watches, each compared with the top of the sweep: column stem -> words
BINDING = {"curse_out": "share of players eliminated by curses", "win_cubes": "winners' curse cubes",
           "blind_win": "blind risk taker's win rate"}
# the same question asked of the players who heed the threshold only: their own cubes and curse eliminations
HEED_BINDING = {"heed_curse": "share of heeding players eliminated by curses", "heed_cubes": "heeding players' cubes"}
SHORT = {"curse_out": "curse eliminations", "win_cubes": "winners' cubes", "blind_win": "blind's win rate",
         "heed_curse": "heeding players' curse eliminations", "heed_cubes": "heeding players' cubes"}
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
    heed_cubes = heed["curses"].to_numpy(dtype=float)
    row = {"players": players, "threshold": threshold, "games": f["game"].nunique(),
           **_est(_rate(f["curse"]), "curse_out"), **_est(_rate(f["fee"]), "fee_out"),
           **_est(_rate(heed["curse"]), "heed_curse"), **_est(_rate(heed["fee"]), "heed_fee"),
           **_est(_rate(blind["curse"]), "blind_curse"), **_est(_rate(blind["fee"]), "blind_fee"),
           **_est(_rate(blind["win"]), "blind_win"), **_est(mean(win_cubes), "win_cubes"),
           "win_cubes_sd": float(win_cubes.std(ddof=1)) if win_cubes.size > 1 else math.nan,
           "win_cubes_n": int(win_cubes.size), **_est(mean(heed_cubes), "heed_cubes"),
           "heed_cubes_sd": float(heed_cubes.std(ddof=1)) if heed_cubes.size > 1 else math.nan,
           "heed_cubes_n": int(heed_cubes.size), "no_winner": float(games["no_winner"].first().mean()),
           "even": float(f["win"].mean())}      # a seat's win rate at a fair table: games nobody wins count
    apps = []
    table = f[f["strategy"].isin(APPETITES)]           # a stronger player's mirror holds no appetite
    names = [APPETITES[s] for s in sorted(table["strategy"].unique())]
    cov = clustered_means(table["win"], table["strategy"].map(APPETITES), table["game"], names)[1] if names else None
    for spec, g in table.groupby("strategy"):
        i = names.index(APPETITES[spec])
        apps.append({"players": players, "threshold": threshold, "appetite": APPETITES[spec], "seats": len(g),
                     **_est(_rate(g["win"]), "win"), "win_cov": dict(zip(names, cov[i])),
                     "fair": row["even"],
                     "curse_out": float(g["curse"].mean()), "fee_out": float(g["fee"].mean()),
                     "cubes": float(g["curses"].mean()), "score": float(g["score"].mean())})
    return row, apps


def estimate(r: Mapping, stem: str) -> Estimate:
    """A measure of one table row (:func:`point`) as an estimate: over its games, with Wilson's interval
    of a per-player rate (:func:`_rate`) or the normal one of the winners' cubes."""
    return Estimate(r[stem], r[f"{stem}_lo"], r[f"{stem}_hi"], int(r.get("games", 0)),
                    "normal" if "cubes" in stem else "Wilson")


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


def binding(sweep: pd.DataFrame, reference: Mapping, stems: Mapping = BINDING, level: float = LEVEL) -> dict[int, list[str]]:
    """Per threshold of one player count: the measures (``stems``, default BINDING) that differ from
    ``reference`` (the same table without a threshold): the interval of the difference excludes 0.
    The runs pair by game, so treating them as independent is conservative. Mean cubes use Welch's
    interval. At another ``level`` than 95% (a recheck's looks) each side of the 95% intervals
    stretches by the ratio of the normal quantiles."""
    k = z_of(level) / Z95
    out = {}
    for _, r in sweep.iterrows():
        out[int(r["threshold"])] = [stem for stem in stems if compare(
            _welch(r, reference, stem, level) if stem.endswith("_cubes")
            else difference(stretched(estimate(r, stem), k), stretched(estimate(reference, stem), k))) != TIE]
    return out


def stretched(e: Estimate, k: float) -> Estimate:
    """``e`` with each side of its interval ``k`` times as long."""
    return Estimate(e.value, e.value - (e.value - e.lo) * k, e.value + (e.hi - e.value) * k, e.n, e.method)


def _welch(a: Mapping, b: Mapping, stem: str = "win_cubes", level: float = LEVEL) -> Estimate:
    """Difference of two means from their summaries (mean, sd, n), normal interval."""
    se = math.hypot(a[f"{stem}_sd"] / math.sqrt(a[f"{stem}_n"]), b[f"{stem}_sd"] / math.sqrt(b[f"{stem}_n"]))
    d, z = a[stem] - b[stem], z_of(level)
    return Estimate(d, d - z * se, d + z * se, int(a[f"{stem}_n"] + b[f"{stem}_n"]), "Welch", level)


def best_responses(apps: pd.DataFrame) -> dict[int, tuple[str, ...]]:
    """Per threshold of one player count: the appetites tied for the best win rate (best first), their
    comparisons read with the covariance of appetites at one table (``win_cov``, from :func:`point`)
    and held to 95% together."""
    out = {}
    for t, g in apps.groupby("threshold"):
        names = list(g["appetite"])
        cov = np.array([[c[b] for b in names] for c in g["win_cov"]]) if "win_cov" in g else None
        out[int(t)] = best_of({r.appetite: Estimate(r.win, r.win_lo, r.win_hi, int(r.seats), "Wilson")
                               for r in g.itertuples()}, covariance=cov).tied
    return out


def stops_binding(moved: Mapping[int, list[str]]) -> int | None:
    """N: the lowest threshold from which no higher one binds (None: it still binds at the top)."""
    return holds_from({t: not m for t, m in moved.items()})


def greed_pays_from(best: Mapping[int, tuple[str, ...]]) -> int | None:
    """M: the lowest threshold from which a GREEDY appetite is among the best at every higher one."""
    return holds_from({t: any(g in tied for g in GREEDY) for t, tied in best.items()})


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


def counts(ns) -> str:
    """'2 players', '4 and 5 players', '2-5 players'."""
    ns = sorted(ns)
    if len(ns) > 2 and ns == list(range(ns[0], ns[-1] + 1)):
        return f"{ns[0]}-{ns[-1]} players"
    return f"{join([str(n) for n in ns])} players"


def grouped(values: Mapping[int, object], say) -> str:
    """One clause per distinct value: 'say(v) at 2 and 3 players', in player order."""
    groups: dict[str, list[int]] = {}
    for n, v in values.items():
        groups.setdefault(say(v), []).append(n)
    return "; ".join(f"at {counts(ns)} {text}" for text, ns in groups.items())


def n_words(n_from: int | None) -> str:
    if n_from is None:
        return f"the threshold still binds at {THRESHOLDS[-1]}"
    return f"N = {n_from}" + (" (it binds nowhere in the sweep)" if n_from == THRESHOLDS[0] else "")


def m_words(m_from: int | None) -> str:
    if m_from is None:
        return f"greed pays at no threshold up to {THRESHOLDS[-1]}"
    return f"M = {m_from}" + (" (greed pays everywhere in the sweep)" if m_from == THRESHOLDS[0] else "")


def binds_sentence(n_from: Mapping[int, int | None], each: Mapping[int, Mapping[str, int | None]]) -> str:
    """'From 16 up the threshold stops binding at 4 and 5 players and it binds all the way to 20 at 2
    players (there only the winners' cubes stop moving, from 18 up)', without the full stop."""
    parts = [f"from {v} up the threshold stops binding at {counts([n for n in n_from if n_from[n] == v])}"
             for v in sorted({v for v in n_from.values() if v is not None})]
    still = [n for n in n_from if n_from[n] is None]
    if still:
        some = [f"at {n} players " + join([f"the {SHORT[x]} {'stops' if x == 'blind_win' else 'stop'} moving from {v} up" for x, v in each[n].items()
                                           if v is not None])
                for n in still if any(v is not None for v in each[n].values())]
        parts.append(f"the threshold binds all the way to {THRESHOLDS[-1]} at {counts(still)}"
                     + (f" ({'; '.join(some)})" if some else ""))
    text = join(parts)
    return text[:1].upper() + text[1:]


def compact_n(n_heed: Mapping[int, int | None]) -> str:
    """The answer, short: 'The threshold stops binding the players who heed it from 12 up at 2 players,
    14 at 3, 17 at 4 and 16 at 5', without the full stop."""
    parts = [f"{v} at {n}" if v is not None else f"never up to {THRESHOLDS[-1]} at {n}" for n, v in sorted(n_heed.items())]
    return "The threshold stops binding heeding players from " + join(parts).replace(" at ", " up at ", 1) + \
        " players"


def compact_m(m_from: Mapping[int, int | None]) -> str:
    """'Greed pays at every threshold at 5 players, from 14 up at 4 and at none at 2 and 3', without the
    full stop (greed: an appetite greedier than the default hunter among the best responses)."""
    groups: dict[str, list[int]] = {}
    for n, m in sorted(m_from.items()):
        key = "none" if m is None else "every" if m == THRESHOLDS[0] else f"from {m} up"
        groups.setdefault(key, []).append(n)
    said = {"none": "at no threshold", "every": "at every threshold"}
    return ("Greed pays "
            + join([f"{said.get(k, k)} at {counts(ns)}" for k, ns in groups.items()]))


def heed_sentence(n_heed: Mapping[int, int | None]) -> str:
    """'For the players who heed it, the threshold stops binding from 14 up at 2 and 3 players and from
    12 up at 4 and 5 players', without the full stop."""
    parts = [(f"at {counts([n for n in n_heed if n_heed[n] is None])} it binds them all the way to {THRESHOLDS[-1]}"
              if v is None else f"from {v} up at {counts([n for n in n_heed if n_heed[n] == v])}")
             for v in sorted(set(n_heed.values()), key=lambda v: (v is None, v or 0))]
    return "For the players who heed it, the threshold stops binding " + join(parts)


def greed_sentence(m_from: Mapping[int, int | None], blind_from: Mapping[int, int | None]) -> str:
    """'Below 13 greed no longer pays at 5 players (the blind risk taker is among the best from 17 up)
    and greed pays at no threshold up to 20 at 2 and 3 players', without the full stop."""
    parts = []
    for v in sorted({v for v in m_from.values() if v is not None}):
        ns = [n for n in m_from if m_from[n] == v]
        tail = "; ".join(f"the blind risk taker joins the best only from {blind_from[n]} up"
                         + (f" at {n} players" if len(ns) > 1 else "") for n in ns
                         if blind_from[n] is not None and blind_from[n] != v)
        head = (f"greed pays at every threshold swept at {counts(ns)}" if v == THRESHOLDS[0] else
                f"below {v} greed no longer pays at {counts(ns)}")
        parts.append(head + (f" ({tail})" if tail else ""))
    never = [n for n in m_from if m_from[n] is None]
    if never:
        parts.append(f"greed pays at no threshold up to {THRESHOLDS[-1]} at {counts(never)}")
    text = join(parts)
    return text[:1].upper() + text[1:]


# ---------------------------------------------------------------------------------------------
# the experiment
# ---------------------------------------------------------------------------------------------

def analyse(ctx: Context):
    rep = ctx.report("Loot Island: the curse-cube elimination threshold",
                     f"Where should the elimination threshold sit (printed: {PRINTED})? Swept over every value from "
                     f"{THRESHOLDS[0]} to {THRESHOLDS[-1]} at {PLAYERS[0]}-{PLAYERS[-1]} players, each run a round table "
                     f"of risk appetites (hunters with curse caps 5 to 14 that heed the threshold, and a threshold-blind "
                     f"risk taker), with the same tables without a threshold ({NO_THRESHOLD}) as the reference; "
                     f"{ctx.games:,} games per run. Up to which value does the threshold change play or outcome, and "
                     "from which value does greed pay?")
    rows, apps = [], []
    jobs = {n: ctx.sweep_jobs(f"table-{n}p", ctx.config(n, TABLES[n]), "curse_threshold", THRESHOLDS + (NO_THRESHOLD,))
            for n in PLAYERS}
    ctx.ahead([job for by_value in jobs.values() for job in by_value.values()])   # every player count at once
    for n in PLAYERS:
        runs = {thr: ctx.run(*job) for thr, job in jobs[n].items()}
        for thr, r in runs.items():
            row, app = point(r.frame(), thr, n)
            rows.append(row)
            apps += app
    everything = pd.DataFrame(rows)
    ref = everything[everything["threshold"] == NO_THRESHOLD].set_index("players")
    t = everything[everything["threshold"] != NO_THRESHOLD].reset_index(drop=True)
    a = pd.DataFrame(apps)
    a = a[a["threshold"] != NO_THRESHOLD]
    a = a.assign(order=a["appetite"].map({v: i for i, v in enumerate(APPETITES.values())}))
    a = a.sort_values(["players", "threshold", "order"]).drop(columns="order").reset_index(drop=True)

    strong = strength.strong_players(ctx)
    stronger = {s: stronger_check(ctx, s) for s in strong}
    moved = {n: binding(t[t["players"] == n], ref.loc[n]) for n in PLAYERS}
    rep.findings += [stronger_finding(s, *r.detail) for s, r in stronger.items()]
    best = {n: best_responses(a[a["players"] == n]) for n in PLAYERS}
    n_from = {n: stops_binding(moved[n]) for n in PLAYERS}
    heed_moved = {n: binding(t[t["players"] == n], ref.loc[n], HEED_BINDING) for n in PLAYERS}
    n_heed = {n: stops_binding(heed_moved[n]) for n in PLAYERS}
    m_from = {n: greed_pays_from(best[n]) for n in PLAYERS}
    t["binds"] = [", ".join(SHORT[s] for s in moved[r.players][r.threshold]) for r in t.itertuples()]
    a["among the best"] = [r.appetite in best[r.players][r.threshold] for r in a.itertuples()]
    at = t[t["threshold"] == PRINTED].set_index("players")

    # findings
    for n in PLAYERS:
        g = t[t["players"] == n]
        rep.findings.append(
            f"{n} players, where the threshold binds (a measure differs from the same table without a threshold: "
            f"{join(list(BINDING.values()))}): "
            + (spans({k: " + ".join(SHORT[x] for x in v) for k, v in moved[n].items() if v}) if any(moved[n].values())
               else "nowhere") + f"; {n_words(n_from[n])}. Without a threshold the winners hold "
            f"{fmt_estimate(estimate(ref.loc[n], 'win_cubes'), NUMBER)} cubes and the blind risk taker wins "
            f"{fmt_estimate(estimate(ref.loc[n], 'blind_win'))}; curse eliminations fall from "
            f"{fmt_share(g['curse_out'].max())} to {fmt_share(g['curse_out'].min())} of players over the sweep.")
        rep.findings.append(
            f"{n} players, best responses by threshold (every appetite whose win rate is not statistically below the "
            f"best, the comparisons held to 95% together; least greedy first; table: "
            f"{join([APPETITES[x] for x in TABLES[n]])}): "
            + spans({k: join(sorted(v, key=list(APPETITES.values()).index)) for k, v in best[n].items()})
            + f"; {m_words(m_from[n])}.")
    for n in PLAYERS:
        r = at.loc[n]
        at_printed = {"players": n, "arm": f"curse_threshold={PRINTED}"}     # as data in findings.csv
        rep.verdict(f"{n} players, threshold {PRINTED}: the blind risk taker's win rate", estimate(r, "blind_win"),
                    r["even"], Band.effect(sections.SEAT_BAND, around=r["even"]), reference_label="an even share",
                    note=f"It is eliminated by curses in {fmt_estimate(estimate(r, 'blind_curse'))} of its games",
                    measure="blind_win", **at_printed)
        rep.verdict(f"{n} players, threshold {PRINTED}: players eliminated by curses (heeding appetites)",
                    estimate(r, "heed_curse"), note="They refuse cubes that reach the threshold; only cubes they "
                    "cannot refuse eliminate them", measure="heed_curse", **at_printed)
        rep.verdict(f"{n} players, threshold {PRINTED}: players eliminated by the healer fee (all appetites; rests "
                    "on the ASSUMED healer cards)", estimate(r, "fee_out"), measure="fee_out", **at_printed)

    # charts
    fig, axes = new_figure(13, 7, ncols=2, nrows=2)
    for ax, n in zip(axes.flat, PLAYERS):
        g = t[t["players"] == n]
        for stem, label in (("blind_curse", "blind risk taker: by curses"), ("heed_curse", "heeding appetites: by curses"),
                            ("fee_out", "everyone: by healer fee (ASSUMED healers)")):
            interval_band(ax, g["threshold"], g[stem], g[f"{stem}_lo"], g[f"{stem}_hi"], label,
                          what=f"{n} players, threshold {{}}")
        _axes(ax, f"{n} players", "players eliminated (%)")
    rep.chart("eliminations-by-cause", fig, "Share of players eliminated, by cause, against the threshold, with 95% "
              "interval bands: the blind risk taker by curses, the threshold-heeding appetites by curses, and every "
              "player by the healer fee (this one rests on the ASSUMED healer cards); dotted: the printed "
              f"{PRINTED}", title="Eliminations by cause")
    fig, axes = new_figure(13, 7, ncols=2, nrows=2)
    for ax, n in zip(axes.flat, PLAYERS):
        g = a[a["players"] == n]
        for name in [APPETITES[x] for x in TABLES[n]]:
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
        "curse eliminations, all [95% CI]": Ci("curse_out", "curse_out_lo", "curse_out_hi"),
        "by curses, heeding": Ci("heed_curse", "heed_curse_lo", "heed_curse_hi"),
        "by curses, blind": Ci("blind_curse", "blind_curse_lo", "blind_curse_hi"),
        "by healer fee, all (ASSUMED healers)": Ci("fee_out", "fee_out_lo", "fee_out_hi"),
        "blind's win rate": Ci("blind_win", "blind_win_lo", "blind_win_hi"),
        "winners' cubes": Ci("win_cubes", "win_cubes_lo", "win_cubes_hi", NUMBER),
        "nobody wins": Num("no_winner", SHARE),
        "differs from no threshold": "binds"}),
        note="Shares per player (Wilson intervals). 'Differs' lists the measures whose difference from the same table "
             f"without a threshold ({NO_THRESHOLD}) has a 95% interval excluding 0: the threshold binds there.")
    rep.table("Round table: win rate of each risk appetite", formatted(a.assign(edge=a["win"] - a["fair"]), {
        "players": "players", "threshold": "threshold", "appetite": "appetite",
        "win rate [95% CI]": Ci("win", "win_lo", "win_hi"),
        "minus even share": Num("edge", POINTS),
        "among the best": lambda r: "yes" if r["among the best"] else "",
        "out by curses": Num("curse_out", SHARE), "out by healer fee": Num("fee_out", SHARE),
        "cubes": Num("cubes"), "mean score": Num("score")}),
        note="'Among the best': the appetite's win rate is not statistically below the highest at its table and "
             "threshold, its comparisons read with the covariance of seats at one table (one seat's win is another's "
             "loss) and held to 95% together. 'Minus even share': against the win rate of the table's average seat, "
             "which counts the games nobody wins.")

    # bottom line
    pays13 = [n for n in PLAYERS if any(g in best[n][PRINTED] for g in GREEDY)]
    few, many = PLAYERS[0], PLAYERS[-1]
    end = t[t["threshold"] == THRESHOLDS[-1]].set_index("players")
    each = {n: {stem: holds_from({k: stem not in v for k, v in moved[n].items()}) for stem in BINDING} for n in PLAYERS}
    rep.findings.insert(0, heed_sentence(n_heed) + " (their own cubes and curse eliminations no longer differ from the "
                        "same table without a threshold); where it binds them: " + "; ".join(
                            f"{n} players " + (spans({k: " + ".join(SHORT[x] for x in v)
                                                      for k, v in heed_moved[n].items() if v}) or "nowhere")
                            for n in PLAYERS) + ".")
    rep.findings[:0] = [
        heed_sentence(n_heed) + " (their cubes and curse eliminations match a game without one); counting the "
        "threshold-blind risk taker, " + _lower_first(binds_sentence(n_from, each))
        + f": at {THRESHOLDS[-1]} curses still eliminate the blind risk taker in "
        f"{fmt_estimate(estimate(end.loc[few], 'blind_curse'))} of its {few}-player games and "
        f"{fmt_estimate(estimate(end.loc[many], 'blind_curse'))} at {many}.",
        greed_sentence(m_from, {n: holds_from({k: "blind" in v for k, v in best[n].items()}) for n in PLAYERS})
        + " (greed: an appetite greedier than the default hunter's cap 11, i.e. cap 14 or the threshold-blind risk "
        "taker, among the best responses, ties counted).",
        f"At the printed {PRINTED} greed pays at " + (counts(pays13) if pays13 else "no player count") + " ("
        + "; ".join(_standing(a, n, best[n][PRINTED]) for n in (few, many)) + "), curses eliminate "
        f"{fmt_estimate(estimate(at.loc[many], 'heed_curse'))} of the players who heed the threshold ({many} players) "
        "and the "
        f"healer fee, which rests on the ASSUMED healer cards, {fmt_estimate(estimate(at.loc[few], 'fee_out'))} of "
        f"players at {few} players and {fmt_estimate(estimate(at.loc[many], 'fee_out'))} at {many}"
        + (f"; with stronger players in every seat ({few} players) whether the printed {PRINTED} binds "
           f"({'it binds' if heed_moved[few][PRINTED] else 'it does not bind'} the heeding hunters): "
           + rechecks.agreement(bool(heed_moved[few][PRINTED]), stronger,
                                words=lambda b: "it binds" if b else "it does not bind") if strong else "") + ".",
    ]
    rechecked = (f"; stronger play at {few} players: " + rechecks.agreement(
        bool(heed_moved[few][PRINTED]), stronger, words=lambda b: "it binds" if b else "it does not bind")) if strong else ""
    printed = (f"At the printed {PRINTED}, curses eliminate {fmt_estimate(estimate(at.loc[many], 'heed_curse'))} of "
               f"heeding players and the ASSUMED healer fee {fmt_estimate(estimate(at.loc[many], 'fee_out'))} at {many} "
               "players")
    rep.bottom_line = [compact_n(n_heed) + ".", compact_m(m_from) + ".", printed + rechecked + "."]
    if bottom_line_problems(rep.bottom_line):      # the recheck's reading is also in the findings
        rep.bottom_line[-1] = printed + "."
    # the same conclusions as values, so that simlab robust can tell whether an assumption changes them
    for n in PLAYERS:
        rep.claim(f"{n} players: from which threshold up it stops binding the players who heed it",
                  "never in the sweep" if n_heed[n] is None else n_heed[n])
        rep.claim(f"{n} players: M, below which greed no longer pays", m_words(m_from[n]))
        rep.claim(f"{n} players: greed pays at the printed {PRINTED}", "yes" if n in pays13 else "no")
    rep.rests_on = sections.rests_on(ctx.runs, " (a round table of risk appetites, rotated through the seats: "
                                                "hunters with curse caps, heeding the threshold, and the blind risk "
                                                "taker, which ignores it)", only=ASSUMED_HERE)
    rep.rests_on.append(strength.rests_on(strong, "loot-island", ctx, list(stronger.values())))
    rep.rests_on.append("Healer-fee eliminations rest entirely on the ASSUMED healer cards (`healer_per_cube`, "
                        "`healer_fixed`); curse eliminations on the printed rules and the treasure, islet and event "
                        "data (islet values ASSUMED).")
    rep.caveats.append("The heeding appetites price a cube that would reach the threshold at 60 gold, so only cubes "
                       "they cannot refuse (1s, events, islets) eliminate them; the blind risk taker "
                       "(`heed_threshold=0`) weighs cubes only by the healer's rate. Where the threshold sits at or "
                       "below a cap it stops the heeding hunter first, so low thresholds leave the caps little room to "
                       "differ (the cap still decides whether it draws event A1's cursed cards). Only the 4- and "
                       "5-player tables hold cap 14; at 2 and 3 players greed is the blind risk taker alone. Human "
                       "players may sit anywhere between.")
    rep.caveats.append(f"'Binds' compares each threshold with the same table without a threshold on {len(BINDING)} "
                       f"measures at the 95% level, each on its own: among the {len(THRESHOLDS) * len(BINDING)} "
                       "comparisons per player count a few false alarms are possible; the runs share one seed, so the "
                       "independent intervals used are conservative. The table of appetites grows with the player "
                       "count, so win rates compare within a player count, not across.")
    return rep


def stronger_check(ctx: Context, player: str) -> rechecks.Recheck:
    """A stronger player's 2-player mirror at the printed threshold and without one, until decided
    (:func:`strength.recheck`): whether the printed value binds it (its cubes or its curse
    eliminations differ). "Binds" is decided when seen; "does not bind" only once every deal of the
    heuristics' runs is played, the evidence the heuristics' own reading rests on. Detail: its
    measures at both thresholds and the measures that differ."""
    n = PLAYERS[0]

    def read(games: int, level: float):
        runs = ctx.sweep(f"strong-{strength.run_tag(player)}-{n}p", ctx.config(n, (player,) * n, games=games),
                         "curse_threshold", (PRINTED, NO_THRESHOLD))
        rows = {thr: point(r.frame(), thr, n)[0] for thr, r in runs.items()}
        moved = binding(pd.DataFrame([rows[PRINTED]]), rows[NO_THRESHOLD], HEED_BINDING, level)[PRINTED]
        return bool(moved), bool(moved) or games >= ctx.games, (rows, moved)
    return strength.recheck(ctx, "loot-island", player, read)


def stronger_finding(player: str, rows: dict, moved: list[str]) -> str:
    at, ref = rows[PRINTED], rows[NO_THRESHOLD]
    return (f"{PLAYERS[0]} players, {player} in every seat: the printed {PRINTED} "
            + (f"binds ({join([SHORT[m] for m in moved])} differ from no threshold)" if moved else
               "does not bind measurably") + f": curse eliminations {fmt_estimate(estimate(at, 'heed_curse'))} against "
            f"{fmt_estimate(estimate(ref, 'heed_curse'))} without a threshold, cubes "
            f"{fmt_estimate(estimate(at, 'heed_cubes'), NUMBER)} against {fmt_estimate(estimate(ref, 'heed_cubes'), NUMBER)} "
            f"({at['games']:,} games each).")


def _standing(apps: pd.DataFrame, n: int, tied: tuple[str, ...]) -> str:
    """'at 5 players cap 11, the best, wins 27.0% [..] against cap 14 25.1% [..] and blind 20.2% [..]'."""
    g = apps[(apps["players"] == n) & (apps["threshold"] == PRINTED)].set_index("appetite")
    others = [x for x in GREEDY if x in g.index and x != tied[0]] or [g["win"].drop(tied[0]).idxmax()]
    return (f"at {n} players {tied[0]}, the best, wins {fmt_estimate(_win(g.loc[tied[0]]))} against "
            + join([f"{x} {fmt_estimate(_win(g.loc[x]))}" for x in others]))


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _win(r) -> Estimate:
    return Estimate(r["win"], r["win_lo"], r["win_hi"], int(r["seats"]), "Wilson")


def _axes(ax, title: str, ylabel: str) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.axvline(PRINTED, color="grey", ls=":", lw=1, label=f"printed threshold {PRINTED}")
    ax.set_xticks(list(THRESHOLDS))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("curse threshold (cubes)")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)


EXPERIMENT = Experiment("curse-threshold", "The curse-threshold sweep", __doc__, analyse, game="loot-island",
                        players=PLAYERS, options=strength.OPTIONS)
