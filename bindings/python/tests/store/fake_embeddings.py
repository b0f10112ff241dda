"""A deterministic fake embedding for the store tests.

Each character gets a fixed pseudo-random direction (seeded by the
character's own bytes, so every process derives the same one whatever texts
it saw first); a text's vector is the frequency-weighted sum of its
characters' directions, normalized. Texts sharing many characters are close,
which is all the tests need of "semantic" search.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter

from langchain_core.embeddings import Embeddings


class CharEmbeddings(Embeddings):
    def __init__(self, dims: int = 500) -> None:
        self.dims = dims
        self._directions: dict[str, list[float]] = {}
        self.calls: list[list[str]] = []  # every embed_documents call's texts

    def _direction(self, char: str) -> list[float]:
        found = self._directions.get(char)
        if found is None:
            seed = hashlib.sha256(char.encode("utf-8", "surrogatepass")).digest()
            rng = random.Random(seed)
            found = self._directions[char] = [
                rng.gauss(0.0, 1.0) for _ in range(self.dims)
            ]
        return found

    def vector(self, text: str) -> list[float]:
        counts = Counter(text)
        if not counts:
            return [0.0] * self.dims
        total = sum(counts.values())
        out = [0.0] * self.dims
        for char, count in counts.items():
            weight = count / total
            for i, x in enumerate(self._direction(char)):
                out[i] += weight * x
        norm = math.sqrt(sum(x * x for x in out))
        return [x / norm for x in out] if norm else out

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        return [self.vector(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.vector(text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CharEmbeddings) and other.dims == self.dims

    __hash__ = None  # type: ignore[assignment]


def cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0
