"""Executors behind one interface: ``map_unordered(fn, tasks)`` reads ``(key, args)`` pairs lazily
and yields ``(key, fn(*args))`` as tasks finish.

* ``serial``: in this process, for debugging, tests and one-chunk runs;
* ``processes``: simlab's own worker pool (:mod:`simlab.core.pool`): a dead worker is replaced and
  only its chunk replayed; a pool passed in by the caller is used and left open;
* ``dask``: a Dask distributed cluster, an existing one (``scheduler="tcp://host:8786"``) or a
  local one started for the run; each chunk is a future whose key is unique to this run (so two
  clients running the same config on a shared cluster never take each other's results), retried
  if its worker dies, with a bounded number in flight.

An executor connects (or starts its workers) when it is created, before the run writes any file.
"""
from __future__ import annotations

import uuid

from .errors import SimlabError
from .pool import RETRIES, WorkerPool

DASK_IN_FLIGHT = 4  # futures per Dask worker: enough to keep it busy, few enough to plan nothing ahead


class SerialExecutor:
    def __init__(self, workers, scheduler, config, pool, warm=None):
        pass

    def map_unordered(self, fn, tasks):
        for key, args in tasks:
            yield key, fn(*args)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class ProcessExecutor:
    """Chunks on a :class:`~simlab.core.pool.WorkerPool`: the caller's, or one of ``workers`` owned by the run."""

    def __init__(self, workers, scheduler, config, pool, warm=None):
        self.owned = pool is None
        self.pool = pool or WorkerPool(workers)

    def map_unordered(self, fn, tasks):
        return self.pool.map_unordered(fn, tasks)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.owned:
            self.pool.__exit__(*exc)
        return False


class DaskExecutor:
    def __init__(self, workers, scheduler, config, pool, warm=None):
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise SimlabError("the dask executor needs dask.distributed: pip install 'simlab[dask]'") from None
        self.cluster = None
        if scheduler:
            try:
                self.client = Client(scheduler, timeout="20s")
            except (OSError, ValueError, TypeError, TimeoutError) as exc:
                raise SimlabError(f"cannot reach the Dask scheduler at {scheduler}: "
                                  f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
        else:
            self.cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                        dashboard_address=None)
            self.client = Client(self.cluster)
        if warm is not None:      # each worker compiles (or loads) the game's kernels once, before any chunk
            self.client.run(warm, config)
        self.in_flight = DASK_IN_FLIGHT * max(1, len(self.client.scheduler_info()["workers"]))
        self.prefix = f"simlab-{config['game']}-{uuid.uuid4().hex}-chunk"

    def map_unordered(self, fn, tasks):
        from dask.distributed import as_completed

        source = iter(tasks)
        keys = {}
        done = as_completed()

        def submit() -> bool:
            task = next(source, None)
            if task is None:
                return False
            key, args = task
            fut = self.client.submit(fn, *args, key=f"{self.prefix}{key}", retries=RETRIES, pure=False)
            keys[fut] = key
            done.add(fut)
            return True

        while len(keys) < self.in_flight and submit():
            pass
        for fut in done:
            key = keys.pop(fut)
            result = fut.result()
            fut.release()
            submit()
            yield key, result

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        return False


EXECUTORS = {"serial": SerialExecutor, "processes": ProcessExecutor, "dask": DaskExecutor}


def make_executor(name: str, workers: int, scheduler: str | None, config: dict, pool: WorkerPool | None = None,
                  warm=None):
    """The executor ``name``; ``warm(config)``, where given, prepares a Dask worker before its chunks."""
    if name not in EXECUTORS:
        raise SimlabError(f"unknown executor {name!r}; known: {', '.join(EXECUTORS)}")
    return EXECUTORS[name](workers, scheduler, config, pool, warm)
