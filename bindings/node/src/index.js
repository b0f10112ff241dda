// @rockpoint/langgraph-checkpoint-rockpoint: a LangGraph.js checkpoint saver
// and long-term memory store backed by rockpoint (RocksDB, or the engine's
// in-memory stores).
export { RockpointSaver, MEMORY } from "./saver.js";
export { RockpointStore } from "./store/store.js";
export { SERDE_MARKER } from "./metadata.js";
export { ERROR_CODES, isRockpointError } from "./errors.js";
