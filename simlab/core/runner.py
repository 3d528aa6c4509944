"""The run engine: configuration -> chunks -> executor -> Parquet parts with provenance.

A run is split into chunks of consecutive game ids. Each game's random stream depends only on
(root seed, game id), so the rows are identical whatever the chunk size, the number of workers
or the executor. Chunks are planned lazily (a billion-game run starts at once, in flat memory);
each finished chunk is written as its own Parquet part next to a manifest
(:mod:`simlab.core.rundir`), so an interrupted run loses nothing and ``resume`` completes it, but
only with the same configuration and the same code (:mod:`simlab.core.fingerprint`).
"""
from __future__ import annotations

import json
import math
import os
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from .errors import SimlabError, make_folder, refuse_link
from .executors import EXECUTORS, make_executor
from .fingerprint import (SEARCH_CODE, TUNED_PREFIX, code_change, code_identity, config_change, config_fingerprint,
                          search_code)
from .game import get_game
from .params import ASSUMPTION, integer
from .play import DUPLICATE, EVENT_WIDTH, FIRST_GAME_COLUMN, FIXED, MAX_SEATS, ROTATE, IllegalChoice, play_chunk
from .recorded import plugins_of
from .results import build_frame, git_commit, provenance, write_part
from .rng import root_key
from .rundir import (FORMAT, MANIFEST, PART_KEY, PART_NAME, ChunkSet, bounds, clear, n_chunks, part_meta, part_path,
                     read_manifest, remove_temporaries, scan, write_manifest)
from .strategy import (BLIND_COLUMN, MAX_STRATEGY_PARAMS, SEAT_PARAMS_WIDTH, SeatSpec, get_strategy, load_strategy_file,
                       strategy_hash)
from .summary import Summary
from .tuned_sets import tuned_sets

MAX_GAMES = 2**62   # game ids are int64 in the kernels
TRACE_ROOM = 1 << 18   # events a block of traced games starts with (8 MiB); a game that does not fit doubles it
NO_ENDS = np.zeros(0, dtype=np.int64)   # play_chunk's ends when only game 0 logs
PREPARED_CACHE = 16  # prepared configs a process keeps (a warm worker serves many runs)


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
    duplicate: bool = False   # every deal played in all seat rotations in a row (implies rotation)

    @property
    def rotated(self) -> bool:
        """Do the strategies move through the seats (so seat and strategy effects separate)?"""
        return self.rotate or self.duplicate

    def to_dict(self) -> dict:
        d = asdict(self)
        if not self.duplicate:   # runs made before duplicate play existed keep their fingerprint
            del d["duplicate"]
        d["seats"] = list(self.seats)
        d["strategy_files"] = list(self.strategy_files)
        d["params"] = {k: list(v) if isinstance(v, tuple) else v for k, v in self.params.items()}
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "RunConfig":
        try:
            d = dict(d)
            d["seats"] = tuple(d["seats"])
            d["strategy_files"] = tuple(d.get("strategy_files", ()))
            d["params"] = {k: tuple(v) if isinstance(v, list) else v for k, v in d.get("params", {}).items()}
            return cls(**d)
        except (TypeError, KeyError, AttributeError, ValueError) as exc:  # e.g. a hand-edited manifest
            raise SimlabError(f"not a valid run config ({type(exc).__name__}: {exc})") from None


