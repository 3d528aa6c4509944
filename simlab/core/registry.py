"""Where games, their strategies, the players for every game and the experiments come from: one
registry, one way of declaring them.

Each is declared as a name and the module that holds it, under one of the groups below, by the
package that brings it: simlab's own in its ``pyproject.toml`` as entry points, any installed
plug-in the same way, and a plug-in that is not installed by a ``simlab-plugin.toml`` beside its
code, whose folder ``$SIMLAB_PLUGINS`` names (several separated by ``os.pathsep``)::

    [games]                       # name -> the module whose GAME is its GameSpec
    pig = "pig"
    [strategies]                  # game name -> the module whose @strategy decorators register them
    pig = "pig.strategies"

``players`` are modules with a ``register_for(game: GameSpec)`` function, called for every game
with a step model once its own strategies are loaded (the search players: ``simlab.search``).
Nothing is imported to list what is declared; the core names no package above it.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
import tomllib
from functools import lru_cache
from importlib.metadata import entry_points
from pathlib import Path

from .errors import SimlabError

GROUPS = {"games": "simlab.games", "strategies": "simlab.strategies", "players": "simlab.players",
          "experiments": "simlab.experiments"}
ENV = "SIMLAB_PLUGINS"
DECLARATION = "simlab-plugin.toml"


@lru_cache(maxsize=None)
def _declared(plugins: str) -> dict[str, dict[str, str]]:
    return _read_declarations(plugins)[0]


@lru_cache(maxsize=None)
def _read_declarations(plugins: str) -> tuple[dict[str, dict[str, str]], dict[tuple[str, str], str]]:
    """What is declared, and for each ``(kind, name)`` a plug-in declares, the plug-in's folder."""
    found: dict[str, dict[str, str]] = {kind: {} for kind in GROUPS}
    folders: dict[tuple[str, str], str] = {}
    for kind, group in GROUPS.items():
        for ep in entry_points(group=group):
            found[kind][ep.name] = ep.value
    for folder in filter(None, plugins.split(os.pathsep)):
        path = Path(folder).resolve() / DECLARATION
        try:
            with open(path, "rb") as fh:
                data = tomllib.load(fh)
        except FileNotFoundError:
            raise SimlabError(f"{ENV} names {folder}, which has no {DECLARATION}") from None
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise SimlabError(f"plug-in declaration {path}: {exc}") from None
        unknown = set(data) - set(GROUPS)
        if unknown:
            raise SimlabError(f"plug-in declaration {path}: unknown table(s) {', '.join(sorted(unknown))} "
                              f"(known: {', '.join(GROUPS)})")
        root = str(path.parent.parent)      # the folder that holds the plug-in's package
        if root not in sys.path:
            sys.path.append(root)
        for kind, table in data.items():
            for name, module in table.items():
                if name in found[kind] and found[kind][name] != module:
                    raise SimlabError(f"plug-in declaration {path}: {kind} {name!r} is already declared "
                                      f"by {found[kind][name]}")
                found[kind][name] = module
                folders[(kind, name)] = str(path.parent)
    return found, folders


def declared(kind: str) -> dict[str, str]:
    """Name -> module for every declared item of ``kind`` (``games``, ``strategies``, ``players``,
    ``experiments``), without importing any of them."""
    return dict(sorted(_declared(os.environ.get(ENV, ""))[kind].items()))


def load(kind: str, name: str):
    """The module declared for ``name`` under ``kind``, imported."""
    module = declared(kind)[name]
    return sys.modules.get(module) or importlib.import_module(module)


def module_name(kind: str, name: str) -> str | None:
    return declared(kind).get(name)


def origin(kind: str, name: str) -> Path | None:
    """The file (a package's ``__init__.py``) that holds the declared module, found without importing
    it; ``None`` where nothing is declared."""
    module = module_name(kind, name)
    if module is None:
        return None
    _declared(os.environ.get(ENV, ""))      # a plug-in's folder on the path first
    spec = importlib.util.find_spec(module)
    return Path(spec.origin) if spec and spec.origin else None


def source_files(kind: str, name: str) -> list[Path]:
    """Every source file of the declared module: a package's whole folder, or the one file."""
    path = origin(kind, name)
    if path is None:
        return []
    return sorted(path.parent.rglob("*.py")) if path.name == "__init__.py" else [path]


def plugin_folder(kind: str, name: str) -> str | None:
    """The folder of the ``simlab-plugin.toml`` that declares ``name`` under ``kind`` (``None``: it
    comes with an installed package)."""
    return _read_declarations(os.environ.get(ENV, ""))[1].get((kind, name))


def plugin_digest(folder: str | Path) -> str:
    """The content of a plug-in folder (its declaration and every Python file): what a run played."""
    h = hashlib.sha256()
    root = Path(folder)
    for path in sorted([root / DECLARATION, *root.rglob("*.py")]):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes() if path.is_file() else b"")
    return h.hexdigest()[:16]


def use_plugin(folder: str) -> None:
    """Declare a plug-in folder for this process and the workers it starts, as ``$SIMLAB_PLUGINS``
    would (a stored run names the plug-ins it was played with)."""
    folders = [f for f in os.environ.get(ENV, "").split(os.pathsep) if f]
    if not any(Path(f).resolve() == Path(folder).resolve() for f in folders):
        os.environ[ENV] = os.pathsep.join([*folders, folder])
