"""Retention: the Retention policy and its TTL config, sweep() on stores a
real LangGraph graph wrote (DeltaChannel included), the background sweeper
and asweep().

Sweeps take an explicit ``now`` placed between the ``ts`` LangGraph wrote,
so what expires is decided by the checkpoints' own timestamps, never by how
fast the test runs.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import os
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from graphs import chat_graph, expected_messages, turn_input
from langgraph.checkpoint.base import empty_checkpoint

from langgraph.checkpoint.rockpoint import (
    ClosedError,
    InvalidArgumentError,
    Retention,
    RetentionReport,
    RockpointSaver,
)

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
# The sweeper tests wait at most this long for a sweep to have happened.
DEADLINE_SECONDS = 10.0

# ---- helpers ----------------------------------------------------------------


def _thread(thread: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}}


def _run_turns(graph: Any, thread: str, first: int, turns: int) -> None:
    for i in range(first, first + turns):
        run_id = str(uuid.uuid4())
        graph.invoke(
            turn_input(i),
            {**_thread(thread), "run_id": run_id, "metadata": {"run_id": run_id}},
        )


def _visible(saver: RockpointSaver, thread: str | None = None) -> list[Any]:
    """The visible tuples of ``thread`` (every thread: None), newest first."""
    return list(saver.list(None if thread is None else _thread(thread)))


def _cid(tuple_: Any) -> str:
    return tuple_.config["configurable"]["checkpoint_id"]


def _ts(tuple_: Any) -> datetime:
    return datetime.fromisoformat(tuple_.checkpoint["ts"])


def _threads(saver: RockpointSaver) -> list[str]:
    return sorted({t.config["configurable"]["thread_id"] for t in _visible(saver)})


def _states(graph: Any, saver: RockpointSaver) -> dict[str, Any]:
    """Every visible checkpoint's StateSnapshot, read through LangGraph."""
    return {_cid(t): graph.get_state(t.config) for t in _visible(saver)}


def _put(saver: RockpointSaver, thread: str, parent: str | None = None) -> str:
    """A raw checkpoint (ts: now) in ``thread``; its id."""
    cp = empty_checkpoint()
    version = saver.get_next_version(None)
    cp["channel_values"] = {"x": 1}
    cp["channel_versions"] = {"x": version}
    config: dict[str, Any] = {
        "configurable": {"thread_id": thread, "checkpoint_ns": ""}
    }
    if parent:
        config["configurable"]["checkpoint_id"] = parent
    return saver.put(config, cp, {}, {"x": version})["configurable"]["checkpoint_id"]


def _put_chain(saver: RockpointSaver, thread: str, n: int) -> list[str]:
    ids: list[str] = []
    for _ in range(n):
        ids.append(_put(saver, thread, ids[-1] if ids else None))
    return ids


def _wait_until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while not condition():
        assert time.monotonic() < deadline, "the sweeper did not sweep in time"
        time.sleep(0.01)


def _sweeper_threads() -> set[str]:
    """The process's native threads that are not RocksDB's thread pools
    (those live as long as the process): Python's, the sweepers, and the
    timer thread of each open RocksDB store."""
    out = set()
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/comm") as comm:
                if comm.read().startswith("rocksdb"):
                    continue
        except FileNotFoundError:  # exited meanwhile
            continue
        out.add(tid)
    return out


# ---- (a) Retention and from_ttl -------------------------------------------


def test_retention_defaults_and_frozen() -> None:
    policy = Retention(max_idle=DAY)
    assert policy.max_age is None and policy.keep_last is None
    assert policy.sweep_interval == timedelta(minutes=10)
    assert policy.sweep_batch_threads == 64
    with pytest.raises(dataclasses.FrozenInstanceError):
        policy.keep_last = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        Retention(DAY)  # type: ignore[misc]  # keyword-only
    assert Retention(keep_last=2) == Retention(keep_last=2)
    assert hash(Retention(keep_last=2)) == hash(Retention(keep_last=2))


