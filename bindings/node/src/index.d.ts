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
 * names, "InvalidArgument" also for bad arguments (then a TypeError, or a
 * RangeError for a number out of range or an unknown strategy),
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
  /**
   * Expire checkpoints in the background: the engine sweeps every thread
   * every sweep interval on a thread of its own (see RetentionPolicy).
   * Not with readOnly. Default: none.
   */
  retention?: RetentionOptions;
  /**
   * Encryption at rest (RocksDB only): the AES-256 key, a Uint8Array (a
   * Buffer) of 32 bytes or a string of 64 hex digits. Every record
   * (checkpoints with their metadata, channel values, pending writes) is
   * sealed with AES-256-GCM; ids (thread, namespace, checkpoint, channel,
   * version, task, run) stay in the clear. A new store is encrypted from
   * its first record on; an encrypted store opens only with its key, and a
   * plaintext store that holds records does not open with one: both reject
   * with code "InvalidArgument". A record that does not authenticate
   * (tampered with, or moved) rejects its read with "Corruption". Another
   * type throws a TypeError, a wrong length or a non-hex digit a
   * RangeError (code "InvalidArgument"), before anything is opened; so
   * does a key given to the in-memory store. The saver copies the key and
   * zeroes its copy once the store is open. Default: none (plaintext).
   */
  encryptionKey?: Uint8Array | string;
  /** Serializer. Default: JsonPlusSerializer. */
  serde?: SerializerProtocol;
}

/**
 * Which checkpoints expire (docs/CONTRACT.md, "Retention"), per (thread,
 * namespace). A checkpoint's age is its `ts`; one whose ts is not ISO-8601
 * never expires by age. At least one of maxAgeMs, maxIdleMs and keepLast.
 */
export interface RetentionPolicy {
  /** Expire a checkpoint older than this. Rounded up to whole seconds. */
  maxAgeMs?: number;
  /**
   * Expire every checkpoint of a thread whose newest checkpoint (in any
   * namespace) is older than this. Rounded up to whole seconds.
   */
  maxIdleMs?: number;
  /**
   * Keep the newest N per (thread, namespace): alone, the cap; with
   * maxAgeMs or maxIdleMs, a floor that never expires. An integer >= 1.
   */
  keepLast?: number;
  /** How often the background sweeper runs (at most a year). Default: 600000 (10 minutes). */
  sweepIntervalMs?: number;
  /** Threads per engine call of a sweep (locks held at once). Default: 64. */
  sweepBatchThreads?: number;
}

/**
 * On expiry, "delete" removes the whole thread; "keep_latest" keeps its
 * newest checkpoint per namespace.
 */
export type TtlStrategy = "delete" | "keep_latest";

/** LangGraph platform's checkpointer TTL settings, in minutes. */
export interface CheckpointerTtl {
  /** Default: "delete". */
  strategy?: TtlStrategy;
  /** A thread expires when idle this many minutes. */
  defaultTtl: number;
  /** Default: 10. */
  sweepIntervalMinutes?: number;
}

/** The same settings as langgraph.json spells them. */
export interface CheckpointerTtlSnakeCase {
  strategy?: TtlStrategy;
  default_ttl: number;
  sweep_interval_minutes?: number;
}

/**
 * `{ttl: {strategy, defaultTtl, sweepIntervalMinutes}}`, e.g. the
 * `checkpointer` section of langgraph.json: "delete" is maxIdleMs =
 * defaultTtl, "keep_latest" adds keepLast: 1.
 */
export interface CheckpointerTtlConfig {
  ttl: CheckpointerTtl | CheckpointerTtlSnakeCase;
}

export type RetentionOptions = RetentionPolicy | CheckpointerTtlConfig;

/** A policy with its defaults filled in, as RockpointSaver#retention gives it. */
export interface NormalizedRetentionPolicy extends RetentionPolicy {
  sweepIntervalMs: number;
  sweepBatchThreads: number;
}

/** What a sweep expired (or, dry, would expire). */
export interface RetentionReport {
  threadsExamined: number;
  /** Threads left with no visible checkpoint. */
  threadsEmptied: number;
  /** Visible checkpoints that expired: deleted, or hidden when needed. */
  checkpointsExpired: number;
  /** Of those, the ones kept hidden for a survivor's delta history. */
  checkpointsHidden: number;
  /** Stored bytes deleted. */
  bytes: number;
}

export interface SweepOptions {
  /** The policy of this pass. Default: the saver's (rejects if it has none). */
  retention?: RetentionOptions;
  /** The time the policy is applied at. Default: when the pass starts. */
  now?: Date;
  /** Count what would expire, change nothing. Default: false. */
  dryRun?: boolean;
}

/** What the saver's policy did so far (see RockpointSaver#sweeperStats). */
export interface SweeperStats {
  /** Sweeps completed or failed. */
  sweeps: number;
  failedSweeps: number;
  /** Summed over the sweeps that completed. */
  expired: RetentionReport;
  /** The last sweep's error, or null when it succeeded. */
  lastError: RockpointError | null;
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
  /** The background sweeper's policy, or null without one. */
  readonly retention: Readonly<NormalizedRetentionPolicy> | null;

  /**
   * The checkpoint config names (the latest of its thread and namespace
   * without checkpoint_id); undefined when there is none or config has no
   * thread_id, as MemorySaver. Rejects with a TypeError when config is not
   * an object.
   */
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
  /**
   * One retention pass over every thread, off the JS thread: of
   * options.retention, else of the saver's policy.
   */
  sweep(options?: SweepOptions): Promise<RetentionReport>;
  /**
   * Background sweeps and sweep() calls of the saver's policy so far (dry
   * runs excepted); null without a policy.
   */
  sweeperStats(): Promise<SweeperStats | null>;
  listThreads(options?: ListThreadsOptions): Promise<ThreadPage>;
  compact(): Promise<void>;
  stats(): Promise<StoreStats>;
  close(): Promise<void>;
}
