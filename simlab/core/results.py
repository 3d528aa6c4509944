"""Result frames: one row per game and seat, with the game's own columns and full provenance.

Common columns: ``game`` (global game id), ``seat`` (0 = start player / first seat),
``players``, ``strategy`` (the seat spec label), ``score``, ``rank`` (1 = best, ties share the
rank; eliminated players rank last), ``win`` (rank 1 and not eliminated, shared wins included) and
``shared_win`` (a win tied with others).
"""
from __future__ import annotations

import json
import subprocess
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .errors import SimlabError
from .play import COL_SCORE, COL_SLOT, COL_TIEBREAK, FIRST_GAME_COLUMN, TIE_OFFSET, WIN_SCALE
from .rundir import ChunkSet, n_chunks, part_path, part_problem, read_manifest
from .version import VERSION


def ranks(score: np.ndarray, tiebreak: np.ndarray, eliminated: np.ndarray | None = None) -> np.ndarray:
    """Competition ranks per game (rows) from score, then tie-break; equal keys share a rank.

    Eliminated players rank below every player still in the game, whatever their score.
    """
    key = score.astype(np.int64) * WIN_SCALE + (tiebreak.astype(np.int64) + TIE_OFFSET)
    if eliminated is not None:
        key = key - (eliminated != 0) * (1 << 40)
    return 1 + (key[:, None, :] > key[:, :, None]).sum(axis=2)


def standings(spec, out: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank and win (``[games, seats]``) from the kernel's block: an eliminated player never wins."""
    eliminated = None
    if spec.eliminated_column:  # e.g. Loot Island: out of the game, so never a winner
        eliminated = out[:, :, FIRST_GAME_COLUMN + spec.column_names().index(spec.eliminated_column)]
    rank = ranks(out[:, :, COL_SCORE], out[:, :, COL_TIEBREAK], eliminated)
    win = rank == 1 if eliminated is None else (rank == 1) & (eliminated == 0)
    return rank, win


def build_frame(spec, out: np.ndarray, first_game: int, labels: list[str], duplicate: bool = False) -> pd.DataFrame:
    """Turn the kernel's ``int32[games, seats, columns]`` block into the result frame.

    A duplicate run's frame has a ``deal`` column (game // players): the games that share all chance."""
    n_games, n_players, _ = out.shape
    rank, win = standings(spec, out)
    shared = win & (win.sum(axis=1, keepdims=True) > 1)
    categories = sorted(set(labels))
    code_of_slot = np.array([categories.index(label) for label in labels], dtype=np.int16)
    slot = out[:, :, COL_SLOT].ravel()
    data = {
        "game": np.repeat(np.arange(first_game, first_game + n_games, dtype=np.int64), n_players),
        "seat": np.tile(np.arange(n_players, dtype=np.int8), n_games),
        "players": np.full(n_games * n_players, n_players, dtype=np.int8),
        "strategy": pd.Categorical.from_codes(code_of_slot[slot], categories=categories),
        "score": out[:, :, COL_SCORE].ravel().astype(np.int16),
        "rank": rank.ravel().astype(np.int8),
        "win": win.ravel(),
        "shared_win": shared.ravel(),
    }
    if duplicate:
        data["deal"] = data["game"] // n_players
    for i, col in enumerate(spec.columns):
        data[col.name] = out[:, :, FIRST_GAME_COLUMN + i].ravel().astype(col.dtype)
    return pd.DataFrame(data)


@lru_cache(maxsize=1)
def git_commit() -> str | None:
    try:
        here = Path(__file__).resolve().parent
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=5)
        if out.returncode != 0:
            return None
        # generated reports are outputs, not code: they must not mark the code that wrote them dirty
        dirty = subprocess.run(["git", "status", "--porcelain", "--", ":(top,exclude)reports"], cwd=here,
                               capture_output=True, text=True, timeout=5).stdout.strip()
        return out.stdout.strip() + ("+dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return None


def provenance(config: dict, strategies: dict, assumptions: dict, plugins: dict | None = None) -> dict:
    """Where a run's rows come from; ``plugins`` (folder -> content hash) where a plug-in plays it."""
    import numba

    return {
        "simlab_version": VERSION,
        "git_commit": git_commit(),
        "numba_version": numba.__version__,
        "numpy_version": np.__version__,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "config": config,
        "strategies": strategies,
        "assumptions_in_force": assumptions,
        **({"plugins": plugins} if plugins else {}),
    }


def write_part(frame: pd.DataFrame, path: Path, meta: dict[bytes, dict]) -> None:
    """Write one chunk atomically (temporary file, then rename): a crash never leaves half a part.

    ``meta`` goes into the file's metadata as JSON per key (provenance, and what the part holds).
    """
    table = pa.Table.from_pandas(frame, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                           **{k: json.dumps(v).encode() for k, v in meta.items()}})
    tmp = path.with_name("." + path.name + ".tmp")
    pq.write_table(table, tmp, compression="zstd")
    tmp.replace(path)


def _read_part(run_dir: Path, manifest: dict, index: int, columns: list[str] | None) -> pd.DataFrame:
    """One part the manifest lists, refused in one line when it is missing, damaged or foreign."""
    path = part_path(run_dir, index)
    try:
        table = pq.read_table(path, columns=columns)
        problem = part_problem(manifest, index, table.schema.metadata, table.num_rows)
    except FileNotFoundError:
        problem = "is missing"
    except Exception as exc:   # pyarrow raises several types for truncated or foreign files
        problem = f"cannot be read ({type(exc).__name__})"
    if problem:
        raise SimlabError(f"{path.name} in {run_dir} {problem}; `simlab run ... --out {run_dir} --resume` "
                          "plays it again")
    return table.to_pandas()


def iter_parts(run_dir: str | Path, columns: list[str] | None = None):
    """Yield the run's finished chunks one frame at a time (memory stays flat for huge runs).

    Only the parts the manifest lists are read, each checked against it.
    """
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    for index in ChunkSet(manifest["done"]):
        yield _read_part(run_dir, manifest, index, columns)


def load(run_dir: str | Path, columns: list[str] | None = None, games: int | None = None) -> pd.DataFrame:
    """Read a whole run as one frame, sorted by game and seat; provenance in ``frame.attrs``.

    ``games``: only game ids below it, read from the parts that hold them: exactly the rows a run
    of that many games writes (a game's rows do not depend on the run's total), so a stored larger
    run serves a smaller question without being played again.
    """
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    done = ChunkSet(manifest["done"])
    wanted = manifest["chunks"] if games is None else min(manifest["chunks"], n_chunks(games, manifest["chunk_size"]))
    parts = [i for i in done if i < wanted]
    if not parts:
        raise SimlabError(f"{run_dir} holds no finished chunks yet")
    frame = pd.concat([_read_part(run_dir, manifest, i, columns) for i in parts], ignore_index=True)
    if games is not None and "game" in frame:
        frame = frame[frame["game"] < games].reset_index(drop=True)
    if "game" in frame and "seat" in frame:
        frame = frame.sort_values(["game", "seat"], kind="stable").reset_index(drop=True)
    if "strategy" in frame:
        frame["strategy"] = frame["strategy"].astype("category")
    frame.attrs["simlab"] = manifest["provenance"]
    frame.attrs["complete"] = len(parts) == wanted
    return frame
