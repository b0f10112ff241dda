"""RockpointSaver's own contract: metadata filters with Python equality,
errors, the store lock, copies, closing, concurrency, async fast paths."""

from __future__ import annotations

import asyncio
import copy
import gc
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from langgraph.checkpoint.base import empty_checkpoint

from langgraph.checkpoint.rockpoint import (
    BusyError,
    ClosedError,
    InvalidArgumentError,
    RockpointError,
    RockpointSaver,
)


def _put(
    saver: RockpointSaver,
    thread: str,
    metadata: dict[str, Any],
    parent: str | None = None,
    values: dict[str, Any] | None = None,
) -> dict[str, Any]:
    cp = empty_checkpoint()
    values = values or {"x": 1}
    cp["channel_values"] = values
    versions = {k: saver.get_next_version(None) for k in values}
    cp["channel_versions"] = versions
    config: dict[str, Any] = {
        "configurable": {"thread_id": thread, "checkpoint_ns": ""}
    }
    if parent:
        config["configurable"]["checkpoint_id"] = parent
    return saver.put(config, cp, metadata, versions)


def _ids(saver: RockpointSaver, **kwargs: Any) -> list[str]:
    return [
        t.config["configurable"]["checkpoint_id"] for t in saver.list(None, **kwargs)
    ]


def test_filter_python_equality(saver: RockpointSaver) -> None:
    a = _put(saver, "t", {"step": 1, "flag": True, "score": 2.5})
    b = _put(saver, "t", {"step": 2.0, "other": None})
    ida, idb = (c["configurable"]["checkpoint_id"] for c in (a, b))
    assert _ids(saver, filter={"step": 1.0}) == [ida]
    assert _ids(saver, filter={"step": 2}) == [idb]
    assert _ids(saver, filter={"flag": 1}) == [ida]
    assert _ids(saver, filter={"score": 2.5}) == [ida]
    # None matches a stored None and a missing key (as InMemorySaver).
    assert _ids(saver, filter={"other": None}) == [idb, ida]
    assert _ids(saver, filter={"flag": None}) == [idb]
    assert _ids(saver, filter={"other": None}, limit=1) == [idb]
    # Metadata reads back with its exact types.
    meta = saver.get_tuple({"configurable": {"thread_id": "t", "checkpoint_id": ida}})
    assert meta is not None
    assert meta.metadata["flag"] is True and type(meta.metadata["step"]) is int
    meta_b = saver.get_tuple({"configurable": {"thread_id": "t", "checkpoint_id": idb}})
    assert meta_b is not None and type(meta_b.metadata["step"]) is float


def _nested_dicts(levels: int, leaf: Any = None) -> Any:
    """``levels`` dicts {"k": {"k": ... leaf}}, built without recursion."""
    value = leaf
    for _ in range(levels):
        value = {"k": value}
    return value


def _nested_lists(levels: int) -> Any:
    """``levels`` lists [[...[]...]], built without recursion."""
    value: list[Any] = []
    for _ in range(levels - 1):
        value = [value]
    return value


def test_metadata_nesting_limit(saver: RockpointSaver) -> None:
    """255 dicts and lists, the metadata dict counted, are stored and read
    back; one more level, or 20,000 more, is InvalidArgumentError with the
    engine's message and writes nothing."""
    limit = "metadata nests deeper than 255 maps and arrays"
    deepest = _nested_dicts(255, 1)
    with_lists = {"k": _nested_lists(254)}
    stored = [_put(saver, "t", deepest), _put(saver, "t", with_lists)]
    for config, metadata in zip(stored, (deepest, with_lists), strict=True):
        tuple_ = saver.get_tuple(config)
        assert tuple_ is not None and tuple_.metadata == metadata
    for too_deep in (
        _nested_dicts(256, 1),
        {"k": _nested_lists(255)},
        {"k": _nested_lists(20_000)},
        {"k": (_nested_lists(20_000),)},
    ):
        with pytest.raises(InvalidArgumentError, match=limit):
            _put(saver, "t", too_deep)
    assert len(_ids(saver)) == 2
    # Filters follow the same rule: at the limit they match, deeper is refused.
    assert _ids(saver, filter={"k": deepest["k"]}) == [
        stored[0]["configurable"]["checkpoint_id"]
    ]
    for too_deep_filter in ({"k": _nested_lists(255)}, {"k": _nested_lists(20_000)}):
        with pytest.raises(InvalidArgumentError, match="filter nests deeper than 255"):
            _ids(saver, filter=too_deep_filter)


