"""A run directory, and what in it may be trusted.

Layout::

    DIR/_manifest.json          config, fingerprints, chunk size, chunks done (as ranges), provenance
    DIR/part-000000.parquet     chunk 0: games 0 .. chunk_size - 1, one row per game and seat
    DIR/part-000001.parquet     chunk 1 ...

Nothing is trusted by its file name. A part counts as done only when it opens, its metadata
names this run (the config fingerprint and a code id the run accepts), its own chunk index and
game range, and it holds one row per game and seat. Readers open only the parts the manifest
lists, so a stray ``part-000001 copy.parquet`` is never read; ``resume`` rebuilds that list from
the parts themselves (a kill between writing a part and the manifest costs nothing) and replays
a part that is damaged or foreign. ``--overwrite`` deletes only a valid run's own files.
"""
from __future__ import annotations

import json
import os
import re
from bisect import bisect_right
from pathlib import Path

import pyarrow.parquet as pq

from .errors import SimlabError
from .fingerprint import config_fingerprint

FORMAT = 2          # 2: done as ranges, code identity, part metadata
MANIFEST = "_manifest.json"
PART_KEY = b"simlab_part"
PART_NAME = re.compile(r"part-(\d{6,})\.parquet")
OWN_TEMPORARY = re.compile(r"(\.part-\d{6,}\.parquet|_manifest\.json)\.tmp")
FIELDS = {"format": int, "fingerprint": str, "config": dict, "chunk_size": int, "chunks": int, "done": list,
          "code": dict, "code_ids": list, "provenance": dict}


def part_path(run_dir: Path, index: int) -> Path:
    return Path(run_dir) / f"part-{index:06d}.parquet"


def bounds(games: int, chunk_size: int, index: int) -> tuple[int, int]:
    """(first game, games) of chunk ``index``: computed, never listed, so a huge run plans nothing."""
    first = index * chunk_size
    return first, min(chunk_size, games - first)


def n_chunks(games: int, chunk_size: int) -> int:
    return -(-games // chunk_size)


class ChunkSet:
    """Chunk indices as sorted disjoint ``[start, stop)`` ranges: a few numbers for any run length."""

    def __init__(self, ranges=()):
        self.ranges: list[list[int]] = []
        for start, stop in sorted(ranges):
            if self.ranges and start <= self.ranges[-1][1]:
                self.ranges[-1][1] = max(self.ranges[-1][1], stop)
            else:
                self.ranges.append([start, stop])

    @classmethod
    def of(cls, indices) -> "ChunkSet":
        out = cls()
        for i in sorted(indices):
            out.add(i)
        return out

    def add(self, i: int) -> None:
        k = bisect_right(self.ranges, [i, float("inf")]) - 1     # the last range starting at or before i
        if k >= 0 and self.ranges[k][0] <= i < self.ranges[k][1]:
            return
        joins_left = k >= 0 and self.ranges[k][1] == i
        joins_right = k + 1 < len(self.ranges) and self.ranges[k + 1][0] == i + 1
        if joins_left and joins_right:
            self.ranges[k][1] = self.ranges.pop(k + 1)[1]
        elif joins_left:
            self.ranges[k][1] = i + 1
        elif joins_right:
            self.ranges[k + 1][0] = i
        else:
            self.ranges.insert(k + 1, [i, i + 1])

    def discard(self, i: int) -> None:
        if i in self:
            k = bisect_right(self.ranges, [i, float("inf")]) - 1
            start, stop = self.ranges.pop(k)
            self.ranges[k:k] = [r for r in ([start, i], [i + 1, stop]) if r[0] < r[1]]

    def __contains__(self, i: int) -> bool:
        k = bisect_right(self.ranges, [i, float("inf")]) - 1
        return k >= 0 and self.ranges[k][0] <= i < self.ranges[k][1]

    def __len__(self) -> int:
        return sum(stop - start for start, stop in self.ranges)

    def __iter__(self):
        for start, stop in self.ranges:
            yield from range(start, stop)

    def missing(self, total: int):
        """The indices below ``total`` not in the set, lazily."""
        at = 0
        for start, stop in self.ranges + [[total, total]]:
            yield from range(at, min(start, total))
            at = max(at, stop)


def read_manifest(run_dir: str | Path) -> dict:
    """The manifest, checked: a missing, malformed or incomplete one is a one-line error."""
    run_dir = Path(run_dir)
    path = run_dir / MANIFEST
    if run_dir.exists() and not run_dir.is_dir():
        raise SimlabError(f"{run_dir} is a file, not a run directory")
    try:
        manifest = json.loads(path.read_text())
    except FileNotFoundError:
        raise SimlabError(f"{run_dir} is not a simlab run directory (no {MANIFEST})") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise SimlabError(f"{path} is corrupt (not valid JSON); the run cannot be resumed or read") from None
    except OSError as exc:
        raise SimlabError(f"cannot read {path}: {exc.strerror}") from None
    if not isinstance(manifest, dict):
        raise SimlabError(f"{path} is corrupt (not a JSON object)")
    if manifest.get("format") != FORMAT and isinstance(manifest.get("format"), int):
        raise SimlabError(f"{run_dir} was written by another simlab (run format {manifest['format']}, this one "
                          f"reads {FORMAT}); play it again with --overwrite")
    for name, kind in FIELDS.items():
        if not isinstance(manifest.get(name), kind) or isinstance(manifest.get(name), bool):
            raise SimlabError(f"{path} is damaged: {name!r} is missing or not a {kind.__name__}")
    done = manifest["done"]
    if not all(isinstance(r, list) and len(r) == 2 and all(type(v) is int for v in r) and 0 <= r[0] < r[1]
               <= manifest["chunks"] for r in done):
        raise SimlabError(f"{path} is damaged: 'done' is not a list of chunk ranges")
    if manifest["chunk_size"] < 1 or manifest["chunks"] < 1:
        raise SimlabError(f"{path} is damaged: chunk_size and chunks must be positive")
    return manifest


def write_manifest(run_dir: Path, manifest: dict) -> None:
    """Atomically (temporary file, then rename): a kill leaves the old manifest or the new one."""
    tmp = Path(run_dir) / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=1))
    tmp.replace(Path(run_dir) / MANIFEST)


