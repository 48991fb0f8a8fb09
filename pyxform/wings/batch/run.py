"""The batch driver: the inputs' pages, in tasks on a Dask cluster, into the batch folder and its manifest.

The driver reads the inputs as the run goes (:func:`~pyxform.wings.batch.inputs.pages`: WARC files are walked
here, their pages are read by the workers), cuts the pages it has not recorded yet into chunks (at most
``chunk_pages`` pages and 16 MiB each; smaller at the end, so that every worker has work), and keeps at most two
tasks per worker thread in flight (the cluster's threads, counted again every few seconds: workers that join a
running batch get work too), taking each result as it completes (``distributed.as_completed``). Each result's
page records go into the manifest at once.

The cluster is Dask's: a ``LocalCluster`` of worker processes on this machine (one thread each), or the scheduler
at ``scheduler`` (``tcp://HOST:8786``). A task whose worker died is run again by the scheduler
(``distributed.scheduler.allowed-failures``, set to :data:`RETRIES` for the local cluster); if it fails again its
pages are submitted one by one. Dask blames a worker's death on every task the worker held, so a page whose own
task fails so is a suspect: when every other page is done, each suspect runs alone on the cluster, and only one that
kills its worker then is recorded as failed (``crash``). No page is dropped: every page found is recorded exactly
once, in this run or an earlier one (``resume``).
"""

from __future__ import annotations

import contextlib
import math
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

from pyxform.base.errors import ClusterError, PyxformError, WorkerCrash
from pyxform.jobs import PageOptions

from .inputs import Failure, PageRef, Skip, check_inputs, pages
from .manifest import Manifest
from .progress import BatchStats
from .work import TaskSettings, convert_chunk, failure_record, interrupts_ignored, prepare

__all__ = ["run_batch", "output_options", "check_scheduler_address", "RETRIES", "CHUNK_PAGES"]

#: How many times the scheduler of the local cluster runs a task again after its worker died.
RETRIES: Final = 1
#: Most pages in one task.
CHUNK_PAGES: Final = 16
#: Most page bytes in one task (a bigger page is a task alone).
CHUNK_BYTES: Final = 16 * 2**20
#: Default memory limit of a local worker process when pages run in isolated children (they hold the pages'
#: memory, under --max-memory): the worker only reads pages and writes outputs.
WORKER_MEMORY: Final = 2 * 2**30
#: Dask settings of the local cluster, for its whole life: its own background work down from ~10% of a core to ~1%
#: (measured idle, 2 workers: no profiler in the workers, memory and system checks once a second, a health tick every
#: half second); a dead worker waited for however long its restart takes (Dask's 15 s dropped it on a busy machine).
LOCAL_CLUSTER_CONFIG: Final = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "500ms",
                               "distributed.worker.memory.monitor-interval": "1s",
                               "distributed.admin.system-monitor.interval": "2s",
                               "distributed.deploy.lost-worker-timeout": "3600s"}
#: The local cluster's scheduler: no dashboard (bokeh is not a dependency), and its HTTP server (health checks) on a
#: free port of the loopback interface, not on Dask's 8787, which another cluster may hold (Dask warns then).
_LOCAL_SCHEDULER: Final = {"dashboard": False, "dashboard_address": "127.0.0.1:0"}
_WORKER_WAIT: Final = 60.0
#: Seconds to reach the scheduler at ``scheduler`` (a connection and Dask's handshake).
CONNECT_WAIT: Final = 30.0
#: Seconds a run waits with tasks in flight and no worker in the cluster before it gives up (ClusterError).
NO_WORKER_WAIT: Final = 180.0
_POLL: Final = 2.0
#: Seconds between two looks at the cluster's size: workers that join a running batch (more machines) get work too.
_THREADS_EVERY: Final = 5.0
_RESULT_WAIT: Final = 60.0


def output_options(options: PageOptions) -> dict[str, Any]:
    """The options that decide a batch's outputs (kept in ``batch.json``; ``--resume`` must give the same)."""
    return {"command": options.command, "table": options.table, "names": options.names, "method": options.method,
            "format": options.format, "separator": options.separator, "xslt": list(options.xslt),
            "params": list(options.params), "allow_io": options.allow_io, "schema": options.schema}


