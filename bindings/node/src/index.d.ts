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

/**
 * The `code` of every error a RockpointSaver method throws or rejects with
 * (errors raised by the caller's serializer excepted): the engine's status
 * names, "InvalidArgument" also for bad arguments (then a TypeError),
 * "Aborted" for a closed saver, "Internal" for a failure of the addon.
 */
export type RockpointErrorCode =
  | "NotFound"
  | "InvalidArgument"
  | "Corruption"
  | "IOError"
  | "Busy"
  | "Aborted"
  | "Internal";

export declare const ERROR_CODES: readonly RockpointErrorCode[];

/** An error of RockpointSaver; a failed open keeps the engine's as `cause`. */
export interface RockpointError extends Error {
  code: RockpointErrorCode;
}

/** Whether `error` is a RockpointError (an Error with a known `code`). */
export declare function isRockpointError(error: unknown): error is RockpointError;

export interface RockpointOptions {
  /** Store directory, or ":memory:" for the engine's in-memory store. */
  path?: string;
  /** Create the store if missing. Default: true. */
  createIfMissing?: boolean;
  /**
   * fsync the WAL before a write resolves (concurrent writes share fsyncs).
   * false: writes run on the JS thread and survive a process crash but not
   * a power loss, like SQLite's WAL with synchronous=NORMAL. Default: true.
   */
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

export interface ColumnFamilyStats {
  name: string;
  liveSstBytes: number;
  blobFileBytes: number;
  estimatedKeys: number;
}

export interface StoreStats {
  columnFamilies: ColumnFamilyStats[];
  /** Every file in the store directory. */
  totalDiskBytes: number;
  /** User bytes handed to RocksDB since open. */
  bytesWritten: number;
  compactionBytesWritten: number;
  /** @deprecated use columnFamilies (a hidden alias, snake_case members). */
  readonly column_families: {
    name: string;
    live_sst_bytes: number;
    blob_file_bytes: number;
    estimated_keys: number;
  }[];
  /** @deprecated use totalDiskBytes. */
  readonly total_disk_bytes: number;
  /** @deprecated use bytesWritten. */
  readonly bytes_written: number;
  /** @deprecated use compactionBytesWritten. */
  readonly compaction_bytes_written: number;
}

export interface PruneOptions {
  /** Default: "keep_latest". */
  strategy?: PruneStrategy;
  /** Checkpoints kept per namespace with "keep_latest". Default: 1. */
  keepLast?: number;
}

export interface ListThreadsOptions {
  /** Only threads whose id sorts after this one (the previous nextAfter). */
  after?: string;
  limit?: number;
}

/**
 * A checkpoint saver: what compile({ checkpointer }) takes. Declared over
 * number versions like MemorySaver (LangGraph's compile() expects
 * BaseCheckpointSaver<number>); see getNextVersion for the values it makes.
 */
export declare class RockpointSaver extends BaseCheckpointSaver<number> {
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
  /**
   * "<32-digit counter + 1>.<16 random digits>", a string unique per branch
   * whose string order is step order. Typed `any` (not `string`) only so
   * that the saver is assignable to BaseCheckpointSaver<number>: LangGraph
   * stores and compares versions but never does arithmetic on them, and
   * ChannelVersions already allows strings.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  getNextVersion(current: number | string | undefined): any;

  deleteForRuns(runIds: string[]): Promise<void>;
  copyThread(sourceThreadId: string, targetThreadId: string): Promise<void>;
  prune(threadIds: string[], options?: PruneOptions): Promise<void>;
  listThreads(options?: ListThreadsOptions): Promise<ThreadPage>;
  compact(): Promise<void>;
  stats(): Promise<StoreStats>;
  close(): Promise<void>;
}
