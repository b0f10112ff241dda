"""langgraph.store.rockpoint: LangGraph's long-term memory store on rockpoint.

    from langgraph.store.rockpoint import RockpointStore

    with RockpointStore.open("./memory") as store:
        store.put(("users", "123"), "prefs", {"theme": "dark"})
        item = store.get(("users", "123"), "prefs")

Like ``langgraph.store.sqlite``, from the ``langgraph-checkpoint-rockpoint``
distribution (its engine is ``langgraph.checkpoint.rockpoint._native``).
"""

from langgraph.store.rockpoint.base import (
    RockpointANNConfig,
    RockpointIndexConfig,
    RockpointStore,
)

__all__ = ["RockpointANNConfig", "RockpointIndexConfig", "RockpointStore"]