def run_batch(inputs: Sequence[str], folder: str | Path, *, options: PageOptions | None = None,
              workers: int | None = None, scheduler: str | None = None, client: Any = None, resume: bool = False,
              allow_private: bool = False, worker_memory: int | str | None = None, chunk_pages: int = CHUNK_PAGES,
              on_progress: Callable[[BatchStats], None] | None = None,
              message: Callable[[str], str] | None = None) -> BatchStats:
    """Convert every page of ``inputs`` into ``folder`` on a Dask cluster; see the module docstring.

    :param inputs: HTML files, folders, WARC files, URL lists, http(s) URLs (:mod:`~pyxform.wings.batch.inputs`).
    :param folder: the batch folder: ``manifest.jsonl``, ``batch.json`` and the outputs under ``pages/``.
    :param options: the pages' options (format, names, limits ...; ``keep_stages`` is not for batches).
    :param workers: worker processes of the local cluster (default: the machine's CPUs).
    :param scheduler: the address of a Dask scheduler to use instead of a local cluster.
    :param client: a ``distributed.Client`` to use (neither a local cluster nor ``scheduler`` then).
    :param resume: go on with the batch ``folder`` holds: its recorded pages are not done again.
    :param allow_private: let URLs reach private, loopback and link-local addresses.
    :param worker_memory: the memory limit of each local worker process (bytes, or Dask's words: ``"4GiB"``,
        ``"auto"``); default :data:`WORKER_MEMORY` when pages run in isolated children, else ``"auto"``.
    :param on_progress: called with the counts after each task's pages are recorded.
    :param message: turns an error message into the words the reader knows (the CLI's option names).
    :returns: the run's counts.
    :raises InputNotFound, InputError: an input that does not exist, or standard input.
    :raises OutputError: the folder cannot be written, holds a batch already (without ``resume``), or holds one made
        with other options.
    :raises ClusterError: the cluster cannot be started or reached, or cannot run the batch.
    """
    options = options or PageOptions()
    if options.keep_stages:
        raise ValueError("keep_stages is not for batches: convert the page alone with it")
    check_inputs(inputs)
    if workers is not None and workers < 1:
        raise ValueError("workers must be 1 or more")
    if scheduler and client is None:
        check_scheduler_address(scheduler)
    batch_folder = Path(folder).absolute()
    settings = TaskSettings(str(batch_folder), options, allow_private)
    stats = BatchStats()
    with Manifest(batch_folder, output_options(options), resume=resume) as manifest:
        stats.previous = len(manifest.done)
        stats.previous_statuses.update(manifest.previous)
        driver = _Driver(manifest, settings, inputs, stats, chunk_pages, on_progress, message or (lambda text: text))
        driver.read_to_first_page()
        if driver.pending:  # else nothing to convert: no cluster is started
            started = time.monotonic()
            with _quiet_dask(), _connected(client, scheduler, workers, worker_memory, options) as connected:
                stats.threads = _prepare_workers(connected, settings)
                stats.startup_seconds = time.monotonic() - started
                driver.run(connected)
    return stats


# -- the cluster ----------------------------------------------------------------------------------------------------
def check_scheduler_address(address: str) -> None:
    """Refuse a scheduler address that Dask cannot connect to whatever the network does: ``[PROTOCOL://]HOST:PORT``
    with a protocol of ``distributed.comm`` (``tcp``, ``tls``, ``ws``, ``wss``, ``ucx``).

    :raises ClusterError: naming the address and what is wrong with it.
    """
    from distributed.comm import parse_address
    from distributed.comm.addressing import parse_host_port
    from distributed.comm.registry import backends

    try:
        protocol, location = parse_address(address)
        parse_host_port(location)
    except ValueError as error:
        raise ClusterError(f"not a Dask scheduler address ({error}): give tcp://HOST:PORT",
                           location=address) from None
    if protocol not in backends or protocol == "inproc":
        raise ClusterError(f"not a Dask scheduler address: no protocol {protocol!r} (tcp, tls, ws, wss, ucx): give "
                           "tcp://HOST:PORT", location=address)


@contextlib.contextmanager
def _quiet_dask() -> Iterator[None]:
    """Dask's own log lines off while the batch runs (a lost worker or scheduler is reported by the batch itself,
    in the manifest or as a :class:`~pyxform.base.errors.ClusterError`, not as Dask's tracebacks): every
    ``distributed`` logger, since Dask's configuration gives some of them a level of their own
    (``distributed.client``: a lost scheduler's reconnection traceback)."""
    import logging

    names = ["distributed"] + sorted(name for name in logging.root.manager.loggerDict
                                     if name.startswith("distributed."))
    levels = {name: logging.getLogger(name).level for name in names}
    for name in names:
        logging.getLogger(name).setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


