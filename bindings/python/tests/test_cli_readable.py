"""The rockpoint CLI on a store a real LangGraph graph wrote: messages and
the interrupt read as JSON (tools/cli/readable_values.h), not as opaque
msgpack extensions.

The CLI is $ROCKPOINT_CLI (tools/setup.sh test sets it), else the build's
build/tools/rockpoint; the tests are skipped when neither exists."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Annotated, Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.types import interrupt
from typing_extensions import TypedDict

from langgraph.checkpoint.rockpoint import RockpointSaver

_REPO = Path(__file__).resolve().parents[3]
CLI = Path(os.environ.get("ROCKPOINT_CLI") or _REPO / "build/tools/rockpoint")

pytestmark = pytest.mark.skipif(
    not CLI.is_file(), reason=f"no rockpoint CLI at {CLI} (set ROCKPOINT_CLI)"
)

THREAD = "chat"


class State(TypedDict):
    messages: Annotated[list, add_messages]


def _graph(checkpointer: Any) -> Any:
    def chat(state: State) -> dict[str, Any]:
        last = state["messages"][-1]
        return {"messages": [AIMessage(content=f"echo: {last.content}", id="a1")]}

    def ask(state: State) -> dict[str, Any]:
        answer = interrupt({"question": "approve?"})
        return {"messages": [HumanMessage(content=answer, id="h2")]}

    builder = StateGraph(State)
    builder.add_node("chat", chat)
    builder.add_node("ask", ask)
    builder.add_edge(START, "chat")
    builder.add_edge("chat", "ask")
    return builder.compile(checkpointer=checkpointer)


def _cli(store: str, *args: str) -> str:
    done = subprocess.run(
        [str(CLI), *args, "--store", store], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def interrupted_store(store_path: str) -> str:
    """A store holding a chat stopped at its interrupt (the saver closed, so
    the CLI can open it)."""
    with RockpointSaver.open(store_path) as saver:
        out = _graph(saver).invoke(
            {"messages": [HumanMessage(content="hello", id="h1")]},
            {"configurable": {"thread_id": THREAD}},
        )
    assert out["__interrupt__"][0].value == {"question": "approve?"}
    return store_path


def _channel(show: dict[str, Any], name: str) -> Any:
    return next(row for row in show["channels"] if row["channel"] == name)


def _brief(messages: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(m["type"], m["content"], m["id"]) for m in messages]


def test_show_reads_messages(interrupted_store: str) -> None:
    show = json.loads(_cli(interrupted_store, "show", THREAD, "--json"))
    messages = _channel(show, "messages")["value"]["value"]
    assert _brief(messages) == [
        ("HumanMessage", "hello", "h1"),
        ("AIMessage", "echo: hello", "a1"),
    ]
    table = _cli(interrupted_store, "show", THREAD, "--full")
    assert '{"type":"HumanMessage","content":"hello",' in table
    assert '{"type":"AIMessage","content":"echo: hello",' in table


def test_writes_reads_the_interrupt(interrupted_store: str) -> None:
    latest = json.loads(_cli(interrupted_store, "history", THREAD, "--json"))[0]
    writes = json.loads(
        _cli(interrupted_store, "writes", THREAD, latest["checkpoint_id"], "--json")
    )
    interrupts = [
        w["value"]["value"] for w in writes if w["channel"] == "__interrupt__"
    ]
    assert len(interrupts) == 1
    (item,) = interrupts[0]
    assert item["module"] == "langgraph.types"
    assert item["name"] == "Interrupt"
    assert item["kwargs"]["value"] == {"question": "approve?"}
    assert isinstance(item["kwargs"]["id"], str)


def test_history_and_diff_read_messages(interrupted_store: str) -> None:
    history = json.loads(_cli(interrupted_store, "history", THREAD, "--json"))
    assert all(isinstance(row["metadata"], dict) for row in history)
    newest, oldest = history[0]["checkpoint_id"], history[-1]["checkpoint_id"]
    rows = json.loads(_cli(interrupted_store, "diff", THREAD, oldest, newest, "--json"))
    messages = next(row for row in rows if row["channel"] == "messages")
    assert _brief(messages["value_b"]["value"]) == [
        ("HumanMessage", "hello", "h1"),
        ("AIMessage", "echo: hello", "a1"),
    ]


def test_export_keeps_the_stored_bytes(interrupted_store: str) -> None:
    exported = _cli(interrupted_store, "export")
    assert '"type":"HumanMessage"' not in exported
    values = [json.loads(line) for line in exported.splitlines()]
    assert any(
        v.get("kind") == "value" and v.get("channel") == "messages" and v["b64"]
        for v in values
    )
