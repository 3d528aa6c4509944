"""Tuned parameter sets: a strategy's parameters found by ``simlab tune-strategy``, saved by name.

A game's sets live in one TOML file, ``strategies/tuned/<game>.toml`` in the package (or in the
folder ``$SIMLAB_TUNED_DIR`` names, for sets of your own), one table per set, ``[BASE.SET]``::

    [cautious.tuned]
    params = { cap = 7, per_cube = 1.93 }

    [cautious.tuned.provenance]
    opponents = ["cautious", "collector", "hunter"]
    validation = { verdict = "better", difference = 0.031, lo = 0.017, hi = 0.045 }

The seat ``cautious@tuned`` plays ``cautious`` with those values as its defaults, wherever a
strategy name is accepted (``simlab run -s``, configs, experiments, compare); a seat may still
override one of them (``cautious@tuned:cap=8``). A set that was not better than the default on
fresh deals carries a ``warning``, which ``simlab games`` shows.
"""
from __future__ import annotations

import json
import math
import os
import re
import tomllib
from pathlib import Path

from .errors import SimlabError, make_folder
from .params import NAME
from .registry import origin

ENV = "SIMLAB_TUNED_DIR"
BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def tuned_file(game: str) -> Path:
    """The game's tuned sets: ``tuned/`` beside its strategies module or package (or ``$SIMLAB_TUNED_DIR``)."""
    home = origin("strategies", game) or origin("games", game)
    if home is not None and home.name == "__init__.py":
        home = home.parent
    folder = os.environ.get(ENV) or (home.parent / "tuned" if home else Path("tuned"))
    return Path(folder) / f"{game.replace('-', '_')}.toml"


def tuned_sets(game: str) -> dict[str, dict]:
    """Every saved set of ``game`` as ``{"BASE@SET": {"params": ..., "provenance": ..., "warning"?: ...}}``."""
    path = tuned_file(game)
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        return {}
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SimlabError(f"tuned sets file {path}: {exc}") from None
    sets = {}
    for base, named in data.items():
        for name, record in (named.items() if isinstance(named, dict) else ()):
            if not isinstance(record, dict) or not isinstance(record.get("params"), dict):
                raise SimlabError(f"tuned sets file {path}: [{base}.{name}] needs a params table")
            sets[f"{base}@{name}"] = record
    return sets


def save_tuned(game: str, base: str, name: str, params: dict, provenance: dict, warning: str | None = None) -> Path:
    """Add or replace the set ``BASE@NAME`` in the game's file (the other sets are kept)."""
    if not NAME.fullmatch(name):
        raise SimlabError(f"tuned set name {name!r}: use letters, digits, '_' and '-', starting with a letter")
    path = tuned_file(game)
    with_base: dict[str, dict] = {}
    for key, record in tuned_sets(game).items():
        b, _, n = key.partition("@")
        with_base.setdefault(b, {})[n] = record
    record = {"params": params, "provenance": provenance}
    if warning:
        record["warning"] = warning
    with_base.setdefault(base, {})[name] = record
    make_folder(path.parent, "tuned-sets folder")
    tmp = path.with_suffix(".toml.tmp")
    tmp.write_text(_document(game, with_base))
    tmp.replace(path)
    return path


def _document(game: str, sets: dict[str, dict]) -> str:
    lines = [f"# Tuned parameter sets for {game}, written by `simlab tune-strategy`: play one as BASE@SET,",
             f"# e.g. `simlab run {game} -s BASE@SET,...`. Provenance says how each was found and validated."]
    for base in sorted(sets):
        for name in sorted(sets[base]):
            record = sets[base][name]
            lines += ["", f"[{_key(base)}.{_key(name)}]"]
            if record.get("warning"):
                lines.append(f"warning = {_value(record['warning'])}")
            lines.append(f"params = {_value(record['params'])}")
            if record.get("provenance"):
                lines += ["", f"[{_key(base)}.{_key(name)}.provenance]"]
                lines += [f"{_key(k)} = {_value(v)}" for k, v in record["provenance"].items()]
    return "\n".join(lines) + "\n"


def _key(k: str) -> str:
    return k if BARE_KEY.fullmatch(k) else json.dumps(k)


def _value(v) -> str:
    """A TOML value (the few kinds a record holds); JSON's string escapes are TOML's."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"a tuned set cannot hold {v}")
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} to a tuned set")
