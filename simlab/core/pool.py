"""simlab's own worker pool: spawned processes that outlive none of their failures.

Each worker is a spawned process with its own pipe. The parent waits on the pipes and on the
processes' sentinels together (``multiprocessing.connection.wait``), so it sees each death on
its own: the dead worker is replaced and only the task it held is run again, charged one retry
(``RETRIES`` before the run gives up). Workers ignore SIGINT (only the parent handles an
interrupt, and then kills them) and die with their parent: ``prctl(PR_SET_PDEATHSIG)`` on
Linux, and everywhere a watchdog thread that exits once the parent pid is gone.

A pool is reusable across runs: a task is any picklable top-level function and its arguments,
and workers keep what they prepared (``runner.prepared`` caches a run's compiled setup per
process), so one warm pool can serve many runs::

    from simlab.core.pool import WorkerPool
    from simlab.core.runner import run

    with WorkerPool(4) as pool:                 # started lazily, closed (workers stopped) on exit
        for cfg in configs:
            run(cfg, f"runs/{cfg.seed}", pool=pool)   # the caller owns the pool; run() never closes it

``pool.map_unordered(fn, [(key, args), ...])`` yields ``(key, fn(*args))`` as tasks finish;
a task that raises :class:`SimlabError` raises it in the parent (one line), any other
exception raises ``WorkerError`` carrying the worker's traceback. Leaving the loop early
(an error, an interrupt) kills the workers still busy, so their stale results never reach a
later run; the pool starts fresh ones when it next needs them.
"""
from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import queue
import sys
import threading
import time
import traceback
from collections import deque
from concurrent.futures import Future
from multiprocessing.connection import wait

from .errors import SimlabError

RETRIES = 3          # a task whose worker died is run again this many times before the run gives up
CLOSE_TIMEOUT = 2.0  # seconds a closing worker gets to exit before it is killed
PR_SET_PDEATHSIG = 1


class WorkerError(RuntimeError):
    """A task failed in a worker with an error that is not the user's (a bug): the worker's traceback."""


class _Worker:
    def __init__(self, process, conn):
        self.process, self.conn = process, conn


class WorkerPool:
    """Up to ``size`` spawned worker processes; see the module docstring."""

    runs_at_once = 1   # the run queue's threads: its workers take one run's chunks at a time

    def __init__(self, size: int, retries: int = RETRIES):
        if size < 1:
            raise SimlabError(f"a worker pool needs at least 1 worker, not {size}")
        self.size, self.retries = size, retries
        self._ctx = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        self.started = 0     # worker processes started so far (replacements included)
        self._stop = threading.Event()
        self._wake, self._waker = self._ctx.Pipe(duplex=False)   # stop() wakes a map waiting on its workers

    def pids(self) -> list[int]:
        return [w.process.pid for w in self._workers]

    def _start(self) -> _Worker:
        parent_end, child_end = self._ctx.Pipe()
        process = self._ctx.Process(target=worker_main, args=(child_end, os.getpid()), daemon=True,
                                    name="simlab-worker")
        with sigint_blocked():  # the child inherits a blocked SIGINT: a Ctrl-C meant for the parent never reaches it
            process.start()
        child_end.close()
        worker = _Worker(process, parent_end)
        self._workers.append(worker)
        self.started += 1
        return worker

    def _drop(self, worker: _Worker, kill: bool) -> None:
        if kill and worker.process.is_alive():
            worker.process.kill()
        worker.process.join()
        worker.conn.close()
        self._workers.remove(worker)

    def map_unordered(self, fn, tasks):
        """Yield ``(key, fn(*args))`` for each ``(key, args)`` of ``tasks`` (read lazily) as they finish."""
        source = iter(tasks)
        again: deque = deque()      # tasks whose worker died, run first
        tries: dict = {}
        busy: dict[_Worker, tuple] = {}
        finished: list = []
        try:
            while True:
                stopping = self._stop.is_set()
                if not stopping:
                    self._hand_out(fn, source, again, busy)
                yield from finished   # only after idle workers got new work: they play while the caller writes
                finished = []
                if stopping:          # what finished is kept; what is still playing is killed below
                    raise SimlabError("stopped: the experiment failed or was interrupted")
                if not busy:
                    return
                ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in self._workers] + [self._wake]))
                for worker in [w for w in busy if w.conn in ready]:
                    try:
                        status, payload = worker.conn.recv()
                    except (EOFError, OSError):   # it died mid-answer
                        self._lost(worker, busy, again, tries)
                        continue
                    key, _ = busy.pop(worker)
                    if status == "error":
                        raise SimlabError(payload)
                    if status == "crash":
                        raise WorkerError(f"task {key} failed in a worker:\n{payload}")
                    finished.append((key, payload))
                for worker in [w for w in self._workers if w.process.sentinel in ready]:
                    self._lost(worker, busy, again, tries)
        finally:
            for worker in list(busy):   # stale work: never let it answer a later call
                self._drop(worker, kill=True)

    def _hand_out(self, fn, source, again, busy) -> None:
        while len(busy) < self.size:
            task = again.popleft() if again else next(source, None)
            if task is None:
                return
            idle = [w for w in self._workers if w not in busy]
            worker = idle[0] if idle else self._start()
            try:
                worker.conn.send((fn, task[1]))
            except (BrokenPipeError, ConnectionResetError, OSError):   # it died idle: not the task's fault
                self._drop(worker, kill=True)
                again.appendleft(task)
                continue
            busy[worker] = task

    def _lost(self, worker: _Worker, busy: dict, again: deque, tries: dict) -> None:
        """A worker died (or its pipe broke): drop it and run its task, if it held one, again."""
        task = busy.pop(worker, None)
        self._drop(worker, kill=True)
        if task is not None:
            self._charge(task, worker.process.exitcode, tries)
            again.appendleft(task)

    def _charge(self, task, exitcode, tries) -> None:
        key = task[0]
        tries[key] = tries.get(key, 0) + 1
        if tries[key] > self.retries:
            how = (f"killed by {signal.Signals(-exitcode).name}" if exitcode and exitcode < 0
                   else f"exit code {exitcode}")
            raise SimlabError(f"chunk {key}: the worker running it died {tries[key]} times (last: {how}); giving up")

    def stop(self) -> None:
        """Make the ``map_unordered`` in progress in another thread (an experiment's run queue)
        raise now, killing the workers busy with its tasks (a chunk of search play can take
        minutes; finished chunks were already handed over), and any later one at once, until
        :meth:`resume`."""
        self._stop.set()
        self._waker.send_bytes(b"stop")

    def resume(self) -> None:
        self._stop.clear()
        while self._wake.poll():
            self._wake.recv_bytes()

    def close(self) -> None:
        """Ask idle workers to exit, then kill any that do not within ``CLOSE_TIMEOUT`` seconds."""
        for worker in self._workers:
            try:
                worker.conn.send(None)
            except OSError:
                pass
        deadline = time.monotonic() + CLOSE_TIMEOUT
        for worker in list(self._workers):
            worker.process.join(max(0.0, deadline - time.monotonic()))
            self._drop(worker, kill=True)

    def terminate(self) -> None:
        """Kill every worker now (an interrupt, an error)."""
        for worker in list(self._workers):
            self._drop(worker, kill=True)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *_):
        if exc_type is None:
            self.close()
        else:
            self.terminate()
        return False


