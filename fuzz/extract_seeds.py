#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (fuzz/README.md).

    extract_seeds.py SOURCE_DIR OUT_DIR

Each target's seeds come from the golden vectors of the format doc it
fuzzes, so the seeds follow the docs when a format changes:

  tuple         keys/FORMAT.md: the encodings of the test-vector table.
  msgpack       serde/FORMAT.md section 1: every hex byte string in
                backticks (the golden vectors and the examples).
  records       serde/FORMAT.md section 2: every hex byte string in
                backticks, and every code block whose lines all start with
                hex bytes (an annotated record, one seed per block).
  import        tools/cli/FORMAT_JSONL.md: the Example file.
  journal       engine/jsonl/FORMAT.md: the example journal, whole and cut
                after each line (torn tails).
  differential  no doc describes operation sequences: byte strings from a
                fixed pseudo-random generator, one choice per byte.

Inputs that once found a bug are kept in fuzz/regressions/<target>/ and
are copied into the target's seeds as they are.

OUT_DIR/<target>/ is emptied and refilled; seeds are named by content.
Fails if a doc yields no seed (a renamed section or table).
"""

import hashlib
import pathlib
import random
import re
import sys

HEX_BYTES = re.compile(r"^[0-9a-f]{2}( [0-9a-f]{2})*$")
LEADING_HEX = re.compile(r"^((?:[0-9a-f]{2} )*[0-9a-f]{2})(?:\s|$)")


def section(text, start, end=None):
    """The part of `text` from the heading `start` to the heading `end`."""
    begin = text.index(start)
    stop = text.index(end, begin) if end else len(text)
    return text[begin:stop]


def code_blocks(text):
    """The bodies of the ``` fenced blocks of `text`, as lists of lines."""
    return [block.strip("\n").split("\n")
            for block in re.findall(r"```[a-z]*\n(.*?)```", text, re.S)]


def backtick_hex(text):
    """Every `xx xx ...` span of `text` that is hex bytes only."""
    return [bytes.fromhex(span) for span in re.findall(r"`([^`\n]+)`", text)
            if HEX_BYTES.match(span)]


def annotated_hex_blocks(text):
    """Code blocks whose every line starts with hex bytes (a comment may
    follow), each as the concatenation of those bytes."""
    seeds = []
    for lines in code_blocks(text):
        matches = [LEADING_HEX.match(line.strip()) for line in lines]
        if lines and all(matches):
            seeds.append(b"".join(bytes.fromhex(m.group(1)) for m in matches))
    return seeds


def tuple_seeds(root):
    text = (root / "keys/FORMAT.md").read_text()
    table = section(text, "<!-- test-vectors:begin -->",
                    "<!-- test-vectors:end -->")
    seeds = []
    for line in table.splitlines():
        cells = [cell.strip(" `") for cell in line.strip("|").split(" | ")]
        if len(cells) == 3 and HEX_BYTES.match(cells[2]):
            seeds.append(bytes.fromhex(cells[2]))
    return seeds


def msgpack_seeds(root):
    text = (root / "serde/FORMAT.md").read_text()
    return backtick_hex(section(text, "## 1.", "## 2."))


def record_seeds(root):
    text = section((root / "serde/FORMAT.md").read_text(), "## 2.")
    return backtick_hex(text) + annotated_hex_blocks(text)


def import_seeds(root):
    text = section((root / "tools/cli/FORMAT_JSONL.md").read_text(),
                   "## Example", "## Import")
    return ["\n".join(lines).encode() + b"\n" for lines in code_blocks(text)]


def journal_seeds(root):
    text = (root / "engine/jsonl/FORMAT.md").read_text()
    begin, end = "<!-- journal-example:begin -->", "<!-- journal-example:end -->"
    if begin not in text or end not in text:
        return []
    lines = [line for line in text[text.index(begin):text.index(end)]
             .splitlines()[1:] if not line.startswith("```")]
    return ["".join(line + "\n" for line in lines[:count]).encode()
            for count in range(1, len(lines) + 1)]


def differential_seeds(_root):
    generator = random.Random(19)
    return [bytes(generator.randrange(256) for _ in range(size))
            for size in (16, 48, 96, 160, 240)]


TARGETS = {
    "tuple": tuple_seeds,
    "msgpack": msgpack_seeds,
    "records": record_seeds,
    "import": import_seeds,
    "journal": journal_seeds,
    "differential": differential_seeds,
}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    for target, extract in TARGETS.items():
        seeds = extract(root)
        if not seeds:
            sys.exit(f"extract_seeds: no {target} seeds found; did a format "
                     "doc change shape?")
        regressions = root / "fuzz/regressions" / target
        if regressions.is_dir():
            seeds += [path.read_bytes() for path in sorted(regressions.iterdir())]
        directory = out / target
        directory.mkdir(parents=True, exist_ok=True)
        for old in directory.iterdir():
            old.unlink()
        for seed in seeds:
            name = hashlib.sha1(seed).hexdigest()
            (directory / name).write_bytes(seed)
        print(f"{target}: {len(set(seeds))} seeds")


if __name__ == "__main__":
    main()
