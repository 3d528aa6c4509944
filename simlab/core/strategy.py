"""Strategies as plug-ins: a jitted decision function with one fixed signature per project.

A decision function is called by a game kernel whenever the rules leave a choice to a seat::

    decide(state, cfg, seat, legal, n_legal, params, rng) -> index into legal[:n_legal]

``state`` is the game's flat int32 state (its layout is documented in the game's ``state``
module), ``cfg`` the packed rule parameters in force (a strategy must know the rules it plays
under: tables and values are overridable), ``legal`` holds the legal choice codes (the game documents their encoding), ``params``
is the seat's float64 parameter vector, ``rng`` the game's own random stream. The signature is
the same for every game, so the kernels receive the seats' functions as a tuple of numba
first-class functions and call them by runtime index (about 5 ns a call; see the README).
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from numba import njit, types
from numba.core.errors import NumbaError

from .errors import Interrupted, SimlabError
from .game import compiling, get_game
from .params import NAME
from .registry import declared, load, module_name
from .tuned_sets import tuned_file, tuned_sets

DECIDE_SIGNATURE = types.int64(
    types.int32[::1], types.int64[::1], types.int64, types.int32[::1], types.int64, types.float64[::1], types.uint64[::1]
)
DECIDE_TYPE = types.FunctionType(DECIDE_SIGNATURE)
MAX_STRATEGY_PARAMS = 9
# A slot's row of the kernel's ``seat_params``: its parameters, then BLIND_COLUMN, what the strategy
# reads: SEES the state it is given; BLIND nothing of it (``blind``: a game may spare the copy of the
# seat's observation and hand it a buffer that shows nothing); UNIFORM nothing, and its decision is
# exactly ``randint(rng, n_legal)`` (``uniform``: the game draws it itself, sparing the call too).
BLIND_COLUMN = MAX_STRATEGY_PARAMS
SEES, BLIND, UNIFORM = 0, 1, 2
HUMAN = "human"   # a person's seat (simlab play): what frames and records name its strategy; no code decides it
SEAT_PARAMS_WIDTH = MAX_STRATEGY_PARAMS + 1


@dataclass(frozen=True)
class StrategyParam:
    """A named number a strategy reads. ``low``/``high`` bound what a seat may set; ``search`` is the
    narrower range a designer would call sensible, which ``simlab tune-strategy`` searches (default:
    the bounds); ``integer`` marks a count, rounded when tuned."""

    name: str
    default: float
    meaning: str
    low: float = -1e9
    high: float = 1e9
    integer: bool = False
    search: tuple[float, float] | None = None

    @property
    def search_range(self) -> tuple[float, float]:
        return self.search if self.search is not None else (self.low, self.high)


@dataclass(frozen=True)
class Strategy:
    game: str
    name: str
    decide: object
    description: str
    params: tuple[StrategyParam, ...] = ()
    search: bool = False     # a search player: far slower than a heuristic, left out of sweeps over all strategies
    blind: bool = False      # reads nothing of the state it is given: see BLIND_COLUMN
    uniform: bool = False    # blind, and decides exactly randint(rng, n_legal): see BLIND_COLUMN

    @property
    def sight(self) -> int:
        """The slot's BLIND_COLUMN entry: SEES, BLIND or UNIFORM."""
        return UNIFORM if self.uniform else BLIND if self.blind else SEES

    def vector(self, values: dict[str, float]) -> np.ndarray:
        """The seat's parameter vector: defaults overridden by ``values`` (validated)."""
        known = {p.name: p for p in self.params}
        for name, v in values.items():
            if name not in known:
                hint = ", ".join(known) or "none"
                raise SimlabError(f"strategy {self.name!r} has no parameter {name!r} (parameters: {hint})")
            p = known[name]
            if not p.low <= v <= p.high:
                raise SimlabError(f"strategy {self.name!r}: {name}={v} is outside {p.low}..{p.high}")
            if p.integer and v != int(v):
                raise SimlabError(f"strategy {self.name!r}: {name}={v:g} must be a whole number (it counts)")
        vec = np.zeros(MAX_STRATEGY_PARAMS, dtype=np.float64)
        for i, p in enumerate(self.params):
            vec[i] = values.get(p.name, p.default)
        return vec


_REGISTRY: dict[tuple[str, str], Strategy] = {}
_SOURCE: dict[tuple[str, str], str] = {}     # (game, name) -> the file that registered it
_LOADED: dict[str, str] = {}                 # strategy file path -> sha256 of the content executed


