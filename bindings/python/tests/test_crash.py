"""Crash: a child process running a graph with durability="sync" (fsync on),
with invoke ("run") or with ainvoke on an event loop ("arun"), is killed
with SIGKILL at random points; after each kill, every turn the child
reported finished is stored, and the graph resumes to the same final
state."""

import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from graphs import chat_graph, expected_messages

from langgraph.checkpoint.rockpoint import RockpointSaver

HERE = Path(__file__).parent
ROUNDS = 10  # per command
# Turns a killed child aims for: more than any round can finish, so every
# kill lands mid-run whatever the machine's speed.
UNREACHABLE = 1_000_000
MORE_TURNS = 10  # turns the final, uninterrupted resume adds
FREQUENCY = "3"


def _start(command: str, store: str, total: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            str(HERE / "child.py"),
            command,
            store,
            "crash",
            FREQUENCY,
            str(total),
        ],
        stdout=subprocess.PIPE,
        text=True,
        cwd=HERE,
        env={**os.environ, "PYTHONPATH": str(HERE)},
    )


def _stored_turns(store: str) -> tuple[int, list[str]]:
    with RockpointSaver.open(store) as saver:
        values = (
            chat_graph(int(FREQUENCY), saver)
            .get_state({"configurable": {"thread_id": "crash"}})
            .values
        )
    return values.get("turns", 0), values.get("messages", [])


@pytest.mark.parametrize("command", ["run", "arun"])
def test_sigkill_at_random_points(tmp_path: Path, command: str) -> None:
    store = str(tmp_path / "store")
    rng = random.Random(1234)
    kills = 0
    for _ in range(ROUNDS):
        child = _start(command, store, UNREACHABLE)
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.startswith("ready"), line
        time.sleep(rng.uniform(0.0, 0.4))
        child.kill()  # SIGKILL
        rest = child.stdout.read()
        child.wait()
        kills += child.returncode == -9
        # Only whole lines count: the kill may cut the last one short.
        whole = rest.split("\n")[:-1]
        finished = [
            int(m.group(1))
            for m in (re.fullmatch(r"finished (\d+)", x) for x in whole)
            if m
        ]
        reported = max(finished, default=int(line.split()[1]))
        turns, messages = _stored_turns(store)
        # Every finished turn is there; at most one more may have landed.
        assert turns >= reported
        assert messages[: 2 * turns] == expected_messages(turns)
    assert kills == ROUNDS
    # Resume to an end: the same final state as an uninterrupted run.
    final = _stored_turns(store)[0] + MORE_TURNS
    child = _start(command, store, final)
    out, _ = child.communicate(timeout=300)
    assert child.returncode == 0, out
    turns, messages = _stored_turns(store)
    assert turns == final and messages == expected_messages(final)
