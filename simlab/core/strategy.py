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

import importlib
import importlib.util
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit, types
from numba.core.errors import NumbaExperimentalFeatureWarning

from .errors import SimlabError

warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)

DECIDE_SIGNATURE = types.int64(
    types.int32[::1], types.int64[::1], types.int64, types.int32[::1], types.int64, types.float64[::1], types.uint64[::1]
)
DECIDE_TYPE = types.FunctionType(DECIDE_SIGNATURE)
MAX_STRATEGY_PARAMS = 8


@dataclass(frozen=True)
class StrategyParam:
    name: str
    default: float
    meaning: str
    low: float = -1e9
    high: float = 1e9


@dataclass(frozen=True)
class Strategy:
    game: str
    name: str
    decide: object
    description: str
    params: tuple[StrategyParam, ...] = ()

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
        vec = np.zeros(MAX_STRATEGY_PARAMS, dtype=np.float64)
        for i, p in enumerate(self.params):
            vec[i] = values.get(p.name, p.default)
        return vec


_REGISTRY: dict[tuple[str, str], Strategy] = {}


def strategy(game: str, name: str, description: str, params: tuple[StrategyParam, ...] = ()):
    """Decorator: compile ``fn`` with the decision signature and register it under ``name``.

    Parameters are read in the function as ``params[0]``, ``params[1]``... in declaration order.
    """
    if len(params) > MAX_STRATEGY_PARAMS:
        raise ValueError(f"at most {MAX_STRATEGY_PARAMS} strategy parameters")

    def wrap(fn):
        decide = njit(DECIDE_SIGNATURE, cache=True)(fn)
        _REGISTRY[(game, name)] = Strategy(game, name, decide, description, tuple(params))
        return decide

    return wrap


def strategies_for(game: str) -> dict[str, Strategy]:
    _load_builtin(game)
    return {n: s for (g, n), s in _REGISTRY.items() if g == game}


def get_strategy(game: str, name: str) -> Strategy:
    known = strategies_for(game)
    if name not in known:
        raise SimlabError(f"unknown strategy {name!r} for {game}; known: {', '.join(sorted(known))}")
    return known[name]


def _load_builtin(game: str) -> None:
    importlib.import_module(f"strategies.{game.replace('-', '_')}")


def load_strategy_file(path: str | Path) -> None:
    """Import a user's Python file whose ``@strategy`` decorators register more strategies."""
    path = Path(path).resolve()
    if not path.is_file():
        raise SimlabError(f"strategy file not found: {path}")
    mod_name = f"simlab_user_{path.stem}"
    if mod_name in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(mod_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # a user's file: report, don't dump a traceback
        del sys.modules[mod_name]
        raise SimlabError(f"strategy file {path.name} failed to load: {type(exc).__name__}: {exc}") from None


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
        return cls(name, tuple(values))

    def label(self) -> str:
        return ":".join([self.name] + [f"{k}={v:g}" for k, v in self.values])
