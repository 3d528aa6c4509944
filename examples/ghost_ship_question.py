"""Jamaica: does the 2-player ghost ship make the game fairer?

The 2-player rules add a neutral ghost ship to the race. Does it bring the start player's share of
wins closer to the fair 50%? Every built-in heuristic plays a 2-player mirror match (both seats the
same strategy, so a seat effect is not confounded with who sits where) with the ghost ship and
without it, on common random numbers: game g of both arms draws the same cards and dice, so the
comparison is paired by game. The stronger players (the search player ``rollout``; see
``simlab.studies.strength``) play the same mirrors, with fewer games, and the bottom line says
whether the answer holds with them.

Run it with ``simlab experiment run examples/ghost_ship_question.py --games 20000``; the API it
uses is described in experiments/README.md ("Your own question").
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simlab.core.strategy import strategies_for
from simlab.measures.fairness import win_share
from simlab.measures.stats import LEVEL, Estimate
from simlab.report import rechecks
from simlab.report.page import Ci, formatted
from simlab.report.wording import POINTS, SHARE, Band, fmt_points, fmt_share, join
from simlab.studies import strength
from simlab.studies.experiment import Context, Experiment

FAIR = Band.fairness(0.5, 0.02)      # a start player within 2 points of 50% counts as fair
MATTERS = Band.effect(0.02)          # a change in that distance below 2 points does not matter
BOOT = 1000                          # bootstrap resamples of the games


def start_shares(frame: pd.DataFrame) -> np.ndarray:
    """The start player's (seat 1) tie-split win share in each game, in game order."""
    f = frame.assign(w=win_share(frame))
    return f[f["seat"] == 0].sort_values("game")["w"].to_numpy(np.float64)


def paired(ghost: np.ndarray, plain: np.ndarray, seed: int, level: float = LEVEL) -> dict[str, Estimate]:
    """Start-player share in each arm and the change in its distance from 50% that the ghost ship
    makes (|ghost - 50%| - |plain - 50%|: negative is fairer), with percentile intervals at ``level``
    from one bootstrap over games that resamples both arms together (they are paired by game)."""
    def stats(i):
        g, p = ghost[i].mean(axis=-1), plain[i].mean(axis=-1)
        return g, p, np.abs(g - 0.5) - np.abs(p - 0.5)

    point = stats(np.arange(len(ghost)))
    boots = stats(np.random.default_rng(seed).integers(0, len(ghost), (BOOT, len(ghost))))
    tail = (1 - level) / 2
    return {k: Estimate(float(v), *np.quantile(b, [tail, 1 - tail]), len(ghost), "paired bootstrap over games", level)
            for k, v, b in zip(("ghost", "plain", "distance"), point, boots)}


def answer(d: Estimate) -> str:
    """The question's answer from the change in the start player's distance from 50%."""
    return ("makes the 2-player game fairer" if d.hi < 0 else "makes the 2-player game less fair" if d.lo > 0
            else "changes seat fairness by less than the 2 points that would matter" if MATTERS.lo < d.lo
            and d.hi < MATTERS.hi else "may or may not change seat fairness (more games would settle it)")


