"""The run engine: configuration -> chunks -> executor -> Parquet parts with provenance.

A run is split into chunks of consecutive game ids. Each game's random stream depends only on
(root seed, game id), so the rows are identical whatever the chunk size, the number of workers
or the executor. Finished chunks are written as their own Parquet part next to a manifest, so an
interrupted run loses nothing and ``resume`` completes it.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from .errors import SimlabError
from .executors import make_executor
from .game import get_game
from .kernel import FIRST_GAME_COLUMN, FIXED, MAX_SEATS, ROTATE, play_chunk
from .params import ASSUMPTION
from .results import MANIFEST, build_frame, git_commit, part_paths, provenance, read_manifest, write_part
from .rng import root_key
from .summary import Summary
from .strategy import MAX_STRATEGY_PARAMS, SeatSpec, get_strategy, load_strategy_file

FORMAT = 1


@dataclass(frozen=True)
class RunConfig:
    """Everything that determines a run's rows (and nothing that does not, like worker count)."""

    game: str
    players: int
    seats: tuple[str, ...]
    games: int
    seed: int = 1
    params: dict = field(default_factory=dict)   # overrides of the game's defaults
    rotate: bool = False
    strategy_files: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        d = asdict(self)
        d["seats"] = list(self.seats)
        d["strategy_files"] = list(self.strategy_files)
        d["params"] = {k: list(v) if isinstance(v, tuple) else v for k, v in self.params.items()}
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "RunConfig":
        d = dict(d)
        d["seats"] = tuple(d["seats"])
        d["strategy_files"] = tuple(d.get("strategy_files", ()))
        d["params"] = {k: tuple(v) if isinstance(v, list) else v for k, v in d.get("params", {}).items()}
        return cls(**d)


class Prepared:
    """A config resolved into kernel arguments, once per process (workers cache it)."""

    def __init__(self, config: RunConfig):
        for path in config.strategy_files:
            load_strategy_file(path)
        self.config = config
        self.spec = get_game(config.game)
        if config.games < 1:
            raise SimlabError("--games must be at least 1")
        values = self.spec.params.resolve(config.params)
        self.spec.validate(config.players, values)
        self.values = values
        if len(config.seats) != config.players:
            raise SimlabError(f"{len(config.seats)} seats given for {config.players} players "
                              f"(give one strategy per seat, e.g. --seats {','.join(self.spec.default_seats[:config.players])})")
        self.cfg = self.spec.params.pack(values)
        self.seats = [SeatSpec.parse(s) for s in config.seats]
        self.strategies = [get_strategy(self.spec.name, s.name) for s in self.seats]
        self.labels = [s.label() for s in self.seats]
        self.seat_params = np.zeros((MAX_SEATS, MAX_STRATEGY_PARAMS), dtype=np.float64)
        for i, (seat, strat) in enumerate(zip(self.seats, self.strategies)):
            self.seat_params[i] = strat.vector(dict(seat.values))
        fns = [s.decide for s in self.strategies]
        self.fns = tuple(fns + [fns[0]] * (MAX_SEATS - len(fns)))
        self.key = root_key(config.seed)
        self.n_columns = FIRST_GAME_COLUMN + len(self.spec.columns)

    def play(self, first_game: int, n_games: int, log_capacity: int = 0):
        """Play a block of games: returns the raw ``int32[games, seats, columns]`` and the event log."""
        out = np.zeros((n_games, self.config.players, self.n_columns), dtype=np.int32)
        log = np.zeros((log_capacity, 8), dtype=np.int32)
        n_events = play_chunk(self.spec.play_game, self.key, first_game, self.cfg, self.config.players,
                              ROTATE if self.config.rotate else FIXED,
                              len(self.spec.chance_streams), self.fns, self.seat_params, out, log)
        return out, log[:n_events]

    def frame(self, first_game: int, n_games: int):
        out, _ = self.play(first_game, n_games)
        return build_frame(self.spec, out, first_game, self.labels)

    def provenance(self) -> dict:
        strategies = {label: {"strategy": st.name, "params": {p.name: float(v) for p, v in
                                                              zip(st.params, self.seat_params[i])}}
                      for i, (label, st) in enumerate(zip(self.labels, self.strategies))}
        assumptions = {p.name: p.describe_value(self.values[p.name]) for p in self.spec.params.params
                       if p.status == ASSUMPTION}
        return provenance(self.config.to_dict(), strategies, assumptions)


_PREPARED: dict[str, Prepared] = {}


def prepared(config_dict: dict) -> Prepared:
    key = json.dumps(config_dict, sort_keys=True)
    if key not in _PREPARED:
        _PREPARED[key] = Prepared(RunConfig.from_dict(config_dict))
    return _PREPARED[key]


def run_chunk(config_dict: dict, first_game: int, n_games: int):
    """Play one chunk in whatever process runs it (top-level so processes and Dask can ship it)."""
    return prepared(config_dict).frame(first_game, n_games)


def warm(config_dict: dict) -> None:
    """Load (or compile) every jitted function a run needs, once per worker."""
    prepared(config_dict).play(0, 1)


