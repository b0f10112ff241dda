"""Encryption at rest (docs/ENCRYPTION.md) through RockpointSaver:
open(path, encryption_key=...) seals every record in the engine. Round trips
(saver API, a real graph, async), nothing of the data in the store's files,
reopening with the key, a wrong or missing key, bad keys refused before
anything is opened, and a tampered record read as CorruptionError."""

import asyncio
import operator
import os
from pathlib import Path
from typing import Annotated, Any

import pytest
from graphs import chat_graph, expected_messages, turn_input
from langgraph.checkpoint.base import empty_checkpoint
from langgraph.graph import START, StateGraph
from typing_extensions import TypedDict

from langgraph.checkpoint.rockpoint import (
    CorruptionError,
    InvalidArgumentError,
    Retention,
    RockpointSaver,
)

KEY = bytes(range(0x40, 0x60))  # 32 bytes
KEY_HEX = KEY.hex()
OTHER_KEY = bytes(range(0x60, 0x80))

META_MARKER = "meta-marker-QX7v2Lp9"
VALUE_MARKER = "value-marker-Zr4kW8nT"
WRITE_MARKER = "write-marker-Hb3sY6mD"
GRAPH_MARKER = "graph-marker-Ua9cE1fJ"
MARKERS = [META_MARKER, VALUE_MARKER, WRITE_MARKER, GRAPH_MARKER]


class State(TypedDict):
    log: Annotated[list, operator.add]


def _pipeline(checkpointer: Any) -> Any:
    builder = StateGraph(State)
    builder.add_node("a", lambda s: {"log": ["a"]})
    builder.add_node("b", lambda s: {"log": ["b"]})
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    return builder.compile(checkpointer=checkpointer)


def _cfg(thread: str, checkpoint_id: str | None = None) -> dict[str, Any]:
    configurable: dict[str, Any] = {"thread_id": thread, "checkpoint_ns": ""}
    if checkpoint_id is not None:
        configurable["checkpoint_id"] = checkpoint_id
    return {"configurable": configurable}


def _put(
    saver: RockpointSaver,
    thread: str,
    metadata: dict[str, Any],
    values: dict[str, Any],
    parent: str | None = None,
) -> str:
    cp = empty_checkpoint()
    versions = {k: saver.get_next_version(None) for k in values}
    cp["channel_values"] = dict(values)
    cp["channel_versions"] = versions
    out = saver.put(_cfg(thread, parent), cp, metadata, versions)
    return out["configurable"]["checkpoint_id"]


def _fill(saver: RockpointSaver) -> tuple[str, str]:
    """Two checkpoints of thread "t" (one with the markers), a pending
    write, and two graph runs of thread "g"; returns the checkpoint ids."""
    first = _put(saver, "t", {"step": 1, "source": "input"}, {"x": 1})
    second = _put(
        saver,
        "t",
        {"step": 2, "source": "loop", "note": META_MARKER},
        {"x": 2, "big": VALUE_MARKER * 50},
        parent=first,
    )
    saver.put_writes(_cfg("t", second), [("x", WRITE_MARKER)], "task-1")
    graph = _pipeline(saver)
    graph.invoke({"log": [GRAPH_MARKER]}, {"configurable": {"thread_id": "g"}})
    return first, second


def _check(
    saver: RockpointSaver, first: str, second: str, log: list[str] | None = None
) -> None:
    """What _fill stored reads back (`log`: the graph thread's, if not the
    one _fill left)."""
    latest = saver.get_tuple(_cfg("t"))
    assert latest is not None
    assert latest.config["configurable"]["checkpoint_id"] == second
    assert latest.metadata["note"] == META_MARKER
    assert latest.metadata["step"] == 2
    assert latest.checkpoint["channel_values"]["big"] == VALUE_MARKER * 50
    assert latest.checkpoint["channel_values"]["x"] == 2
    assert latest.pending_writes == [("task-1", "x", WRITE_MARKER)]
    assert latest.parent_config is not None
    assert latest.parent_config["configurable"]["checkpoint_id"] == first
    older = saver.get_tuple(_cfg("t", first))
    assert older is not None and older.checkpoint["channel_values"] == {"x": 1}
    # Metadata filters are answered in the engine, on opened records.
    ids = [
        t.config["configurable"]["checkpoint_id"]
        for t in saver.list(_cfg("t"), filter={"source": "loop"})
    ]
    assert ids == [second]
    ids = [
        t.config["configurable"]["checkpoint_id"]
        for t in saver.list(None, filter={"note": META_MARKER, "step": 2.0})
    ]
    assert ids == [second]
    assert [t.metadata["step"] for t in saver.list(_cfg("t"))] == [2, 1]
    assert len(list(saver.list(_cfg("t"), filter={"source": "nowhere"}))) == 0
    graph = _pipeline(saver)
    state = graph.get_state({"configurable": {"thread_id": "g"}})
    assert state.values["log"] == (log or [GRAPH_MARKER, "a", "b"])