@contextlib.contextmanager
def _connected(client: Any, scheduler: str | None, workers: int | None, worker_memory: int | str | None,
               options: PageOptions) -> Iterator[Any]:
    """A ``distributed.Client``: the one given, one of the scheduler at ``scheduler``, or one of a new local
    cluster (closed on exit, its worker processes with it)."""
    if client is not None:
        yield client
        return
    import logging
    import os

    import dask
    from distributed import Client, LocalCluster

    if scheduler:
        _probe_scheduler(scheduler, CONNECT_WAIT)
        try:
            own = Client(scheduler, timeout=f"{CONNECT_WAIT:g}s", set_as_default=False)
        except (OSError, TimeoutError, ValueError) as error:
            raise ClusterError(f"cannot reach the Dask scheduler: {error}", location=scheduler) from None
        try:
            yield own
        finally:
            own.close()
        return
    isolated = options.limits.timeout > 0 or options.limits.max_memory > 0
    memory = worker_memory if worker_memory is not None else (WORKER_MEMORY if isolated else "auto")
    count = workers or os.cpu_count() or 1
    with dask.config.set({"distributed.scheduler.allowed-failures": RETRIES, "distributed.worker.daemon": False,
                          **LOCAL_CLUSTER_CONFIG}):
        try:
            cluster = LocalCluster(n_workers=count, threads_per_worker=1, processes=True, memory_limit=memory,
                                   silence_logs=logging.CRITICAL, scheduler_kwargs=_LOCAL_SCHEDULER)
        except (OSError, TimeoutError, ValueError, RuntimeError) as error:
            # RuntimeError: a worker process did not start; in a script run without `if __name__ == "__main__":`,
            # the worker processes (spawned) run the script again and fail so
            raise ClusterError(f"cannot start the local Dask cluster: {error} (from a Python script, call run_batch "
                               "under `if __name__ == \"__main__\":`)") from None
        try:
            own = Client(cluster, set_as_default=False)
            try:
                own.register_plugin(interrupts_ignored())  # Ctrl-C is the driver's: no traceback from each worker
                yield own
            finally:
                own.close()
        finally:
            cluster.close()


def _probe_scheduler(address: str, wait: float) -> None:
    """Check that a Dask scheduler answers at ``address`` (connection and handshake) within ``wait`` seconds: where
    another server answers (the dashboard's port, 8787, for the scheduler's, 8786) distributed ignores its time limit
    (dask/distributed#8071) and ``Client`` waited for ever. In a thread: the caller's may run an event loop. Raises
    :class:`ClusterError` when nothing answered as a Dask scheduler in time, or the address cannot be reached."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from distributed.comm import connect

    async def probe() -> None:
        await (await asyncio.wait_for(connect(address, timeout=wait), wait)).close()

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="pyxform-batch-probe") as pool:
        try:
            pool.submit(asyncio.run, probe()).result()
        except TimeoutError:
            raise ClusterError(f"no Dask scheduler answered at this address within {wait:g} s (a scheduler listens "
                               "on 8786 unless told otherwise; 8787 is its dashboard)", location=address) from None
        except (OSError, ValueError) as error:
            raise ClusterError(f"cannot reach the Dask scheduler: {error}", location=address) from None


def _prepare_workers(client: Any, settings: TaskSettings) -> int:
    """Wait for a worker, get every worker ready (:func:`~pyxform.wings.batch.work.prepare`), and check what they
    say; returns the worker threads.

    :raises ClusterError: no worker, a worker that cannot write the batch folder, or runs another pyxform.
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        client.wait_for_workers(1, timeout=_WORKER_WAIT)
    except (TimeoutError, OSError):
        raise ClusterError(f"no Dask worker joined the scheduler within {_WORKER_WAIT:g} s",
                           location=str(client.scheduler.address)) from None
    answers = client.run(_prepare_here, settings)
    try:
        ours = version("pyxform")
    except PackageNotFoundError:
        ours = "unknown"
    for address, answer in sorted(answers.items()):
        if answer["pyxform"] != ours:
            raise ClusterError(f"the worker runs pyxform {answer['pyxform']}, this driver {ours}: install the same "
                               "version on every machine", location=address)
        if not answer["ok"]:
            raise ClusterError(answer["problem"], location=address)
    return sum(client.nthreads().values())


async def _prepare_here(settings: TaskSettings, dask_worker: Any = None) -> dict[str, Any]:
    """:func:`~pyxform.wings.batch.work.prepare` in a worker, off its event loop (starting the children takes
    seconds)."""
    import asyncio

    threads = dask_worker.state.nthreads if dask_worker is not None else 1
    return await asyncio.get_running_loop().run_in_executor(None, prepare, settings, threads)


