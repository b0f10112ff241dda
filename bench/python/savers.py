"""The savers under test, by name, each with its durability class.

fsync class: every write is on disk when the call returns.
no-fsync class: RocksDB's WAL without fsync, SQLite WAL synchronous=NORMAL,
PostgreSQL synchronous_commit=off, and InMemorySaver.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.checkpoint.rockpoint import RockpointSaver
from langgraph.checkpoint.sqlite import SqliteSaver
from psycopg.rows import dict_row


@dataclass
class Subject:
    name: str
    durability: str  # "fsync" or "no-fsync"
    saver: BaseCheckpointSaver
    close: Callable[[], None]


def _sqlite(path: Path, synchronous: str) -> tuple[SqliteSaver, Callable[[], None]]:
    conn = sqlite3.connect(str(path), check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA synchronous={synchronous}")
    saver = SqliteSaver(conn)
    saver.setup()
    return saver, conn.close


def _postgres(
    conninfo: str, schema: str, sync_commit: str
) -> tuple[PostgresSaver, Any]:
    admin = psycopg.connect(conninfo, autocommit=True)
    admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    admin.execute(f"CREATE SCHEMA {schema}")
    admin.close()
    conn = psycopg.connect(
        conninfo,
        autocommit=True,
        prepare_threshold=0,
        row_factory=dict_row,
        options=f"-c search_path={schema} -c synchronous_commit={sync_commit}",
    )
    saver = PostgresSaver(conn)
    saver.setup()
    return saver, conn.close


def make_subjects(work: Path, conninfo: str | None) -> list[Subject]:
    out: list[Subject] = []
    rp_sync = RockpointSaver.open(str(work / "rp-fsync"), sync_writes=True)
    rp_nosync = RockpointSaver.open(str(work / "rp-nofsync"), sync_writes=False)
    out.append(Subject("rockpoint", "fsync", rp_sync, rp_sync.close))
    out.append(Subject("rockpoint", "no-fsync", rp_nosync, rp_nosync.close))
    out.append(Subject("inmemory", "no-fsync", InMemorySaver(), lambda: None))
    saver, close = _sqlite(work / "full.sqlite", "FULL")
    out.append(Subject("sqlite", "fsync", saver, close))
    saver, close = _sqlite(work / "normal.sqlite", "NORMAL")
    out.append(Subject("sqlite", "no-fsync", saver, close))
    if conninfo:
        saver, close = _postgres(conninfo, "bench_sync", "on")
        out.append(Subject("postgres", "fsync", saver, close))
        saver, close = _postgres(conninfo, "bench_nosync", "off")
        out.append(Subject("postgres", "no-fsync", saver, close))
    return out