def _files_containing(path: Path, needles: list[str]) -> dict[str, list[str]]:
    """needle -> the files under `path` whose bytes contain it."""
    found: dict[str, list[str]] = {n: [] for n in needles}
    for root, _, files in os.walk(path):
        for name in files:
            data = (Path(root) / name).read_bytes()
            for needle in needles:
                if needle.encode() in data:
                    found[needle].append(name)
    return found


def test_round_trip_and_nothing_in_the_clear(tmp_path: Path) -> None:
    path = tmp_path / "store"
    with RockpointSaver.open(str(path), encryption_key=KEY) as saver:
        first, second = _fill(saver)
        _check(saver, first, second)
    found = _files_containing(path, MARKERS)
    assert found == {m: [] for m in MARKERS}
    # Identifiers stay in the clear (docs/ENCRYPTION.md): the scan does see
    # the store's bytes.
    assert _files_containing(path, [second])[second]

    # The same data in a plaintext store: every marker is on disk, so the
    # scan above would have found them.
    plain = tmp_path / "plain"
    with RockpointSaver.open(str(plain)) as saver:
        _fill(saver)
    found = _files_containing(plain, MARKERS)
    assert all(found[m] for m in MARKERS), found

    # Reopen with the same key as 64 hex digits (surrounding whitespace is
    # ignored): everything reads back, the graph continues.
    hex_key = f"  {KEY_HEX.upper()}\n"
    with RockpointSaver.open(str(path), encryption_key=hex_key) as saver:
        _check(saver, first, second)
        graph = _pipeline(saver)
        out = graph.invoke({"log": ["again"]}, {"configurable": {"thread_id": "g"}})
        log = [GRAPH_MARKER, "a", "b", "again", "a", "b"]
        assert out["log"] == log
    # Read-only with the key (bytearray works too).
    with RockpointSaver.open(
        str(path), read_only=True, encryption_key=bytearray(KEY)
    ) as saver:
        _check(saver, first, second, log)


def test_delta_channels_and_maintenance(tmp_path: Path) -> None:
    path = str(tmp_path / "store")
    with RockpointSaver.open(path, encryption_key=KEY, sync_writes=False) as saver:
        graph = chat_graph(2, saver)
        config = {"configurable": {"thread_id": "chat"}}
        for i in range(5):
            graph.invoke(turn_input(i), config)
        assert graph.get_state(config).values["messages"] == expected_messages(5)
        saver.copy_thread("chat", "copy")
        copied = graph.get_state({"configurable": {"thread_id": "copy"}})
        assert copied.values["messages"] == expected_messages(5)
        saver.prune(["chat"], keep_last=2)
        assert graph.get_state(config).values["messages"] == expected_messages(5)
        report = saver.sweep(Retention(keep_last=1))
        assert report.threads_examined == 2
        assert graph.get_state(config).values["messages"] == expected_messages(5)
    with RockpointSaver.open(path, encryption_key=KEY) as saver:
        graph = chat_graph(2, saver)
        graph.invoke(turn_input(5), config)
        assert graph.get_state(config).values["messages"] == expected_messages(6)


async def test_async_round_trip(tmp_path: Path) -> None:
    path = str(tmp_path / "store")
    async with RockpointSaver.open(path, encryption_key=KEY_HEX) as saver:
        graph = _pipeline(saver)
        config = {"configurable": {"thread_id": "async"}}
        await asyncio.gather(
            *(
                graph.ainvoke(
                    {"log": [f"{GRAPH_MARKER}-{i}"]},
                    {"configurable": {"thread_id": f"a{i}"}},
                )
                for i in range(4)
            )
        )
        await graph.ainvoke({"log": [GRAPH_MARKER]}, config)
        latest = await saver.aget_tuple(config)
        assert latest is not None
        assert latest.checkpoint["channel_values"]["log"] == [GRAPH_MARKER, "a", "b"]
        every = [t async for t in saver.alist(config)]
        loops = [t async for t in saver.alist(config, filter={"source": "loop"})]
        assert len(loops) >= 2
        assert loops == [t for t in every if t.metadata["source"] == "loop"]
    assert _files_containing(Path(path), [GRAPH_MARKER])[GRAPH_MARKER] == []


