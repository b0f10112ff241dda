"""Graphs shared by the tests and their child processes (child.py).

No "from __future__ import annotations": LangGraph reads the state
schemas' annotations at run time."""

import operator
from typing import Annotated, Any

from langgraph.channels.delta import DeltaChannel
from langgraph.graph import START, StateGraph
from typing_extensions import TypedDict


def extend(state: list[Any], writes: list[Any]) -> list[Any]:
    """A batching-invariant reducer: appends every written list."""
    out = list(state)
    for write in writes:
        out.extend(write if isinstance(write, list) else [write])
    return out


def chat_graph(snapshot_frequency: int | None, checkpointer: Any) -> Any:
    """One node answering every user message; messages is a DeltaChannel
    (snapshot_frequency None: LangGraph's default)."""
    channel = (
        DeltaChannel(extend)
        if snapshot_frequency is None
        else DeltaChannel(extend, snapshot_frequency=snapshot_frequency)
    )

    class State(TypedDict):
        messages: Annotated[list, channel]
        turns: Annotated[int, operator.add]

    def reply(state: State) -> dict[str, Any]:
        last = state["messages"][-1]
        return {"messages": [f"bot: {last}"], "turns": 1}

    builder = StateGraph(State)
    builder.add_node("reply", reply)
    builder.add_edge(START, "reply")
    return builder.compile(checkpointer=checkpointer)


def turn_input(i: int) -> dict[str, Any]:
    return {"messages": [f"user {i}"]}


def expected_messages(turns: int) -> list[str]:
    out: list[str] = []
    for i in range(turns):
        out += [f"user {i}", f"bot: user {i}"]
    return out
