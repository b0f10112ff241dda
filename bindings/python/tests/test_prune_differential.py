"""rockpoint's prune against LangGraph's own PostgresSaver.prune, on two
copies of one database LangGraph wrote.

One database gets 20 turns of a one-node add_messages graph on thread "t0"
and of a DeltaChannel graph on thread "d0"; a second database is made from
it as a template. LangGraph's prune(keep_latest) runs on the first copy,
`rockpoint prune --keep 1` on the second. Then what PostgresSaver lists,
reads and resumes is compared, and so are the row counts of the three
tables.

LangGraph's keep_latest refuses a DeltaChannel thread (NotImplementedError,
nothing pruned): it would have to keep the ancestors the channel is rebuilt
from. rockpoint keeps exactly those: the latest checkpoint and its ancestors
back to the one holding the channel's latest snapshot.

Needs ROCKPOINT_TEST_POSTGRES_URL and the CLI (see postgres_interop.py).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Annotated, Any

import psycopg
import pytest
from graphs import chat_graph as delta_chat_graph
from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.graph import START, StateGraph
from langgraph.graph.message import add_messages
from postgres_interop import Cli, database_url, server_url
from typing_extensions import TypedDict

TURNS = 20
TABLES = ("checkpoints", "checkpoint_blobs", "checkpoint_writes")


class MessagesState(TypedDict):
    messages: Annotated[list, add_messages]


def chat_graph(checkpointer: Any) -> Any:
    """One node answering the last message; messages uses add_messages."""

    def reply(state: MessagesState) -> dict[str, Any]:
        return {"messages": [("ai", f"re: {state['messages'][-1].content}")]}

    builder = StateGraph(MessagesState)
    builder.add_node("reply", reply)
    builder.add_edge(START, "reply")
    return builder.compile(checkpointer=checkpointer)


def delta_graph(checkpointer: Any) -> Any:
    """One node too, messages a DeltaChannel with a snapshot every 7th
    update: 20 turns (40 updates) end 5 updates past the last snapshot."""
    return delta_chat_graph(7, checkpointer)


GRAPHS = {"t0": chat_graph, "d0": delta_graph}


def turn(thread: str, n: int) -> dict[str, Any]:
    text = f"{thread} turn {n}"
    return {"messages": [("user", text)] if thread == "t0" else [text]}


@pytest.fixture
def copies() -> Iterator[tuple[str, str]]:
    """Two databases with the same LangGraph data: (LangGraph's, rockpoint's)."""
    url = server_url()
    names = [f"rockpoint_prunediff_{uuid.uuid4().hex[:12]}" for _ in range(2)]
    urls = [database_url(url, name) for name in names]
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{names[0]}"')
    try:
        with PostgresSaver.from_conn_string(urls[0]) as saver:
            saver.setup()
            for thread, build in GRAPHS.items():
                graph = build(saver)
                for n in range(TURNS):
                    graph.invoke(turn(thread, n), _thread(thread))
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{names[1]}" TEMPLATE "{names[0]}"')
        yield urls[0], urls[1]
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            for name in names:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _thread(thread: str) -> Any:
    return {"configurable": {"thread_id": thread}}


def _listed(saver: PostgresSaver, thread: str) -> list[str]:
    return [
        t.config["configurable"]["checkpoint_id"] for t in saver.list(_thread(thread))
    ]


def _read(saver: PostgresSaver, thread: str) -> Any:
    """What PostgresSaver reads of the thread's latest checkpoint."""
    tuple_ = saver.get_tuple(_thread(thread))
    assert tuple_ is not None
    state = GRAPHS[thread](saver).get_state(_thread(thread))
    return (
        tuple_.checkpoint["id"],
        tuple_.checkpoint["channel_versions"],
        tuple_.metadata,
        tuple_.pending_writes,
        state.values,
        state.next,
    )


def _rows(url: str, thread: str) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        return {
            table: conn.execute(
                f"SELECT count(*) FROM {table} WHERE thread_id = %s", (thread,)
            ).fetchone()[0]
            for table in TABLES
        }


