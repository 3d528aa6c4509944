"""Rule and component parameters as data (TAG's "parameters object").

Every tunable number or open rule reading of a game is a :class:`Param` with its default, a
one-line meaning, and whether the default is a *fact* (with its source) or an *assumption*.
A game's :class:`ParamTable` packs the chosen values into one flat ``int64`` vector that the
numba kernel reads at fixed offsets, computed once at import, so sweeping a variant never
recompiles anything; lookup tables worked out from the values (:class:`Derived`) follow them.
"""
from __future__ import annotations

import operator
import re
import tomllib
from collections import namedtuple
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from .errors import SimlabError

NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")  # names print safely in labels, Markdown and HTML reports (strategies, sets)

FACT = "fact"
ASSUMPTION = "assumption"
SETUP = "setup"          # not a rule: a per-run choice such as a fixed board setup
VARIANT = "variant"      # a published variant or expansion switched on or off


@dataclass(frozen=True)
class Param:
    """One named rule/component value.

    ``default`` is an int, a bool, a choice name (when ``choices`` is given) or a tuple of ints
    (a table of fixed length; with ``max_size``, of any length up to it, packed padded with
    zeros so the kernels' offsets stay fixed; the game checks the length against its counts).
    ``low``/``high`` bound every int entry.

    ``alternatives`` are the other values an ASSUMPTION could plausibly take (another reading of
    the rulebook, another guess at a card no source lists): ``simlab robust`` reruns a verdict at
    each of them. A switch or choice left without them offers its other values; a number or a
    table must name its own, since only someone who read the sources knows what is plausible.
    ``no_alternative`` says why an assumption has none that could stand alone (a count whose tables
    would all have to change with it): ``simlab robust`` then names it as not checked, with the reason.
    """

    name: str
    default: object
    meaning: str
    status: str
    source: str = ""
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    max_size: int | None = None
    alternatives: tuple = ()
    no_alternative: str = ""

    @property
    def size(self) -> int:
        if self.max_size is not None:
            return self.max_size
        return len(self.default) if isinstance(self.default, tuple) else 1

    def describe_value(self, value) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, tuple):
            return ",".join(str(v) for v in value)
        return str(value)

    def plausible_alternatives(self) -> tuple:
        """The values ``simlab robust`` tries instead of the default (coerced, default left out)."""
        if self.alternatives:
            alts = [self.coerce(list(a) if isinstance(a, tuple) else a) for a in self.alternatives]
        elif isinstance(self.default, bool):
            alts = [not self.default]
        elif self.choices:
            alts = list(self.choices)
        else:
            alts = []
        return tuple(dict.fromkeys(a for a in alts if a != self.default))

    def coerce(self, raw, typed: bool = False) -> object:
        """Turn a CLI string or TOML value into a valid value, or raise SimlabError.

        The same rules hold for both sources: a number must be an integer (no float, no boolean),
        a switch true/false (or yes/no, on/off, 1/0 as text), a choice one of its names.
        ``typed`` (a config file's value): the value must also be of its TOML type, as the
        command line's text never is: ``5`` not ``"5"``, ``false`` not ``"no"``, ``[6, 4]`` not ``"6,4"``.
        """
        where = f"parameter {self.name!r}"
        if typed and not self.choices:   # (a choice is a name in quotes from either source)
            words, kind = (("true or false", bool) if isinstance(self.default, bool)
                           else ("a list of integers such as [1, 2]", list) if isinstance(self.default, tuple)
                           else ("an integer", int))
            for value in raw if kind is list and isinstance(raw, list) else [raw]:
                want = int if kind is list else kind
                if not isinstance(value, want) or (want is int and isinstance(value, bool)):
                    raise SimlabError(f"{where}{' entry' if value is not raw else ''} must be "
                                      f"{'an integer' if value is not raw else words}, got {value!r}")
        if self.choices:
            if not isinstance(raw, str) or raw.strip() not in self.choices:
                raise SimlabError(f"{where}: {raw!r} is not one of {', '.join(self.choices)}")
            return raw.strip()
        if isinstance(self.default, bool):
            return boolean(raw, where)
        if isinstance(self.default, tuple):
            if not isinstance(raw, (list, tuple, str)):
                count = f"up to {self.max_size}" if self.max_size is not None else self.size
                raise SimlabError(f"{where}: expected {count} comma-separated integers, got {raw!r}")
            items = raw if isinstance(raw, (list, tuple)) else [s for s in raw.split(",") if s.strip()]
            values = tuple(integer(v, f"{where} entry", self.low, self.high) for v in items)
            if self.max_size is not None and len(values) > self.max_size:
                raise SimlabError(f"{where}: at most {self.max_size} values, got {len(values)}")
            if self.max_size is None and len(values) != self.size:
                raise SimlabError(f"{where}: expected {self.size} values, got {len(values)}")
            return values
        return integer(raw, where, self.low, self.high)

    def pack(self, value) -> list[int]:
        if self.choices:
            return [self.choices.index(value)]
        if isinstance(value, tuple):
            return list(value) + [0] * (self.size - len(value))
        return [int(value)]


