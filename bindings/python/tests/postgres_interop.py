"""Helpers of test_postgres_interop.py: a fresh PostgreSQL database per test,
the rockpoint CLI, the graphs both savers run, and the forms in which the CLI
shows what LangGraph's PostgresSaver reads.

No "from __future__ import annotations": LangGraph reads the state schemas'
annotations at run time."""

import base64
import json
import operator
import os
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NamedTuple
from urllib.parse import urlsplit

import ormsgpack
import psycopg
import pytest
from graphs import extend
from langgraph.channels.delta import DeltaChannel
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, Send, interrupt
from typing_extensions import TypedDict

REPO = Path(__file__).resolve().parents[3]
URL_VARIABLE = "ROCKPOINT_TEST_POSTGRES_URL"


# --- The server and the CLI ---------------------------------------------------


def server_url() -> str:
    """The test server's URL; the test fails (never skips) without one."""
    url = os.environ.get(URL_VARIABLE, "")
    if not url:
        pytest.fail(
            f"{URL_VARIABLE} is not set: the PostgreSQL interoperability tests "
            "need a server. Start the throwaway one and export its URL: "
            f"export {URL_VARIABLE}=$(tools/pg_server.sh start build/pg-test) "
            "(tools/setup.sh test does this itself)."
        )
    return url


def database_url(url: str, database: str) -> str:
    """``url`` naming ``database`` instead: postgresql://HOST/DB?QUERY with
    the path replaced (postgresql:///DB?host=/socket/dir for a socket)."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgresql", "postgres"):
        pytest.fail(f"{URL_VARIABLE} is not a postgresql:// URL: {url!r}")
    query = f"?{parts.query}" if parts.query else ""
    return f"{parts.scheme}://{parts.netloc}/{database}{query}"


@contextmanager
def fresh_database() -> Iterator[str]:
    """A new empty database on the test server, dropped afterwards (with
    FORCE: connections left open do not keep it); yields its URL."""
    url = server_url()
    name = f"rockpoint_pyinterop_{uuid.uuid4().hex[:12]}"
    fresh = database_url(url, name)
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield fresh
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Cli:
    """The rockpoint CLI: $BUILD_DIR/tools/rockpoint, BUILD_DIR defaulting to
    the repository's build/ (as test.sh and venv.sh)."""

    def __init__(self) -> None:
        build_dir = Path(os.environ.get("BUILD_DIR") or REPO / "build")
        self.path = build_dir / "tools" / "rockpoint"
        if not os.access(self.path, os.X_OK):
            pytest.fail(
                f"the rockpoint CLI {self.path} is missing: build it first "
                "(tools/setup.sh build, or cmake --build BUILD_DIR --target "
                "rockpoint) or set BUILD_DIR to the build directory holding it"
            )

    def run(
        self, *args: str, stdin: bytes | None = None, status: int = 0
    ) -> subprocess.CompletedProcess[bytes]:
        env = {k: v for k, v in os.environ.items() if k != "ROCKPOINT_STORE"}
        out = subprocess.run(
            [str(self.path), *args], input=stdin, capture_output=True, env=env
        )
        assert out.returncode == status, (
            f"rockpoint {' '.join(args)}: exit status {out.returncode}, "
            f"expected {status}; stderr: {out.stderr.decode(errors='replace')}"
        )
        return out

    def json(self, *args: str, stdin: bytes | None = None) -> Any:
        return json.loads(self.run(*args, "--json", stdin=stdin).stdout)

    def demo(self, store: str) -> None:
        """Runs rockpoint-demo (built next to the CLI) on a new store."""
        demo = self.path.parent / "rockpoint-demo"
        if not os.access(demo, os.X_OK):
            pytest.fail(f"{demo} is missing: build it first (tools/setup.sh build)")
        out = subprocess.run([str(demo), store], capture_output=True)
        assert out.returncode == 0, out.stderr.decode(errors="replace")


# --- Graphs -------------------------------------------------------------------


class ChatState(TypedDict):
    messages: Annotated[list, operator.add]
    topic: str
    count: Annotated[int, operator.add]


