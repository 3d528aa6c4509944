"""One catalogue of the measures a study reads from a game's frames, each declared once.

A measure is one value per game (a share of its players or a 0/1 event, a mean, a length), so that
a paired change is a mean of per-game differences and an interval is clustered by deal. Each is
declared with its key (what ``simlab tune --target`` takes), its name in the reports' words, its
unit and bounds, how its interval is formed, the smallest change that matters (a key outcome's own;
``None``: the study's minimum effect) and the calibration rows that cover its interval. The game's
key outcomes (``GameSpec.outcomes``) join it. ``simlab compare``, ``simlab sweep`` and ``simlab
tune`` read it (TAG keeps a metric as one class the same way).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import pandas as pd

from simlab.core.errors import SimlabError
from simlab.core.game import GameSpec
from simlab.core.runner import RunConfig

from simlab.measures import outcomes
from simlab.measures.balance import decode_bits, is_share, seat_columns
from simlab.measures.fairness import win_share
from simlab.measures.stats import NUMBER, POINTS, SHARE

WIN, OUTCOME, OTHER = "win", "outcome", "other"     # what a measure is: who wins, a key outcome, the rest
UNFOLD = "unfold"      # ... or read from the standings after every round of replayed games (simlab.measures.unfold)
AUTO = "auto"          # a column's unit: a share where every value is 0 or 1, else a number (read from the data)
# The calibration rows (``simlab calibrate``, by their estimator's name) that cover each kind of
# interval a measure is stated with; a test holds every name to a row that exists.
PAIRED = ("paired change B - A (paired.paired_measures)",)        # a mean, or a paired change, clustered by deal
ARM_SHARE = PAIRED + ("an arm's share of a rare outcome (paired.paired_measures)",
                      "compare's verdict on every win measure (paired.size, held together)",
                      "seat fairness in a mirror (fairness.seat_shares, seat_spread)")
OUTCOME_RATE = PAIRED + ("an arm's share of a rare outcome (paired.paired_measures)", "tune interval (tune.interval)",
                         "tune verdicts (tune.tune, Bonferroni over looks)")


@dataclass(frozen=True)
class Measure:
    """One measure: ``per_game`` maps a prepared frame (:func:`prepared_frame`) to its value in
    every game, indexed by game id in order."""

    key: str                     # the command line's name: win:racer, start_share, curse_out, score, ...
    name: str                    # as the reports say it: "win rate of racer", "players eliminated by curses"
    unit: str                    # SHARE, NUMBER, POINTS (a share's distance from a reference) or AUTO
    kind: str                    # WIN, OUTCOME or OTHER
    per_game: Callable[[pd.DataFrame, GameSpec], pd.Series]
    of_players: bool = False     # a share of each game's players (n trials a game), not one per game
    smallest: float | None = None    # the smallest change that matters; None: the study's minimum effect
    calibration: tuple[str, ...] = PAIRED    # the calibration rows (``simlab calibrate``) that cover its intervals
    listed: bool = True          # read by every comparison; False: a form a designer may target (tune)
    column: str = ""             # an AUTO measure's result column, whose values decide its unit
    words: str = ""              # in a sentence, where not "the " + name (a key outcome: its name)

    @property
    def said(self) -> str:
        """The measure in a sentence: "the mean score", "the share of players eliminated by curses"."""
        return self.words or (f"the share of {self.name}" if self.kind == OUTCOME else f"the {self.name}")

    @property
    def bounds(self) -> tuple[float, float]:
        return (0.0, 1.0) if self.unit == SHARE else (-1.0, 1.0) if self.unit == POINTS else (-math.inf, math.inf)

    @property
    def interval(self) -> str:
        if self.kind == UNFOLD:
            return "normal, clustered by deal, cut to its bounds"
        return ("Wilson at the effective sample size of the deals (within [0, 1]; none seen gives an upper bound)"
                if self.unit == SHARE else "normal, clustered by deal")

    def is_share(self, frame: pd.DataFrame) -> bool:
        """Whether this measure is a share in this frame (a change in it is in percentage points): an
        AUTO measure is where every value of its column is 0 or 1."""
        return is_share(frame[self.column]) if self.unit == AUTO else self.unit == SHARE


def prepared_frame(frame: pd.DataFrame, spec: GameSpec) -> pd.DataFrame:
    """A run's frame as the measures read it: bitmasks decoded (a 0/1 column per named bit) and each
    seat's win share (a shared win split between the winners)."""
    return decode_bits(frame, spec).assign(win_share=win_share(frame))


def _first_seat(f: pd.DataFrame) -> pd.DataFrame:
    return f[f["seat"] == 0].set_index("game").sort_index()


def _start_share(f, spec) -> pd.Series:
    return _first_seat(f)["win_share"]


def _win_rate(who: str):
    return lambda f, spec: f[f["strategy"].astype(str) == who].groupby("game", sort=True)["win"].mean()


def _game_column(name: str):
    return lambda f, spec: _first_seat(f)[name].astype(float)


def _seat_mean(name: str):
    return lambda f, spec: f.groupby("game", sort=True)[name].mean().astype(float)


def _outcome(o):
    return lambda f, spec: outcomes.per_game(f, spec, o)


SHARED_WINS = Measure("shared_wins", "shared win", SHARE, OTHER,
                      lambda f, s: f.groupby("game", sort=True)["shared_win"].max().astype(float),
                      words="the share of games with a shared win")


def _unfolded(key: str):
    return lambda per_game, spec: per_game.set_index("game").sort_index()[key]


