"""What RockpointStore embeds, and the calls to its embeddings.

The engine stores and compares vectors but never computes them: for each
put of a batch this module picks the texts to embed (InMemoryStore's rule:
the index's ``fields``, or the put's own ``index`` paths), then embeds them
and the batch's search queries, each unique text once per batch, with
``embed_documents`` / ``embed_query`` (or their async forms).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from langchain_core.embeddings import Embeddings
from langgraph.store.base import (
    IndexConfig,
    PutOp,
    get_text_at_path,
    tokenize_path,
)

if TYPE_CHECKING:
    from langgraph.store.rockpoint._ops import Plan


def record_texts(
    plan: Plan,
    index: int,
    op: PutOp,
    index_config: IndexConfig | None,
    embeddings: Embeddings | None,
) -> None:
    """Records in ``plan`` what to embed for the put ``op`` (engine op
    ``index``): InMemoryStore's rule, fields "path" or "path.i" for several
    texts. Nothing without an index or for ``op.index=False``; TypeError for
    an ``op.index`` that is not a list of str paths."""
    if index_config is None or embeddings is None or op.index is False:
        return
    if op.index is None:
        paths = index_config["__tokenized_fields"]  # type: ignore[typeddict-item]
    else:
        if not isinstance(op.index, (list, tuple)) or not all(
            isinstance(p, str) for p in op.index
        ):
            raise TypeError(
                f"index must be False, None or a list of str paths, got {op.index!r}"
            )
        paths = [(ix, tokenize_path(ix)) for ix in op.index]
    fields: list[tuple[str, str]] = []
    for path, tokens in paths:
        texts = get_text_at_path(op.value, tokens)
        if len(texts) > 1:
            fields.extend((f"{path}.{i}", text) for i, text in enumerate(texts))
        elif texts:
            fields.append((path, texts[0]))
    # A field named twice (a path listed twice) keeps its last text.
    fields = list(dict(fields).items())
    for _, text in fields:
        plan.texts.setdefault(text, None)
    plan.put_fields[index] = fields


def embed_plan(plan: Plan, embeddings: Embeddings | None) -> list[tuple[Any, ...]]:
    """The engine's op tuples of ``plan`` with their vectors, embedded with
    ``embeddings`` (called only when the plan has texts or queries, which
    it has only with embeddings)."""
    texts = list(plan.texts)
    text_vectors = embeddings.embed_documents(texts) if texts else []  # type: ignore[union-attr]
    query_vectors = [
        embeddings.embed_query(query)  # type: ignore[union-attr]
        for query in plan.queries
    ]
    return plan.resolve(text_vectors, query_vectors)


async def aembed_plan(
    plan: Plan, embeddings: Embeddings | None
) -> list[tuple[Any, ...]]:
    """embed_plan with the async embedding calls (the queries embedded
    concurrently)."""
    texts = list(plan.texts)
    text_vectors = await embeddings.aembed_documents(texts) if texts else []  # type: ignore[union-attr]
    query_vectors = await asyncio.gather(
        *(embeddings.aembed_query(query) for query in plan.queries)  # type: ignore[union-attr]
    )
    return plan.resolve(text_vectors, query_vectors)
