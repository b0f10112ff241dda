// The values of put() / getTuple() in the shapes the addon takes and gives
// (native/convert.h), with LangGraph values serialized by the saver's serde:
// a channel value, write or legacy pending send becomes serde.dumpsTyped's
// [type, bytes] pair, metadata a JSON-like value (metadata.js).
import { TASKS, maxChannelVersion } from "@langchain/langgraph-checkpoint";

import { handled, runnableConfig } from "./config.js";
import { fromNativeValue, toNativeValue } from "./metadata.js";

function copyVersions(versions) {
  return versions ? { ...versions } : {};
}

/**
 * The engine arguments {checkpoint, metadata, newVersions} of a put. Only
 * channels named in newVersions with a value are serialized (the engine
 * stores nothing else). Everything is read before this returns (serde's
 * synchronous work included), so later mutation by the caller changes
 * nothing stored; the promise settles when the serde calls have.
 */
export function preparePut(serde, checkpoint, metadata, newVersions) {
  const versions = copyVersions(newVersions);
  const values = checkpoint.channel_values ?? {};
  const stored = [];
  for (const channel of Object.keys(versions)) {
    if (!Object.hasOwn(values, channel)) continue;
    const value = values[channel];
    if (value === undefined) continue;
    stored.push([channel, serde.dumpsTyped(value)]);
  }
  const seen = {};
  for (const [node, nodeVersions] of Object.entries(
    checkpoint.versions_seen ?? {},
  )) {
    seen[node] = copyVersions(nodeVersions);
  }
  const pendingSends = Array.isArray(checkpoint.pending_sends)
    ? checkpoint.pending_sends.map((send) => serde.dumpsTyped(send))
    : undefined;
  const base = {
    v: checkpoint.v,
    id: checkpoint.id,
    ts: checkpoint.ts,
    channel_versions: copyVersions(checkpoint.channel_versions),
    versions_seen: seen,
    updated_channels: Array.isArray(checkpoint.updated_channels)
      ? [...checkpoint.updated_channels]
      : undefined,
  };
  const prepared = Promise.all([
    Promise.all(stored.map(([, promise]) => promise)),
    pendingSends ? Promise.all(pendingSends) : undefined,
    toNativeValue(metadata ?? {}, serde),
  ]).then(([typed, sends, nativeMetadata]) => {
    const channelValues = {};
    stored.forEach(([channel], i) => {
      channelValues[channel] = typed[i];
    });
    return {
      checkpoint: { ...base, channel_values: channelValues, pending_sends: sends },
      metadata: nativeMetadata,
      newVersions: versions,
    };
  });
  return handled(prepared);
}

/** [[channel, type, bytes]...] of putWrites' [channel, value] pairs. */
export function prepareWrites(serde, writes) {
  return handled(
    Promise.all(
      writes.map(async ([channel, value]) => {
        const [type, bytes] = await serde.dumpsTyped(value);
        return [channel, type, bytes];
      }),
    ),
  );
}

/** [taskId, channel, value] of the engine's [taskId, channel, type, bytes]. */
export function loadWrites(serde, rawWrites) {
  return Promise.all(
    rawWrites.map(async ([taskId, channel, type, bytes]) => [
      taskId,
      channel,
      await serde.loadsTyped(type, bytes),
    ]),
  );
}

/**
 * A CheckpointTuple of the engine's raw tuple. `legacy` serves checkpoints
 * of format v < 4: {readRaw(config) -> raw tuple or null, nextVersion()}.
 */
export async function toTuple(serde, raw, legacy) {
  const rawCheckpoint = raw.checkpoint;
  const channels = Object.keys(rawCheckpoint.channel_values);
  const rawWrites = raw.pending_writes;
  const rawSends = rawCheckpoint.pending_sends;
  // One Promise.all for every value of the tuple, in this order: channel
  // values, pending writes, pending sends, metadata.
  const loads = [];
  for (const channel of channels) {
    const [type, bytes] = rawCheckpoint.channel_values[channel];
    loads.push(serde.loadsTyped(type, bytes));
  }
  for (const write of rawWrites) loads.push(serde.loadsTyped(write[2], write[3]));
  if (rawSends) {
    for (const [type, bytes] of rawSends) loads.push(serde.loadsTyped(type, bytes));
  }
  if (raw.has_serde_metadata) loads.push(fromNativeValue(raw.metadata, serde));
  const loaded = loads.length === 0 ? loads : await Promise.all(loads);

  let next = 0;
  const checkpoint = {
    v: rawCheckpoint.v,
    id: rawCheckpoint.id,
    ts: rawCheckpoint.ts,
    channel_values: {},
    channel_versions: rawCheckpoint.channel_versions,
    versions_seen: rawCheckpoint.versions_seen,
  };
  for (const channel of channels) checkpoint.channel_values[channel] = loaded[next++];
  const pendingWrites = rawWrites.map((write) => [write[0], write[1], loaded[next++]]);
  if (rawSends) checkpoint.pending_sends = rawSends.map(() => loaded[next++]);
  if (rawCheckpoint.updated_channels) {
    checkpoint.updated_channels = rawCheckpoint.updated_channels;
  }
  const metadata = raw.has_serde_metadata ? loaded[next++] : raw.metadata;

  const tuple = {
    config: runnableConfig(raw.thread_id, raw.checkpoint_ns, raw.checkpoint_id),
    checkpoint,
    metadata,
    pendingWrites,
  };
  if (raw.parent_checkpoint_id !== undefined) {
    tuple.parentConfig = runnableConfig(
      raw.thread_id,
      raw.checkpoint_ns,
      raw.parent_checkpoint_id,
    );
    if (checkpoint.v < 4) await migratePendingSends(serde, tuple, legacy);
  }
  return tuple;
}

/**
 * Checkpoints of format v < 4 kept sends as the parent's TASKS writes;
 * LangGraph expects them as the TASKS channel value (as MemorySaver and
 * SqliteSaver do).
 */
async function migratePendingSends(serde, tuple, legacy) {
  const parent = tuple.parentConfig.configurable;
  const raw = await legacy.readRaw({
    thread_id: parent.thread_id,
    checkpoint_ns: parent.checkpoint_ns,
    checkpoint_id: parent.checkpoint_id,
  });
  const sends = raw
    ? raw.pending_writes.filter(([, channel]) => channel === TASKS)
    : [];
  const checkpoint = tuple.checkpoint;
  checkpoint.channel_values[TASKS] = await Promise.all(
    sends.map(([, , type, bytes]) => serde.loadsTyped(type, bytes)),
  );
  const versions = Object.values(checkpoint.channel_versions);
  checkpoint.channel_versions = {
    ...checkpoint.channel_versions,
    [TASKS]:
      versions.length > 0 ? maxChannelVersion(...versions) : legacy.nextVersion(),
  };
}
