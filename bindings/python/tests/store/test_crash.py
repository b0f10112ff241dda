"""Crash: a child process writing with fsync on (child_store.py) is killed
with SIGKILL at random points; after each kill the store reopens and holds
every put the child reported done. The same with the TTL sweeper running:
no expired item is ever returned, and every acknowledged item that has not
expired is there."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

from langgraph.store.rockpoint import RockpointStore

HERE = Path(__file__).parent
ROUNDS = 6
SHORT_SECONDS = 0.3  # child_store.SHORT_SECONDS


def _run_and_kill(command: str, store_dir: Path, rng: random.Random) -> list[list[str]]:
    """Starts the child, kills it after a random time, returns the words of
    every whole line it printed after "ready"."""
    child = subprocess.Popen(
        [sys.executable, str(HERE / "child_store.py"), command, str(store_dir)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(HERE)},
    )
    assert child.stdout is not None
    line = child.stdout.readline()
    assert line.startswith("ready"), (line, child.stderr.read() if child.stderr else "")
    time.sleep(rng.uniform(0.05, 0.5))
    child.kill()  # SIGKILL
    rest = child.stdout.read()
    child.wait()
    assert child.returncode == -9
    return [x.split() for x in rest.split("\n")[:-1]]  # the last may be cut


def _consistent(store: RockpointStore) -> None:
    """Every listed namespace holds an item and every item's namespace is
    listed (the engine keeps the counts in the same atomic writes)."""
    listed = set(store.list_namespaces(limit=1000))
    items = store.search((), limit=100_000, refresh_ttl=False)
    assert {i.namespace for i in items} <= listed
    for namespace in listed:
        assert store.search(namespace, limit=1, refresh_ttl=False), namespace


def test_sigkill_during_puts(tmp_path: Path) -> None:
    store_dir = tmp_path / "store"
    rng = random.Random(7)
    acknowledged: set[tuple[str, str]] = set()
    for _ in range(ROUNDS):
        lines = _run_and_kill("puts", store_dir, rng)
        acknowledged |= {(w[1], w[2]) for w in lines if len(w) == 3 and w[0] == "put"}
        with RockpointStore.open(store_dir) as store:
            for sub, key in acknowledged:
                item = store.get(("crash", sub), key)
                assert item is not None, (sub, key)
                assert item.value["i"] == int(key[1:])
            _consistent(store)
    assert len(acknowledged) > ROUNDS  # the child got work done each round


def test_sigkill_during_sweeps(tmp_path: Path) -> None:
    store_dir = tmp_path / "store"
    rng = random.Random(11)
    acknowledged: dict[str, set[str]] = {"short": set(), "long": set(), "never": set()}
    for _ in range(ROUNDS):
        lines = _run_and_kill("sweep", store_dir, rng)
        for w in lines:
            if len(w) == 4 and w[0] == "put":
                acknowledged[w[3]].add(w[2])
        with RockpointStore.open(store_dir) as store:
            # Items that cannot have expired are all there.
            for kind in ("long", "never"):
                for key in acknowledged[kind]:
                    item = store.get(("sweep", kind), key, refresh_ttl=False)
                    assert item is not None, (kind, key)
            time.sleep(SHORT_SECONDS + 0.1)
            # Every short item has expired now: none is returned, swept or not.
            for key in acknowledged["short"]:
                assert store.get(("sweep", "short"), key) is None, key
            assert store.search(("sweep", "short"), limit=10_000) == []
            listed = store.list_namespaces()
            assert ("sweep", "long") in listed or not acknowledged["long"]
            store.sweep_ttl()
            assert store.sweep_ttl() == 0
            assert ("sweep", "short") not in store.list_namespaces()
            _consistent(store)
    assert acknowledged["short"] and acknowledged["long"] and acknowledged["never"]