def mirror(ctx: Context, s: str, games: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """One strategy's mirror with and without the ghost ship: the start player's shares per game."""
    arms = ctx.compare(f"ghost-{s}", ctx.config(2, (s, s), rotate=False, games=games), {"ghost_ship": False},
                       label="plain")
    return start_shares(arms.base.frame()), start_shares(arms.variant.frame())


UNSETTLED = answer(Estimate(0.0, -1.0, 1.0, 0, ""))


def distance_change(ctx: Context, s: str):
    """A recheck's look at ``s``'s mirror with and without the ghost ship: the answer, decided unless
    the change's interval straddles an edge of the 2 points that matter; the change as detail."""
    def read(games: int, level: float):
        d = paired(*mirror(ctx, s, games), ctx.seed, level)["distance"]
        return answer(d), answer(d) != UNSETTLED, d, d, MATTERS
    return read


def analyse(ctx: Context):
    rep = ctx.report("Jamaica: the 2-player ghost ship and seat fairness",
                     f"Does the 2-player ghost ship bring the start player closer to a fair 50%? "
                     f"{ctx.games:,} games per arm.")
    heuristics = sorted(n for n, s in strategies_for("jamaica").items() if n != "random" and not s.search)
    rows, ghost_all, plain_all = [], [], []
    for s in heuristics:
        ghost, plain = mirror(ctx, s)
        e = paired(ghost, plain, ctx.seed)
        rep.verdict(f"Start player's win share, {s} mirror, with the ghost ship", e["ghost"], 0.5, FAIR)
        rep.verdict(f"Start player's win share, {s} mirror, without it", e["plain"], 0.5, FAIR)
        rows += [{"mirror": s, "arm": k, "value": e[k].value, "lo": e[k].lo, "hi": e[k].hi} for k in e]
        ghost_all.append(ghost)
        plain_all.append(plain)

    e = paired(np.concatenate(ghost_all), np.concatenate(plain_all), ctx.seed)
    d = e["distance"]
    rep.verdict("Change in the start player's distance from 50% with the ghost ship, all mirrors, paired", d, 0.0,
                MATTERS, unit=POINTS)
    stronger = {s: strength.recheck(ctx, "jamaica", s, distance_change(ctx, s)) for s in strength.strong_players(ctx)}
    for s, r in stronger.items():
        at = "" if r.level == LEVEL else f", interval at {r.level:.2%}, the level of its recheck's looks"
        rep.verdict(f"Change in the start player's distance from 50% with the ghost ship, {s} mirror ({r.games:,} games"
                    f"{at}), paired", r.detail, 0.0, MATTERS, unit=POINTS)
    verdict = answer(d)
    changes = join([f"{s} {fmt_points(r.detail.value, r.detail.lo, r.detail.hi)} ({r.how()})"
                    for s, r in stronger.items()]) if stronger else ""
    ghost, plain = (fmt_share(e[k].value, e[k].lo, e[k].hi) for k in ("ghost", "plain"))
    rep.bottom_line += [
        f"For these heuristics the ghost ship {verdict}.",
        f"Over mirror matches of {join(heuristics)}, the start player's distance from a fair half changes by "
        f"{fmt_points(d.value, d.lo, d.hi)} (negative: fairer); the start player wins {ghost} with it, {plain} without.",
    ] + ([f"With stronger play this {rechecks.agreement(verdict, stronger, words=lambda a: 'it ' + a)}."]
         if stronger else [])
    rep.findings.append(f"The start player's distance from 50% with the ghost ship changes by "
                        f"{fmt_points(d.value, d.lo, d.hi)} over all mirrors (negative: fairer).")
    if stronger:
        rep.findings.append(f"Stronger play, the change in the start player's distance from 50%: {changes}.")
    rep.table("Start player's win share by mirror", formatted(pd.DataFrame(rows), {
        "mirror": "mirror", "measure": lambda r: {"ghost": "with ghost ship", "plain": "without",
                                                  "distance": "change in distance from 50%"}[r["arm"]],
        "value [95% CI]": Ci("value", unit=lambda r: POINTS if r["arm"] == "distance" else SHARE)}))
    rep.rests_on = [f"2-player mirror matches of the built-in heuristics ({join(heuristics)}), not expert human play",
                    "the rules' ghost ship as simlab plays it (`docs/rules/jamaica.md`)",
                    strength.rests_on(list(stronger), "jamaica", ctx, list(stronger.values()))]
    return rep


EXPERIMENT = Experiment("ghost-ship-question", "Jamaica: does the 2-player ghost ship make the game fairer?",
                        __doc__.splitlines()[0], analyse, game="jamaica", players=(2,),
                        options=strength.OPTIONS)