# How a game unfolds, from the standings after every round (its per-game frame: unfold.measures;
# a mean over games clustered by deal, stats.clustered_mean, which the PAIRED rows calibrate); the
# overview tables each one, in this order, under its name.
UNFOLDING = (
    Measure("lead_changes", "lead changes per game", NUMBER, UNFOLD, _unfolded("lead_changes")),
    Measure("lead_change_share", "round-to-round steps changing the leader", SHARE, UNFOLD,
            _unfolded("lead_change_share")),
    Measure("decided_round", "decided at round", NUMBER, UNFOLD, _unfolded("decided_round")),
    Measure("decided_share", "decided at share of game", SHARE, UNFOLD, _unfolded("decided_share")),
    Measure("drama", "drama", NUMBER, UNFOLD, _unfolded("drama")),
    Measure("halftime_leader_wins", "half-time leader wins", SHARE, UNFOLD, _unfolded("halftime_leader_wins")),
    Measure("comeback", "last after a third wins", SHARE, UNFOLD, _unfolded("comeback"),
            words="the share of players last after a third of the game who still win"),
)


def win_measures(strategies: list[str], mirror: bool) -> list[Measure]:
    """Who wins: the start player's win share in a mirror (every seat one strategy), else each
    strategy's win rate (a shared win a win for each winner)."""
    if mirror:
        return [Measure("start_share", "start player's win share", SHARE, WIN, _start_share, calibration=ARM_SHARE)]
    return [Measure(f"win:{s}", f"win rate of {s}", SHARE, WIN, _win_rate(s), of_players=True, calibration=ARM_SHARE)
            for s in sorted(strategies)]


def catalogue(spec: GameSpec, strategies: list[str], rules: dict | None = None) -> dict[str, Measure]:
    """Every measure of this game with these strategies, by key, in the order reports list them:
    who wins, the game's key outcomes (those ``rules``, the parameters in force, allow: an outcome
    its rules rule out measures nothing), mean score, shared wins, length, the game's countable
    columns; then forms a designer may target that comparisons do not list (any elimination, the
    start player's edge over 1/n)."""
    ms = win_measures(strategies, len(set(strategies)) == 1)
    ms += [Measure(o.key, o.name, SHARE, OUTCOME, _outcome(o), outcomes.of_seats(spec, o), o.effect, OUTCOME_RATE)
           for o in spec.outcomes if not o.needs or rules is None or rules[o.needs]]
    ms += [Measure("score", "mean score", NUMBER, OTHER, lambda f, s: f.groupby("game", sort=True)["score"].mean()),
           SHARED_WINS,
           Measure("length", f"length ({spec.length_column})", NUMBER, OTHER, _game_column(spec.length_column),
                   words="the game length")]
    ms += [Measure(c, f"{c} (mean per player)", AUTO, OTHER, _seat_mean(c), column=c) for c in seat_columns(spec)]
    ms += [Measure(c.name, c.name, AUTO, OTHER, _game_column(c.name), column=c.name) for c in spec.columns
           if c.per == "game" and c.kind == "count" and c.name != spec.length_column]
    col = getattr(spec, "eliminated_column", "")     # (a calibration world's spec declares only what it plays)
    if col:
        ms.append(Measure("elimination_rate", "players eliminated (any cause)", SHARE, OTHER,
                          lambda f, s: (f[col] != 0).groupby(f["game"], sort=True).mean(), of_players=True,
                          listed=False, words="the share of players eliminated (any cause)"))
    ms.append(Measure("start_edge", "start player's win share minus 1/n", POINTS, OTHER,
                      lambda f, s: _start_share(f, s) - 1 / f["seat"].nunique(), listed=False))
    out: dict[str, Measure] = {}
    for m in ms:      # a column named like a key outcome (Jamaica's ghost_wins: a count; the outcome: any at all)
        out[f"column:{m.key}" if m.key in out and m.column else m.key] = m
    return out


def of_frame(frame: pd.DataFrame, spec: GameSpec) -> dict[str, Measure]:
    """The catalogue for a played run: its strategies, and its rules read only where an outcome needs one."""
    rules = (spec.params.resolve(RunConfig.from_dict(frame.attrs["simlab"]["config"]).params)
             if any(o.needs for o in spec.outcomes) else None)
    return catalogue(spec, list(frame["strategy"].astype(str).unique()), rules)


ALIASES = {"curse_elimination_rate": "curse_out"}    # the key simlab tune took before key outcomes joined the catalogue


def lookup(spec: GameSpec, key: str, seats: tuple[str, ...]) -> Measure:
    """The measure ``key`` for this game and these seats (``simlab tune --target``); an unknown or
    unmeasurable one is a one-line error naming what is known."""
    known = catalogue(spec, list(seats))
    key = ALIASES.get(key, key) if ALIASES.get(key, key) in known else key
    if key in ("start_edge", "start_share") and len(set(seats)) != 1:
        raise SimlabError(f"{key} needs a mirror match (every seat one strategy: --seats NAME), or a seat "
                          "effect would be confounded with who sits there")
    if key == "elimination_rate" and key not in known:
        raise SimlabError(f"{spec.name} eliminates no player: no elimination measure")
    if key.startswith("win:") and key not in known:
        raise SimlabError(f"measure {key}: {key[4:]!r} plays in none of the seats ({', '.join(seats)})")
    if key in known:
        return known[key]
    raise SimlabError(f"unknown measure {key!r} for {spec.name}; known: " + ", ".join(
        k for k in known if not k.startswith("win:")) + ", win:STRATEGY (see simlab tune --help)")
