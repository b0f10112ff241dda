"""Tests of RockpointStore (langgraph.store.rockpoint), LangGraph's BaseStore on
rockpoint: LangGraph's own store tests (InMemoryStore's and SqliteStore's)
rewritten against it, plus a graph, crash and bad-input tests."""