def approval_graph(checkpointer: Any) -> Any:
    """chat, then a Send fan-out to two "work" tasks, a subgraph "review"
    (its own namespace), and "approve", which interrupts for a human answer.
    messages is a list channel, topic a string, count an int (PostgresSaver
    inlines strings and ints in the checkpoint's JSON)."""

    def chat(state: ChatState) -> dict[str, Any]:
        return {
            "messages": [f"bot: {state['messages'][-1]}"],
            "count": 1,
            "topic": state["topic"].upper(),
        }

    def fan_out(state: ChatState) -> list[Send]:
        return [
            Send("work", {"messages": [f"job {n}"], "topic": state["topic"]})
            for n in range(2)
        ]

    def work(state: ChatState) -> dict[str, Any]:
        return {"messages": [f"done {state['messages'][-1]}"]}

    def approve(state: ChatState) -> dict[str, Any]:
        answer = interrupt({"question": "approve?", "topic": state["topic"]})
        return {"messages": [f"human: {answer}"], "count": 1}

    review = StateGraph(ChatState)
    review.add_node("read", lambda s: {"messages": [f"read {len(s['messages'])}"]})
    review.add_node("score", lambda s: {"count": 10})
    review.add_edge(START, "read")
    review.add_edge("read", "score")

    builder = StateGraph(ChatState)
    builder.add_node("chat", chat)
    builder.add_node("work", work)
    builder.add_node("review", review.compile())
    builder.add_node("approve", approve)
    builder.add_edge(START, "chat")
    builder.add_conditional_edges("chat", fan_out, ["work"])
    builder.add_edge("work", "review")
    builder.add_edge("review", "approve")
    builder.add_edge("approve", END)
    return builder.compile(checkpointer=checkpointer)


# The turns approval_graph runs: two conversations, the second left waiting at
# its interrupt.
APPROVAL_TURNS: list[Any] = [
    {"messages": ["hello"], "topic": "greeting"},
    Command(resume="yes"),
    {"messages": ["transfer 10 EUR"], "topic": "payment"},
]


# Metadata for run_approval. LangGraph copies the config's metadata into
# each checkpoint's, its str, int, float and bool values only (a dict, a
# list or None it leaves out): text beyond ASCII, a double, an int.
APPROVAL_METADATA: dict[str, Any] = {"user": "zoë ✓", "score": 2.5, "level": 3}
# The same with a bool and an integral double: RockpointSaver stores those
# as ints in its engine-facing metadata (plus the exact metadata aside).
TYPED_METADATA: dict[str, Any] = {**APPROVAL_METADATA, "whole": 2.0, "beta": True}


def run_approval(
    graph: Any, thread: str, metadata: dict[str, Any] = APPROVAL_METADATA
) -> Any:
    """Runs APPROVAL_TURNS on ``thread`` with ``metadata``; returns the last
    invoke's output."""
    config = {"configurable": {"thread_id": thread}, "metadata": metadata}
    out = None
    for turn in APPROVAL_TURNS:
        out = graph.invoke(turn, config)
    assert out is not None and "__interrupt__" in out
    return out


class DeltaState(TypedDict):
    messages: Annotated[list, DeltaChannel(extend, snapshot_frequency=3)]
    topic: str
    count: Annotated[int, operator.add]


def delta_graph(checkpointer: Any) -> Any:
    """Per turn: "reply" then "note"; messages is a DeltaChannel (a full
    snapshot every third update, the writes in between)."""

    def reply(state: DeltaState) -> dict[str, Any]:
        last = state["messages"][-1]
        return {"messages": [f"bot: {last}"], "count": 1, "topic": f"re {last}"}

    def note(state: DeltaState) -> dict[str, Any]:
        return {"messages": [f"note {len(state['messages'])}"]}

    builder = StateGraph(DeltaState)
    builder.add_node("reply", reply)
    builder.add_node("note", note)
    builder.add_edge(START, "reply")
    builder.add_edge("reply", "note")
    return builder.compile(checkpointer=checkpointer)