class sigint_blocked:
    """Block SIGINT in this thread for the block (POSIX; elsewhere a no-op)."""

    def __enter__(self):
        self.old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if hasattr(signal, "pthread_sigmask") else None

    def __exit__(self, *_):
        if self.old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.old)
        return False


def worker_main(conn, parent_pid: int) -> None:
    """A worker's life: run tasks from the pipe until told to stop, the pipe closes or the parent dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent(parent_pid)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        fn, args = message
        try:
            reply = ("ok", fn(*args))
        except SimlabError as exc:
            reply = ("error", str(exc))
        except BaseException:   # a bug, or a user's code calling sys.exit: report it, stay alive
            reply = ("crash", traceback.format_exc())
        try:
            conn.send(reply)
        except (OSError, EOFError):
            return


def _die_with_parent(parent_pid: int) -> None:
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent_pid:   # the parent died before prctl took effect
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True, name="simlab-parent-watch").start()


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(0.5)
    os._exit(1)


class RunQueue:
    """Runs played by background threads on the experiment's warm pool, while the parent analyses
    and charts the runs it already has (see :meth:`Context.ahead`).

    Every run of the experiment goes through the queue once it exists. simlab's worker pool plays
    one run at a time (one thread: its workers take each run's chunks in turn); a pool that can
    serve several runs at once says how many (``runs_at_once``: a Dask cluster, where one run's
    chunks rarely fill every worker), and that many threads play queued runs side by side. The
    threads are daemons: a second Ctrl-C never waits for them, and the workers die with the parent."""

    def __init__(self, pool):
        self.pool = pool
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._threads = [threading.Thread(target=self._work, name=f"simlab-runs-{i}", daemon=True)
                         for i in range(pool.runs_at_once)]
        for thread in self._threads:
            thread.start()

    def submit(self, fn, *args) -> Future:
        future: Future = Future()
        self._jobs.put((future, fn, args))
        return future

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            future, fn, args = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args))
            except BaseException as exc:   # handed to whoever waits for this run
                future.set_exception(exc)

    def close(self, failed: bool) -> None:
        """Cancel the runs not begun and wait for those in flight; after a failure or an interrupt
        they stop at once (the pool's ``stop``: chunks in play are dropped, finished chunks kept, as
        in any interrupted run)."""
        while True:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                break
            if job is not None:
                job[0].cancel()
        if failed:
            self.pool.stop()
        for _ in self._threads:
            self._jobs.put(None)
        for thread in self._threads:
            thread.join()
        self.pool.resume()