class Prepared:
    """A config resolved into kernel arguments, once per process (workers cache it)."""

    def __init__(self, config: RunConfig):
        self.strategy_hashes = {path: load_strategy_file(path) for path in config.strategy_files}
        self.config = config
        self.spec = get_game(config.game)
        for name, low, high in (("players", None, None), ("games", 1, MAX_GAMES), ("seed", 0, None)):
            value = getattr(config, name)
            if isinstance(value, str):
                raise SimlabError(f"{name} must be an integer, got {value!r}")
            integer(value, name, low, high)
        for name in ("rotate", "duplicate"):
            if not isinstance(getattr(config, name), bool):
                raise SimlabError(f"{name} must be true or false, got {getattr(config, name)!r}")
        values = self.spec.params.resolve(config.params)
        self.spec.validate(config.players, values)
        self.values = values
        if len(config.seats) != config.players:
            raise SimlabError(f"{len(config.seats)} seats given for {config.players} players "
                              f"(give one strategy per seat, e.g. --seats {','.join(self.spec.default_seats[:config.players])})")
        if config.duplicate and config.games % config.players:
            raise SimlabError(f"duplicate play needs a multiple of {config.players} games (each deal in all "
                              f"{config.players} seat rotations), got {config.games}")
        self.cfg = self.spec.params.pack(values)
        self.seating = DUPLICATE if config.duplicate else ROTATE if config.rotate else FIXED
        self.seats = [SeatSpec.parse(s) for s in config.seats]
        self.strategies = [get_strategy(self.spec.name, s.name) for s in self.seats]
        for st in self.strategies:   # a saved set edited or replaced plays differently: part of the code
            used = tuned_sets(self.spec.name) if st.search else [st.name] if "@" in st.name else []
            for name in used:   # (a search player plays out with every saved set: simlab.search.players)
                self.strategy_hashes[f"{TUNED_PREFIX}{name}"] = strategy_hash(get_strategy(self.spec.name, name))
        if any(st.search for st in self.strategies):   # what a search seat decides is simlab/search's code
            self.strategy_hashes[SEARCH_CODE] = search_code()
        self.labels = [s.label() for s in self.seats]
        self.seat_params = np.zeros((MAX_SEATS, SEAT_PARAMS_WIDTH), dtype=np.float64)
        for i, (seat, strat) in enumerate(zip(self.seats, self.strategies)):
            self.seat_params[i, :MAX_STRATEGY_PARAMS] = strat.vector(dict(seat.values))
            self.seat_params[i, BLIND_COLUMN] = strat.sight
        fns = [s.decide for s in self.strategies]
        self.fns = tuple(fns + [fns[0]] * (MAX_SEATS - len(fns)))
        self.key = root_key(config.seed)
        self.n_columns = FIRST_GAME_COLUMN + len(self.spec.columns)

    @property
    def code(self) -> dict:
        """The identity of the code that makes this config's rows (see :mod:`simlab.core.fingerprint`)."""
        return code_identity(self.spec.name, self.strategy_hashes)

    def play(self, first_game: int, n_games: int, log_capacity: int = 0):
        """Play a block of games: returns the raw ``int32[games, seats, columns]`` and the event log."""
        out = np.zeros((n_games, self.config.players, self.n_columns), dtype=np.int32)
        log = np.zeros((log_capacity, EVENT_WIDTH), dtype=np.int32)
        n_events = self._play_chunk(first_game, out, log)
        return out, log[:n_events]

    def traces(self, first_game: int, n_games: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Play a block of games, every one with its event log, in one kernel call where the logs
        fit: the raw ``int32[games, seats, columns]``, the games' events one after another, and
        ``ends[g]``, the event count through game ``g``. Each game's events are those that
        ``play(g, 1, capacity)`` logs for it alone, with room enough."""
        out = np.zeros((n_games, self.config.players, self.n_columns), dtype=np.int32)
        ends = np.zeros(n_games, dtype=np.int64)
        logs, room, done = [], TRACE_ROOM, 0
        while done < n_games:
            log = np.zeros((room, EVENT_WIDTH), dtype=np.int32)
            block = ends[done:]
            self._play_chunk(first_game + done, out[done:], log, block)
            whole = int(np.searchsorted(block, room))   # the games before the log filled up
            if whole == 0:
                room *= 2
                continue
            offset = ends[done - 1] if done else 0
            logs.append(log[:block[whole - 1]])
            block += offset
            done += whole
        return out, np.concatenate(logs), ends

    def _play_chunk(self, first_game, out, log, ends=NO_ENDS) -> int:
        """The kernel on this config (``ends``: see :func:`~simlab.core.play.play_chunk`); a
        strategy's illegal choice becomes a one-line error naming the game."""
        try:
            return self._kernel(first_game, out, log, ends)
        except IllegalChoice:
            raise SimlabError(self._illegal_choice(first_game, len(out))) from None

    def _kernel(self, first_game, out, log, ends) -> int:
        return play_chunk(self.spec.play_game, self.key, first_game, self.cfg, self.config.players,
                          self.seating, len(self.spec.chance_streams), self.fns,
                          self.seat_params, out, log, ends)

    def _illegal_choice(self, first_game: int, n_games: int) -> str:
        """Replay the block game by game to name the strategy, the game and the decision."""
        one = np.zeros((1, self.config.players, self.n_columns), dtype=np.int32)
        no_log = np.zeros((0, EVENT_WIDTH), dtype=np.int32)
        for game in range(first_game, first_game + n_games):
            try:
                self._kernel(game, one, no_log, NO_ENDS)
            except IllegalChoice as exc:
                seat, slot, n_legal, index = exc.args
                return (f"strategy {self.labels[slot]!r} returned index {index} for a decision with {n_legal} "
                        f"legal choices (indices 0..{n_legal - 1}): game {game}, seat {seat}, seed {self.config.seed}")
        return (f"a strategy returned an index outside its legal choices in games {first_game}.."
                f"{first_game + n_games - 1}, but not when they were replayed one by one (does it keep state?)")

    def frame(self, first_game: int, n_games: int):
        out, _ = self.play(first_game, n_games)
        return build_frame(self.spec, out, first_game, self.labels, self.config.duplicate)

    def provenance(self) -> dict:
        strategies = {label: {"strategy": st.name, "params": {p.name: float(v) for p, v in
                                                              zip(st.params, self.seat_params[i])}}
                      for i, (label, st) in enumerate(zip(self.labels, self.strategies))}
        assumptions = {p.name: p.describe_value(self.values[p.name]) for p in self.spec.params.params
                       if p.status == ASSUMPTION}
        return provenance(self.config.to_dict(), strategies, assumptions, plugins_of(self.spec.name))


_PREPARED: dict[str, Prepared] = {}


def prepared(config_dict: dict) -> Prepared:
    """The process's :class:`Prepared` for a config, kept for the next chunk or run of the same config
    (and the same strategy file contents: an edited file is loaded again)."""
    hashes = [load_strategy_file(path) for path in config_dict.get("strategy_files", ())]
    key = json.dumps([config_dict, hashes], sort_keys=True)
    prep = _PREPARED.get(key)
    if prep is None:
        prep = Prepared(RunConfig.from_dict(config_dict))
        # an experiment's run queue prepares in a thread of its own: each step below is atomic, and a
        # race costs at most an entry more or less, never an error (a lock starved the queue's thread)
        while len(_PREPARED) >= PREPARED_CACHE:
            try:
                _PREPARED.pop(next(iter(_PREPARED)), None)
            except (StopIteration, RuntimeError):   # emptied, or changed under the iterator
                break
        _PREPARED[key] = prep
    return prep


def run_chunk(config_dict: dict, first_game: int, n_games: int, code: dict):
    """Play one chunk in whatever process runs it (top-level so processes and Dask can ship it).

    ``code`` is the run's code identity: a worker whose code differs (a strategy file edited during
    the run, a Dask worker with another simlab) refuses rather than mix codes in one run.
    """
    prep = prepared(config_dict)
    if prep.code["id"] != code["id"]:
        raise SimlabError(f"a worker runs other code than the run started with ({code_change(code, prep.code, prep.spec.name)}); "
                          "give every worker the same simlab and strategy files, and leave them unchanged during a run")
    return prep.frame(first_game, n_games)


def warm(config_dict: dict) -> None:
    """Load (or compile) every jitted function a run needs, once per worker."""
    prepared(config_dict).play(0, 1)


def fingerprint(config: RunConfig, chunk_size: int) -> str:
    """The run's configuration fingerprint: what a resume must match (the code is checked apart)."""
    return config_fingerprint(config.to_dict(), chunk_size, FORMAT)


SEARCH_CHUNK = 50   # fewest games in a chunk of a run with a search seat (tens of ms to seconds a game)


def default_chunk_size(games: int, workers: int, search: bool = False) -> int:
    """About four chunks per worker, between 2,000 and 20,000 games (a few seconds at most each):
    every chunk costs the parent a Parquet write and a manifest update, as long as playing 1,000
    games of a fast game, so a small run is not cut finer than one chunk per worker needs. A run
    with a search seat plays a game in tens of milliseconds to seconds: its chunks go down to
    ``SEARCH_CHUNK`` games, so a strong recheck of a few hundred games spreads over the workers
    (in one chunk it would play on one worker however many there are)."""
    return int(min(20_000, max(SEARCH_CHUNK if search else 2_000, math.ceil(games / (4 * max(1, workers))))))


@dataclass
class RunResult:
    run_dir: Path
    summary: Summary | None     # None when the run was asked not to tally one
    chunks_run: int
    chunks_total: int
    replayed: list[str] = field(default_factory=list)   # damaged or foreign parts found and played again


def run(config: RunConfig, out: str | Path, workers: int | None = None, chunk_size: int | None = None,
        executor: str = "processes", scheduler: str | None = None, resume: bool = False,
        overwrite: bool = False, progress: bool = True, pool=None, accept_code_change: bool = False,
        on_start=None, tally: bool = True) -> RunResult:
    """Play a run into the directory ``out`` (parts + manifest).

    ``resume``: complete the run in ``out`` (or start it when ``out`` is empty or absent); it must
    have the same config and code, unless ``accept_code_change``, which the provenance records.
    ``overwrite``: replace a valid run directory's own files. ``pool``: a warm pool the caller
    owns and closes (a :class:`~simlab.core.pool.WorkerPool` or a
    :class:`~simlab.core.executors.DaskPool`), shared by many runs. ``on_start(chunks_done, chunks_total)`` is called once the run is
    checked and its executor is up, before the first chunk plays. ``tally``: keep the summary the
    CLI prints (an experiment, which reads the frames, saves the parent that work per chunk).
    """
    cfg_dict = config.to_dict()
    prep = prepared(cfg_dict)  # validates everything before any work or file is touched
    if executor not in EXECUTORS:
        raise SimlabError(f"unknown executor {executor!r}; known: {', '.join(EXECUTORS)}")
    workers = integer(workers, "workers", 1) if workers is not None else pool.size if pool else os.cpu_count() or 1
    run_dir = Path(out)
    refuse_link(run_dir, f"the run directory {run_dir}")
    if run_dir.exists() and not run_dir.is_dir():
        raise SimlabError(f"{run_dir} is a file, not a run directory")
    occupied = run_dir.is_dir() and any(run_dir.iterdir())
    replayed: list[str] = []
    if resume and occupied:
        manifest, replayed = reopen(run_dir, prep, accept_code_change)
    else:
        if occupied and not overwrite:
            raise SimlabError(f"{run_dir} already exists; pass --resume to complete it or --overwrite to replace it")
        if occupied:
            read_manifest(run_dir)   # only a valid run directory is overwritten; checked before anything starts
        chunk_size = integer(chunk_size, "chunk size", 1) if chunk_size is not None else \
            default_chunk_size(config.games, workers, search=any(st.search for st in prep.strategies))
        manifest = {"format": FORMAT, "fingerprint": fingerprint(config, chunk_size), "config": cfg_dict,
                    "chunk_size": chunk_size, "chunks": n_chunks(config.games, chunk_size), "done": [],
                    "code": prep.code, "code_ids": [prep.code["id"]], "provenance": prep.provenance()}
    chunk_size, total = manifest["chunk_size"], manifest["chunks"]
    done = ChunkSet(manifest["done"])
    resumed = len(done) > 0
    todo = total - len(done)
    if executor == "processes" and pool is None and min(workers, todo) <= 1:
        executor = "serial"  # one chunk or one worker: spawning a process would only add start-up time
    tasks = ((i, (cfg_dict, *bounds(config.games, chunk_size, i), prep.code)) for i in done.missing(total))
    summary = Summary() if tally else None
    bar = None
    n_run = 0
    fresh, created, wrote = not (resume and occupied), not run_dir.exists(), False
    try:
        with make_executor(executor, max(1, min(workers, todo)), scheduler, cfg_dict, pool, warm) as ex:
            if fresh:   # the executor is up (a Dask cluster reached): now write files
                if occupied:
                    clear(run_dir)
                make_folder(run_dir, "run directory")
                write_manifest(run_dir, manifest)
                wrote = True
            if on_start is not None:
                on_start(len(done), total)
            bar = _progress(config.games, sum(bounds(config.games, chunk_size, i)[1] for i in done), progress,
                            config.game)
            for index, frame in ex.map_unordered(run_chunk, tasks):
                meta = {b"simlab": manifest["provenance"], PART_KEY: part_meta(manifest, index)}
                write_part(frame, part_path(run_dir, index), meta)
                done.add(index)
                manifest["done"] = done.ranges
                write_manifest(run_dir, manifest)
                if tally:
                    summary.add(frame, prep.spec.length_column)
                n_run += 1
                if bar is not None:
                    bar.update(bounds(config.games, chunk_size, index)[1])
    except BaseException:
        # nothing played (no part written: an interrupt can fall between a part and its count):
        # leave no manifest-only directory to block a retry
        if wrote and n_run == 0 and not any(PART_NAME.fullmatch(p.name) for p in run_dir.iterdir()):
            remove_temporaries(run_dir)
            (run_dir / MANIFEST).unlink(missing_ok=True)
            if created and run_dir.is_dir() and not any(run_dir.iterdir()):
                run_dir.rmdir()
        raise
    finally:
        if bar is not None:
            bar.close()
    if resumed and tally:  # the summary covers the whole run, resumed chunks included
        summary = summarise(run_dir, prep.spec.length_column)
    return RunResult(run_dir, summary, n_run, total, replayed)


def reopen(run_dir: Path, prep: Prepared, accept_code_change: bool = False) -> tuple[dict, list[str]]:
    """The manifest of a run to complete, checked against ``prep`` and repaired from its parts.

    The config must match; the code too, unless accepted (recorded in the provenance). "Done" is
    what the parts prove, whatever the manifest said; parts that cannot be trusted are listed
    (they are played again, replacing the file).
    """
    manifest = read_manifest(run_dir)
    if manifest["fingerprint"] != fingerprint(prep.config, manifest["chunk_size"]):
        change = config_change(manifest["config"], prep.config.to_dict()) or "its chunking differs"
        raise SimlabError(f"{run_dir} was written by a different configuration (the config differs: {change}); "
                          "refusing to mix runs")
    check_code(run_dir, manifest, prep, accept_code_change)
    remove_temporaries(run_dir)
    done, damaged = scan(run_dir, manifest)
    manifest["done"] = done.ranges
    write_manifest(run_dir, manifest)
    return manifest, damaged


def check_code(run_dir: Path, manifest: dict, prep: Prepared, accept: bool) -> None:
    """Refuse a run played by other code, or accept it and record that in its provenance batches."""
    change = code_change(manifest["code"], prep.code, prep.spec.name)
    if not change:
        return
    if not accept:
        raise SimlabError(f"{run_dir} was played by other code: {change}; pass --accept-code-change to continue it "
                          "anyway (recorded in its provenance) or --overwrite to play it again")
    manifest["code"] = prep.code
    manifest["code_ids"] = sorted(set(manifest["code_ids"]) | {prep.code["id"]})
    _batches(manifest).append(_batch(manifest["config"]["games"], prep.code["id"], accepted_code_change=change))


def _batch(games: int, code_id: str, **note) -> dict:
    return {"games": games, "git_commit": git_commit(), "code": code_id,
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"), **note}


def _batches(manifest: dict) -> list:
    """The provenance's batches, starting with the run's first one."""
    prov = manifest["provenance"]
    return prov.setdefault("batches", [{"games": manifest["config"]["games"], "git_commit": prov.get("git_commit"),
                                        "code": manifest["code_ids"][0], "created": prov.get("created")}])


def summarise(run_dir: Path, length_column: str) -> Summary:
    from .results import iter_parts

    summary = Summary()
    for frame in iter_parts(run_dir):
        summary.add(frame, length_column)
    return summary


def extend_run(run_dir: Path, config: RunConfig, accept_code_change: bool = False) -> None:
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
    prep = prepared(config.to_dict())
    check_code(run_dir, manifest, prep, accept_code_change)
    chunk = manifest["chunk_size"]
    done = ChunkSet(manifest["done"])
    if old.games % chunk:
        last = n_chunks(old.games, chunk) - 1
        part_path(run_dir, last).unlink(missing_ok=True)
        done.discard(last)
    _batches(manifest).append(_batch(config.games, prep.code["id"]))
    manifest["provenance"]["config"] = config.to_dict()
    manifest.update(config=config.to_dict(), fingerprint=fingerprint(config, chunk),
                    chunks=n_chunks(config.games, chunk), done=done.ranges)
    write_manifest(run_dir, manifest)


def _progress(total: int, initial: int, enabled: bool, label: str):
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit=" games", unit_scale=True, desc=label, dynamic_ncols=True)
