"""What a stored run or playtest was played with, loaded again before anything reads it.

A run records the user strategy files (``config.strategy_files``, each file's content hash in its
code identity) and the plug-ins (``provenance.plugins``: folder -> content hash) that played it.
``simlab report``, ``simlab trace --record`` and ``simlab play --load`` call :func:`load_recorded`
first, so they know the run's strategies without the user naming the files again; a file or
plug-in that is missing, or changed since the run, is refused in one line naming it, since a report
or replay with other code would describe other play. (An experiment reusing a stored run asks for
the same config, files included, and its code check refuses an edited file unless the user accepts
the change, so it needs no call here.)
"""
from __future__ import annotations

from pathlib import Path

from .errors import SimlabError
from .registry import DECLARATION, plugin_digest, plugin_folder, use_plugin
from .strategy import file_digest, load_strategy_file


def plugins_of(game: str) -> dict[str, str]:
    """The plug-in folders that play ``game`` (its game module, its strategies), each with its digest."""
    folders = {plugin_folder("games", game), plugin_folder("strategies", game)} - {None}
    return {folder: plugin_digest(folder) for folder in sorted(folders)}


def load_recorded(config: dict, code: dict | None, plugins: dict | None, source: str) -> None:
    """Load the plug-ins and strategy files ``source`` (e.g. "the run in runs/x") was played with;
    refuse, naming it, one that is missing or changed since."""
    for folder, digest in (plugins or {}).items():
        if not (Path(folder) / DECLARATION).is_file():
            raise SimlabError(f"{source} was played with the plug-in in {folder}, which is missing "
                              f"(no {DECLARATION} there)")
        if plugin_digest(folder) != digest:
            raise SimlabError(f"the plug-in in {folder} changed since {source} was played: put back the "
                              "version it was played with, or play the run again")
        use_plugin(folder)
    recorded = (code or {}).get("strategy_files", {})
    for path in config.get("strategy_files", ()):
        if not Path(path).is_file():
            raise SimlabError(f"{source} was played with the strategy file {path}, which is missing")
        if path in recorded and file_digest(path) != recorded[path]:
            raise SimlabError(f"the strategy file {path} changed since {source} was played: put back the "
                              "version it was played with, or play the run again")
        load_strategy_file(path)