@pytest.mark.parametrize(
    "config, error",
    [
        (None, TypeError),
        ({}, KeyError),
        ({"configurable": {}}, KeyError),
        ({"configurable": {"thread_id": None}}, KeyError),
        ({"configurable": {"checkpoint_ns": "", "checkpoint_id": "x"}}, KeyError),
    ],
)
def test_get_tuple_without_thread_raises_as_peers_do(
    saver: RockpointSaver, config: Any, error: type[Exception]
) -> None:
    # InMemorySaver and SqliteSaver index config["configurable"]["thread_id"].
    _put(saver, "t", {})
    with pytest.raises(error):
        saver.get_tuple(config)
    with pytest.raises(error):
        asyncio.run(saver.aget_tuple(config))


@pytest.mark.parametrize(
    "url", ["postgresql://user@localhost/db", "postgres:///db?host=/tmp"]
)
def test_open_refuses_a_url_and_creates_nothing(
    url: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match="not a postgres(ql)?:// URL"):
        RockpointSaver.open(url)
    assert list(tmp_path.iterdir()) == []


def test_bad_input_raises_and_writes_nothing(saver: RockpointSaver) -> None:
    with pytest.raises(ValueError, match="thread_id"):
        _put(saver, None, {})  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        saver.put_writes({"configurable": {"thread_id": "t"}}, [("c", 1)], "task")
    with pytest.raises(ValueError, match="keep_latest"):
        saver.prune(["t"], strategy="sideways")
    with pytest.raises(TypeError):
        saver.put({"configurable": {"thread_id": "t"}}, "nope", {}, {})  # type: ignore[arg-type]
    cyclic: dict[str, Any] = {}
    cyclic["self"] = cyclic
    with pytest.raises(InvalidArgumentError, match="metadata nests deeper than 255"):
        _put(saver, "t", cyclic)
    cp = empty_checkpoint()
    with pytest.raises(ValueError, match="new_versions"):
        saver.put({"configurable": {"thread_id": "t"}}, cp, {}, {"c": 1.5})
    with pytest.raises(TypeError):
        saver.put_writes(
            {"configurable": {"thread_id": "t", "checkpoint_id": "x"}}, [("c",)], "task"
        )
    with pytest.raises(TypeError):
        saver.delete_for_runs("not-a-list")
    assert list(saver.list(None)) == []
    # Values the engine cannot hold as such go through the serde and round-trip.
    odd = _put(saver, "t", {"keys": {1: "one"}, "when": (1, 2)})
    stored = saver.get_tuple(odd)
    assert stored is not None
    assert stored.metadata["keys"] == {1: "one"} and stored.metadata["when"] == [1, 2]
    assert len(list(saver.list(None, filter={"keys": {1: "one"}}))) == 1
    assert issubclass(InvalidArgumentError, RockpointError)


def test_copies_share_one_store_and_close_once(saver: RockpointSaver) -> None:
    clone = copy.copy(saver)
    _put(clone, "t", {})
    assert saver.get_tuple({"configurable": {"thread_id": "t"}}) is not None
    allow = saver.with_allowlist([("mymodule", "MyClass")])
    assert allow.get_tuple({"configurable": {"thread_id": "t"}}) is not None
    clone.close()
    clone.close()
    assert saver.closed
    with pytest.raises(ClosedError):
        saver.get_tuple({"configurable": {"thread_id": "t"}})