@pytest.mark.parametrize(
    ("fields", "error", "message"),
    [
        ({}, ValueError, "none of max_idle, max_age and keep_last"),
        ({"sweep_interval": HOUR}, ValueError, "none of max_idle"),
        (
            {"max_age": -timedelta(seconds=1)},
            ValueError,
            "max_age must not be negative",
        ),
        ({"max_idle": -DAY}, ValueError, "max_idle must not be negative"),
        (
            {"max_age": -timedelta(milliseconds=1)},
            ValueError,
            "max_age must not be negative",
        ),
        ({"keep_last": 0}, ValueError, "keep_last must be >= 1, got 0"),
        ({"keep_last": -2}, ValueError, "keep_last must be >= 1, got -2"),
        (
            {"keep_last": 1, "sweep_interval": timedelta(0)},
            ValueError,
            "sweep_interval must be above 0",
        ),
        (
            {"keep_last": 1, "sweep_interval": -HOUR},
            ValueError,
            "sweep_interval must be above 0",
        ),
        (
            {"keep_last": 1, "sweep_batch_threads": 0},
            ValueError,
            "sweep_batch_threads must be >= 1",
        ),
        ({"max_age": 3600}, TypeError, "max_age must be a datetime.timedelta"),
        ({"keep_last": True}, TypeError, "keep_last must be an int"),
        ({"keep_last": 2.0}, TypeError, "keep_last must be an int"),
        (
            {"keep_last": 1, "sweep_interval": None},
            TypeError,
            "sweep_interval must be a datetime.timedelta",
        ),
    ],
)
def test_retention_rejects(
    fields: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        Retention(**fields)


def test_zero_durations_are_valid() -> None:
    assert Retention(max_age=timedelta(0)).max_age == timedelta(0)
    assert Retention(max_idle=timedelta(0)).max_idle == timedelta(0)


def test_engine_units_round_up() -> None:
    """Whole seconds for the ages and milliseconds for the interval, a
    fraction rounded up: nothing expires before its time."""
    policy = Retention(
        max_age=timedelta(milliseconds=1500),
        max_idle=timedelta(seconds=7),
        keep_last=4,
        sweep_interval=timedelta(microseconds=1001),
        sweep_batch_threads=3,
    )
    assert policy._native() == (7, 2, 4, 2, 3)
    assert Retention(keep_last=1)._native() == (None, None, 1, 600_000, 64)


def test_from_ttl_delete() -> None:
    ttl = {"strategy": "delete", "default_ttl": 43200, "sweep_interval_minutes": 60}
    assert Retention.from_ttl(ttl) == Retention(
        max_idle=timedelta(days=30), sweep_interval=HOUR
    )
    # "delete" is the default strategy; the interval defaults to Retention's.
    assert Retention.from_ttl({"default_ttl": 1.5}) == Retention(
        max_idle=timedelta(seconds=90)
    )
    assert Retention.from_ttl(
        {"default_ttl": 10, "sweep_interval_minutes": None}
    ) == Retention(max_idle=timedelta(minutes=10))


def test_from_ttl_keep_latest() -> None:
    ttl = {"strategy": "keep_latest", "default_ttl": 60, "sweep_interval_minutes": 5}
    assert Retention.from_ttl(ttl) == Retention(
        max_idle=HOUR, keep_last=1, sweep_interval=timedelta(minutes=5)
    )


@pytest.mark.parametrize(
    ("ttl", "error", "message"),
    [
        ({"strategy": "archive", "default_ttl": 60}, ValueError, "'archive'"),
        ({"strategy": None, "default_ttl": 60}, ValueError, "strategy must be"),
        ({"strategy": "delete"}, ValueError, "default_ttl \\(minutes\\) is required"),
        ({"default_ttl": None}, ValueError, "default_ttl \\(minutes\\) is required"),
        ({"default_ttl": 60, "ttl": 5}, ValueError, "unknown TTL key\\(s\\) 'ttl'"),
        (
            {"default_ttl": 60, "sweep_limit": 1000},
            ValueError,
            "unknown TTL key\\(s\\) 'sweep_limit'.*sweep_limit has no counterpart",
        ),
        ({"default_ttl": "60"}, ValueError, "default_ttl must be a finite number"),
        ({"default_ttl": True}, ValueError, "default_ttl must be a finite number"),
        ({"default_ttl": float("nan")}, ValueError, "finite number"),
        ({"default_ttl": float("inf")}, ValueError, "finite number"),
        ({"default_ttl": 1e300}, ValueError, "finite number"),
        ({"default_ttl": -5}, ValueError, "max_idle must not be negative"),
        (
            {"default_ttl": 60, "sweep_interval_minutes": 0},
            ValueError,
            "sweep_interval must be above 0",
        ),
        (
            {"default_ttl": 60, "sweep_interval_minutes": "5"},
            ValueError,
            "sweep_interval_minutes must be a finite number",
        ),
        ([("default_ttl", 60)], TypeError, "ttl must be a mapping"),
    ],
)
def test_from_ttl_rejects(ttl: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        Retention.from_ttl(ttl)


def test_open_takes_a_policy_or_a_ttl_config(store_path: str) -> None:
    ttl = {"strategy": "keep_latest", "default_ttl": 60}
    with RockpointSaver.open(store_path, retention=ttl) as saver:
        assert saver.retention == Retention.from_ttl(ttl)
        # Copies (with_allowlist, copy.copy) share the store and its policy.
        assert copy.copy(saver).retention == saver.retention
    with RockpointSaver.open(store_path) as saver:
        assert saver.retention is None
    policy = Retention(keep_last=3)
    with RockpointSaver.memory(retention=policy) as saver:
        assert saver.retention is policy


def test_open_refuses_a_bad_policy_before_opening(tmp_path: Path) -> None:
    path = tmp_path / "never"
    with pytest.raises(ValueError, match="unknown TTL key"):
        RockpointSaver.open(str(path), retention={"default_ttl": 1, "x": 2})
    with pytest.raises(TypeError, match="retention must be a Retention"):
        RockpointSaver.open(str(path), retention=5)  # type: ignore[arg-type]
    assert not path.exists()
    with pytest.raises(ValueError, match="retention needs a writable store"):
        RockpointSaver.open(str(path), read_only=True, retention=Retention(keep_last=1))


def test_read_only_store_sweeps_dry_only(store_path: str) -> None:
    with RockpointSaver.open(store_path, sync_writes=False) as saver:
        _put_chain(saver, "t", 3)
    with RockpointSaver.open(store_path, read_only=True) as saver:
        policy = Retention(keep_last=1)
        assert saver.sweep(policy, dry_run=True).checkpoints_expired == 2
        with pytest.raises(InvalidArgumentError, match="read-only"):
            saver.sweep(policy)
        assert len(_visible(saver, "t")) == 3


def test_sweep_needs_a_policy(saver: RockpointSaver) -> None:
    with pytest.raises(ValueError, match="sweep needs a retention policy"):
        saver.sweep()
    with pytest.raises(TypeError, match="now must be a datetime"):
        saver.sweep(Retention(keep_last=1), now=0)  # type: ignore[arg-type]
    assert saver.sweep(Retention(keep_last=1)) == RetentionReport()


# ---- (b) sweep on a store a real graph wrote ---------------------------------

THREADS = ("a", "b", "c")
TURNS = 6
FREQUENCY = 3  # a DeltaChannel snapshot every 3 updates: survivors need ancestors


@pytest.fixture
def written(store_path: str) -> Iterator[tuple[RockpointSaver, Any]]:
    """A RocksDB saver, and a DeltaChannel graph that wrote TURNS turns to
    each of THREADS, interleaved (their ts overlap in time)."""
    with RockpointSaver.open(store_path, sync_writes=False) as saver:
        graph = chat_graph(FREQUENCY, saver)
        for i in range(TURNS):
            for thread in THREADS:
                _run_turns(graph, thread, i, 1)
        yield saver, graph


def _survivors(
    saver: RockpointSaver, policy: Retention, cutoff: datetime | None
) -> set[str]:
    """The ids ``policy`` keeps (docs/CONTRACT.md "Retention"), max_age's
    cutoff given; the graphs here write the root namespace only."""
    keep: set[str] = set()
    for thread in _threads(saver):
        for i, tuple_ in enumerate(_visible(saver, thread)):
            floor = policy.keep_last is not None and i < policy.keep_last
            if policy.max_age is None:
                young = False  # keep_last alone: the cap
            else:
                assert cutoff is not None
                young = _ts(tuple_) >= cutoff
            if floor or young:
                keep.add(_cid(tuple_))
    return keep


@pytest.mark.parametrize(
    "policy",
    [
        Retention(max_age=HOUR),
        Retention(max_age=HOUR, keep_last=3),
        Retention(keep_last=2),
        Retention(max_age=HOUR, sweep_batch_threads=1),
    ],
    ids=["max_age", "max_age+keep_last", "keep_last", "max_age-batches-of-1"],
)
def test_sweep_expires_exactly_and_survivors_read_the_same(
    written: tuple[RockpointSaver, Any], policy: Retention
) -> None:
    saver, graph = written
    before = _visible(saver)
    states = _states(graph, saver)
    assert len(before) == len(THREADS) * TURNS * 3  # input, start, reply
    # The cutoff is the ts of the median checkpoint: older ones expire by age.
    cutoff = sorted(_ts(t) for t in before)[len(before) // 2]
    now = cutoff + HOUR
    keep = _survivors(saver, policy, cutoff)
    assert 0 < len(keep) < len(before)

    dry = saver.sweep(policy, now=now, dry_run=True)
    assert _visible(saver) == before
    assert _states(graph, saver) == states
    assert dry.threads_examined == len(THREADS)
    assert dry.checkpoints_expired == len(before) - len(keep)
    assert dry.threads_emptied == 0
    assert dry.bytes > 0

    applied = saver.sweep(policy, now=now)
    assert applied == dry
    assert {_cid(t) for t in _visible(saver)} == keep
    for tuple_ in before:
        if _cid(tuple_) not in keep:
            assert saver.get_tuple(tuple_.config) is None
    # Every survivor, DeltaChannel included, reads as before: its history
    # runs through what the sweep kept hidden.
    assert applied.checkpoints_hidden > 0
    for cid, state in _states(graph, saver).items():
        assert state == states[cid], cid
    # Nothing is left to expire, and the threads go on from where they were.
    assert saver.sweep(policy, now=now).checkpoints_expired == 0
    _run_turns(graph, "a", TURNS, 1)
    assert graph.get_state(_thread("a")).values["messages"] == expected_messages(
        TURNS + 1
    )


def test_sweep_now_naive_is_utc(written: tuple[RockpointSaver, Any]) -> None:
    saver, _ = written
    before = _visible(saver)
    cutoff = sorted(_ts(t) for t in before)[len(before) // 3]
    policy = Retention(max_age=HOUR)
    aware = saver.sweep(policy, now=cutoff + HOUR, dry_run=True)
    assert aware.checkpoints_expired == len(before) // 3
    naive = (cutoff + HOUR).astimezone(timezone.utc).replace(tzinfo=None)
    assert saver.sweep(policy, now=naive, dry_run=True) == aware
    elsewhere = (cutoff + HOUR).astimezone(timezone(timedelta(hours=-7)))
    assert saver.sweep(policy, now=elsewhere, dry_run=True) == aware
    # Without `now`: the current time, after every ts written here.
    assert saver.sweep(
        Retention(max_age=timedelta(0)), dry_run=True
    ).checkpoints_expired == len(before)


def test_a_ts_that_does_not_parse_never_expires_by_age(saver: RockpointSaver) -> None:
    cp = empty_checkpoint()
    cp["ts"] = "yesterday"
    saver.put(_thread("odd"), cp, {}, {})
    _put(saver, "plain")
    report = saver.sweep(
        Retention(max_age=timedelta(0)), now=datetime.now(timezone.utc) + DAY
    )
    assert report.checkpoints_expired == 1
    assert _threads(saver) == ["odd"]


# ---- (c) max_idle -----------------------------------------------------------


@pytest.mark.parametrize("keep_last", [None, 1])
def test_max_idle_deletes_an_idle_thread_whole(
    store_path: str, keep_last: int | None
) -> None:
    with RockpointSaver.open(store_path, sync_writes=False) as saver:
        graph = chat_graph(FREQUENCY, saver)
        # The active thread has checkpoints older than the idle one's too.
        _run_turns(graph, "active", 0, 2)
        _run_turns(graph, "idle", 0, 3)
        _run_turns(graph, "active", 2, 2)
        active = _visible(saver, "active")
        idle = _visible(saver, "idle")
        assert _ts(active[-1]) < _ts(idle[0]) < _ts(active[0])
        idle_state = graph.get_state(_thread("idle"))
        active_states = _states(graph, saver)
        # The cutoff is the active thread's newest ts: it is not idle.
        policy = Retention(max_idle=DAY, keep_last=keep_last)
        report = saver.sweep(policy, now=_ts(active[0]) + DAY)

        assert _visible(saver, "active") == active
        for tuple_ in active:
            assert graph.get_state(tuple_.config) == active_states[_cid(tuple_)]
        if keep_last is None:
            assert report == RetentionReport(
                threads_examined=2,
                threads_emptied=1,
                checkpoints_expired=len(idle),
                checkpoints_hidden=0,
                bytes=report.bytes,
            )
            assert report.bytes > 0
            assert _visible(saver, "idle") == []
            assert _threads(saver) == ["active"]
            assert graph.get_state(_thread("idle")).values == {}
        else:
            # keep_last is the floor: the idle thread keeps its latest state.
            assert report.threads_emptied == 0
            assert report.checkpoints_expired == len(idle) - 1
            assert [_cid(t) for t in _visible(saver, "idle")] == [_cid(idle[0])]
            assert graph.get_state(_thread("idle")) == idle_state


# ---- (d) the background sweeper ---------------------------------------------


def test_background_sweeper_keeps_last_2_and_close_stops_it(store_path: str) -> None:
    others = _sweeper_threads()
    policy = Retention(keep_last=2, sweep_interval=timedelta(milliseconds=20))
    saver = RockpointSaver.open(store_path, sync_writes=False, retention=policy)
    sweeper = _sweeper_threads() - others  # and the store's timer thread
    assert sweeper
    graph = chat_graph(FREQUENCY, saver)
    _run_turns(graph, "t", 0, 2)  # 6 checkpoints
    # The newest two remain, whatever the sweeps saw while the graph ran.
    newest = saver.get_tuple(_thread("t"))
    assert newest is not None
    _wait_until(lambda: len(_visible(saver, "t")) == 2)
    visible = _visible(saver, "t")
    assert _cid(visible[0]) == _cid(newest)
    assert visible[1].config == newest.parent_config
    assert graph.get_state(_thread("t")).values["messages"] == expected_messages(2)

    saver.close()
    assert saver.closed
    # close() joined the sweeper; the kernel may list a joined thread in /proc
    # a moment longer.
    _wait_until(lambda: not (sweeper & _sweeper_threads()))
    with pytest.raises(ClosedError):
        saver.sweep()
    # The store is released; reopened without a policy, nothing is swept.
    with RockpointSaver.open(store_path, sync_writes=False) as reopened:
        assert reopened.retention is None
        ids = _put_chain(reopened, "u", 4)
        time.sleep(0.1)
        assert [_cid(t) for t in _visible(reopened, "u")] == ids[::-1]
        assert len(_visible(reopened, "t")) == 2


@pytest.mark.parametrize("backend", ["rocksdb", "memory"])
def test_close_while_sweeping(tmp_path: Path, backend: str) -> None:
    """Closing waits for a sweep in progress; the sweeper thread ends."""
    others = _sweeper_threads()
    policy = Retention(keep_last=1, sweep_interval=timedelta(milliseconds=1))
    for round_ in range(10):
        if backend == "rocksdb":
            saver = RockpointSaver.open(
                str(tmp_path / "store"), sync_writes=False, retention=policy
            )
        else:
            saver = RockpointSaver.memory(retention=policy)
        for thread in range(8):
            _put_chain(saver, f"{round_}-{thread}", 5)
        saver.close()
        # close() joined the sweeper; the kernel may list a joined thread in
        # /proc a moment longer.
        _wait_until(lambda: not (_sweeper_threads() - others))


def test_memory_saver_sweeps_in_the_background() -> None:
    others = _sweeper_threads()
    policy = Retention(keep_last=1, sweep_interval=timedelta(milliseconds=20))
    with RockpointSaver.memory(retention=policy) as saver:
        sweeper = _sweeper_threads() - others
        assert len(sweeper) == 1
        ids = _put_chain(saver, "t", 4)
        _wait_until(lambda: [_cid(t) for t in _visible(saver, "t")] == ids[-1:])
    _wait_until(lambda: not (sweeper & _sweeper_threads()))  # joined, see above
    # Without a policy, no thread.
    before = _sweeper_threads()
    with RockpointSaver.memory() as saver:
        assert not (_sweeper_threads() - before)


# ---- (e) asweep ------------------------------------------------------------


async def test_asweep(saver: RockpointSaver) -> None:
    for thread in ("x", "y"):
        _put_chain(saver, thread, 3)
    policy = Retention(keep_last=1)
    dry = await saver.asweep(policy, dry_run=True)
    assert dry == RetentionReport(
        threads_examined=2,
        threads_emptied=0,
        checkpoints_expired=4,
        checkpoints_hidden=0,
        bytes=dry.bytes,
    )
    assert len(_visible(saver)) == 6
    # Concurrent asweeps: one applies each expiry, the reports add up.
    reports = await asyncio.gather(saver.asweep(policy), saver.asweep(policy))
    assert sum(r.checkpoints_expired for r in reports) == 4
    assert len(_visible(saver)) == 2
    with pytest.raises(ValueError, match="sweep needs a retention policy"):
        await saver.asweep()


async def test_asweep_uses_the_savers_policy(store_path: str) -> None:
    policy = Retention(max_age=HOUR)  # the sweeper waits 10 minutes
    async with RockpointSaver.open(store_path, retention=policy) as saver:
        first = _put_chain(saver, "t", 2)
        now = datetime.now(timezone.utc) + HOUR
        time.sleep(0.01)
        _put(saver, "t", first[-1])
        report = await saver.asweep(now=now)
        assert report.checkpoints_expired == 2
        assert len(_visible(saver, "t")) == 1
