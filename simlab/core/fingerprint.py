"""What makes a run's rows, as hashes kept apart: the configuration and the code.

A run directory records both. Resuming, extending or reusing it with anything else would put
rows of two runs, or of two versions of the code, into one frame; the refusal says in words
what changed ("the config differs: seed 1 -> 2", "the strategy file my.py changed", "simlab's
karuba code changed (abc -> def)").

The code is the source of everything that plays a game of this kind: ``simlab/core/*.py``, the
game's package and its declared strategies module (:mod:`.registry`), read where installed, plus the
content of each user strategy file as it was loaded, the values of each tuned parameter set its
seats play (``BASE@SET``; a search player plays out with every saved set of the game), and, when a
seat is a search player, the package of each declared players module (the search: ``simlab/search``).
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from .game import get_game
from .registry import declared, origin, source_files
from .version import VERSION

PACKAGE = Path(__file__).resolve().parent.parent   # the installed simlab package
TUNED_PREFIX = "tuned set "   # code identity entries for the saved parameter sets a run's seats use
SEARCH_CODE = "search code"   # the code identity entry of simlab/search, for runs with a search seat


def config_fingerprint(config: dict, chunk_size: int, fmt: int) -> str:
    blob = json.dumps({"config": config, "chunk_size": chunk_size, "format": fmt}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def config_change(old: dict, new: dict) -> str:
    """``"seed 1 -> 2; games 3000 -> 4000"``: the fields that differ, in words."""
    diffs = [f"{key} {json.dumps(old.get(key))} -> {json.dumps(new.get(key))}"
             for key in sorted(set(old) | set(new)) if old.get(key) != new.get(key)]
    return "; ".join(diffs)


def _source_files(game: str) -> list[Path]:
    name = get_game(game).name
    files = sorted((PACKAGE / "core").glob("*.py")) + source_files("games", name)
    return files + [f for f in source_files("strategies", name) if f not in files]


@lru_cache(maxsize=None)
def game_code(game: str) -> str:
    """Hash of the installed sources that play ``game`` (names relative to the package, and contents)."""
    h = hashlib.sha256()
    root = PACKAGE.parent
    for path in _source_files(game):
        h.update(str(path.relative_to(root) if path.is_relative_to(root) else path.name).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


@lru_cache(maxsize=None)
def search_code() -> str:
    """Hash of the sources of the players declared for every game (``simlab/search``): a run with a
    search seat plays what they decide, so a change there is a change of its code."""
    h = hashlib.sha256()
    for name in declared("players"):      # the whole package of each players module (the search is four)
        for path in sorted(origin("players", name).parent.glob("*.py")):
            h.update(path.name.encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:12]


def code_identity(game: str, strategy_files: dict[str, str]) -> dict:
    """The code that makes a run's rows: simlab's version and game code, each user strategy file."""
    ident = {"simlab_version": VERSION, "game_code": game_code(game),
             "strategy_files": dict(sorted(strategy_files.items()))}
    ident["id"] = hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:16]
    return ident


def code_change(old: dict, new: dict, game: str) -> str:
    """What differs between two code identities, in words (empty when they are the same code)."""
    if old.get("id") == new.get("id"):
        return ""
    changes = []
    if old.get("simlab_version") != new.get("simlab_version"):
        changes.append(f"simlab {old.get('simlab_version')} -> {new.get('simlab_version')}")
    if old.get("game_code") != new.get("game_code"):
        changes.append(f"simlab's {game} code changed ({old.get('game_code')} -> {new.get('game_code')})")
    before, after = old.get("strategy_files", {}), new.get("strategy_files", {})
    for path in sorted(set(before) | set(after)):
        if before.get(path) != after.get(path):
            what = "changed" if path in before and path in after else "is new" if path in after else "is gone"
            changes.append(f"the {path} {what}" if path.startswith(TUNED_PREFIX)
                           else f"the search players' code (simlab/search) {what}" if path == SEARCH_CODE
                           else f"the strategy file {Path(path).name} {what}")
    return "; ".join(changes) or "the code changed"
