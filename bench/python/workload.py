"""The operations of the benchmark, the same for every saver.

Each setup_* builds what its operation needs on one saver (outside timing)
and returns a callable that performs one operation (timed).
"""

from __future__ import annotations

import itertools
import random
import uuid
from collections.abc import Callable
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.base import BaseCheckpointSaver, empty_checkpoint
from langgraph.graph import START, MessagesState, StateGraph
from typing_extensions import TypedDict

STATE_BYTES = 1024
THREAD_LENGTH = 1000
CHAT_TURNS = 10
Op = Callable[[], Any]


def _config(thread: str, checkpoint_id: str | None = None) -> dict[str, Any]:
    configurable = {"thread_id": thread, "checkpoint_ns": ""}
    if checkpoint_id:
        configurable["checkpoint_id"] = checkpoint_id
    return {"configurable": configurable}


class Chain:
    """Appends checkpoints to one thread, each the child of the last."""

    def __init__(self, saver: BaseCheckpointSaver, thread: str) -> None:
        self.saver = saver
        self.config = _config(thread)
        self.versions: dict[str, Any] = {}
        self.step = 0

    def prepare(self, values: dict[str, Any], bump: list[str] | None = None) -> tuple:
        cp = empty_checkpoint()
        new_versions = {}
        for channel in bump if bump is not None else list(values):
            new_versions[channel] = self.saver.get_next_version(
                self.versions.get(channel), None
            )
        versions = {**self.versions, **new_versions}
        cp["channel_values"] = values
        cp["channel_versions"] = versions
        cp["versions_seen"] = {"node": dict(versions)}
        metadata = {"source": "loop", "step": self.step, "parents": {}}
        return cp, metadata, new_versions

    def put(self, prepared: tuple) -> dict[str, Any]:
        cp, metadata, new_versions = prepared
        self.config = self.saver.put(self.config, cp, metadata, new_versions)
        self.versions = cp["channel_versions"]
        self.step += 1
        return self.config


def setup_put(saver: BaseCheckpointSaver, channels: int) -> Op:
    chain = Chain(saver, f"put{channels}-{uuid.uuid4()}")
    size = STATE_BYTES // channels
    values = {f"ch{i}": "x" * size for i in range(channels)}
    chain.put(chain.prepare(values))
    pending: list[tuple] = []

    def op() -> Any:
        return chain.put(pending.pop())

    def refill(n: int) -> None:
        pending[:] = [chain.prepare(values) for _ in range(n)]

    op.refill = refill  # type: ignore[attr-defined]
    return op


def setup_put_writes(saver: BaseCheckpointSaver) -> Op:
    chain = Chain(saver, f"writes-{uuid.uuid4()}")
    config = chain.put(chain.prepare({"state": "x" * STATE_BYTES}))
    writes = [("a", "y" * (STATE_BYTES // 2)), ("b", "z" * (STATE_BYTES // 2))]
    counter = itertools.count()

    def op() -> Any:
        return saver.put_writes(config, writes, f"task-{next(counter)}")

    return op


def build_long_thread(saver: BaseCheckpointSaver) -> tuple[str, list[str]]:
    """A thread of THREAD_LENGTH checkpoints (1 KB state, one write each)."""
    thread = f"long-{uuid.uuid4()}"
    chain = Chain(saver, thread)
    ids = []
    for i in range(THREAD_LENGTH):
        config = chain.put(
            chain.prepare({"state": f"{i:08}" + "x" * (STATE_BYTES - 8)})
        )
        saver.put_writes(config, [("state", f"w{i}")], "task")
        ids.append(config["configurable"]["checkpoint_id"])
    return thread, ids


def setup_reads(
    saver: BaseCheckpointSaver, thread: str, ids: list[str]
) -> dict[str, Op]:
    rng = random.Random(7)
    latest = _config(thread)
    return {
        "get_tuple latest": lambda: saver.get_tuple(latest),
        "get_tuple by id": lambda: saver.get_tuple(_config(thread, rng.choice(ids))),
        "list(limit=10)": lambda: list(saver.list(latest, limit=10)),
    }


def setup_delta(saver: BaseCheckpointSaver) -> Op:
    """A delta channel stored once at the root, then THREAD_LENGTH steps that
    each write one message (the channel's version advances, no value)."""
    chain = Chain(saver, f"delta-{uuid.uuid4()}")
    chain.put(chain.prepare({"messages": []}))
    for i in range(THREAD_LENGTH):
        config = chain.put(chain.prepare({}, bump=["messages"]))
        saver.put_writes(config, [("messages", f"message {i} " + "m" * 200)], f"t{i}")
    target = chain.config

    def op() -> Any:
        history = saver.get_delta_channel_history(config=target, channels=["messages"])
        assert len(history["messages"]["writes"]) == THREAD_LENGTH - 1
        return history

    return op


class StepState(TypedDict):
    x: int
    log: str


def build_step_graph(saver: BaseCheckpointSaver) -> Any:
    """The 3-node graph of a graph step (a -> b -> c), compiled with saver."""
    builder = StateGraph(StepState)
    builder.add_node("a", lambda s: {"x": s["x"] + 1, "log": "a" * 300})
    builder.add_node("b", lambda s: {"x": s["x"] + 1, "log": "b" * 300})
    builder.add_node("c", lambda s: {"x": s["x"] + 1, "log": "c" * 300})
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    builder.add_edge("b", "c")
    return builder.compile(checkpointer=saver)


def setup_graph_step(saver: BaseCheckpointSaver) -> Op:
    graph = build_step_graph(saver)
    config = _config(f"graph-{uuid.uuid4()}")

    def op() -> Any:
        return graph.invoke({"x": 0, "log": ""}, config)

    return op


def build_chat_graph(saver: BaseCheckpointSaver) -> Any:
    """A one-node chat graph on MessagesState: each turn appends the user's
    message and a reply that echoes it (add_messages, as a chat agent)."""

    def chat(state: MessagesState) -> dict[str, Any]:
        last = state["messages"][-1].content
        return {"messages": [AIMessage(content=f"reply to {last} " + "r" * 200)]}

    builder = StateGraph(MessagesState)
    builder.add_node("chat", chat)
    builder.add_edge(START, "chat")
    return builder.compile(checkpointer=saver)


def setup_chat(saver: BaseCheckpointSaver) -> Op:
    """One call is a whole conversation of CHAT_TURNS turns on a new thread;
    it checks that the thread holds every message afterwards."""
    graph = build_chat_graph(saver)

    def op() -> Any:
        config = _config(f"chat-{uuid.uuid4()}")
        for turn in range(CHAT_TURNS):
            text = f"turn {turn}: " + "h" * 200
            out = graph.invoke({"messages": [HumanMessage(content=text)]}, config)
        assert len(out["messages"]) == 2 * CHAT_TURNS, len(out["messages"])
        return out

    return op
