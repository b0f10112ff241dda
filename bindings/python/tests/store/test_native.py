"""The engine binding itself (langgraph.checkpoint.rockpoint._native.ItemStore):
its options, the engine's own sweeper, and close() with calls in flight."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from langgraph.checkpoint.rockpoint import ClosedError, InvalidArgumentError, _native

SERDE = JsonPlusSerializer()


@pytest.fixture(params=["rocksdb", "memory"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return "memory:" if request.param == "memory" else f"rocksdb:{tmp_path / 'store'}"


def _put(
    ns: tuple[str, ...], key: str, value: dict | None, ttl: object = "default"
) -> tuple:
    return ("put", ns, key, value, None, ttl)


def test_ops_and_results(url: str) -> None:
    store = _native.ItemStore.open(url, sync_writes=False, dims=2)
    assert store.dims == 2 and not store.closed
    assert store.name.startswith(url.split(":")[0])
    out = store.batch(
        [
            _put(("a", "b"), "k", {"x": 1}),
            ("put", ("a",), "v", {"t": "hi"}, [("t", [1.0, 0.0])], None),
        ],
        SERDE,
    )
    assert out == [None, None]
    got, found, spaces = store.batch(
        [
            ("get", ("a", "b"), "k", True),
            ("search", ("a",), None, [1.0, 0.0], 10, 0, False),
            ("list", [("prefix", ("a",))], None, 100, 0),
        ],
        SERDE,
    )
    ns, key, value, created, updated, expires = got
    assert (ns, key, value, expires) == (("a", "b"), "k", {"x": 1}, None)
    assert isinstance(created, int) and created == updated
    assert abs(created / 1e6 - time.time()) < 60
    assert [(r[1], r[6]) for r in found] == [("v", pytest.approx(1.0)), ("k", None)]
    assert spaces == [("a",), ("a", "b")]
    store.close()
    store.close()
    assert store.closed
    with pytest.raises(ClosedError):
        store.batch([], SERDE)
    with pytest.raises(ClosedError):
        store.sweep()


def test_bad_op_shapes(url: str) -> None:
    store = _native.ItemStore.open(url, sync_writes=False)
    for ops, error in [
        ("not a list", TypeError),
        ([("get",)], TypeError),
        ([("frob", ("a",), "k", True)], ValueError),
        ([("get", "a", "k", True)], TypeError),
        ([("get", ("a", 1), "k", True)], TypeError),
        ([("put", ("a",), "k", {"v": 1}, None, True)], TypeError),
        ([("put", ("a",), "k", {"v": 1}, [("f", ["x"])], None)], TypeError),
        ([("list", [("middle", ("a",))], None, 10, 0)], ValueError),
        ([("search", ("a",), None, None, -1, 0, True)], ValueError),
        ([("put", ("a.b",), "k", {"v": 1}, None, None)], InvalidArgumentError),
        ([("put", ("a",), "k", {"v": 1}, [("f", [1.0])], None)], InvalidArgumentError),
        ([("search", ("a",), None, [1.0], 10, 0, True)], InvalidArgumentError),
    ]:
        with pytest.raises(error):
            store.batch(ops, SERDE)  # type: ignore[arg-type]
    assert store.batch([("list", None, None, 10, 0)], SERDE) == [[]]
    store.close()


def test_engine_sweeper(url: str) -> None:
    store = _native.ItemStore.open(
        url,
        sync_writes=False,
        default_ttl_minutes=0.2 / 60,
        sweep_interval_minutes=0.05 / 60,
        sweep_batch_size=2,
    )
    store.batch([_put(("t",), f"k{i}", {"i": i}) for i in range(7)], SERDE)
    store.batch([_put(("t",), "keep", {"i": -1}, None)], SERDE)
    time.sleep(0.8)
    # The engine's sweeper deleted the expired items (in batches of 2).
    assert store.sweep() == 0
    assert store.batch([("list", None, None, 10, 0)], SERDE) == [[("t",)]]
    found = store.batch([("search", (), None, None, 10, 0, False)], SERDE)[0]
    assert [r[1] for r in found] == ["keep"]
    store.close()


def test_close_waits_for_calls_in_flight(url: str) -> None:
    store = _native.ItemStore.open(url, sync_writes=False)
    errors: list[BaseException] = []
    done = threading.Event()
    counts = [0] * 4

    def work(n: int) -> None:
        i = 0
        while not done.is_set():
            try:
                store.batch(
                    [
                        _put(("w", str(n)), f"k{i}", {"i": i}),
                        ("search", ("w",), None, None, 5, 0, True),
                    ],
                    SERDE,
                )
                counts[n] += 1
            except ClosedError:
                return
            except BaseException as error:  # noqa: BLE001
                errors.append(error)
                return
            i += 1

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    time.sleep(0.3)
    store.close()
    done.set()
    for t in threads:
        t.join(10)
    assert not errors
    assert all(c > 0 for c in counts)
    assert store.closed


def test_open_errors(tmp_path: Path) -> None:
    with pytest.raises(Exception):  # noqa: B017
        _native.ItemStore.open(f"rocksdb:{tmp_path / 'nope'}", create_if_missing=False)
    with pytest.raises(Exception):  # noqa: B017 - NotSupported
        _native.ItemStore.open("postgresql://x/y")
    with pytest.raises(InvalidArgumentError):
        _native.ItemStore.open("memory:", default_ttl_minutes=-1)
    with pytest.raises(TypeError):
        _native.ItemStore.open("memory:", default_ttl_minutes="1")  # type: ignore[arg-type]
