// @rockpoint/langgraph-checkpoint-rockpoint: a LangGraph.js checkpoint saver
// backed by rockpoint (RocksDB, or the engine's in-memory store).
export { RockpointSaver, MEMORY } from "./saver.js";
export { SERDE_MARKER } from "./metadata.js";
export { ERROR_CODES, isRockpointError } from "./errors.js";
