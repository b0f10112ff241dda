"""Child processes of the tests: python child.py COMMAND STORE ...

state STORE THREAD FREQ        prints the thread's state as JSON.
run STORE THREAD FREQ TOTAL    runs chat turns (durability="sync", fsync on)
                               until TOTAL, printing "finished N" after each
                               invoke returned (N turns stored).
arun STORE THREAD FREQ TOTAL   the same with ainvoke on an event loop.
"""

from __future__ import annotations

import asyncio
import json
import sys

from graphs import chat_graph, turn_input

from langgraph.checkpoint.rockpoint import RockpointSaver


async def arun(store: str, config: dict, frequency: int | None, total: int) -> None:
    async with RockpointSaver.open(store, sync_writes=True) as saver:
        graph = chat_graph(frequency, saver)
        state = await graph.aget_state(config)
        if state.tasks:  # a step was cut short: finish it first.
            await graph.ainvoke(None, config, durability="sync")
            state = await graph.aget_state(config)
        done = state.values.get("turns", 0)
        print("ready", done, flush=True)
        for i in range(done, total):
            await graph.ainvoke(turn_input(i), config, durability="sync")
            print("finished", i + 1, flush=True)


def main() -> None:
    command, store, thread, freq = sys.argv[1:5]
    frequency = None if freq == "default" else int(freq)
    config = {"configurable": {"thread_id": thread}}
    if command == "arun":
        asyncio.run(arun(store, config, frequency, int(sys.argv[5])))
        return
    with RockpointSaver.open(store, sync_writes=True) as saver:
        graph = chat_graph(frequency, saver)
        if command == "state":
            print(json.dumps(graph.get_state(config).values))
            return
        total = int(sys.argv[5])
        state = graph.get_state(config)
        if state.tasks:  # a step was cut short: finish it first.
            graph.invoke(None, config, durability="sync")
            state = graph.get_state(config)
        done = state.values.get("turns", 0)
        print("ready", done, flush=True)
        for i in range(done, total):
            graph.invoke(turn_input(i), config, durability="sync")
            print("finished", i + 1, flush=True)


if __name__ == "__main__":
    main()
