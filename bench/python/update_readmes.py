"""Copies the bindings' benchmark reports into the READMEs: bench/python/results.md
between the pybench markers of bench/README.md and bindings/python/README.md,
bench/python/agents.md between the agents markers of bench/README.md, and
bindings/node/bench/agents.md and bindings/node/bench/steps.md between the
node-agents and node-steps markers of bindings/node/README.md."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def copy(report: str, marker: str, readmes: list[str]) -> None:
    start, end = f"<!-- {marker}:start -->", f"<!-- {marker}:end -->"
    results = (ROOT / report).read_text().strip()
    for name in readmes:
        readme = ROOT / name
        text = readme.read_text()
        head, rest = text.split(start, 1)
        _, tail = rest.split(end, 1)
        readme.write_text(f"{head}{start}\n{results}\n{end}{tail}")


def main() -> None:
    copy(
        "bench/python/results.md",
        "pybench",
        ["bench/README.md", "bindings/python/README.md"],
    )
    copy("bench/python/agents.md", "agents", ["bench/README.md"])
    copy("bindings/node/bench/agents.md", "node-agents", ["bindings/node/README.md"])
    copy("bindings/node/bench/steps.md", "node-steps", ["bindings/node/README.md"])


if __name__ == "__main__":
    main()