def strategy(game: str, name: str, description: str, params: tuple[StrategyParam, ...] = (), search: bool = False,
             blind: bool = False, uniform: bool = False, lean: bool = False):
    """Decorator: compile ``fn`` with the decision signature and register it under ``name``.

    ``search=True`` marks a search player (it looks ahead through the game's step functions): it
    is compiled on first use rather than at import (``fn`` may come compiled: each game's copy of
    the search, :mod:`simlab.search.specialise`), and sweeps over every registered strategy (the
    regression oracle, the overview's mirror matches) leave it out. ``blind=True`` declares that
    the decision reads nothing of its ``state`` argument (uniform random): the game may hand it a
    buffer showing nothing instead of the seat's observation. ``uniform=True`` declares more: the
    decision is exactly ``randint(rng, n_legal)`` (so blind too), and the game makes that same draw
    itself instead of calling the function (a test holds every uniform strategy to it).
    ``lean=True`` compiles the decision without reference counting (``simlab.core.play.lean``),
    which spares the counting of every array it hands its helpers (15-25% of a heuristic's time);
    it then keeps lean's contract: no helper it calls allocates (unless declared ``_nrt=True``)
    or returns an array.

    Parameters are read in the function as ``params[0]``, ``params[1]``... in declaration order.
    A name already registered from another file is refused (a second file never silently
    replaces a strategy, built-in or not).
    """
    if len(params) > MAX_STRATEGY_PARAMS:
        raise SimlabError(f"strategy {name!r}: at most {MAX_STRATEGY_PARAMS} parameters")
    for label in (name, *(p.name for p in params)):
        if not isinstance(label, str) or not NAME.fullmatch(label):
            raise SimlabError(f"strategy name or parameter {label!r}: use letters, digits, '_' and '-', "
                              "starting with a letter")

    def wrap(fn):
        source = getattr(fn, "py_func", fn).__code__.co_filename
        other = _SOURCE.get((game, name))
        if other is not None and other != source:
            raise SimlabError(f"{game} already has a strategy named {name!r} (from {Path(other).name}); "
                              "rename the one in " + Path(source).name)
        if search:   # compiled where it is defined (each game's copy of simlab.search.algorithms), on first use
            decide = fn if hasattr(fn, "py_func") else njit(fn)
        else:
            decide = njit(DECIDE_SIGNATURE, cache=True, **({"_nrt": False} if lean else {}))(fn)
        _REGISTRY[(game, name)] = Strategy(game, name, decide, description, tuple(params), search, blind or uniform,
                                           uniform)
        _SOURCE[(game, name)] = source
        return decide

    return wrap


def strategies_for(game: str) -> dict[str, Strategy]:
    _load_builtin(game)
    return {n: s for (g, n), s in _REGISTRY.items() if g == game}


def get_strategy(game: str, name: str) -> Strategy:
    """A registered strategy, or ``BASE@SET``: the strategy BASE with the tuned parameter set SET
    as its defaults (see :mod:`simlab.core.tuned_sets`)."""
    if "@" in name:
        base, _, tuned = name.partition("@")
        return tuned_strategy(get_strategy(game, base), tuned)
    known = strategies_for(game)
    if name not in known:
        raise SimlabError(f"unknown strategy {name!r} for {game}; known: {', '.join(sorted(known))}")
    return known[name]


_LOADED_GAMES: set[str] = set()


def _load_builtin(game: str) -> None:
    """Load the game's declared strategies, then the players declared for every game with a step
    model (the search players), once per process (see :mod:`simlab.core.registry`)."""
    if game in _LOADED_GAMES:
        return
    _LOADED_GAMES.add(game)        # first: the players read the game's strategies while registering
    try:
        module = module_name("strategies", game)
        if module is not None and module not in sys.modules:
            with compiling(module, f"{game} strategies'"):
                load("strategies", game)
        spec = get_game(game)
        if spec.model is not None:
            for players in declared("players"):
                load("players", players).register_for(spec)
    except BaseException:
        _LOADED_GAMES.discard(game)
        raise