# --- What the CLI shows ---------------------------------------------------------


def payload_json(type_: str, data: bytes) -> dict[str, Any]:
    """A stored payload as `rockpoint --json` shows it decoded
    (tools/cli/value_json.cpp): msgpack as its lossless JSON form (bytes as
    {"$bytes"}) with LangGraph's extensions in their readable forms
    (tools/cli/readable_values.h), otherwise type and base64."""
    if type_ == "msgpack":
        try:
            value = ormsgpack.unpackb(data, ext_hook=_Ext)
        except ormsgpack.MsgpackDecodeError:
            pass
        else:
            return {"type": type_, "value": _lossless(value)}
    return payload_raw(type_, data)


def payload_raw(type_: str, data: bytes) -> dict[str, Any]:
    """A stored payload as `rockpoint --json --raw` shows it."""
    return {"type": type_, "b64": base64.b64encode(data).decode()}


class _Ext(NamedTuple):
    """A msgpack extension as ormsgpack's ext_hook hands it over."""

    tag: int
    data: bytes


def _readable_ext(ext: _Ext) -> Any:
    """JsonPlusSerializer's extension as the CLI shows it: the data of codes
    0-5 is (module, name, argument(s)[, method]), of code 7 the value."""
    data = ormsgpack.unpackb(ext.data, ext_hook=_Ext)
    if ext.tag == 7:
        return _lossless(data)
    module, name, argument = data[0], data[1], data[2]
    if ext.tag in (0, 3):
        if (module, name) == ("uuid", "UUID"):
            return str(uuid.UUID(hex=argument))
        return _lossless(argument)
    if ext.tag == 1:
        return {"module": module, "name": name, "args": _lossless(argument)}
    assert ext.tag in (2, 4, 5), ext.tag
    if module.startswith("langchain_core.messages"):
        rest = {k: _lossless(v) for k, v in argument.items() if k != "type"}
        return {"type": name, **rest}
    return {"module": module, "name": name, "kwargs": _lossless(argument)}


def _lossless(value: Any) -> Any:
    if isinstance(value, _Ext):
        return _readable_ext(value)
    if isinstance(value, bytes):
        return {"$bytes": base64.b64encode(value).decode()}
    if isinstance(value, list):
        return [_lossless(v) for v in value]
    if isinstance(value, dict):
        # Other keys take the {"$map": ...} form; these payloads have none.
        assert all(isinstance(k, str) and not k.startswith("$") for k in value)
        return {k: _lossless(v) for k, v in value.items()}
    assert value is None or isinstance(value, (bool, int, float, str)), value
    return value


def channel_payload(serde: Any, value: Any) -> tuple[str, bytes]:
    """How a channel value PostgresSaver wrote is stored for rockpoint:
    PostgresSaver keeps None, str, int, float and bool inline in the
    checkpoint's JSON, which rockpoint reads as msgpack-typed values
    (engine/postgres/SCHEMA.md); everything else is a checkpoint_blobs row
    of serde.dumps_typed."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return "msgpack", ormsgpack.packb(value)
    return serde.dumps_typed(value)


def typed(value: Any) -> Any:
    """``value`` with each leaf paired with its type, so that comparisons
    tell 2 from 2.0 and 1 from True (Python's == does not)."""
    if isinstance(value, dict):
        return {k: typed(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [typed(v) for v in value]
    return (type(value).__name__, value)


def versions_seen_rows(checkpoint: Any) -> list[dict[str, Any]]:
    """versions_seen as `rockpoint show --json` lists it: (node, channel)
    in byte order."""
    rows = [
        {"node": node, "channel": channel, "version": version}
        for node, seen in checkpoint["versions_seen"].items()
        for channel, version in seen.items()
    ]
    return sorted(rows, key=lambda r: (r["node"].encode(), r["channel"].encode()))


def export_lines(data: bytes) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in data.decode().splitlines()]
    assert lines[0] == {"kind": "header", "format": "rockpoint-export", "version": 1}
    assert lines[-1]["kind"] == "end"
    return lines
