"""Conversion between LangGraph's store ops and the native ItemStore's.

plan_batch() checks a batch of GetOp / PutOp / SearchOp / ListNamespacesOp
(nothing runs when one op is wrong) and turns it into a Plan: the engine's
op lists, whose vectors are filled in once embedded (_embed.py), and the
answers known without the engine. to_results() turns the engine's answers
back into LangGraph's results (Item, SearchItem, namespace tuples, None), in
the order of the ops.

The engine's op tuples and answer rows are those of ItemStore.batch
(langgraph/checkpoint/rockpoint/_native.pyi).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

from langchain_core.embeddings import Embeddings
from langgraph.store.base import (
    NOT_PROVIDED,
    GetOp,
    IndexConfig,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    validate_op_namespace,
)

from langgraph.store.rockpoint._config import is_minutes
from langgraph.store.rockpoint._embed import record_texts

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def _time(micros: int) -> datetime:
    """Microseconds since the Unix epoch as an aware UTC datetime."""
    return _EPOCH + timedelta(microseconds=micros)


def _namespace(namespace: Any, what: str = "namespace") -> tuple[str, ...]:
    """``namespace`` as a tuple; TypeError unless a tuple or list (a str would
    otherwise read as one label per character)."""
    if isinstance(namespace, tuple):
        return namespace
    if isinstance(namespace, list):
        return tuple(namespace)
    raise TypeError(f"{what} must be a tuple of str, not {type(namespace).__name__}")


def _unstorable(namespace: tuple[str, ...]) -> bool:
    """Whether no item can live in ``namespace`` (empty, or under the
    reserved root "langgraph"): a get there finds nothing."""
    return not namespace or namespace[0] == "langgraph"


def _check_put_namespace(namespace: tuple[str, ...]) -> None:
    """BaseStore.put's rule, also for PutOps handed to batch()."""
    if not namespace:
        raise InvalidNamespaceError("Namespace cannot be empty.")
    if namespace[0] == "langgraph":
        raise InvalidNamespaceError(
            f'Root label for namespace cannot be "langgraph". Got: {namespace}'
        )


def _value(value: Any) -> dict[str, Any]:
    """A put's value as a dict; TypeError unless a Mapping."""
    if isinstance(value, dict):
        return value
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"value must be a dict (a Mapping), not {type(value).__name__}")


def _ttl(ttl: Any) -> float | str | None:
    """A put's TTL for the engine: "default" (the store's default_ttl),
    None (never) or minutes."""
    if ttl is NOT_PROVIDED:
        return "default"
    if ttl is None:
        return None
    if not is_minutes(ttl):
        raise TypeError(
            f"ttl must be a number of minutes or None, not {type(ttl).__name__}"
        )
    return float(ttl)


class Plan:
    """One batch, checked and split: the engine's ops (puts without vectors
    yet), the texts to embed for them and the queries to embed."""

    __slots__ = ("ops", "local", "slots", "texts", "put_fields", "queries")

    def __init__(self) -> None:
        # Engine op lists; a put's vectors and a search's query vector are
        # filled in by resolve().
        self.ops: list[list[Any]] = []
        # Results answered without the engine: op index -> result.
        self.local: dict[int, Any] = {}
        # For each op, the index of its engine op (or None when local).
        self.slots: list[int | None] = []
        # Unique texts to embed, in order, and for each engine put op index
        # its [(field, text)].
        self.texts: dict[str, None] = {}
        self.put_fields: dict[int, list[tuple[str, str]]] = {}
        # Unique queries, in order, and the search ops that use each.
        self.queries: dict[str, list[int]] = {}

    def resolve(
        self,
        text_vectors: Sequence[Sequence[float]],
        query_vectors: Sequence[Sequence[float]],
    ) -> list[tuple[Any, ...]]:
        """The engine's op tuples with the vectors in place: one vector per
        text of ``texts`` and per query of ``queries``, in their order
        (ValueError for another count)."""
        if len(text_vectors) != len(self.texts):
            raise ValueError(
                f"the embeddings returned {len(text_vectors)} vectors for "
                f"{len(self.texts)} texts"
            )
        if len(query_vectors) != len(self.queries):
            raise ValueError(
                f"the embeddings returned {len(query_vectors)} vectors for "
                f"{len(self.queries)} queries"
            )
        by_text = dict(zip(self.texts, text_vectors, strict=True))
        for index, fields in self.put_fields.items():
            self.ops[index][4] = [(field, by_text[text]) for field, text in fields]
        for (_, users), vector in zip(self.queries.items(), query_vectors, strict=True):
            for index in users:
                self.ops[index][3] = vector
        return [tuple(op) for op in self.ops]


