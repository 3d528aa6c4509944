"""A stronger player's reading of a verdict (:class:`Recheck`), how it compares with the heuristics'
reading, and how it is said: what the stronger players' rechecks (:mod:`simlab.studies.strength`)
produce and every page that reports them reads. Nothing here plays."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from simlab.core.strategy import HUMAN, SeatSpec, get_strategy
from simlab.measures.stats import Estimate
from simlab.report.page import md_escape
from simlab.report.wording import Band, fmt_count, join

HOLDS, DIFFERS, UNSETTLED = "holds", "differs", "not settled"
DECIDED, BUDGET, ALL_DEALS, ONE_LOOK = "decided", "budget", "every deal", "one look"


def is_search(game: str, player: str) -> bool:
    """Whether ``player`` is a search player (its games are slow, so it plays fewer of them)."""
    return player != HUMAN and get_strategy(game, SeatSpec.parse(player).name).search


@dataclass(frozen=True)
class Recheck:
    """A stronger player's reading of one verdict, with how it was reached: ``value`` and ``decided``
    as the experiment reads them, ``detail`` what it read them from (its last look), the ``games``
    per run at the last look, the ``looks`` taken of ``planned``, their ``level``, and why it stopped
    (``stop``: decided, the budget, every deal played, or a tuned set's one look)."""

    player: str
    value: Any
    decided: bool
    detail: Any
    games: int
    looks: int
    planned: int
    level: float
    stop: str
    minutes: float = math.inf
    deals: int = 0                  # the heuristics' deals: the most games a look may play
    needed: float | None = None     # games its interval would need to clear the band's edge (None: unknown)

    @property
    def at_edge(self) -> bool:
        """Not settled because the effect sits at the band's edge: even every deal would likely leave
        its interval across it (from the interval's width, shrinking as one over the root of the games)."""
        return not self.decided and self.needed is not None and self.needed > self.deals

    def why(self) -> str:
        """What a not-settled reading needs said: what stopped it, and whether more games would settle it
        (the budget) or not (an effect at the band's edge)."""
        if (self.stop == ALL_DEALS and self.looks > 1) or (self.stop == ONE_LOOK and self.at_edge):
            return f"all {fmt_count(self.games)} of the heuristics' deals played: the effect sits at the band's edge"
        if self.stop == BUDGET:
            spent = f"{fmt_count(self.games)} games when the {self.minutes:g}-minute budget ran out"
            if self.at_edge:
                return f"{spent}; at the band's edge, where all {fmt_count(self.deals)} deals would likely not settle it"
            return spent + (f"; about {fmt_count(round_games(self.needed))} would settle it if the effect stays where "
                            "it is" if self.needed is not None else "")
        return f"at {fmt_count(self.games)} games"

    def how(self) -> str:
        """'2,000 games, 3 of 7 looks at 99.29% each': how a search player's recheck got its reading."""
        if self.planned == 1:
            return f"{fmt_count(self.games)} games"
        return (f"{fmt_count(self.games)} games, {self.looks} of {self.planned} looks at {self.level:.2%} each"
                .replace(".00%", "%"))


def round_games(n: float) -> int:
    """A number of games to two significant digits."""
    return int(float(f"{n:.2g}"))


def needed_games(games: int, interval: Estimate | None, band: Band | None) -> float | None:
    """The games at which ``interval`` (read at ``games``) would clear the nearer edge of ``band``, if the
    estimate stays where it is and the interval narrows as one over the root of the games."""
    if interval is None or band is None:
        return None
    edges = [e for e in (band.lo, band.hi) if math.isfinite(e)]
    gap = min(abs(interval.value - e) for e in edges)
    half = (interval.hi - interval.lo) / 2
    return math.inf if gap == 0 else games * (half / gap) ** 2


def reading(value: str, reference: str, decided: bool) -> str:
    """How a stronger player's reading compares with the heuristics' ``reference`` reading: an
    undecided reading is not settled even where the heuristics' own is undecided too."""
    return UNSETTLED if not decided else HOLDS if value == reference else DIFFERS


def agreement(reference, readings: dict[str, Recheck | tuple[Any, bool]], games: dict[str, int] | None = None,
              words=None) -> str:
    """'holds with A and B', 'holds with A; is not settled with B (4,000 games when the 5-minute budget
    ran out)', 'differs with B (fair)': the stronger players' ``readings`` against the heuristics'
    ``reference`` value. A reading is a :class:`Recheck` (a not-settled one says why) or a pair
    (value, decided); ``words`` renders a value, ``games`` names the sample of a not-settled pair."""
    words = words or (lambda v: v)
    groups: dict[str, list[str]] = {HOLDS: [], DIFFERS: [], UNSETTLED: []}
    for player, r in readings.items():
        value, decided = (r.value, r.decided) if isinstance(r, Recheck) else r
        kind = reading(value, reference, decided)
        name = md_escape(player)
        if kind == DIFFERS:
            name += f" ({words(value)})"
        elif kind == UNSETTLED and isinstance(r, Recheck):
            name += f" ({r.why()})"
        elif kind == UNSETTLED and games and player in games:
            name += f" (at {fmt_count(games[player])} games)"
        groups[kind].append(name)
    return "; ".join(f"{'is not settled' if r == UNSETTLED else r} with {join(names)}" for r, names in groups.items()
                     if names)