def _delta_ancestry(url: str, thread: str) -> list[str]:
    """The latest checkpoint of ``thread`` and its ancestors back to the
    nearest one holding a snapshot of the DeltaChannel "messages" (LangGraph
    inlines a `true` marker for it), newest first."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT checkpoint_id, parent_checkpoint_id, "
            "checkpoint -> 'channel_values' ? 'messages' FROM checkpoints "
            "WHERE thread_id = %s AND checkpoint_ns = ''",
            (thread,),
        ).fetchall()
    parent = {cid: (pid, snapshot) for cid, pid, snapshot in rows}
    chain = [max(parent)]
    while not parent[chain[-1]][1]:
        chain.append(parent[chain[-1]][0])
    return chain


def test_rockpoint_prune_keeps_what_langgraph_prune_keeps(
    copies: tuple[str, str],
) -> None:
    langgraph_url, rockpoint_url = copies
    cli = Cli()
    rows_before = {thread: _rows(langgraph_url, thread) for thread in GRAPHS}
    expected_delta = _delta_ancestry(langgraph_url, "d0")
    with PostgresSaver.from_conn_string(langgraph_url) as saver:
        before = {thread: _read(saver, thread) for thread in GRAPHS}
        listed_before = {thread: len(_listed(saver, thread)) for thread in GRAPHS}
        saver.prune(["t0"], strategy="keep_latest")
        with pytest.raises(NotImplementedError, match="DeltaChannel"):
            saver.prune(["d0"], strategy="keep_latest")
    for thread in GRAPHS:
        cli.run("prune", thread, "--keep", "1", "--yes", "--store", rockpoint_url)
    rows_after = {
        url: {thread: _rows(url, thread) for thread in GRAPHS}
        for url in (langgraph_url, rockpoint_url)
    }
    print("rows before (both copies):", rows_before)  # shown with pytest -s
    print("rows after LangGraph's prune:", rows_after[langgraph_url])
    print("rows after rockpoint's prune:", rows_after[rockpoint_url])

    with (
        PostgresSaver.from_conn_string(langgraph_url) as langgraph,
        PostgresSaver.from_conn_string(rockpoint_url) as rockpoint,
    ):
        # The plain thread: the very set LangGraph's prune leaves, no hidden
        # ancestor in rockpoint's history either.
        assert _listed(rockpoint, "t0") == _listed(langgraph, "t0")
        assert len(_listed(rockpoint, "t0")) == 1
        hidden_too = cli.json(
            "history", "t0", "--include-hidden", "--store", rockpoint_url
        )
        assert [r["checkpoint_id"] for r in hidden_too] == _listed(rockpoint, "t0")
        # The delta thread: LangGraph pruned nothing; rockpoint keeps the
        # latest and what its messages are rebuilt from, no more.
        assert len(_listed(langgraph, "d0")) == listed_before["d0"]
        assert _listed(rockpoint, "d0") == expected_delta
        assert 1 < len(expected_delta) < len(_listed(langgraph, "d0"))

        # Each reads as before, and each resumes the same.
        for thread in GRAPHS:
            assert _read(rockpoint, thread) == before[thread]
            assert _read(langgraph, thread) == before[thread]
        outputs = [
            GRAPHS[thread](saver).invoke(turn(thread, TURNS), _thread(thread))
            for saver in (langgraph, rockpoint)
            for thread in GRAPHS
        ]
    assert _texts(outputs[:2]) == _texts(outputs[2:])

    # No larger than LangGraph's copy: row for row on the plain thread, and
    # smaller than the unpruned delta thread.
    assert rows_after[rockpoint_url]["t0"] == rows_after[langgraph_url]["t0"]
    for table in TABLES:
        assert rows_after[rockpoint_url]["d0"][table] <= rows_before["d0"][table]
    assert rows_after[rockpoint_url]["d0"]["checkpoints"] == len(expected_delta)


def _texts(outputs: list[Any]) -> list[list[Any]]:
    """The messages of each output, without add_messages' generated ids."""
    return [[getattr(m, "content", m) for m in out["messages"]] for out in outputs]
