"""A finished playtest as a run directory of one game: ``simlab report`` reads it like any run, and
its ``playtest.json`` (the config and the people's choices) lets ``simlab trace --record`` replay it.

The frame has a run's layout, one row per seat, a person's seat with strategy ``human``; the
provenance says which seats were people and what the bots were.
"""
from __future__ import annotations

from datetime import datetime
from pathlib import Path

from simlab.core.errors import SimlabError, refuse_link
from simlab.core.fingerprint import config_fingerprint
from simlab.core.results import write_part
from simlab.core.rundir import FORMAT, PART_KEY, part_meta, part_path, write_manifest

from simlab.core.strategy import HUMAN

from .session import RECORD_FILE, Session

RECORDS = Path("playtests")


def default_record(game: str) -> Path:
    """``playtests/GAME-YYYYMMDD-HHMMSS``: one folder per playtest, never one already there."""
    base = RECORDS / f"{game}-{datetime.now():%Y%m%d-%H%M%S}"
    path, k = base, 1
    while path.exists():
        k += 1
        path = base.with_name(f"{base.name}-{k}")
    return path


def check_record(folder: Path) -> None:
    """Refuse a folder that holds anything but an unfinished playtest: a record never overwrites."""
    refuse_link(folder, f"--record {folder}")
    if folder.exists() and not folder.is_dir():
        raise SimlabError(f"--record {folder} is a file, not a folder")
    if folder.is_dir() and any(p.name != RECORD_FILE for p in folder.iterdir()):
        raise SimlabError(f"--record {folder} already holds files: give a new folder (a record never overwrites)")


def write_record(session: Session, folder: Path) -> Path:
    """Write the finished game into ``folder``; returns the path of its ``playtest.json``."""
    check_record(folder)
    folder.mkdir(parents=True, exist_ok=True)
    config = session.config.to_dict()
    provenance = session.prep.provenance()
    provenance["config"] = config
    provenance["strategies"] = {label: entry for label, entry in provenance["strategies"].items()
                                if label in session.labels}
    provenance["strategies"][HUMAN] = {"strategy": HUMAN, "params": {}}
    provenance["playtest"] = {"people": [s + 1 for s in session.humans], "choices": len(session.choices)}
    manifest = {"format": FORMAT, "fingerprint": config_fingerprint(config, 1, FORMAT), "config": config,
                "chunk_size": 1, "chunks": 1, "done": [], "code": session.prep.code,
                "code_ids": [session.prep.code["id"]], "provenance": provenance}
    write_part(session.frame(), part_path(folder, 0), {b"simlab": provenance, PART_KEY: part_meta(manifest, 0)})
    manifest["done"] = [[0, 1]]
    kept = session.keep(folder)
    write_manifest(folder, manifest)
    return kept