def test_reopen_without_key(tmp_path: Path) -> None:
    path = str(tmp_path / "store")
    with RockpointSaver.open(path, encryption_key=KEY) as saver:
        _put(saver, "t", {"step": 1}, {"x": 1})
    with pytest.raises(InvalidArgumentError) as error:
        RockpointSaver.open(path)
    message = str(error.value)
    assert message.startswith("the store is encrypted")
    assert "encryption_key=" in message
    # A failed open releases the store: the right key still opens it.
    with RockpointSaver.open(path, encryption_key=KEY) as saver:
        assert saver.get_tuple(_cfg("t")) is not None


@pytest.mark.parametrize("wrong", [OTHER_KEY, OTHER_KEY.hex()], ids=["bytes", "hex"])
def test_reopen_with_wrong_key(tmp_path: Path, wrong: bytes | str) -> None:
    path = str(tmp_path / "store")
    with RockpointSaver.open(path, encryption_key=KEY) as saver:
        _put(saver, "t", {"step": 1}, {"x": 1})
    with pytest.raises(InvalidArgumentError, match="wrong encryption key") as error:
        RockpointSaver.open(path, encryption_key=wrong)
    assert OTHER_KEY.hex() not in str(error.value).lower()
    with RockpointSaver.open(path, encryption_key=KEY) as saver:
        assert saver.get_tuple(_cfg("t")) is not None


def test_key_for_a_plaintext_store_with_records(tmp_path: Path) -> None:
    path = str(tmp_path / "store")
    with RockpointSaver.open(path) as saver:
        _put(saver, "t", {"step": 1}, {"x": 1})
    with pytest.raises(InvalidArgumentError, match="plaintext records.*rekey"):
        RockpointSaver.open(path, encryption_key=KEY)
    with RockpointSaver.open(path) as saver:
        assert saver.get_tuple(_cfg("t")) is not None


@pytest.mark.parametrize(
    ("key", "error", "match"),
    [
        (b"", ValueError, "exactly 32 bytes, not 0"),
        (KEY[:31], ValueError, "exactly 32 bytes, not 31"),
        (KEY + b"\0", ValueError, "exactly 32 bytes, not 33"),
        (bytearray(16), ValueError, "exactly 32 bytes, not 16"),
        ("", ValueError, "64 hex digits .32 bytes., not 0 characters"),
        (KEY_HEX[:-1], ValueError, "not 63 characters"),
        (KEY_HEX + "0", ValueError, "not 65 characters"),
        ("zz" + KEY_HEX[2:], ValueError, "not one"),
        (KEY_HEX[:32] + " " + KEY_HEX[33:], ValueError, "not one"),
        ("é" + KEY_HEX[1:], ValueError, "not one"),
        (KEY.decode("latin-1"), ValueError, "not 32 characters"),
        (12345, TypeError, "not int"),
        (memoryview(KEY), TypeError, "not memoryview"),
        (True, TypeError, "not bool"),
        ([KEY], TypeError, "not list"),
    ],
    ids=[
        "empty-bytes",
        "31-bytes",
        "33-bytes",
        "16-bytearray",
        "empty-str",
        "63-digits",
        "65-digits",
        "non-hex",
        "inner-space",
        "non-ascii",
        "raw-bytes-as-str",
        "int",
        "memoryview",
        "bool",
        "list",
    ],
)
def test_bad_keys_refused_before_opening(
    tmp_path: Path, key: Any, error: type[Exception], match: str
) -> None:
    path = tmp_path / "store"
    with pytest.raises(error, match=match) as raised:
        RockpointSaver.open(str(path), encryption_key=key)
    assert not isinstance(raised.value, InvalidArgumentError)
    assert KEY_HEX not in str(raised.value)
    assert not path.exists()  # nothing was created


def test_memory_saver_takes_no_key() -> None:
    with pytest.raises(ValueError, match="memory saver holds nothing at rest"):
        RockpointSaver.memory(encryption_key=KEY)
    with RockpointSaver.memory(encryption_key=None) as saver:
        assert saver.get_tuple(_cfg("t")) is None


# ---- tampering ---------------------------------------------------------
# A RocksDB write-ahead log (closing a store does not flush it, so a small
# store's records are only there): 32 KiB blocks of physical records, each
# a 7-byte header (masked CRC-32C of type and payload, length, type) and its
# payload, a WriteBatch whose puts hold each key and value as is.