def plan_batch(
    ops: list[Op],
    *,
    index_config: IndexConfig | None,
    embeddings: Embeddings | None,
    ttl_config: TTLConfig | None,
) -> Plan:
    """Checks every op (nothing runs when one is wrong) and prepares the
    engine's ops; as InMemoryStore, only the last put to a key is embedded
    (the engine keeps only it). The store's ``index_config``, ``embeddings``
    and ``ttl_config`` decide what is embedded, whether a query is allowed
    and the default of refresh_ttl."""
    plan = Plan()
    # Per (namespace, key): the engine op index and op of its last put.
    last_put: dict[tuple[tuple[str, ...], str], tuple[int, PutOp] | None] = {}
    refresh_default = (ttl_config or {}).get("refresh_on_read", True)
    for i, op in enumerate(ops):
        if not isinstance(op, (GetOp, PutOp, SearchOp, ListNamespacesOp)):
            raise ValueError(f"Unknown operation type: {type(op)}")
        if isinstance(op, SearchOp):
            _namespace(op.namespace_prefix, "namespace_prefix")
        elif isinstance(op, ListNamespacesOp):
            for condition in op.match_conditions or ():
                _namespace(condition.path, "match condition path")
        else:
            _namespace(op.namespace)
            if not isinstance(op.key, str):
                raise TypeError(f"key must be a str, not {type(op.key).__name__}")
        validate_op_namespace(op)
        slot: int | None = len(plan.ops)
        if isinstance(op, GetOp):
            namespace = tuple(op.namespace)
            if _unstorable(namespace):
                plan.local[i] = None
                slot = None
            else:
                refresh = op.refresh_ttl
                if refresh is None:
                    refresh = refresh_default
                plan.ops.append(["get", namespace, op.key, bool(refresh)])
        elif isinstance(op, PutOp):
            namespace = tuple(op.namespace)
            if op.value is None:
                if _unstorable(namespace):  # nothing there to delete
                    plan.local[i] = None
                    slot = None
                else:
                    plan.ops.append(["put", namespace, op.key, None, None, None])
                    last_put[(namespace, op.key)] = None
            else:
                _check_put_namespace(namespace)
                plan.ops.append(
                    ["put", namespace, op.key, _value(op.value), None, _ttl(op.ttl)]
                )
                last_put[(namespace, op.key)] = (len(plan.ops) - 1, op)
        elif isinstance(op, SearchOp):
            refresh = op.refresh_ttl
            if refresh is None:
                refresh = refresh_default
            if op.filter is not None and not isinstance(op.filter, Mapping):
                raise TypeError(
                    f"filter must be a dict or None, not {type(op.filter).__name__}"
                )
            if op.query:
                if not isinstance(op.query, str):
                    raise TypeError(
                        f"query must be a str or None, not {type(op.query).__name__}"
                    )
                if embeddings is None:
                    # rockpoint refuses what InMemoryStore and SqliteStore
                    # silently ignore: a query they would not rank by.
                    raise ValueError(
                        "search(query=...) needs a store opened with an index "
                        "(index={'dims': ..., 'embed': ...}); this store has "
                        "none. Search without a query, or open the store with "
                        "an index."
                    )
                plan.queries.setdefault(op.query, []).append(len(plan.ops))
            plan.ops.append(
                [
                    "search",
                    tuple(op.namespace_prefix),
                    None if op.filter is None else dict(op.filter),
                    None,
                    op.limit,
                    op.offset,
                    bool(refresh),
                ]
            )
        else:
            conditions = [
                (condition.match_type, tuple(condition.path))
                for condition in (op.match_conditions or ())
            ]
            plan.ops.append(["list", conditions, op.max_depth, op.limit, op.offset])
        plan.slots.append(slot)
    for last in last_put.values():
        if last is not None:
            record_texts(plan, *last, index_config, embeddings)
    return plan


def to_results(plan: Plan, raw: list[Any]) -> list[Result]:
    """LangGraph's results of the batch ``plan``, one per op in order, from
    ``raw``, the engine's answers to plan.ops (ItemStore.batch's rows)."""
    results: list[Result] = []
    for i, slot in enumerate(plan.slots):
        if slot is None:
            results.append(plan.local[i])
            continue
        kind = plan.ops[slot][0]
        answer = raw[slot]
        if kind == "get":
            results.append(
                None
                if answer is None
                else Item(
                    namespace=answer[0],
                    key=answer[1],
                    value=answer[2],
                    created_at=_time(answer[3]),
                    updated_at=_time(answer[4]),
                )
            )
        elif kind == "search":
            results.append(
                [
                    SearchItem(
                        namespace=row[0],
                        key=row[1],
                        value=row[2],
                        created_at=_time(row[3]),
                        updated_at=_time(row[4]),
                        score=row[6],
                    )
                    for row in answer
                ]
            )
        elif kind == "list":
            results.append(answer)
        else:
            results.append(None)
    return results
