"""Where games play: one placement, the pools behind it, and the executor a run uses.

A :class:`Placement` is what a user says with ``--executor``, ``--workers``, ``--scheduler`` and
``--dask-local`` (every command that plays games reads them through :func:`placement`), and it
opens the matching pool: simlab's own :class:`~simlab.core.pool.WorkerPool`, a :class:`DaskPool`,
or none (serial). A pool is warm and shared: a study opens one and every run of the study plays
on it. Both pools answer ``map_unordered(fn, tasks)``, reading ``(key, args)`` pairs lazily and
yielding ``(key, fn(*args))`` as tasks finish, and ``stop()``/``resume()`` (an experiment's run
queue stops a failed or interrupted study after the chunks in flight).

* ``serial``: in this process, for debugging, tests and one-chunk runs;
* ``processes``: simlab's worker pool: a dead worker is replaced and only its chunk replayed;
* ``dask``: a Dask distributed cluster, an existing one (``scheduler="tcp://host:8786"``) or a
  local one started for the command. Each chunk is a future whose key is unique to its run (two
  clients running the same config on a shared cluster never take each other's results), run
  again if its worker dies (the scheduler's ``allowed-failures``, 3 by default) or if its result is
  lost on the way to the client (gathered with a bounded wait, then submitted again), with a bounded number
  in flight over the whole pool, so that several runs of a study share the cluster and keep it
  busy (:attr:`DaskPool.runs_at_once`).

A pool connects (or starts its workers' cluster) when it is opened, before a command writes any file.
"""
from __future__ import annotations

import os
import threading
import uuid
from contextlib import nullcontext
from dataclasses import dataclass

from .errors import SimlabError
from .params import integer
from .pool import WorkerPool

DASK_IN_FLIGHT = 4      # futures per Dask worker: enough to keep it busy while the client writes results
GATHER_TIMEOUT = 120.0  # seconds a finished chunk's result may take to reach the client before it is played again
GATHER_TRIES = 3        # a chunk whose result is lost more often than this fails the run, named in one line
RUNS_AT_ONCE = 64       # most runs of a study playing at once on a cluster (each one a client thread)
EXECUTORS = ("processes", "serial", "dask")


@dataclass(frozen=True)
class Placement:
    """Where a command's games play (``executor``), on how many workers and which Dask scheduler."""

    executor: str = "processes"
    workers: int | None = None        # local workers, or a local Dask cluster's size (None: every core)
    scheduler: str | None = None      # an existing Dask cluster's address

    def open(self):
        """The warm pool of this placement, as a context manager (closed on exit): a
        :class:`WorkerPool` (started lazily), a :class:`DaskPool` (connected now), or ``None``."""
        if self.executor == "processes":
            return WorkerPool(self.workers or cpu_count())
        if self.executor == "dask":
            return DaskPool(self.workers, self.scheduler)
        return nullcontext()


def placement(executor: str | None = None, scheduler: str | None = None, dask_local: int | None = None,
              workers: int | None = None) -> Placement:
    """The placement the options ask for, refusing options that contradict each other (one line)."""
    if executor is not None and executor not in EXECUTORS:
        raise SimlabError(f"unknown executor {executor!r}; known: {', '.join(EXECUTORS)}")
    if workers is not None:
        integer(workers, "--workers", 1)
    if dask_local is not None:
        integer(dask_local, "--dask-local", 1)
    if scheduler is not None and dask_local is not None:
        raise SimlabError("--scheduler and --dask-local contradict each other: use a cluster or start one")
    if scheduler is not None or dask_local is not None:
        if executor not in (None, "dask"):
            raise SimlabError(f"--executor {executor} contradicts --{'scheduler' if scheduler else 'dask-local'}, "
                              "which runs on Dask")
        if workers is not None and dask_local is not None:
            raise SimlabError("--workers and --dask-local contradict each other: --dask-local sets the workers")
        return Placement("dask", dask_local or workers, scheduler)
    return Placement(executor or "processes", workers)


def cpu_count() -> int:
    return os.cpu_count() or 1


