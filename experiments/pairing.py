"""How much do paired comparisons gain? Common random numbers, measured.

Every comparison simlab makes between two rule readings, variants or strategies plays both arms on
the same seed, so game g of one arm sees the same deal as game g of the other, as far as the change
allows: each game draws its chance from streams by purpose (setup, each deck, dice, events, each
seat's strategy), so a change leaves every random number it does not touch in place. This
experiment measures what that buys on the comparisons designers ask for: the correlation between
the arms, and the paired interval's half-width against the unpaired one (target: at most 0.7,
i.e. the same precision from half the games), for one seat's win share and score: the start
player for a rule change, the changed seat for a strategy change.

* Loot Island: Allen on/off in a 2-player hunter mirror;
* Jamaica: the ghost ship on/off in a 2-player balanced mirror;
* Karuba: the 4-player temple token stack 5,4,3,2 -> 6,4,2,1 in the default mix;
* Karuba and Legend Raiders: one seat's strategy changed in a 4-player game (seat 4: one heuristic
  -> another), seats fixed so the same seat changes in every game.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simlab.measures.fairness import pairing_gain, win_share
from simlab.measures.stats import Estimate
from simlab.report.charts import dot_interval, new_figure
from simlab.report.page import Ci, Num, formatted, pct
from simlab.report.wording import NUMBER, Band, fmt_number
from simlab.studies.experiment import Context, Experiment, varied

TARGET = 0.7
BOOT = 200

# (point, game, players, base seats, variant seats, rule changes, focal seat, what changes); the
# focal seat is the one read: the start player for a rule change, the changed seat for a strategy
# change (all seats' win shares together always add up to one game).
KARUBA_MIX = ("builder", "racer", "collector", "random")
LEGEND_MIX = ("hunter", "racer", "coiner", "random")
COMPARISONS = (
    ("loot-allen", "loot-island", 2, ("hunter",) * 2, None, {"allen": False}, 0,
     "Loot Island: Allen on/off, hunter mirror, 2 players, seat 1"),
    ("jamaica-ghost", "jamaica", 2, ("balanced",) * 2, None, {"ghost_ship": False}, 0,
     "Jamaica: ghost ship on/off, balanced mirror, 2 players, seat 1"),
    ("karuba-tokens", "karuba", 4, KARUBA_MIX, None, {"tokens_4p": (6, 4, 2, 1)}, 0,
     "Karuba: token stack 5,4,3,2 -> 6,4,2,1, default mix, 4 players, seat 1 (builder)"),
    ("karuba-seat", "karuba", 4, KARUBA_MIX[:3] + ("collector",), KARUBA_MIX[:3] + ("racer",), {}, 3,
     "Karuba: seat 4 collector -> racer, 4 players, seat 4"),
    ("legend-seat", "legend-raiders", 4, LEGEND_MIX[:3] + ("coiner",), LEGEND_MIX[:3] + ("racer",), {}, 3,
     "Legend Raiders: seat 4 coiner -> racer, 4 players, seat 4"),
)


def ratio_interval(base: pd.DataFrame, variant: pd.DataFrame, column: str, seed: int = 0) -> tuple[float, float]:
    """Bootstrap (over games) interval of the paired/unpaired half-width ratio of one seat's rows."""
    j = base[["game", column]].merge(variant[["game", column]], on="game", validate="one_to_one")
    a, b = j[f"{column}_x"].to_numpy(np.float64), j[f"{column}_y"].to_numpy(np.float64)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(BOOT):
        i = rng.integers(0, len(a), len(a))
        unpaired = a[i].var() + b[i].var()
        out.append(np.sqrt((b[i] - a[i]).var() / unpaired) if unpaired > 0 else np.nan)
    return tuple(np.nanquantile(out, [0.025, 0.975]))


