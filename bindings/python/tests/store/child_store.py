"""Child processes of the store tests: python child_store.py COMMAND DIR ...

puts DIR                     puts items (fsync on) until killed, printing
                             "put NAMESPACE KEY" once each put returned.
sweep DIR                    the same with the TTL sweeper running every
                             50 ms: items alternate "short" (TTL 0.3 s),
                             "long" (TTL 60 min) and "never"; prints
                             "put NAMESPACE KEY KIND" after each put.
recall SAVER STORE THREAD Q  runs the memory agent of memory_agent.py on
                             THREAD with "recall: Q" and prints its reply.

Run with this directory on PYTHONPATH (fake_embeddings, memory_agent).
"""

from __future__ import annotations

import sys

from langgraph.store.rockpoint import RockpointStore

SHORT_SECONDS = 0.3


def puts(directory: str) -> None:
    with RockpointStore.open(directory, sync_writes=True) as store:
        print("ready", flush=True)
        i = 0
        while True:
            namespace = ("crash", f"n{i % 4}")
            key = f"k{i}"
            store.put(namespace, key, {"i": i, "pad": "x" * (i % 300)})
            print(f"put {namespace[1]} {key}", flush=True)
            i += 1


def sweep(directory: str) -> None:
    ttl = {"default_ttl": SHORT_SECONDS / 60, "sweep_interval_minutes": 0.05 / 60}
    with RockpointStore.open(directory, sync_writes=True, ttl=ttl) as store:
        store.start_ttl_sweeper()
        print("ready", flush=True)
        i = 0
        while True:
            kind = ("short", "short", "long", "never")[i % 4]
            ttl_minutes = {"short": SHORT_SECONDS / 60, "long": 60.0, "never": None}[
                kind
            ]
            namespace = ("sweep", kind)
            key = f"k{i}"
            store.put(namespace, key, {"i": i, "kind": kind}, ttl=ttl_minutes)
            print(f"put {kind} {key} {kind}", flush=True)
            i += 1


def recall(saver_dir: str, store_dir: str, thread: str, query: str) -> None:
    from memory_agent import open_agent

    with open_agent(saver_dir, store_dir) as agent:
        config = {"configurable": {"thread_id": thread, "user_id": "ada"}}
        out = agent.invoke({"message": f"recall: {query}"}, config)
        print(out["reply"], flush=True)


def main() -> None:
    command, *args = sys.argv[1:]
    {"puts": puts, "sweep": sweep, "recall": recall}[command](*args)


if __name__ == "__main__":
    main()