_WAL_BLOCK = 32768
_WAL_HEADER = 7


def _crc32c_table() -> list[int]:
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC_TABLE = _crc32c_table()


def _masked_crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for b in data:
        crc = _CRC_TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    crc ^= 0xFFFFFFFF
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def _wal_records(data: bytes) -> list[tuple[int, int]]:
    """(header offset, payload length) of each physical record."""
    records = []
    pos = 0
    while pos + _WAL_HEADER <= len(data):
        left = _WAL_BLOCK - pos % _WAL_BLOCK
        if left < _WAL_HEADER:
            pos += left
            continue
        length = int.from_bytes(data[pos + 4 : pos + 6], "little")
        kind = data[pos + 6]
        if kind == 0 and length == 0:
            break
        records.append((pos, length))
        pos += _WAL_HEADER + length
    return records


def _text(element: str) -> bytes:
    """A tuple text element (keys/FORMAT.md)."""
    return b"\x02" + element.encode().replace(b"\x00", b"\x00\xff") + b"\x00"


def _tamper_checkpoint(store: Path, thread: str, checkpoint_id: str) -> None:
    """Flips one ciphertext byte of the sealed checkpoint record
    ("cp", thread, "", checkpoint_id) in the store's WAL and fixes the
    physical record's checksum, so RocksDB replays it as written and only
    the engine's authentication can notice."""
    key = _text("cp") + _text(thread) + _text("") + _text(checkpoint_id)
    for wal in sorted(store.glob("*.log")):
        data = bytearray(wal.read_bytes())
        at = data.find(key)
        if at < 0:
            continue
        pos = at + len(key)
        length, shift = 0, 0
        while True:  # the value's varint32 length
            byte = data[pos]
            pos += 1
            length |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        assert data[pos] == 0xE1, "not a sealed record"
        assert length > 29 + 8
        flip = pos + 13 + 4  # inside the ciphertext (after format and nonce)
        data[flip] ^= 0x01
        for header, size in _wal_records(bytes(data)):
            start = header + _WAL_HEADER
            if start <= flip < start + size:
                assert start <= at, "the record spans WAL blocks"
                crc = _masked_crc32c(bytes(data[header + 6 : start + size]))
                data[header : header + 4] = crc.to_bytes(4, "little")
                break
        else:
            raise AssertionError("no WAL record holds the checkpoint")
        wal.write_bytes(bytes(data))
        return
    raise AssertionError(f"checkpoint {checkpoint_id} not found in a WAL")


def test_tampered_record_is_corruption(tmp_path: Path) -> None:
    store = tmp_path / "store"
    with RockpointSaver.open(str(store), encryption_key=KEY) as saver:
        first = _put(saver, "t", {"step": 1}, {"x": 1})
        second = _put(saver, "t", {"step": 2}, {"x": 2}, parent=first)
        _put(saver, "other", {"step": 1}, {"x": 3})
    _tamper_checkpoint(store, "t", second)
    with RockpointSaver.open(str(store), encryption_key=KEY) as saver:
        with pytest.raises(CorruptionError, match="does not authenticate") as error:
            saver.get_tuple(_cfg("t"))
        assert "cp" in str(error.value)
        with pytest.raises(CorruptionError):
            saver.get_tuple(_cfg("t", second))
        with pytest.raises(CorruptionError):
            list(saver.list(_cfg("t")))
        with pytest.raises(CorruptionError):
            list(saver.list(None, filter={"step": 2}))
        # The records around it still read.
        older = saver.get_tuple(_cfg("t", first))
        assert older is not None and older.checkpoint["channel_values"] == {"x": 1}
        other = saver.get_tuple(_cfg("other"))
        assert other is not None and other.checkpoint["channel_values"] == {"x": 3}


def test_untampered_wal_rewrite_still_reads(tmp_path: Path) -> None:
    """The WAL rewriting of the tamper test is sound: recomputing the
    checksums of an unchanged WAL changes nothing."""
    store = tmp_path / "store"
    with RockpointSaver.open(str(store), encryption_key=KEY) as saver:
        _put(saver, "t", {"step": 1}, {"x": 1})
    for wal in store.glob("*.log"):
        data = bytearray(wal.read_bytes())
        for header, size in _wal_records(bytes(data)):
            start = header + _WAL_HEADER
            crc = _masked_crc32c(bytes(data[header + 6 : start + size]))
            assert data[header : header + 4] == crc.to_bytes(4, "little")