def test_close_ends_open_list(saver: RockpointSaver) -> None:
    parent = None
    for i in range(40):
        parent = _put(saver, "t", {"i": i}, parent)["configurable"]["checkpoint_id"]
    iterator = saver.list(None)
    next(iterator)
    saver.close()
    with pytest.raises(ClosedError):
        list(iterator)


def test_second_process_gets_busy_naming_the_lock(store_path: str) -> None:
    with RockpointSaver.open(store_path):
        code = (
            "from langgraph.checkpoint.rockpoint import RockpointSaver\n"
            f"RockpointSaver.open({store_path!r})\n"
        )
        child = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=False
        )
        assert child.returncode != 0
        assert "BusyError" in child.stderr
        assert (
            "locked by another process" in child.stderr and store_path in child.stderr
        )
        assert f"lock file {store_path}/LOCK" in child.stderr
    # Released on close: this process reopens it.
    RockpointSaver.open(store_path).close()


def test_same_process_second_open_is_busy(store_path: str) -> None:
    with RockpointSaver.open(store_path), pytest.raises(BusyError):
        RockpointSaver.open(store_path)


def test_many_threads_one_saver(saver: RockpointSaver) -> None:
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            parent = None
            for i in range(30):
                parent = _put(saver, f"t{n}", {"i": i}, parent)["configurable"][
                    "checkpoint_id"
                ]
                saver.put_writes(
                    {"configurable": {"thread_id": f"t{n}", "checkpoint_id": parent}},
                    [("x", i)],
                    "task",
                )
                assert saver.get_tuple({"configurable": {"thread_id": f"t{n}"}})
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for n in range(8):
        assert len(list(saver.list({"configurable": {"thread_id": f"t{n}"}}))) == 30


async def test_many_tasks_async(tmp_path: Any) -> None:
    async with RockpointSaver.open(str(tmp_path / "s"), sync_writes=True) as saver:

        async def work(n: int) -> None:
            config: dict[str, Any] = {
                "configurable": {"thread_id": f"a{n}", "checkpoint_ns": ""}
            }
            for i in range(10):
                cp = empty_checkpoint()
                cp["channel_values"] = {"x": i}
                cp["channel_versions"] = {"x": saver.get_next_version(None)}
                config = await saver.aput(config, cp, {"i": i}, cp["channel_versions"])
                await saver.aput_writes(config, [("x", i)], "task")
            got = [
                t async for t in saver.alist({"configurable": {"thread_id": f"a{n}"}})
            ]
            assert [t.metadata["i"] for t in got] == list(range(9, -1, -1))

        await asyncio.gather(*(work(n) for n in range(20)))


def test_extension_needs_only_base_system_libraries() -> None:
    """ldd of the installed extension: librocksdb, libgflags, libsnappy and
    libcrypto come from the package directory; the rest is Debian's base
    system."""
    import langgraph.checkpoint.rockpoint._native as native

    out = subprocess.run(
        ["ldd", native.__file__], capture_output=True, text=True, check=True
    ).stdout
    assert "not found" not in out, out
    package_dir = native.__file__.rsplit("/", 1)[0]
    resolved = {
        line.split()[0]: line.split("=>")[1].split()[0]
        for line in out.splitlines()
        if "=>" in line and "/" in line.split("=>")[1]
    }
    for bundled in (
        "librocksdb.so.7.8",
        "libgflags.so.2.2",
        "libsnappy.so.1",
        "libcrypto.so.3",
    ):
        assert resolved[bundled].startswith(package_dir), (bundled, out)
    base = {
        "libstdc++.so.6",
        "libm.so.6",
        "libgcc_s.so.1",
        "libc.so.6",
        "libpthread.so.0",
        "libz.so.1",
        "libbz2.so.1.0",
        "liblz4.so.1",
        "libzstd.so.1",
    }
    outside = {
        name for name, path in resolved.items() if not path.startswith(package_dir)
    }
    assert outside <= base, outside
    assert not any("rockpoint" in name for name in resolved)


