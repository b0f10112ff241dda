"""Copies bench/python/results.md between the pybench markers of
bench/README.md and bindings/python/README.md."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
START, END = "<!-- pybench:start -->", "<!-- pybench:end -->"


def main() -> None:
    results = (ROOT / "bench/python/results.md").read_text().strip()
    for readme in (ROOT / "bench/README.md", ROOT / "bindings/python/README.md"):
        text = readme.read_text()
        head, rest = text.split(START, 1)
        _, tail = rest.split(END, 1)
        readme.write_text(f"{head}{START}\n{results}\n{END}{tail}")


if __name__ == "__main__":
    main()
