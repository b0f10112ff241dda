"""Instructions per graph step, by saver, counted with callgrind.

A graph step's wall time on a shared 2-core machine varies by 2x between
runs; its instruction count does not. For each saver and each graph this
runs the graph (LangGraph's default durability) under
`valgrind --tool=callgrind` twice, with FEW and MANY calls, and reports
(I refs of MANY - I refs of FEW) / (MANY - FEW): the instructions one call
costs, every thread of the process counted, imports and set-up cancelled
out. The graphs are bench.py's: "step", one invoke of the 3-node graph
(workload.setup_graph_step, one thread_id), and "chat", one conversation
of 10 turns on a fresh thread (workload.setup_chat).

    bindings/python/venv.sh   # the environment, once
    build/python-venv/bin/python bench/python/step_cost.py [--graphs step,chat]

`--invoke SAVER GRAPH N` is what each valgrind run executes.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import workload  # noqa: E402
from bench import _commit  # noqa: E402

SAVERS = ("inmemory", "rockpoint")
# Per graph: its set-up (saver -> one call) and the (FEW, MANY) call counts.
GRAPHS = {
    "step": (workload.setup_graph_step, (10, 60)),
    "chat": (workload.setup_chat, (2, 12)),
}


def invoke(saver_name: str, graph: str, n: int) -> None:
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.checkpoint.rockpoint import RockpointSaver

    if saver_name == "inmemory":
        saver = InMemorySaver()
    else:
        path = Path(tempfile.mkdtemp(prefix="rockpoint-step-")) / "store"
        saver = RockpointSaver.open(str(path), sync_writes=False)
    call = GRAPHS[graph][0](saver)
    for _ in range(3 + n):  # 3 warm-up calls
        call()


def instructions(saver_name: str, graph: str, n: int) -> int:
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
                graph,
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
    parser.add_argument("--invoke", nargs=3, metavar=("SAVER", "GRAPH", "N"))
    parser.add_argument("--graphs", default=",".join(GRAPHS))
    args = parser.parse_args()
    if args.invoke:
        invoke(args.invoke[0], args.invoke[1], int(args.invoke[2]))
        return
    for graph in args.graphs.split(","):
        few, many = GRAPHS[graph][1]
        per_call = {}
        for name in SAVERS:
            counts = instructions(name, graph, few), instructions(name, graph, many)
            per_call[name] = (counts[1] - counts[0]) / (many - few)
            print(
                f"{graph}, {name}: {per_call[name] / 1e6:.2f} M instructions per call"
            )
        ratio = per_call["rockpoint"] / per_call["inmemory"]
        print(
            f"{graph}: rockpoint / inmemory: {ratio:.2f} (callgrind, "
            f"{many - few} calls, at {_commit()})"
        )


if __name__ == "__main__":
    main()