def analyse(ctx: Context):
    rep = ctx.report("Paired comparisons: what common random numbers buy",
                     "When two arms differ in one rule, variant or strategy, how much narrower is the paired "
                     f"interval than the unpaired one? {ctx.games:,} games per arm.")
    rows = []
    arms_of = {}
    for point, game, n, seats, var_seats, changes, focal, what in COMPARISONS:
        base = ctx.config(n, seats, rotate=False, game=game)
        arms_of[point] = (base, varied(base, changes) if var_seats is None else
                          ctx.config(n, var_seats, rotate=False, game=game))
    ctx.ahead([job for point, arms in arms_of.items() for job in ctx.paired_jobs(point, *arms)])   # all at once
    for point, game, n, seats, var_seats, changes, focal, what in COMPARISONS:
        arms = ctx.paired(point, *arms_of[point], label="variant")
        fb, fv = arms.base.frame(), arms.variant.frame()
        fb, fv = fb.assign(win_share=win_share(fb)), fv.assign(win_share=win_share(fv))
        fb, fv = fb[fb["seat"] == focal], fv[fv["seat"] == focal]
        for column in ("win_share", "score"):
            g = pairing_gain(fb, fv, column)
            lo, hi = ratio_interval(fb, fv, column)
            rows.append({"comparison": what, "point": point, "players": n, "column": column,
                         "games": int(fb["game"].nunique()),
                         "correlation": g["correlation"], "difference": g["difference"], "d_lo": g["lo"], "d_hi": g["hi"],
                         "paired": g["paired_half_width"], "unpaired": g["unpaired_half_width"],
                         "ratio": g["ratio"], "lo": lo, "hi": hi})
    t = pd.DataFrame(rows)
    band = Band.quality(0.0, TARGET, f"target (paired at most {TARGET:g} x unpaired)")
    for r in t.itertuples():
        rep.verdict(f"Paired/unpaired half-width, {r.column.replace('_', ' ')}: {r.comparison}",
                    Estimate(r.ratio, r.lo, r.hi, r.games, "bootstrap over games"), unit=NUMBER, band=band,
                    note=f"correlation between the arms {r.correlation:.2f}", measure=f"half-width ratio of {r.column}",
                    players=r.players, arm=r.point)
    win = t[t["column"] == "win_share"]
    met = win[win["hi"] <= TARGET]
    short = win[win["hi"] > TARGET]
    rep.bottom_line.append(
        f"Pairing the arms on common random numbers narrows the win-share interval to "
        f"{fmt_number(win['ratio'].min(), digits=2)}-{fmt_number(win['ratio'].max(), digits=2)} of the unpaired width "
        f"across {len(win)} comparisons.")
    rep.bottom_line.append(f"So a comparison needs {pct(win['ratio'].min() ** 2)} to {pct(win['ratio'].max() ** 2)} of "
                           "the games an unpaired one would.")
    if len(short):
        rep.bottom_line[-1] = rep.bottom_line[-1][:-1] + (f"; the target of {TARGET:g} is met on {len(met)} of {len(win)} "
                                                          "comparisons.")
        rep.findings.insert(0, "The target is not met on " + "; ".join(
            f"{r.comparison.split(':')[0]} ({r.ratio:.2f}, correlation {r.correlation:.2f})" for r in short.itertuples())
            + ".")
    else:
        rep.bottom_line[-1] = rep.bottom_line[-1][:-1] + f"; the target of {TARGET:g} is met on all of them."
    fig, axes = new_figure(11, 4.2)
    ax = axes[0][0]
    for i, column in enumerate(("win_share", "score")):
        g = t[t["column"] == column]
        dot_interval(ax, [c.split(", ")[0] for c in g["comparison"]],
                     g["ratio"], g["lo"], g["hi"], unit=NUMBER, ylabel="paired / unpaired half-width",
                     xlabel="comparison", label=column.replace("_", " "), offset=(i - 0.5) * 0.15,
                     band=band if i == 0 else None, what="{}")
    ax.tick_params(axis="x", labelsize=7, rotation=12)
    ax.legend(fontsize=8)
    rep.chart("pairing-ratio", fig, "Paired interval half-width as a share of the unpaired one, 95% bootstrap "
              f"intervals over games; shaded: the target (at most {TARGET:g})", title="What pairing buys")
    rep.table("Paired vs unpaired intervals", formatted(t, {
        "comparison": "comparison", "column": "column", "games": "games",
        "correlation": Num("correlation", digits=2),
        "paired half-width": Num("paired", digits=4), "unpaired half-width": Num("unpaired", digits=4),
        "ratio [95% CI]": Ci("ratio", unit=NUMBER)}),
        note="Half-widths of the 95% interval of the arms' difference (variant - base), clustered by game; unpaired: "
             "the two arms' intervals combined as if they were independent.")
    rep.findings.append("A change that alters every game from its first move (a different opponent in every game, "
                        "Allen taking cards from the first round) leaves less in common between the arms than one that "
                        "acts late or rarely (a token value read at scoring); the correlation column shows how much each "
                        "comparison keeps.")
    rep.rests_on = [f"Strategies as listed per comparison, seats fixed; {ctx.games:,} games per arm on root seed "
                    f"{ctx.seed}; the games' random streams by purpose (each rules doc's section on chance)."]
    rep.caveats.append("The ratio depends on the strategies and on the change: it says what pairing buys for these "
                       "comparisons, not a constant of the game.")
    return rep


EXPERIMENT = Experiment("pairing", "What common random numbers buy",
                        "How much narrower are paired intervals than unpaired ones, on Allen on/off, the ghost ship "
                        "on/off, a Karuba token-stack change and one seat's strategy changed?", analyse,
                        several_games=True)
