// LangGraph's conformance suite, every spec including the opt-in delta
// channel history tests, against the engine's in-memory store.
import {
  deltaChannelHistoryTests,
  validate,
} from "@langchain/langgraph-checkpoint-validation";

import { memoryInitializer } from "./initializers.js";

validate(memoryInitializer);
deltaChannelHistoryTests(memoryInitializer);
