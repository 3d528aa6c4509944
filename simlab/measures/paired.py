"""A comparison of two arms played on the same deals, in numbers: every catalogue measure in both arms
and its paired change B - A (intervals clustered by deal, held together where the bottom line reads
several), which changes matter, and each pair's record (:class:`Pair`). ``simlab compare``, ``simlab
sweep`` and the calibration read it; :mod:`simlab.report.changes` says it in words."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from simlab.core.game import GameSpec
from simlab.measures import catalogue
from simlab.measures.catalogue import OUTCOME, WIN
from simlab.measures.fairness import clustered_proportion, deal_of
from simlab.measures.stats import LEVEL, Estimate, clustered_mean


def is_mirror_seats(seats: tuple[str, ...]) -> bool:
    """Every seat one strategy: a mirror match, the only seating where seat fairness is measured."""
    return len(set(seats)) == 1


def game_measures(frame: pd.DataFrame, spec: GameSpec) -> dict[str, tuple[pd.Series, bool, str, float | None]]:
    """measure name -> (value per game indexed by game id, whether it is a share, its kind, the
    smallest change that matters for a key outcome), for every measure the catalogue lists for this
    run (:mod:`.catalogue`: who wins, the key outcomes its rules allow, score, shared wins, length,
    the game's countable columns)."""
    f = catalogue.prepared_frame(frame, spec)
    return {m.name: (m.per_game(f, spec), m.is_share(f), m.kind, m.smallest)
            for m in catalogue.of_frame(frame, spec).values() if m.listed}


def paired_measures(a: pd.DataFrame, b: pd.DataFrame, spec: GameSpec, family: int = 1) -> pd.DataFrame:
    """Every measure in both arms and its paired change B - A, intervals clustered by deal (game
    when not played in duplicate); an arm's share (``share``) with Wilson's interval at the effective
    sample size (:func:`~.fairness.clustered_proportion`), which stays within [0, 1] and, where no
    game had the event, is an upper bound. Measures that take one value in every game of both arms, and
    win rates of a strategy that plays in only one arm, are left out (nothing to pair).

    ``family``: how many measures the bottom line reads together (every win measure and key outcome
    at every player count): ``family_lo``/``family_hi`` (and ``b_family_lo``/``b_family_hi`` of B's
    value) are their intervals at level 1 - 0.05 / family (Bonferroni), so the verdict holds with 95%
    confidence as a whole."""
    ma, mb = game_measures(a, spec), game_measures(b, spec)
    deals = a[a["seat"] == 0].set_index("game").sort_index()
    deals = deal_of(deals) if "deal" in deals else pd.Series(deals.index, index=deals.index)
    rows = []
    for name in ma:
        if name not in mb:
            continue
        (va, share, kind, effect), (vb, share_b, _, _) = ma[name], mb[name]
        j = pd.concat({"a": va, "b": vb, "deal": deals}, axis=1, join="inner").dropna()
        if j["a"].nunique() == 1 and j["b"].nunique() == 1 and j["a"].iloc[0] == j["b"].iloc[0]:
            continue
        share = bool(share and share_b)
        arm = clustered_proportion if share else clustered_mean   # a share's interval stays in [0, 1], and
        ea, eb = (arm(j[k], j["deal"]) for k in ("a", "b"))       # none seen gives an upper bound, not [0, 0]
        d = clustered_mean(j["b"] - j["a"], j["deal"], method="paired, clustered by deal")
        together = 1 - (1 - LEVEL) / family
        fd, fb = clustered_mean(j["b"] - j["a"], j["deal"], together), arm(j["b"], j["deal"], together)
        rows.append({"measure": name, "kind": kind, "effect": effect, "share": share,
                     "games": len(j), "same": bool((j["a"] == j["b"]).all()),
                     "a": ea.value, "a_lo": ea.lo, "a_hi": ea.hi, "b": eb.value, "b_lo": eb.lo, "b_hi": eb.hi,
                     "change": d.value, "lo": d.lo, "hi": d.hi, "family_lo": fd.lo, "family_hi": fd.hi,
                     "b_family_lo": fb.lo, "b_family_hi": fb.hi})
    return pd.DataFrame(rows)


def headline(measures: pd.DataFrame) -> pd.DataFrame:
    """The win measures the minimum effect is read against: the start player's share or win rates by strategy."""
    return measures[measures["kind"] == WIN] if len(measures) else measures


def size(h: pd.DataFrame, effect) -> str:
    """The win measures' change against the minimum effect (``effect``, a band with ``lo`` and ``hi``):
    all smaller, some larger, or undecided, read from their intervals held together (``family_lo``/``family_hi``, :func:`paired_measures`)."""
    if ((h["family_lo"] > effect.hi) | (h["family_hi"] < effect.lo)).any():
        return "larger"
    return "smaller" if ((effect.lo <= h["family_lo"]) & (h["family_hi"] <= effect.hi)).all() else "undecided"


def family_size(seats: dict, spec: GameSpec) -> int:
    """How many measures a comparison's bottom line reads together: per pair of arms (``seats``: the
    two arms' seats per pair) the start player's share (two mirrors) or one win rate per strategy
    the arms share, and the game's key outcomes."""
    return sum((1 if is_mirror_seats(a) and is_mirror_seats(b) else len(set(a) & set(b))) + len(spec.outcomes)
               for a, b in seats.values())


def moves(table: pd.DataFrame, min_effect: float) -> pd.DataFrame:
    """The changes that matter: every win measure and key outcome whose change (its interval held
    together with every other the bottom line reads) lies beyond its smallest change that matters
    (the minimum effect for who wins, the outcome's own for a key outcome), largest against it first."""
    t = table[table["kind"].isin([WIN, OUTCOME])] if len(table) else table
    if not len(t):
        return t
    smallest = t["effect"].where(t["kind"] == OUTCOME, min_effect / 100).astype(float)
    t = t.assign(smallest=smallest)
    t = t[(t["family_lo"] > t["smallest"]) | (t["family_hi"] < -t["smallest"])]
    return t.assign(against=t["change"].abs() / t["smallest"]).sort_values("against", ascending=False, kind="stable")


@dataclass
class Pair:
    """One pair of arms played on the same deals: at ``players``, the strategy ``mirror`` in every
    seat of both (None: the arms' own seats), every measure's paired change, and what the bottom
    line reads from it."""

    players: int
    mirror: str | None
    table: pd.DataFrame
    changed: Estimate | None            # the share of games whose decisions differ (None: not traced)
    seats: pd.DataFrame | None = None   # a mirror: every seat's share in A and B and its change
    fairness: tuple[str, str] = ("", "")    # a mirror: each arm read against the fairness band
    distance: Estimate | None = None    # a mirror: the change in the seats' distance from fair (B - A)
    leaders: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())   # a mix: each arm's leaders
