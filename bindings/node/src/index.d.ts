import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  BaseStore,
  type Item,
  type Operation,
  type OperationResults,
  type SearchItem,
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

// ---- RockpointStore: long-term memory (LangGraph's BaseStore) -------------

/** Embeds texts: one vector of `dims` numbers per text, in order. */
export type EmbedFunction = (texts: string[]) => Promise<number[][]>;

/**
 * Vector search (LangGraph's IndexConfig): puts embed the texts at
 * `fields`, a search's `query` is embedded and items are ranked by cosine
 * similarity. Give `embeddings` (LangGraph.js's name) or `embed` (Python's
 * and PostgresStore's), not both.
 */
export interface StoreIndexConfig {
  /**
   * Numbers per vector, an integer >= 1; fixed when a store is first
   * opened with an index (reopening with other dims is refused).
   */
  dims: number;
  embeddings?: EmbeddingsInterface | EmbedFunction;
  embed?: EmbeddingsInterface | EmbedFunction;
  /**
   * Paths of the texts to embed ("text", "meta.title", "tags[*]",
   * "chapters[0].body", "{title,summary}"); "$" is the whole value as
   * JSON. Default: ["$"].
   */
  fields?: string[];
  /**
   * Search is exact (every vector under the prefix scored) while the store
   * holds at most this many vectors; above it an HNSW graph, built in the
   * background and kept up to date, answers (docs/STORE.md). Default: 20000.
   */
  exactSearchMaxVectors?: number;
  /**
   * The HNSW graph's parameters (PostgresStore's names): m links per node
   * (2 to 10000, else the open fails with the engine's InvalidArgument;
   * default 16), efConstruction and ef candidates while building and
   * searching (defaults 100 and 128).
   */
  hnsw?: { m?: number; efConstruction?: number; ef?: number };
}

/** The state of a store's vector index. */
export interface StoreIndexStats {
  /** Vectors held: one per embedded field of every item. */
  vectors: number;
  /** Whether the HNSW graph answers queries (else search is exact). */
  approximateReady: boolean;
}

/**
 * Expiry (Python's TTLConfig), in minutes. snake_case spellings
 * (default_ttl, refresh_on_read, sweep_interval_minutes, as langgraph.json
 * writes them) are accepted too.
 */
export interface StoreTtlConfig {
  /** A put's TTL unless it gives its own. Default: none (items never expire). */
  defaultTtl?: number | null;
  /** get and search restart the TTL of what they return. Default: true. */
  refreshOnRead?: boolean;
  /** Delete expired items in the background this often. Default: only sweepTtl(). */
  sweepIntervalMinutes?: number | null;
  default_ttl?: number | null;
  refresh_on_read?: boolean;
  sweep_interval_minutes?: number | null;
}

export interface RockpointMemoryStoreOptions {
  index?: StoreIndexConfig;
  ttl?: StoreTtlConfig;
}

export interface RockpointStoreOptions extends RockpointMemoryStoreOptions {
  /** A put resolves once it is durable (WAL fsync). Default: true. */
  syncWrites?: boolean;
  /** Open without the lock; every put is refused. Default: false. */
  readOnly?: boolean;
  /** Create the store if missing. Default: true. */
  createIfMissing?: boolean;
}

export interface StorePutOptions {
  /** Minutes until the item expires; null: never. Default: ttl.defaultTtl. */
  ttl?: number | null;
}

export interface StoreGetOptions {
  /** Restart the item's TTL (with ttl.refreshOnRead). Default: true. */
  refreshTtl?: boolean;
}

export interface StoreSearchOptions {
  /**
   * Conditions on top-level fields, all of which must hold: a value
   * (JSON equality), {$eq, $ne, $gt, $gte, $lt, $lte}, or an object
   * matching nested fields.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  filter?: Record<string, any>;
  /** Default: 10. */
  limit?: number;
  /** Default: 0. */
  offset?: number;
  /** Rank by similarity to this text (needs an index). */
  query?: string;
  /** Restart the TTL of the items returned. Default: true. */
  refreshTtl?: boolean;
}

/**
 * LangGraph's BaseStore on rockpoint's item store, in a RocksDB directory
 * of its own or in memory: compile({ checkpointer, store }).
 */
export declare class RockpointStore extends BaseStore {
  /**
   * ":memory:" (default), a directory (a RocksDB store, opened on first
   * use), or options with `path`.
   */
  constructor(location?: string | (RockpointStoreOptions & { path?: string }));
  /** Opens (or creates) the RocksDB store in directory `path`. */
  static open(path: string, options?: RockpointStoreOptions): Promise<RockpointStore>;
  /** An in-memory store. */
  static memory(options?: RockpointMemoryStoreOptions): RockpointStore;

  readonly kind: "memory" | "rocksdb" | "closed";
  /** The store directory, or ":memory:". */
  readonly path: string;
  readonly indexConfig:
    | {
        dims: number;
        embeddings: EmbeddingsInterface | EmbedFunction;
        fields: string[];
        exactSearchMaxVectors?: number;
        hnsw?: { m?: number; efConstruction?: number; ef?: number };
      }
    | undefined;
  readonly ttlConfig:
    | Readonly<{
        defaultTtl?: number;
        refreshOnRead: boolean;
        sweepIntervalMinutes?: number;
      }>
    | undefined;

  /**
   * LangGraph's operations; a put may carry `ttl` (minutes, or null), a
   * get or search `refreshTtl`. All or nothing: one bad operation (or a
   * failed embedding) rejects the batch and writes nothing.
   */
  batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>>;
  get(namespace: string[], key: string, options?: StoreGetOptions): Promise<Item | null>;
  search(namespacePrefix: string[], options?: StoreSearchOptions): Promise<SearchItem[]>;
  put(
    namespace: string[],
    key: string,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    value: Record<string, any>,
    index?: false | string[],
    options?: StorePutOptions,
  ): Promise<void>;
  delete(namespace: string[], key: string): Promise<void>;
  listNamespaces(options?: {
    prefix?: string[];
    suffix?: string[];
    maxDepth?: number;
    limit?: number;
    offset?: number;
  }): Promise<string[][]>;
  /** Deletes the expired items now; resolves to how many. */
  sweepTtl(): Promise<number>;
  /** The vector index's state, or null without an index. */
  indexStats(): Promise<StoreIndexStats | null>;
  /** Resolves once the store is open. */
  start(): Promise<void>;
  /** Closes the store (as close()). */
  stop(): Promise<void>;
  /** Waits for calls in flight, closes the store, releases its lock. */
  close(): Promise<void>;
}
