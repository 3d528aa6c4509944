"""Executors behind one interface: ``map_unordered(fn, [(key, args), ...])`` yields
``(key, result)`` as tasks finish.

* ``serial``: in this process, for debugging and tests;
* ``processes``: local worker processes (the default), each warming the JIT cache once;
* ``dask``: a Dask distributed cluster, an existing one (``scheduler="tcp://host:8786"``) or a
  local one started for the run; chunks are futures keyed by the run and chunk, retried if a
  worker dies.
"""
from __future__ import annotations

import multiprocessing
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

from .errors import SimlabError


class SerialExecutor:
    def __init__(self, workers, scheduler, config):
        pass

    def map_unordered(self, fn, tasks):
        for key, args in tasks:
            yield key, fn(*args)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _warm_worker(config):
    from .runner import warm

    warm(config)


class ProcessExecutor:
    """Spawned processes (no fork: safe with threads from pandas/pyarrow), at most ``workers``
    chunks in flight so an interrupt cancels cleanly."""

    def __init__(self, workers, scheduler, config):
        ctx = multiprocessing.get_context("spawn")
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_warm_worker,
                                        initargs=(config,))
        self.workers = workers

    def map_unordered(self, fn, tasks):
        tasks = list(tasks)
        pending = {}
        while tasks or pending:
            while tasks and len(pending) < 2 * self.workers:
                key, args = tasks.pop(0)
                pending[self.pool.submit(fn, *args)] = key
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                key = pending.pop(fut)
                yield key, fut.result()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.pool.shutdown(wait=exc[0] is None, cancel_futures=True)
        return False


class DaskExecutor:
    def __init__(self, workers, scheduler, config):
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise SimlabError("the dask executor needs dask.distributed: pip install 'simlab[dask]'") from None
        self.cluster = None
        if scheduler:
            try:
                self.client = Client(scheduler, timeout="20s")
            except OSError as exc:
                raise SimlabError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        else:
            self.cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                        dashboard_address=None)
            self.client = Client(self.cluster)
        self.client.run(_warm_worker, config)
        self.prefix = f"simlab-{abs(hash(str(config))) % 10**10}"

    def map_unordered(self, fn, tasks):
        from dask.distributed import as_completed

        futures = {}
        for key, args in tasks:
            fut = self.client.submit(fn, *args, key=f"{self.prefix}-{key}", retries=3, pure=False)
            futures[fut] = key
        for fut in as_completed(futures):
            yield futures[fut], fut.result()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        return False


EXECUTORS = {"serial": SerialExecutor, "processes": ProcessExecutor, "dask": DaskExecutor}


def make_executor(name: str, workers: int, scheduler: str | None, config: dict):
    if name not in EXECUTORS:
        raise SimlabError(f"unknown executor {name!r}; known: {', '.join(EXECUTORS)}")
    return EXECUTORS[name](workers, scheduler, config)
