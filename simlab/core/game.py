"""What a game *is*, declared as data next to the code that plays it (OpenSpiel style).

Each game package builds one :class:`GameSpec`; the run engine, CLI, benchmark and reports
only ever talk to a game through it, so adding a game never touches the common code.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Callable

from .errors import SimlabError
from .params import ParamTable


@dataclass(frozen=True)
class Column:
    """One result column the game adds. ``per`` is "seat" or "game" (same on every seat row).

    ``kind`` says what a mean of the column means, so summaries average only what can be averaged:
    ``count`` (an amount, count, points or a 0/1 flag), ``when`` (a round, 0 = never: a mean mixes
    "never" into "early"), ``code`` (a category such as a card id or a reason) and ``mask`` (a
    bitmask; ``bits`` names its bits from bit 0 up, when they have names worth reporting).
    """

    name: str
    meaning: str
    per: str = "seat"
    dtype: str = "int16"
    kind: str = "count"
    bits: tuple[str, ...] = ()

    def __post_init__(self):
        if self.kind not in COLUMN_KINDS:
            raise ValueError(f"column {self.name}: kind {self.kind!r} is not one of {', '.join(COLUMN_KINDS)}")


COLUMN_KINDS = ("count", "when", "code", "mask")


@dataclass(frozen=True)
class GameSpec:
    name: str                       # CLI name, e.g. "karuba", "loot-island"
    title: str
    min_players: int
    max_players: int
    summary: str                    # players, chance, decisions, utility: one paragraph
    params: ParamTable
    columns: tuple[Column, ...]
    play_game: object               # numba dispatcher with simlab.core.kernel.PLAY_SIGNATURE
    narrate: Callable               # (events, n_players, values, seat_labels) -> str
    check: Callable                 # (values, n_players) -> None, raises SimlabError
    length_column: str              # the column that measures game length (for summaries)
    default_seats: tuple[str, ...]  # a heuristic mix, no random seat: it would only add a near-certain loser
    variants: dict[str, dict] = field(default_factory=dict)  # name -> parameter overrides
    rules_file: str = ""
    bench_players: tuple[int, ...] = (4,)  # player counts the benchmark measures
    eliminated_column: str | None = None    # a seat column, non-zero when the player is out of the game
    chance_streams: tuple[str, ...] = ("all chance",)  # the game's random stream rows, by purpose
    # why the rules treat every seat alike (simultaneous play, no rule reading the seat order), or "":
    # then seat fairness holds by construction and no mirror can measure it
    seats_alike: str = ""

    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    def validate(self, n_players: int, values: dict) -> None:
        if not self.min_players <= n_players <= self.max_players:
            raise SimlabError(
                f"{self.name} is played by {self.min_players}-{self.max_players} players, not {n_players}"
            )
        self.check(values, n_players)


def available_games() -> list[str]:
    """Every sub-package of :mod:`simlab.games` is a game: a new folder is all a game needs."""
    import simlab.games

    return sorted(m.name.replace("_", "-") for m in pkgutil.iter_modules(simlab.games.__path__) if m.ispkg)


def get_game(name: str) -> GameSpec:
    key = name.strip().lower().replace("_", "-")
    known = available_games()
    if key not in known:
        raise SimlabError(f"unknown game {name!r}; known: {', '.join(known)}")
    return importlib.import_module(f"simlab.games.{key.replace('-', '_')}").GAME