class _ThreadRecordingSerde:
    """Wraps a serde, recording the thread each dumps_typed runs on."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.threads: list[str] = []

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        self.threads.append(threading.current_thread().name)
        return self.inner.dumps_typed(obj)

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        return self.inner.loads_typed(data)


@pytest.mark.parametrize("kind", ["fsync", "no-fsync", "memory"])
async def test_async_calls_convert_on_the_loop_and_start_no_python_thread(
    tmp_path: Any, kind: str
) -> None:
    """Values are serialized and deserialized on the loop's thread; a call
    that waits for the disk waits on the store's native workers, which are
    not Python threads and never take the GIL."""
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

    serde = _ThreadRecordingSerde(JsonPlusSerializer())
    if kind == "memory":
        saver = RockpointSaver.memory(serde=serde)
    else:
        saver = RockpointSaver.open(
            str(tmp_path / "s"), sync_writes=kind == "fsync", serde=serde
        )
    python_threads = set(threading.enumerate())
    async with saver:
        cp = empty_checkpoint()
        cp["channel_values"] = {"x": 1}
        cp["channel_versions"] = {"x": saver.get_next_version(None)}
        config = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}
        config = await saver.aput(config, cp, {}, cp["channel_versions"])
        await saver.aput_writes(config, [("x", 2)], "task")
        got = await saver.aget_tuple(config)
        assert got is not None
        assert got.checkpoint["channel_values"] == {"x": 1}
        assert got.pending_writes == [("task", "x", 2)]
        assert set(threading.enumerate()) == python_threads
    loop_thread = threading.current_thread().name
    assert serde.threads and set(serde.threads) == {loop_thread}, serde.threads


async def test_async_calls_from_many_loops_and_threads(tmp_path: Any) -> None:
    """One saver serves any number of event loops at once, each in its own
    thread, with fsync; every call finishes on the loop that made it."""
    saver = RockpointSaver.open(str(tmp_path / "s"), sync_writes=True)

    async def chain(thread: str) -> None:
        config: dict[str, Any] = {
            "configurable": {"thread_id": thread, "checkpoint_ns": ""}
        }
        for i in range(20):
            cp = empty_checkpoint()
            cp["channel_values"] = {"i": i}
            cp["channel_versions"] = {"i": saver.get_next_version(None)}
            config = await saver.aput(config, cp, {"i": i}, cp["channel_versions"])
            await saver.aput_writes(config, [("i", i)], "task")
            got = await saver.aget_tuple(config)
            assert got is not None and got.metadata["i"] == i

    async def chains(n: int) -> None:
        await asyncio.wait_for(
            asyncio.gather(*(chain(f"{n}-{k}") for k in range(8))), 60
        )

    def run_loop(n: int) -> None:
        asyncio.run(chains(n))

    with saver, ThreadPoolExecutor(4) as pool:
        list(pool.map(run_loop, range(4)))  # re-raises a loop's error
        await chain("the test's own loop")
        for n in range(4):
            for k in range(8):
                listed = list(saver.list({"configurable": {"thread_id": f"{n}-{k}"}}))
                assert [t.metadata["i"] for t in listed] == list(range(19, -1, -1))


def _open_fds() -> int:
    """The process's open file descriptors, after a collection."""
    gc.collect()
    return len(os.listdir("/proc/self/fd"))


def test_async_calls_keep_nothing_of_a_finished_loop(tmp_path: Any) -> None:
    """Each asyncio.run makes a new loop; what the saver keeps for a loop
    (an eventfd and its reader) goes with the loop."""
    with RockpointSaver.open(str(tmp_path / "s"), sync_writes=True) as saver:
        config = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}

        async def read() -> None:
            assert await saver.aget_tuple(config) is None

        asyncio.run(read())
        before = _open_fds()
        for _ in range(30):
            asyncio.run(read())
        assert _open_fds() <= before + 2