def fingerprint(config: RunConfig, chunk_size: int) -> str:
    blob = json.dumps({"config": config.to_dict(), "chunk_size": chunk_size, "format": FORMAT}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def default_chunk_size(games: int, workers: int) -> int:
    """About four chunks per worker, between 1,000 and 20,000 games (a few seconds each)."""
    return int(min(20_000, max(1_000, math.ceil(games / (4 * max(1, workers))))))


def chunk_bounds(games: int, chunk_size: int) -> list[tuple[int, int]]:
    return [(start, min(chunk_size, games - start)) for start in range(0, games, chunk_size)]


@dataclass
class RunResult:
    run_dir: Path
    summary: Summary
    chunks_run: int
    chunks_total: int


def run(config: RunConfig, out: str | Path, workers: int | None = None, chunk_size: int | None = None,
        executor: str = "processes", scheduler: str | None = None, resume: bool = False,
        overwrite: bool = False, progress: bool = True) -> RunResult:
    """Play a run into the directory ``out`` (parts + manifest), resuming if asked."""
    cfg_dict = config.to_dict()
    prep = prepared(cfg_dict)  # validates everything before any work or file is touched
    workers = workers or os.cpu_count() or 1
    run_dir = Path(out)
    if resume:
        manifest = read_manifest(run_dir)
        chunk_size = manifest["chunk_size"]
        if manifest.get("fingerprint") != fingerprint(config, chunk_size):
            raise SimlabError(f"{run_dir} was written by a different configuration; refusing to mix runs "
                              f"(its config: {json.dumps(manifest.get('config'))})")
    else:
        if run_dir.exists() and any(run_dir.iterdir()):
            if not overwrite:
                raise SimlabError(f"{run_dir} already exists; pass --resume to complete it or --overwrite to replace it")
            if not (run_dir / MANIFEST).exists():
                raise SimlabError(f"{run_dir} is not a simlab run directory; refusing to overwrite it")
            shutil.rmtree(run_dir)
        chunk_size = chunk_size or default_chunk_size(config.games, workers)
        run_dir.mkdir(parents=True, exist_ok=True)
        manifest = {"format": FORMAT, "fingerprint": fingerprint(config, chunk_size), "config": cfg_dict,
                    "chunk_size": chunk_size, "chunks": len(chunk_bounds(config.games, chunk_size)),
                    "done": [], "provenance": prep.provenance()}
        _write_manifest(run_dir, manifest)
    bounds = chunk_bounds(config.games, chunk_size)
    done = {int(p.stem.split("-")[1]) for p in part_paths(run_dir)} & set(range(len(bounds)))
    todo = [i for i in range(len(bounds)) if i not in done]
    if executor == "processes" and min(workers, len(todo)) <= 1:
        executor = "serial"  # one chunk or one worker: spawning a process would only add start-up time
    workers = max(1, min(workers, len(todo)))
    summary = Summary()
    meta = manifest["provenance"]
    bar = _progress(config.games, sum(bounds[i][1] for i in done), progress, config.game)
    n_run = 0
    try:
        with make_executor(executor, workers, scheduler, cfg_dict) as ex:
            tasks = [(i, (cfg_dict, bounds[i][0], bounds[i][1])) for i in todo]
            for index, frame in ex.map_unordered(run_chunk, tasks):
                write_part(frame, run_dir / f"part-{index:06d}.parquet", meta)
                manifest["done"] = sorted(set(manifest["done"]) | {index})
                _write_manifest(run_dir, manifest)
                summary.add(frame, prep.spec.length_column)
                n_run += 1
                if bar is not None:
                    bar.update(bounds[index][1])
    finally:
        if bar is not None:
            bar.close()
    if done:  # the summary covers the whole run, resumed chunks included
        summary = summarise(run_dir, prep.spec.length_column)
    return RunResult(run_dir, summary, n_run, len(bounds))


def summarise(run_dir: Path, length_column: str) -> Summary:
    from .results import iter_parts

    summary = Summary()
    for frame in iter_parts(run_dir):
        summary.add(frame, length_column)
    return summary


def extend_run(run_dir: Path, config: RunConfig) -> None:
    """Let a finished or partial run directory grow to ``config.games`` games (same everything else).

    Existing parts stay (their game ids and rows do not depend on the total); a partial last
    chunk is dropped because its size changes; the manifest gets the new config and fingerprint,
    and the provenance records each batch (games, code version, time), so
    ``runner.run(..., resume=True)`` then plays only the new game ids.
    """
    manifest = read_manifest(run_dir)
    old = RunConfig.from_dict(manifest["config"])
    if replace(old, games=config.games) != config or config.games < old.games:
        raise SimlabError(f"{run_dir}: can only extend the same configuration to more games")
    chunk = manifest["chunk_size"]
    done = set(manifest["done"])
    old_bounds = chunk_bounds(old.games, chunk)
    if old.games % chunk:
        last = len(old_bounds) - 1
        (run_dir / f"part-{last:06d}.parquet").unlink(missing_ok=True)
        done.discard(last)
    prov = manifest["provenance"]
    batches = prov.setdefault("batches", [{"games": old.games, "git_commit": prov.get("git_commit"),
                                           "created": prov.get("created")}])
    batches.append({"games": config.games, "git_commit": git_commit(),
                    "created": datetime.now(timezone.utc).isoformat(timespec="seconds")})
    prov["config"] = config.to_dict()
    manifest.update(config=config.to_dict(), fingerprint=fingerprint(config, chunk),
                    chunks=len(chunk_bounds(config.games, chunk)), done=sorted(done), provenance=prov)
    _write_manifest(run_dir, manifest)


def _write_manifest(run_dir: Path, manifest: dict) -> None:
    tmp = run_dir / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=1))
    tmp.replace(run_dir / MANIFEST)


def _progress(total: int, initial: int, enabled: bool, label: str):
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit=" games", unit_scale=True, desc=label, dynamic_ncols=True)