# -- the run --------------------------------------------------------------------------------------------------------
class _Driver:
    """One run's loop: read the inputs, submit chunks, record results (see the module docstring)."""

    def __init__(self, manifest: Manifest, settings: TaskSettings, inputs: Sequence[str], stats: BatchStats,
                 chunk_pages: int, on_progress: Callable[[BatchStats], None] | None,
                 message: Callable[[str], str]) -> None:
        self.client: Any = None
        self.completed: Any = None
        self.manifest = manifest
        self.settings = settings
        self.items = pages(inputs, exclude=manifest.folder)
        self.stats = stats
        self.chunk_pages = max(1, chunk_pages)
        self.on_progress = on_progress
        self.message = message
        self.pending: deque[PageRef] = deque()
        self.in_flight: dict[Any, list[PageRef]] = {}
        self.suspects: deque[PageRef] = deque()  # pages whose task lost its worker even alone
        self.isolating: Any = None  # the future of the suspect that runs alone on the cluster
        self.token = uuid.uuid4().hex[:12]
        self.no_worker_since: float | None = None
        self.submitted = 0
        self.threads = 1
        self.threads_seen = 0.0  # when the cluster's size was last looked at

    # -- reading the inputs ---------------------------------------------------------------------------------------
    def pull(self, budget: int) -> None:
        """Take up to ``budget`` items of the inputs: pages to do go to :attr:`pending`, failures are recorded,
        skips counted, pages done by an earlier run passed over."""
        failures: list[dict[str, Any]] = []
        for _ in range(budget):
            try:
                item = next(self.items)
            except StopIteration:
                self.stats.reading = False
                break
            if isinstance(item, Skip):
                self.stats.skipped[item.reason] += 1
            elif item.key in self.manifest.done:
                continue
            elif isinstance(item, Failure):
                self.stats.found += 1
                failures.append(failure_record(item.key, item.source, item.error))
            else:
                self.stats.found += 1
                self.pending.append(item)
        if failures:
            self.record(failures, from_task=False)

    def next_chunk(self) -> list[PageRef] | None:
        """The next chunk of pending pages, or ``None`` (none pending, or a chunk could still grow while the
        inputs are read and the workers have work)."""
        if not self.pending:
            return None
        limit = self.chunk_pages
        if not self.stats.reading:  # the tail: small enough that every worker thread gets some
            limit = max(1, min(limit, math.ceil(len(self.pending) / (4 * self.threads))))
        elif len(self.pending) < limit and len(self.in_flight) >= self.threads:
            return None
        chunk: list[PageRef] = []
        size = 0
        while self.pending and len(chunk) < limit and (not chunk or size + self.pending[0].size <= CHUNK_BYTES):
            page = self.pending.popleft()
            chunk.append(page)
            size += page.size
        return chunk

    # -- tasks ----------------------------------------------------------------------------------------------------
    def submit(self, chunk: list[PageRef], *, priority: int = 0) -> Any:
        self.submitted += 1
        future = self.client.submit(convert_chunk, chunk, self.settings, key=f"pyxform-batch-{self.token}-"
                                    f"{self.submitted}", pure=False, priority=priority)
        self.in_flight[future] = chunk
        self.completed.add(future)
        return future

    def handle(self, future: Any) -> None:
        """Take one task that completed: record its pages; or, if it failed, submit its pages again one by one (a
        page alone whose task fails again is recorded as failed); or, if its result was lost with a worker before it
        could be fetched, submit the chunk again."""
        chunk = self.in_flight.pop(future)
        status = future.status
        result = None
        if status == "finished":
            try:
                result = future.result(timeout=_RESULT_WAIT)
            except Exception:  # the worker holding the result died before it was fetched
                status = "lost"
        if result is not None:
            self.stats.task_seconds += result.seconds
            self.stats.convert_seconds += result.convert_seconds
            self.record(list(result.records))
            if result.stop is not None:  # the batch folder is full: its pages are done by --resume
                raise result.stop
        elif status == "error":
            error = future.exception()
            if len(chunk) > 1:  # one page of it may be the cause: each page alone, first
                self.stats.retried_tasks += 1
                for page in chunk:
                    self.submit([page], priority=1)
            elif future is not self.isolating and _lost_its_worker(error):
                self.suspects.append(chunk[0])  # maybe blamed for a neighbour's death: tried alone at the end
            else:
                page = chunk[0]
                self.record([failure_record(page.key, page.source, _task_failure(error, page))])
        elif status == "cancelled":
            raise ClusterError("the scheduler cancelled the batch's tasks: the connection to it was lost, or it "
                               "restarted; go on with --resume")
        else:  # lost with its worker (finished there, not fetched yet): done again
            self.submit(chunk, priority=1)
        if future is self.isolating:
            self.isolating = None
        future.release()

    def record(self, records: list[dict[str, Any]], *, from_task: bool = True) -> None:
        """Write page records into the manifest (messages in the reader's words) and count them (``from_task``:
        a worker did them)."""
        for record in records:
            reason = record.get("reason")
            if reason and reason.get("message"):
                reason["message"] = self.message(reason["message"])
        self.manifest.write(records)
        for record in records:
            self.stats.count(record, from_task=from_task)
        if self.on_progress is not None:
            self.on_progress(self.stats)

    def wait_for_a_result(self) -> None:
        """Wait until a task in flight completes, for at most a few seconds; raise :class:`ClusterError` when the
        cluster has had no worker for :data:`NO_WORKER_WAIT` seconds (tasks would wait for ever)."""
        deadline = time.monotonic() + _POLL
        while not self.completed.has_ready() and time.monotonic() < deadline:
            time.sleep(0.01)  # as_completed has no wait with a time limit; a completed task waits 10 ms at most
        if self.completed.has_ready():
            self.no_worker_since = None
            return
        if self.count_threads():
            self.no_worker_since = None
        elif self.no_worker_since is None:
            self.no_worker_since = time.monotonic()
        elif time.monotonic() - self.no_worker_since > NO_WORKER_WAIT:
            raise ClusterError(f"no Dask worker has been in the cluster for {NO_WORKER_WAIT:g} s: every worker died "
                               "or left; go on with --resume once the cluster has workers again")

    def count_threads(self) -> int:
        """The cluster's worker threads now (a round trip to the scheduler); :attr:`threads` follows them (not
        below 1), so that the work in flight grows with workers that join a running batch."""
        threads = sum(self.client.nthreads().values())
        self.threads_seen = time.monotonic()
        if threads:
            self.threads = threads
            self.stats.threads = max(self.stats.threads, threads)
        return threads

    # -- the loop -------------------------------------------------------------------------------------------------
    def read_to_first_page(self) -> None:
        """Read the inputs until a page to convert is found, or they end (recording failures on the way)."""
        while self.stats.reading and not self.pending:
            self.pull(64)

    def run(self, client: Any) -> None:
        """Convert the pages, on ``client``'s cluster, until every page found is recorded."""
        from distributed import as_completed

        self.client = client
        self.completed = as_completed(loop=client.loop)
        self.threads = max(1, self.stats.threads)
        try:
            self._loop()
        except BaseException:
            for future in list(self.in_flight):
                future.cancel()
            raise

    def _loop(self) -> None:
        self.stats.started = self.threads_seen = time.monotonic()
        while True:
            if time.monotonic() - self.threads_seen > _THREADS_EVERY:
                self.count_threads()
            in_flight_limit = 2 * self.threads
            lookahead = max(1000, 4 * in_flight_limit * self.chunk_pages)
            while self.stats.reading and len(self.pending) < lookahead and not self.completed.has_ready():
                self.pull(64)
            while len(self.in_flight) < in_flight_limit:
                chunk = self.next_chunk()
                if chunk is None:
                    break
                self.submit(chunk)
            if not self.in_flight:
                if self.stats.reading or self.pending:
                    continue
                if not self.suspects:
                    break
                # Dask blames every task a dying worker held; a suspect that kills its worker while it is the only
                # task on the cluster is the cause: only then is it recorded as failed
                self.isolating = self.submit([self.suspects.popleft()], priority=1)
            if self.stats.reading and len(self.pending) < lookahead and not self.completed.has_ready():
                continue
            if not self.completed.has_ready():
                self.wait_for_a_result()
                continue
            self.handle(next(self.completed))
        if self.stats.started is not None and self.stats.done:
            self.stats.seconds = time.monotonic() - self.stats.started


def _lost_its_worker(error: BaseException | None) -> bool:
    from distributed.scheduler import KilledWorker

    return isinstance(error, KilledWorker)


def _task_failure(error: BaseException | None, page: PageRef) -> PyxformError:
    """The error recorded for a page whose task failed even alone."""
    from distributed.scheduler import KilledWorker

    if isinstance(error, KilledWorker):
        return WorkerCrash("the Dask worker process converting this page died, again when the page was tried anew, "
                           "and again when it ran alone on the cluster (a crash, or the worker's memory limit)",
                           location=page.source)
    return WorkerCrash(f"the task converting this page failed: {type(error).__name__}: {error} (please report this)",
                       location=page.source)

