import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type DeltaChannelHistory,
  type PendingWrite,
  type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";

export declare const MEMORY: ":memory:";
export declare const SERDE_MARKER: "__rockpoint_serde__";

export interface RockpointOptions {
  /** Store directory, or ":memory:" for the engine's in-memory store. */
  path?: string;
  /** Create the store if missing. Default: true. */
  createIfMissing?: boolean;
  /** fsync the WAL before a write resolves. Default: true. */
  syncWrites?: boolean;
  /** Open without the lock; writes fail. Default: false. */
  readOnly?: boolean;
  /** Values of at least this many bytes go to blob files (0: never). Default: 64 KiB. */
  blobFileMinBytes?: number;
  /** Shared block cache size. Default: 64 MiB. */
  blockCacheBytes?: number;
  /** Largest serialized value or write. Default: 256 MiB. */
  maxValueBytes?: number;
  /** Largest id, namespace, channel or task id. Default: 16 MiB. */
  maxIdBytes?: number;
  /** Serializer. Default: JsonPlusSerializer. */
  serde?: SerializerProtocol;
}

export type PruneStrategy = "keep_latest" | "delete";

export interface NamespaceInfo {
  checkpointNs: string;
  checkpointCount: number;
  latestCheckpointId: string;
  latestTs: string;
}

export interface ThreadInfo {
  threadId: string;
  namespaces: NamespaceInfo[];
}

export interface ThreadPage {
  threads: ThreadInfo[];
  nextAfter?: string;
}

export interface StoreStats {
  column_families: {
    name: string;
    live_sst_bytes: number;
    blob_file_bytes: number;
    estimated_keys: number;
  }[];
  total_disk_bytes: number;
  bytes_written: number;
  compaction_bytes_written: number;
}

export declare class RockpointSaver extends BaseCheckpointSaver<
  number | string
> {
  constructor(location?: string | RockpointOptions, serde?: SerializerProtocol);
  static open(path: string, options?: RockpointOptions): Promise<RockpointSaver>;
  static memory(options?: RockpointOptions): RockpointSaver;

  readonly kind: "memory" | "rocksdb" | "closed";
  readonly path: string;

  getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined>;
  list(
    config: RunnableConfig,
    options?: CheckpointListOptions,
  ): AsyncGenerator<CheckpointTuple>;
  put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig>;
  putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath?: string,
  ): Promise<void>;
  deleteThread(threadId: string): Promise<void>;
  getDeltaChannelHistory(options: {
    config: RunnableConfig;
    channels: string[];
  }): Promise<Record<string, DeltaChannelHistory>>;
  /** "<32-digit counter + 1>.<16 random digits>": unique per branch. */
  getNextVersion(current: number | string | undefined): string;

  deleteForRuns(runIds: string[]): Promise<void>;
  copyThread(sourceThreadId: string, targetThreadId: string): Promise<void>;
  prune(
    threadIds: string[],
    options?: { strategy?: PruneStrategy; keepLast?: number },
  ): Promise<void>;
  listThreads(options?: { after?: string; limit?: number }): Promise<ThreadPage>;
  compact(): Promise<void>;
  stats(): Promise<StoreStats>;
  close(): Promise<void>;
}
