"""What a game *is*, declared as data next to the code that plays it (OpenSpiel style).

Each game package builds one :class:`GameSpec`; the run engine, CLI, benchmark and reports
only ever talk to a game through it, so adding a game never touches the common code.
"""
from __future__ import annotations

import importlib.util
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .errors import SimlabError
from .params import ParamTable
from .registry import declared, load, module_name
from .model import StepModel
from .table import Table


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
class Outcome:
    """An outcome a designer watches (an elimination, a game nobody wins, a ship home), read from
    one column as a rate: per row, ``test`` is ``"== k"`` (the column holds code k), ``"> k"`` or
    ``"/ k"`` (the column as a share of k: 3 of 4 explorers home is 0.75). A seat column gives a
    share of players, a game column a share of games. ``key`` names it on the command line
    (``simlab tune --target "KEY in [...]"``); ``effect`` is the smallest change that matters;
    ``needs`` a rule parameter without which the outcome cannot happen (Jamaica's ghost ship
    battles need ``ghost_ship``): a comparison with it off in one arm does not read the outcome's
    fall to none as a finding, it is true by construction."""

    key: str
    name: str            # as the reports say it: "players eliminated by curses"
    column: str
    test: str
    effect: float = 0.01
    needs: str = ""

    def __post_init__(self):
        op, _, k = self.test.partition(" ")
        if op not in ("==", ">", "/") or not k.lstrip("-").isdigit() or (op == "/" and int(k) <= 0):
            raise ValueError(f"outcome {self.key}: test {self.test!r} is not '== k', '> k' or '/ k'")

    def rate(self, values):
        """Each row's value of the outcome, from its column's values (a numpy array)."""
        op, _, k = self.test.partition(" ")
        k = int(k)
        return (values == k) * 1.0 if op == "==" else (values > k) * 1.0 if op == ">" else values / k


@dataclass(frozen=True)
class GameSpec:
    name: str                       # CLI name, e.g. "karuba", "loot-island"
    title: str
    min_players: int
    max_players: int
    summary: str                    # players, chance, decisions, utility: one paragraph
    params: ParamTable
    columns: tuple[Column, ...]
    play_game: object               # numba dispatcher with simlab.core.play.PLAY_SIGNATURE
    narrate: Callable               # (events, n_players, values, seat_labels, every=1) -> str; every: draw the board every N rounds (0: at the end)
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
    assumed_data: str = ""                   # component data with no public source: every report says so first
    outcomes: tuple[Outcome, ...] = ()       # what a designer watches besides who wins, read by every report
    decision_events: tuple[int, ...] = ()    # trace event kinds that record a seat's choice: did play change?
    model: StepModel | None = None           # the step functions (simlab.core.model): search players, contract tests
    table: Table | None = None               # what a person seated at the game is shown (simlab play)

    def variant_params(self, names) -> dict:
        """The rule parameters the variants ``names`` switch on, later ones over earlier; an unknown
        name is a one-line error."""
        params: dict = {}
        for v in names:
            if v not in self.variants:
                raise SimlabError(f"unknown variant {v!r} for {self.name}; known: {', '.join(self.variants) or 'none'}")
            params.update(self.variants[v])
        return params

    def default_mix(self, players: int) -> tuple[str, ...]:
        """The default heuristic mix at ``players``, padded with random play."""
        mix = self.default_seats[:players]
        return mix + ("random",) * (players - len(mix))

    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    def validate(self, n_players: int, values: dict) -> None:
        if not self.min_players <= n_players <= self.max_players:
            raise SimlabError(
                f"{self.name} is played by {self.min_players}-{self.max_players} players, not {n_players}"
            )
        self.check(values, n_players)


def available_games() -> list[str]:
    """Every declared game (see :mod:`simlab.core.registry`): simlab's four and any plug-in's."""
    return list(declared("games"))


def get_game(name: str) -> GameSpec:
    key = name.strip().lower().replace("_", "-")
    known = available_games()
    if key not in known:
        raise SimlabError(f"unknown game {name!r}; known: {', '.join(known)}")
    module = module_name("games", key)
    if module not in sys.modules:
        with compiling(module, key):
            load("games", key)
    spec = sys.modules[module].GAME
    if spec.name != key:
        raise SimlabError(f"the game declared as {key!r} ({module}) calls itself {spec.name!r}")
    return spec


@contextmanager
def compiling(module: str, game: str):
    """Say so, on a terminal, while numba compiles a module's kernels on their first run (it caches
    them: later runs load them in a second), with the time so far every 15 s, so a first command
    that works for a minute or two is not mistaken for one that hangs."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin or not sys.stderr.isatty():
        yield
        return
    source = Path(spec.origin)
    cached = (source.parent.rglob("*.nbi") if spec.submodule_search_locations else      # a package: any of its kernels
              (source.parent / "__pycache__").glob(f"{source.stem}.*.nbi"))             # a module: its own
    cold = not any(cached)
    if not cold:
        yield
        return
    start = time.monotonic()
    print(f"compiling the {game} kernels ({module}): first run only, numba caches them; a minute or two ...",
          file=sys.stderr, flush=True)
    done = threading.Event()

    def tick():
        while not done.wait(15):
            print(f"  still compiling the {game} kernels ({time.monotonic() - start:.0f} s)", file=sys.stderr, flush=True)

    threading.Thread(target=tick, daemon=True).start()
    try:
        yield
    finally:
        done.set()
        print(f"compiled the {game} kernels in {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
