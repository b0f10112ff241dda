"""LangGraph's own conformance suite (langgraph-checkpoint-conformance)
against a RocksDB store (a fresh directory per capability), an encrypted
one (encryption_key, docs/ENCRYPTION.md) and the memory store. Every
capability must be detected and pass; the table is printed."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import AsyncGenerator

import pytest
from langgraph.checkpoint.conformance import checkpointer_test, validate
from langgraph.checkpoint.conformance.capabilities import ALL_CAPABILITIES
from langgraph.checkpoint.conformance.report import CapabilityReport

from langgraph.checkpoint.rockpoint import RockpointSaver


@checkpointer_test(name="RockpointSaver(rocksdb)")
async def rocksdb_saver() -> AsyncGenerator[RockpointSaver, None]:
    directory = tempfile.mkdtemp(prefix="rockpoint-conformance-")
    saver = RockpointSaver.open(directory + "/store")
    try:
        yield saver
    finally:
        saver.close()
        shutil.rmtree(directory, ignore_errors=True)


@checkpointer_test(name="RockpointSaver(rocksdb, encrypted)")
async def encrypted_saver() -> AsyncGenerator[RockpointSaver, None]:
    directory = tempfile.mkdtemp(prefix="rockpoint-conformance-")
    saver = RockpointSaver.open(directory + "/store", encryption_key=bytes(range(32)))
    try:
        yield saver
    finally:
        saver.close()
        shutil.rmtree(directory, ignore_errors=True)


@checkpointer_test(name="RockpointSaver(memory)")
async def memory_saver() -> AsyncGenerator[RockpointSaver, None]:
    with RockpointSaver.memory() as saver:
        yield saver


def _table(report: CapabilityReport) -> str:
    lines = [f"conformance: {report.checkpointer_name}"]
    lines.append(f"  {'capability':18} {'detected':9} {'passed':7} tests")
    for name, r in sorted(report.results.items()):
        lines.append(
            f"  {name:18} {str(r.detected):9} {str(r.passed):7} "
            f"{r.tests_passed} passed, {r.tests_failed} failed"
        )
    lines.append(f"  level: {report.conformance_level()}")
    return "\n".join(lines)


@pytest.mark.parametrize(
    "registered",
    [rocksdb_saver, encrypted_saver, memory_saver],
    ids=["rocksdb", "rocksdb-encrypted", "memory"],
)
async def test_conformance(registered, capsys: pytest.CaptureFixture[str]) -> None:
    report = await validate(registered)
    with capsys.disabled():
        print("\n" + _table(report))
    failures = {n: r.failures for n, r in report.results.items() if r.failures}
    assert report.passed_all(), failures
    detected = {name for name, r in report.results.items() if r.detected}
    assert detected == {c.value for c in ALL_CAPABILITIES}