class DaskPool:
    """A Dask client, and the local cluster it started, shared by every run of a command.

    ``in_flight`` futures at most over all the runs that use it at once (``DASK_IN_FLIGHT`` per
    worker), so a study's runs share the cluster fairly and the client never holds more results
    than it can write. Leaving a ``map_unordered`` early (an error, ``stop``, an interrupt)
    cancels that run's futures still on the cluster; closing the pool cancels everything.
    """

    def __init__(self, workers: int | None = None, scheduler: str | None = None,
                 gather_timeout: float | None = None):
        self.gather_timeout = GATHER_TIMEOUT if gather_timeout is None else gather_timeout
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise SimlabError("the dask executor needs dask.distributed: pip install 'simlab[dask]'") from None
        self.cluster = None
        self._quiet = _QuietDask()   # Dask's own log lines (a worker restarted, a future cancelled) are not the user's
        try:
            if scheduler:
                try:
                    self.client = Client(scheduler, timeout="20s")
                except (OSError, ValueError, TypeError, TimeoutError) as exc:
                    raise SimlabError(f"cannot reach the Dask scheduler at {scheduler}: "
                                      f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
            else:
                self.cluster = LocalCluster(n_workers=workers or cpu_count(), threads_per_worker=1, processes=True,
                                            dashboard_address=None)
                self.client = Client(self.cluster)
        except BaseException:
            if self.cluster is not None:
                self.cluster.close()
            self._quiet.restore()
            raise
        self.size = max(1, len(self.client.scheduler_info()["workers"]))
        self.in_flight = DASK_IN_FLIGHT * self.size
        self.runs_at_once = min(RUNS_AT_ONCE, max(2, self.size))
        self._slots = threading.Semaphore(self.in_flight)
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._flying: set = set()     # every future of every map in progress (``stop`` cancels them)

    def warm(self, fn, *args) -> None:
        """Run ``fn(*args)`` on every worker now (compile or load a run's kernels once per worker)."""
        self.client.run(fn, *args)

    def map_unordered(self, fn, tasks):
        """Yield ``(key, fn(*args))`` for each ``(key, args)`` of ``tasks`` (read lazily) as they finish.

        Dask tells when a chunk is done; its result is then gathered here with a bounded wait
        (``gather_timeout``). A result lost with its worker after the chunk finished, which Dask's
        own gathering can wait for forever, is given up and the chunk played again under a new
        key (``GATHER_TRIES`` times at most, then the run fails naming the chunk)."""
        from dask.distributed import as_completed

        source = iter(tasks)
        prefix = f"simlab-{uuid.uuid4().hex}-"
        keys: dict = {}        # future -> (key, args), every future of this map not yet answered
        lost: dict = {}        # key -> results lost so far
        done = as_completed()  # futures as their state settles; no result is gathered there
        waiting = [next(source, None)]      # the next task, taken before a slot is (a finished source takes none)

        def launch(key, args) -> None:
            again = f"-again{lost[key]}" if lost.get(key) else ""
            fut = self.client.submit(fn, *args, key=f"{prefix}{key}{again}", pure=False)   # (an error is not
            with self._lock:                                                                # retried: it would recur)
                self._flying.add(fut)
            keys[fut] = (key, args)
            done.add(fut)

        def submit() -> bool:
            """Submit the next task if a slot is free (wait for one only when this run has none in flight)."""
            if waiting[0] is None or self._stop.is_set() or not self._slots.acquire(blocking=not keys):
                return False
            launch(*waiting[0])
            waiting[0] = next(source, None)
            return True

        def forget(fut) -> None:
            del keys[fut]
            with self._lock:
                self._flying.discard(fut)

        try:
            if self._stop.is_set():
                raise SimlabError("stopped: the experiment failed or was interrupted")
            while submit():
                pass
            while keys:
                fut = next(done)
                if fut not in keys:     # a future given up after its result was lost (played again)
                    continue
                if self._stop.is_set() or fut.status == "cancelled":   # (the finally below forgets the rest)
                    raise SimlabError("stopped: the experiment failed or was interrupted")
                key, args = keys[fut]
                if fut.status == "error":
                    raise self._task_error(fut, key)
                try:
                    result = self._gather(fut)
                except Exception as exc:   # the result is gone with its worker, or never arrives
                    if self._stop.is_set():
                        raise SimlabError("stopped: the experiment failed or was interrupted") from None
                    if fut.status == "error":   # the chunk itself failed meanwhile
                        raise self._task_error(fut, key) from None
                    lost[key] = lost.get(key, 0) + 1
                    forget(fut)
                    self._cancel([fut])
                    if lost[key] > GATHER_TRIES:
                        why = type(exc).__name__ + (f": {str(exc).splitlines()[0]}" if str(exc) else "")
                        raise SimlabError(f"chunk {key}: its result was lost between the Dask workers and this "
                                          f"client {lost[key]} times (last: {why}); giving up") from None
                    launch(key, args)    # played again in the slot it held
                    continue
                forget(fut)
                self._slots.release()
                fut.release()
                while submit():
                    pass
                yield key, result
        finally:
            if keys:          # stale work: never let it hold the cluster for a run that is over
                self._cancel(list(keys))
                with self._lock:
                    self._flying.difference_update(keys)
                for _ in keys:
                    self._slots.release()

    def _gather(self, fut):
        """A finished future's result, waited for at most ``gather_timeout`` seconds."""
        return fut.result(timeout=self.gather_timeout)

    def _task_error(self, fut, key) -> BaseException:
        """The exception a chunk's future holds: a chunk given up on, or the chunk's own error."""
        from distributed import KilledWorker

        error = fut.exception(timeout=self.gather_timeout)
        if isinstance(error, KilledWorker):
            return SimlabError(f"chunk {key}: every Dask worker that ran it died (the scheduler's allowed "
                               "failures are spent); giving up")
        return error

    def _cancel(self, futures) -> None:
        try:
            self.client.cancel(futures)
        except Exception:   # (a scheduler that lost the key has forgotten it already)
            pass

    def stop(self) -> None:
        """Cancel every future in flight now (a chunk of search play can take minutes) and make every
        ``map_unordered`` in progress raise, and any later one at once, until :meth:`resume`."""
        self._stop.set()
        with self._lock:
            flying = list(self._flying)
        if flying:
            self.client.cancel(flying)

    def resume(self) -> None:
        self._stop.clear()

    def close(self) -> None:
        import logging

        gathers = logging.getLogger("tornado.application")   # results still being gathered from closing
        level = gathers.level                                # workers (after a Ctrl-C) fail noisily there
        gathers.setLevel(logging.CRITICAL)
        try:
            self.client.close()
            if self.cluster is not None:
                self.cluster.close()
        finally:
            gathers.setLevel(level)
            self._quiet.restore()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class _QuietDask:
    """Dask logs errors only, here, and nothing short of a crash in a local cluster's worker
    processes (started with the environment this sets), while a pool is open. What a user needs
    to know (a task's error, a chunk given up) simlab says in one line; Dask's own lines (a worker
    restarted, futures cancelled on a Ctrl-C, a worker's heartbeat failing as the cluster closes
    under it) would bury it in tracebacks."""

    LEVEL = "critical"

    def __init__(self):
        import logging

        self.logger = logging.getLogger("distributed")
        self.level, self.env = self.logger.level, os.environ.get("DASK_LOGGING__DISTRIBUTED")
        self.logger.setLevel(logging.ERROR)
        os.environ["DASK_LOGGING__DISTRIBUTED"] = self.LEVEL

    def restore(self) -> None:
        self.logger.setLevel(self.level)
        if self.env is None:
            os.environ.pop("DASK_LOGGING__DISTRIBUTED", None)
        else:
            os.environ["DASK_LOGGING__DISTRIBUTED"] = self.env


class _Serial:
    def map_unordered(self, fn, tasks):
        for key, args in tasks:
            yield key, fn(*args)


class _Using:
    """A run's executor: a pool it uses, closed on exit only when the run opened it."""

    def __init__(self, pool, owned: bool):
        self.pool, self.owned = pool, owned

    def map_unordered(self, fn, tasks):
        return self.pool.map_unordered(fn, tasks)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.owned:
            self.pool.__exit__(*exc)
        return False


def make_executor(name: str, workers: int, scheduler: str | None, config: dict, pool=None, warm=None):
    """The executor of one run: the caller's ``pool`` where given (left open), else one of its own
    for ``name``; ``warm(config)``, where given, prepares every Dask worker before its chunks."""
    if name not in EXECUTORS:
        raise SimlabError(f"unknown executor {name!r}; known: {', '.join(EXECUTORS)}")
    if pool is not None:
        return _Using(pool, owned=False)
    if name == "serial":
        return _Using(_Serial(), owned=False)
    own = Placement(name, workers, scheduler).open()
    try:
        if warm is not None and isinstance(own, DaskPool):
            own.warm(warm, config)
    except BaseException:
        own.close()
        raise
    return _Using(own, owned=True)
