// LangGraph's conformance suite, every spec including the opt-in delta
// channel history tests, against a RocksDB store (fresh per checkpointer).
import {
  deltaChannelHistoryTests,
  validate,
} from "@langchain/langgraph-checkpoint-validation";

import { rocksdbInitializer } from "./initializers.js";

validate(rocksdbInitializer);
deltaChannelHistoryTests(rocksdbInitializer);