def part_meta(manifest: dict, index: int) -> dict:
    """What a part says about itself: whose it is (run and code) and which games it holds.

    "run" fingerprints the config without its total of games: an extended run keeps its parts,
    whose rows do not depend on the total (a partial last chunk differs in its game count).
    """
    first, games = bounds(manifest["config"]["games"], manifest["chunk_size"], index)
    series = config_fingerprint(dict(manifest["config"], games=None), manifest["chunk_size"], FORMAT)
    return {"run": series, "code": manifest["code"]["id"], "chunk": index, "first_game": first, "games": games}


def part_problem(manifest: dict, index: int, metadata: dict | None, rows: int) -> str:
    """Why a part's metadata and row count do not make it chunk ``index`` of this run ("" if they do)."""
    if metadata is None or PART_KEY not in metadata:
        return "carries no simlab part metadata"
    try:
        meta = json.loads(metadata[PART_KEY])
    except (json.JSONDecodeError, UnicodeDecodeError):
        return "carries unreadable metadata"
    want = part_meta(manifest, index)
    if meta.get("run") != want["run"]:
        return "belongs to another run"
    if meta.get("code") not in manifest["code_ids"]:
        return "was played by code this run does not accept"
    if any(meta.get(k) != want[k] for k in ("chunk", "first_game", "games")):
        return f"holds chunk {meta.get('chunk')}, not {index}"
    want_rows = want["games"] * manifest["config"]["players"]
    return "" if rows == want_rows else f"holds {rows} rows, not {want_rows}"


def check_part(run_dir: Path, manifest: dict, index: int) -> str:
    """Why part ``index`` cannot be trusted ("" when it can), reading only its footer."""
    path = part_path(run_dir, index)
    try:
        footer = pq.read_metadata(path)
    except FileNotFoundError:
        return "is missing"
    except Exception as exc:   # pyarrow raises several types for truncated or foreign files
        return f"cannot be read ({type(exc).__name__})"
    return part_problem(manifest, index, footer.metadata, footer.num_rows)


def scan(run_dir: Path, manifest: dict) -> tuple[ChunkSet, list[str]]:
    """The chunks whose parts can be trusted, and a note for each part named like one that cannot."""
    done, damaged = [], []
    with os.scandir(run_dir) as entries:
        for entry in entries:
            match = PART_NAME.fullmatch(entry.name)
            if not match:
                continue
            index = int(match.group(1))
            problem = check_part(run_dir, manifest, index) if index < manifest["chunks"] else "is beyond the run"
            if problem:
                damaged.append(f"{entry.name} {problem}")
            else:
                done.append(index)
    return ChunkSet.of(done), sorted(damaged)


def clear(run_dir: Path) -> None:
    """Delete a run's own files (manifest, parts, temporaries) for ``--overwrite``; refuse anything
    that is not a valid simlab run directory. Other files in it are left alone."""
    read_manifest(run_dir)
    for entry in os.scandir(run_dir):
        if entry.is_file(follow_symlinks=False) and (PART_NAME.fullmatch(entry.name) or OWN_TEMPORARY.fullmatch(entry.name)):
            os.unlink(entry.path)
    (Path(run_dir) / MANIFEST).unlink()


def remove_temporaries(run_dir: Path) -> None:
    """Half-written parts or manifests left by a kill mid-write (they were never renamed into place)."""
    for entry in os.scandir(run_dir):
        if OWN_TEMPORARY.fullmatch(entry.name):
            os.unlink(entry.path)
