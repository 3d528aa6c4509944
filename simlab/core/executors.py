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
from concurrent.futures.process import BrokenProcessPool

from .errors import SimlabError

RETRIES = 3  # a chunk whose worker died is run again this many times before the run gives up


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
    """Spawned processes (no fork: safe with threads from pandas/pyarrow), at most two chunks
    per worker in flight so an interrupt cancels cleanly. If a worker process dies, the pool is
    rebuilt and the unfinished chunks run again."""

    def __init__(self, workers, scheduler, config):
        self.workers, self.config = workers, config
        self.pool = self._new_pool()

    def _new_pool(self):
        ctx = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx, initializer=_warm_worker,
                                   initargs=(self.config,))

    def map_unordered(self, fn, tasks):
        tasks = list(tasks)
        tries = {key: 0 for key, _ in tasks}
        pending = {}
        while tasks or pending:
            while tasks and len(pending) < 2 * self.workers:
                key, args = tasks.pop(0)
                pending[self.pool.submit(fn, *args)] = (key, args)
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            broken = False
            for fut in finished:
                key, args = pending.pop(fut)
                try:
                    result = fut.result()
                except BrokenProcessPool:
                    tries[key] += 1
                    if tries[key] > RETRIES:
                        raise SimlabError(f"chunk {key} killed its worker {RETRIES + 1} times; giving up") from None
                    tasks.insert(0, (key, args))
                    broken = True
                    continue
                yield key, result
            if broken:  # every in-flight chunk died with the pool: run them again on a new one
                tasks[:0] = list(pending.values())
                pending.clear()
                self.pool.shutdown(wait=False, cancel_futures=True)
                self.pool = self._new_pool()

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
        from .runner import RunConfig, fingerprint

        run_config = RunConfig.from_dict(config)
        self.prefix = f"simlab-{run_config.game}-seed{run_config.seed}-{fingerprint(run_config, 0)[:10]}-chunk"

    def map_unordered(self, fn, tasks):
        from dask.distributed import as_completed

        futures = {}
        for key, args in tasks:
            fut = self.client.submit(fn, *args, key=f"{self.prefix}{key}-first{args[1]}", retries=RETRIES)
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