def load_strategy_file(path: str | Path) -> str:
    """Import a user's Python file whose ``@strategy`` decorators register more strategies.

    The file is executed as code: once per process and content (an edited file is executed
    again, replacing its strategies). Returns the sha256 of the content executed, which the
    run's code fingerprint records. Any failure, ``sys.exit`` and numba compile errors included,
    is one line naming the file.
    """
    path = Path(path).resolve()
    key = str(path)
    source = _read_strategy_file(path)
    digest = hashlib.sha256(source).hexdigest()[:16]
    if _LOADED.get(key) == digest:
        return digest
    stem = re.sub(r"\W", "_", path.stem)
    mod_name = f"simlab_user_{stem}_{hashlib.sha256(key.encode()).hexdigest()[:12]}"  # one module per path
    spec = importlib.util.spec_from_file_location(mod_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    known = set(_REGISTRY)
    try:
        exec(compile(source, key, "exec"), module.__dict__)
    except (KeyboardInterrupt, Interrupted):
        raise
    except BaseException as exc:  # a user's file: report in one line, never a traceback or an exit
        del sys.modules[mod_name]
        for registered in [k for k, source in _SOURCE.items() if source == key]:   # nothing half-loaded stays
            del _SOURCE[registered], _REGISTRY[registered]
        raise SimlabError(f"strategy file {path.name} failed to load: {_one_line(exc, path)}") from None
    # a mistyped decorator or the wrong file named registers nothing (a module the file imports may register)
    if set(_REGISTRY) == known and key not in _SOURCE.values():
        del sys.modules[mod_name]
        raise SimlabError(f"strategy file {path} registers no strategy: decorate a decision function with "
                          "@strategy(GAME, NAME, DESCRIPTION) from simlab.core.strategy")
    _LOADED[key] = digest
    return digest


def file_digest(path: str | Path) -> str:
    """The hash a run's code identity records for a strategy file's content (as it is now)."""
    return hashlib.sha256(_read_strategy_file(Path(path).resolve())).hexdigest()[:16]


def _read_strategy_file(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise SimlabError(f"strategy file not found: {path}") from None
    except OSError as exc:
        raise SimlabError(f"cannot read strategy file {path}: {exc.strerror}") from None


def _one_line(exc: BaseException, path: Path) -> str:
    """A short reason: numba's multi-page typing errors become their first line plus the file's line."""
    if isinstance(exc, SystemExit):
        return f"it called sys.exit({exc.code!r})"
    if isinstance(exc, SimlabError):
        return str(exc)
    text = str(exc)
    if isinstance(exc, NumbaError):
        lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("Failed in ")]
        reason = lines[0] if lines else type(exc).__name__
        if reason.endswith(":") and len(lines) > 1:
            reason += " " + lines[1].lstrip("> ")
        where = re.findall(r'File "([^"]+)", line (\d+)', text)
        line = next((int(n) for f, n in reversed(where) if Path(f).name == path.name), None)
        if line is not None:
            code = path.read_text(errors="replace").splitlines()[line - 1].strip()
            reason = f"line {line} ({code}): {reason}"
        return f"numba cannot compile it: {reason}"
    first = text.splitlines()[0] if text else ""
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


@dataclass(frozen=True)
class SeatSpec:
    """One seat's strategy choice as written on the command line: ``name[:param=value...]``."""

    name: str
    values: tuple[tuple[str, float], ...] = ()

    @classmethod
    def parse(cls, text: str) -> "SeatSpec":
        name, *assigns = text.strip().split(":")
        values = []
        for a in assigns:
            k, sep, v = a.partition("=")
            try:
                values.append((k.strip(), float(v)))
            except ValueError:
                sep = ""
            if not sep:
                raise SimlabError(f"seat {text!r}: expected name:param=number, got {a!r}")
        if not name:
            raise SimlabError(f"empty strategy name in seat {text!r}")
        given = [k for k, _ in values]
        twice = sorted({k for k in given if given.count(k) > 1})
        if twice:
            raise SimlabError(f"seat {text!r}: parameter {twice[0]!r} is given twice")
        return cls(name, tuple(values))

    def label(self) -> str:
        return ":".join([self.name] + [f"{k}={v:g}" for k, v in self.values])


def tuned_strategy(base: Strategy, name: str) -> Strategy:
    """``base`` with the saved set ``name`` as its parameter defaults, named ``BASE@NAME``."""
    key = f"{base.name}@{name}"
    sets = tuned_sets(base.game)
    if key not in sets:
        saved = ", ".join(sorted(sets)) or "none"
        raise SimlabError(f"unknown tuned set {key!r} for {base.game} (saved: {saved}; make one with "
                          f"`simlab tune-strategy {base.game} {base.name} --name {name}`)")
    values = sets[key]["params"]
    try:
        base.vector({k: float(v) for k, v in values.items()})   # every name known, every value in bounds
    except (TypeError, ValueError):
        raise SimlabError(f"tuned set {key!r} in {tuned_file(base.game)}: parameters must be numbers") from None
    except SimlabError as exc:
        raise SimlabError(f"tuned set {key!r} in {tuned_file(base.game)}: {exc}") from None
    params = tuple(replace(p, default=float(values.get(p.name, p.default))) for p in base.params)
    return Strategy(base.game, key, base.decide, f"{base.description} (tuned set {name!r})", params)


def strategy_hash(strategy: Strategy) -> str:
    """What a tuned strategy plays with, for the run's code identity: its parameter values."""
    blob = json.dumps([[p.name, p.default] for p in strategy.params])
    return hashlib.sha256(blob.encode()).hexdigest()[:16]