async def test_closing_a_saver_frees_what_the_running_loop_kept(tmp_path: Any) -> None:
    """A loop outlives the savers it serves: closing one, on the loop's
    thread (close) or off it (aclose), frees its eventfd and reader, so a
    long-lived loop does not gather one per saver opened."""
    config = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}

    async def open_read_close(use_aclose: bool) -> None:
        saver = RockpointSaver.open(str(tmp_path / "s"), sync_writes=True)
        assert await saver.aget_tuple(config) is None
        if use_aclose:
            await saver.aclose()
            await asyncio.sleep(0)  # the loop's turn that lets go of it
        else:
            saver.close()

    for use_aclose in (False, True):
        await open_read_close(use_aclose)
        before = _open_fds()
        for _ in range(30):
            await open_read_close(use_aclose)
        assert _open_fds() <= before + 2, use_aclose


async def test_a_write_in_flight_settles_when_the_saver_closes(tmp_path: Any) -> None:
    """A call started before close from another thread is settled, not left
    pending by the loop no longer watching the store: with the put's result
    when it reached the store before the close, else with ClosedError and
    nothing written (which of the two depends on the scheduler)."""
    saver = RockpointSaver.open(str(tmp_path / "s"), sync_writes=True)
    config = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}
    written = asyncio.ensure_future(saver.aput(config, empty_checkpoint(), {}, {}))
    await asyncio.sleep(0)  # the put starts
    await saver.aclose()
    try:
        stored = await asyncio.wait_for(written, timeout=30)
    except ClosedError:
        stored = None
    with RockpointSaver.open(str(tmp_path / "s")) as reopened:
        found = reopened.get_tuple(config)
    if stored is None:
        assert found is None
    else:
        assert stored["configurable"]["thread_id"] == "t"
        assert found is not None
        assert found.config["configurable"]["checkpoint_id"] == (
            stored["configurable"]["checkpoint_id"]
        )


async def test_async_call_of_a_closed_saver_raises_closed(tmp_path: Any) -> None:
    saver = RockpointSaver.open(str(tmp_path / "s"), sync_writes=True)
    config = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}
    assert await saver.aget_tuple(config) is None
    saver.close()
    cp = empty_checkpoint()
    with pytest.raises(ClosedError):
        await saver.aput(config, cp, {}, {})
    with pytest.raises(ClosedError):
        await saver.aget_tuple(config)


async def test_async_calls_with_bad_arguments_raise_and_write_nothing(
    tmp_path: Any,
) -> None:
    """As the sync calls: a bad argument raises (before anything is started
    when conversion finds it, through the future when the engine does)."""
    async with RockpointSaver.open(str(tmp_path / "s"), sync_writes=True) as saver:
        config = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}
        cp = empty_checkpoint()
        with pytest.raises(ValueError, match="new_versions"):
            await saver.aput(config, cp, {}, {"c": 1.5})
        with pytest.raises(ValueError, match="thread_id"):
            await saver.aput({"configurable": {}}, cp, {}, {})
        with pytest.raises(InvalidArgumentError):
            await saver.aput_writes(config, [("c", 1)], "task")
        with pytest.raises(TypeError):
            await saver.aput_writes(
                {"configurable": {"thread_id": "t", "checkpoint_id": "x"}},
                [("c",)],
                "task",
            )
        with pytest.raises(TypeError):
            await saver.aget_tuple(None)  # type: ignore[arg-type]
        with pytest.raises(KeyError):
            await saver.aget_tuple({"configurable": {}})
        assert await saver.aget_tuple(config) is None
        assert [t async for t in saver.alist(None)] == []
