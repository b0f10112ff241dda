"""The package as a new user gets it: the wheel that venv.sh built (in
$BUILD_DIR/python/dist, or ROCKPOINT_TEST_WHEEL_DIR) is installed with pip
into a fresh virtual environment in an empty directory, together with
langgraph (versions constrained by requirements-dev.txt, from the package
index; pip's cache makes it quick). A StateGraph runs to its interrupt in one
process and is resumed in a second one, from a store on disk; its first node
writes to a RockpointStore (langgraph.store.rockpoint) that the second
process reads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent
REPO = PACKAGE.parent.parent

APP = """
import operator
import sys
from typing import Annotated, TypedDict

from langgraph.checkpoint.rockpoint import RockpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore
from langgraph.store.rockpoint import RockpointStore
from langgraph.types import Command, interrupt


class State(TypedDict):
    log: Annotated[list[str], operator.add]


def start(state: State, *, store: BaseStore) -> dict:
    store.put(("app",), "started", {"by": "start"})
    return {"log": ["start"]}


def ask(state: State) -> dict:
    return {"log": [f"answer:{interrupt('continue?')}"]}


builder = StateGraph(State)
builder.add_node("start", start)
builder.add_node("ask", ask)
builder.add_edge(START, "start")
builder.add_edge("start", "ask")
builder.add_edge("ask", END)
store, phase = sys.argv[1], sys.argv[2]
config = {"configurable": {"thread_id": "t"}}
with (
    RockpointSaver.open(store) as saver,
    RockpointStore.open(store + ".memory") as memory,
):
    graph = builder.compile(checkpointer=saver, store=memory)
    if phase == "first":
        graph.invoke({"log": []}, config)
        print("next", list(graph.get_state(config).next))
    else:
        log = graph.invoke(Command(resume="yes"), config)["log"]
        print("log", log, memory.get(("app",), "started").value["by"])
"""


def _wheel() -> Path:
    build_dir = Path(os.environ.get("BUILD_DIR", REPO / "build"))
    dist = Path(
        os.environ.get("ROCKPOINT_TEST_WHEEL_DIR", build_dir / "python" / "dist")
    )
    wheels = sorted(dist.glob("langgraph_checkpoint_rockpoint-*.whl"))
    assert wheels, f"no wheel in {dist}: build it with bindings/python/venv.sh"
    return wheels[-1]


def _user_env() -> dict[str, str]:
    """A user's shell: no virtual environment, no checkout on the path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ROCKPOINT_")}
    for key in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"):
        env.pop(key, None)
    return env


def test_wheel_installs_and_runs_a_graph_in_an_empty_directory(tmp_path: Path) -> None:
    wheel = _wheel()
    app_dir = tmp_path / "app"
    app_dir.mkdir()
    venv = tmp_path / "venv"
    env = _user_env()
    base_python = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base_python, "-m", "venv", str(venv)], check=True, env=env)
    python = str(venv / "bin" / "python")
    subprocess.run(
        [
            python,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-c",
            str(PACKAGE / "requirements-dev.txt"),
            str(wheel),
            "langgraph",
        ],
        check=True,
        cwd=app_dir,
        env=env,
        timeout=600,
    )
    (app_dir / "app.py").write_text(APP)
    store = str(app_dir / "agents.rpdb")

    def run(phase: str) -> str:
        done = subprocess.run(
            [python, "app.py", store, phase],
            cwd=app_dir,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert run("first") == "next ['ask']"
    assert run("resume") == "log ['start', 'answer:yes'] start"