# The one switch every game offers for its invariant checker (``StepModel.invariants``): each game's
# parameter table ends with it, and its rules check where a breach would first show.
CHECK_INVARIANTS = Param("check_invariants", False, "check the game's invariants (cards conserved, counts in "
                         "range) as its rules run; a breach stops the game with an error (slow: for tests and "
                         "debugging)", SETUP, "testing aid")


@dataclass(frozen=True)
class Derived:
    """A lookup table the kernels read, worked out from the params' values as they are packed (once a
    configuration, as Pgx computes its tables once at import), never set by a user: what a hot loop
    would otherwise derive from the params at every use. ``compute(values)`` returns ``size`` ints."""

    name: str
    size: int
    compute: Callable[[dict], list[int]]
    meaning: str


@dataclass
class ParamTable:
    """An ordered set of params with their offsets in the packed vector, followed by the tables
    ``derived`` from them."""

    params: tuple[Param, ...]
    derived: tuple[Derived, ...] = ()
    offsets: dict[str, int] = field(init=False)
    size: int = field(init=False)

    def __post_init__(self):
        self.offsets, at = {}, 0
        for p in (*self.params, *self.derived):
            if p.name in self.offsets:
                raise ValueError(f"duplicate parameter {p.name}")
            self.offsets[p.name] = at
            at += p.size
        self.size = at
        self.by_name = {p.name: p for p in self.params}
        for p in self.params:  # a bad default or alternative is a programming error, caught at import
            p.coerce(p.default if not isinstance(p.default, tuple) else list(p.default))
            p.plausible_alternatives()

    def offset_tuple(self):
        """Offsets as a namedtuple (``O.tile_exits``): numba reads it as compile-time constants."""
        return namedtuple("Offsets", list(self.offsets))(**self.offsets)

    def __getitem__(self, name: str) -> Param:
        return self.by_name[name]

    def choice(self, name: str, choice: str) -> int:
        """The packed code of a choice, for use as a compile-time constant in a kernel."""
        return self.by_name[name].choices.index(choice)

    def defaults(self) -> dict[str, object]:
        return {p.name: p.default for p in self.params}

    def resolve(self, overrides: dict[str, object] | None = None, typed: bool = False) -> dict[str, object]:
        """Defaults with ``overrides`` applied and validated (unknown names refused; ``typed``: values
        from a config file, each of its TOML type)."""
        values = self.defaults()
        for name, raw in (overrides or {}).items():
            if name not in self.by_name:
                raise SimlabError(f"unknown parameter {name!r}; known: {', '.join(self.by_name)}")
            values[name] = self.by_name[name].coerce(raw, typed)
        return values

    def pack(self, values: dict[str, object]) -> np.ndarray:
        out = []
        for p in self.params:
            out.extend(p.pack(values[p.name]))
        for d in self.derived:
            table = [int(v) for v in d.compute(values)]
            if len(table) != d.size:
                raise ValueError(f"derived table {d.name}: {len(table)} entries, declared {d.size}")
            out.extend(table)
        return np.asarray(out, dtype=np.int64)

    def changed(self, values: dict[str, object]) -> dict[str, object]:
        return {k: v for k, v in values.items() if v != self.by_name[k].default}


TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")


def integer(raw, what: str, low: int | None = None, high: int | None = None) -> int:
    """An integer from the command line (text) or a config file (a TOML integer), in ``low..high``.

    Floats and booleans are refused rather than rounded or read as 0/1: a value that means
    nothing must not quietly become one that does.
    """
    value = None
    if isinstance(raw, str):
        try:
            value = int(raw.strip().replace("_", ""))
        except ValueError:
            pass
    elif not isinstance(raw, (bool, np.bool_)):
        try:
            value = operator.index(raw)   # int, numpy integers; not floats
        except TypeError:
            pass
    if value is None:
        raise SimlabError(f"{what} must be an integer, got {raw!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = (f"between {low} and {high}" if low is not None and high is not None
                  else f"at least {low}" if low is not None else f"at most {high}")
        raise SimlabError(f"{what} must be {bounds}, got {value}")
    return value


def boolean(raw, what: str) -> bool:
    """A switch: a TOML boolean, or the words true/false, yes/no, on/off, 1/0."""
    if isinstance(raw, (bool, np.bool_)):
        return bool(raw)
    if isinstance(raw, str):
        text = raw.strip().lower()
        if text in TRUE_WORDS:
            return True
        if text in FALSE_WORDS:
            return False
    raise SimlabError(f"{what} must be true or false, got {raw!r}")


def text_list(raw, what: str) -> list[str]:
    """A list of names (TOML array of strings)."""
    if not isinstance(raw, list) or not all(isinstance(v, str) and v.strip() for v in raw):
        raise SimlabError(f"{what} must be a list of names in quotes, got {raw!r}")
    return [v.strip() for v in raw]


def parse_assignments(items: tuple[str, ...] | list[str]) -> dict[str, str]:
    """``["a=1", "b=x,y"]`` -> ``{"a": "1", "b": "x,y"}`` (the CLI's ``--set``)."""
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise SimlabError(f"--set expects name=value, got {item!r}")
        out[name.strip()] = value.strip()
    return out


def load_toml(path: str | Path) -> dict:
    """Read a run config file; a missing or malformed file is a user error."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise SimlabError(f"config file not found: {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise SimlabError(f"config file {path}: {exc}") from None
