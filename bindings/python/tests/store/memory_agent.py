"""A memory agent: a LangGraph graph whose checkpoints go to RockpointSaver
and whose long-term memories go to RockpointStore.

"remember: FACT" stores FACT under ("memories", user_id) through the store
LangGraph injects into the node; "recall: QUERY" answers with the memory
most similar to QUERY, found through get_store().
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypedDict

from langchain_core.runnables import RunnableConfig
from langgraph.config import get_store
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore

from langgraph.checkpoint.rockpoint import RockpointSaver
from langgraph.store.rockpoint import RockpointStore

if __package__:
    from .fake_embeddings import CharEmbeddings
else:  # a child process, with this directory on sys.path
    from fake_embeddings import CharEmbeddings

DIMS = 64


class State(TypedDict, total=False):
    message: str
    reply: str


def _namespace(config: RunnableConfig) -> tuple[str, ...]:
    return ("memories", config["configurable"]["user_id"])


def remember(
    state: State, config: RunnableConfig, *, store: BaseStore
) -> dict[str, Any]:
    fact = state["message"].removeprefix("remember: ")
    key = str(uuid.uuid5(uuid.NAMESPACE_URL, fact))
    store.put(_namespace(config), key, {"text": fact})
    return {"reply": f"noted: {fact}"}


def recall(state: State, config: RunnableConfig) -> dict[str, Any]:
    query = state["message"].removeprefix("recall: ")
    found = get_store().search(_namespace(config), query=query, limit=1)
    return {"reply": found[0].value["text"] if found else "I don't know"}


def route(state: State) -> str:
    return "remember" if state["message"].startswith("remember: ") else "recall"


def build(checkpointer: RockpointSaver, store: RockpointStore):
    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_node("recall", recall)
    builder.add_conditional_edges(START, route, ["remember", "recall"])
    builder.add_edge("remember", END)
    builder.add_edge("recall", END)
    return builder.compile(checkpointer=checkpointer, store=store)


def index() -> dict[str, Any]:
    return {"dims": DIMS, "embed": CharEmbeddings(DIMS), "fields": ["text"]}


@contextmanager
def open_agent(saver_dir: str, store_dir: str) -> Iterator[Any]:
    with (
        RockpointSaver.open(saver_dir) as saver,
        RockpointStore.open(store_dir, index=index()) as store,
    ):
        yield build(saver, store)
