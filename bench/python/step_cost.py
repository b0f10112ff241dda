"""Instructions per graph step, by saver, counted with callgrind.

A graph step's wall time on a shared 2-core machine varies by 2x between
runs; its instruction count does not. For each saver this runs the 3-node
graph of workload.build_step_graph (LangGraph's default durability) under
`valgrind --tool=callgrind` twice, with FEW and MANY invokes on one
thread_id, and reports (I refs of MANY - I refs of FEW) / (MANY - FEW):
the instructions one invoke costs, every thread of the process counted,
imports and set-up cancelled out.

    bindings/python/venv.sh   # the environment, once
    build/python-venv/bin/python bench/python/step_cost.py

`--invoke SAVER N` is what each valgrind run executes.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import workload  # noqa: E402
from bench import _commit  # noqa: E402

FEW, MANY = 10, 60
SAVERS = ("inmemory", "rockpoint")


def invoke(saver_name: str, n: int) -> None:
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.checkpoint.rockpoint import RockpointSaver

    if saver_name == "inmemory":
        saver = InMemorySaver()
    else:
        path = Path(tempfile.mkdtemp(prefix="rockpoint-step-")) / "store"
        saver = RockpointSaver.open(str(path), sync_writes=False)
    graph = workload.build_step_graph(saver)
    config = workload._config(str(uuid.uuid4()))
    for _ in range(3 + n):  # 3 warm-up invokes
        graph.invoke({"x": 0, "log": ""}, config)


def instructions(saver_name: str, n: int) -> int:
    with tempfile.TemporaryDirectory() as out:
        run = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}/callgrind.out",
                sys.executable,
                __file__,
                "--invoke",
                saver_name,
                str(n),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
    match = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if not match:
        raise RuntimeError(f"no I refs in valgrind's output:\n{run.stderr}")
    return int(match.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--invoke", nargs=2, metavar=("SAVER", "N"))
    args = parser.parse_args()
    if args.invoke:
        invoke(args.invoke[0], int(args.invoke[1]))
        return
    per_invoke = {}
    for name in SAVERS:
        few, many = instructions(name, FEW), instructions(name, MANY)
        per_invoke[name] = (many - few) / (MANY - FEW)
        print(f"{name}: {per_invoke[name] / 1e6:.2f} M instructions per invoke")
    ratio = per_invoke["rockpoint"] / per_invoke["inmemory"]
    print(
        f"rockpoint / inmemory: {ratio:.2f} (callgrind, {MANY - FEW} invokes, "
        f"at {_commit()})"
    )


if __name__ == "__main__":
    main()
