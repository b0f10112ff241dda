// LangGraph's conformance suite, every spec including the opt-in delta
// channel history tests, against an encrypted RocksDB store (fresh per
// checkpointer, each with a new random key): every record sealed with
// AES-256-GCM must read, filter and list as in a plaintext store.
import {
  deltaChannelHistoryTests,
  validate,
} from "@langchain/langgraph-checkpoint-validation";

import { encryptedInitializer } from "./initializers.js";

validate(encryptedInitializer);
deltaChannelHistoryTests(encryptedInitializer);
