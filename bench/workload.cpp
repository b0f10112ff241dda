#include "bench/workload.h"

#include <cstdio>

#include "keys/tuple.h"
#include "rockpoint/msgpack_codec.h"
#include "serde/records.h"

namespace rockpoint::bench {
namespace {

// The vocabulary: 8,192 pseudo-words of 2 to 9 letters, fixed for every
// run. Text drawn from it carries about 2 bits per character, so zstd
// compresses it about as well as ordinary prose (~3x), not like a
// 24-word vocabulary (which would flatter compression) or random bytes.
const std::vector<std::string>& Vocabulary() {
  static const std::vector<std::string> words = [] {
    std::mt19937_64 rng(2024);
    std::uniform_int_distribution<int> length(2, 9);
    std::uniform_int_distribution<int> letter(0, 25);
    std::vector<std::string> out(8192);
    for (std::string& word : out) {
      const int n = length(rng);
      for (int i = 0; i < n; ++i)
        word.push_back(static_cast<char>('a' + letter(rng)));
    }
    return out;
  }();
  return words;
}

}  // namespace

std::string FormatBytes(uint64_t bytes) {
  if (bytes >= (uint64_t{1} << 20) && bytes % (uint64_t{1} << 20) == 0) {
    return std::to_string(bytes >> 20) + "MB";
  }
  if (bytes >= 1024 && bytes % 1024 == 0) {
    return std::to_string(bytes >> 10) + "KB";
  }
  return std::to_string(bytes) + "B";
}

std::string StateShape::Label() const {
  return FormatBytes(state_bytes) + "/" + std::to_string(channels) + "ch";
}

std::string TextGenerator::Text(size_t bytes) {
  std::string out;
  out.reserve(bytes + 16);
  const std::vector<std::string>& words = Vocabulary();
  std::uniform_int_distribution<size_t> pick(0, words.size() - 1);
  while (out.size() < bytes) {
    if (!out.empty()) out.push_back(' ');
    out.append(words[pick(rng_)]);
  }
  out.resize(bytes);
  return out;
}

std::string ThreadId(std::string_view prefix, size_t index) {
  return "t" + std::string(prefix) + "-" + std::to_string(index);
}

std::string CheckpointId(size_t step) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%020zu", step);
  return buffer;
}

size_t Pick(size_t i, size_t salt, size_t n) {
  std::mt19937_64 rng(i * 0x9E3779B97F4A7C15ull + salt);
  return rng() % n;
}

Status Found(const Result<std::optional<CheckpointTuple>>& tuple) {
  if (!tuple.ok()) return tuple.status();
  if (!tuple->has_value()) return Status::Corruption("bench: tuple not found");
  return Status::OK();
}

std::map<std::string, TypedValue> MakeChannelValues(const StateShape& shape,
                                                    uint64_t seed) {
  TextGenerator text(seed);
  const int channels = std::max(1, shape.channels);
  // The msgpack string header takes a few bytes: aim the payload so that
  // the serialized values add up to about state_bytes.
  const size_t per_channel = std::max<size_t>(1, shape.state_bytes / channels);
  const size_t header = per_channel > 65535 ? 5 : per_channel > 255 ? 3 : 2;
  std::map<std::string, TypedValue> values;
  for (int c = 0; c < channels; ++c) {
    const size_t payload = per_channel > header ? per_channel - header : 1;
    values["ch" + std::to_string(c)] =
        TypedValue{std::string(serde::kMsgpackType),
                   serde::EncodeMsgpack(serde::Value(text.Text(payload)))};
  }
  return values;
}

PutArgs MakeStep(const std::string& thread, size_t step,
                 const std::map<std::string, TypedValue>& values) {
  PutArgs args;
  args.config.thread_id = thread;
  args.config.checkpoint_ns = "";
  if (step > 0) args.config.checkpoint_id = CheckpointId(step - 1);
  Checkpoint& cp = args.checkpoint;
  cp.id = CheckpointId(step);
  cp.ts = "2024-01-01T00:00:00.000000+00:00";
  cp.channel_values = values;
  ChannelVersions seen;
  for (const auto& [channel, value] : values) {
    cp.channel_versions[channel] = static_cast<int64_t>(step + 1);
    args.new_versions[channel] = static_cast<int64_t>(step + 1);
    seen[channel] = static_cast<int64_t>(step);
  }
  cp.versions_seen["agent"] = std::move(seen);
  serde::Value::Map metadata;
  metadata["source"] = serde::Value("loop");
  metadata["step"] = serde::Value(static_cast<int64_t>(step));
  metadata["parents"] = serde::Value::MakeMap();
  metadata["run_id"] = serde::Value("run-" + thread);
  args.metadata = serde::Value(std::move(metadata));
  return args;
}

std::vector<ChannelWrite> MakeWrites(size_t count, size_t bytes,
                                     uint64_t seed) {
  TextGenerator text(seed);
  std::vector<ChannelWrite> writes;
  for (size_t i = 0; i < count; ++i) {
    writes.push_back(ChannelWrite{
        "ch" + std::to_string(i),
        TypedValue{std::string(serde::kMsgpackType),
                   serde::EncodeMsgpack(serde::Value(text.Text(bytes)))}});
  }
  return writes;
}

Status FillThread(Checkpointer& store, const std::string& thread, size_t steps,
                  const std::map<std::string, TypedValue>& values,
                  size_t writes_per_step) {
  const std::vector<ChannelWrite> writes = MakeWrites(writes_per_step, 128, 7);
  for (size_t step = 0; step < steps; ++step) {
    PutArgs args = MakeStep(thread, step, values);
    RP_ASSIGN_OR_RETURN(CheckpointConfig stored,
                        store.Put(args.config, args.checkpoint, args.metadata,
                                  args.new_versions));
    if (!writes.empty()) {
      RP_RETURN_IF_ERROR(store.PutWrites(stored, writes, "task-1"));
    }
  }
  return Status::OK();
}

std::vector<std::string> PutRecords(const PutArgs& args) {
  serde::CheckpointRecord record;
  record.header.parent_id = args.config.checkpoint_id;
  record.header.channel_versions = args.checkpoint.channel_versions;
  for (const auto& [channel, version] : args.new_versions) {
    if (args.checkpoint.channel_values.contains(channel)) {
      record.header.stored_channels.push_back(channel);
    }
  }
  record.v = args.checkpoint.v;
  record.ts = args.checkpoint.ts;
  record.versions_seen = args.checkpoint.versions_seen;
  record.metadata = args.metadata;
  std::vector<std::string> records = {serde::EncodeCheckpointRecord(record)};
  for (const auto& [channel, version] : args.new_versions) {
    serde::BlobRecord blob;
    const auto value = args.checkpoint.channel_values.find(channel);
    blob.empty = value == args.checkpoint.channel_values.end();
    if (!blob.empty) blob.value = value->second;
    records.push_back(serde::EncodeBlobRecord(blob));
  }
  return records;
}

std::vector<std::string> WriteRecords(const std::vector<ChannelWrite>& writes) {
  std::vector<std::string> records;
  for (const ChannelWrite& write : writes) {
    records.push_back(serde::EncodeWriteRecord({write.channel, write.value}));
  }
  return records;
}

Status ChecksumRecords(const std::vector<std::string>& records) {
  uint32_t combined = 0;
  for (const std::string& record : records) {
    combined ^= serde::RecordChecksum(std::string_view(record).substr(
        0, record.size() - serde::kRecordChecksumSize));
  }
  // Keeps the work from being optimized out: the compiler must assume the
  // value is read.
  asm volatile("" : : "r"(combined) : "memory");
  return Status::OK();
}

RawRecord RawCheckpoint(const PutArgs& args) {
  RawRecord raw;
  raw.key = RawCheckpointKey(*args.config.thread_id, args.checkpoint.id);
  for (const std::string& record : PutRecords(args)) raw.value += record;
  return raw;
}

std::string RawCheckpointKey(const std::string& thread,
                             const std::string& checkpoint_id) {
  return keys::Encode(
      {std::string("cp"), thread, std::string(), checkpoint_id});
}

std::string RawCheckpointPrefix(const std::string& thread) {
  return keys::Encode({std::string("cp"), thread, std::string()});
}

RawRecord RawWrites(const std::string& thread, const std::string& checkpoint_id,
                    const std::string& task_id,
                    const std::vector<ChannelWrite>& writes) {
  RawRecord raw;
  raw.key = keys::Encode({std::string("wr"), thread, std::string(),
                          checkpoint_id, std::string(), task_id, int64_t{0}});
  for (const std::string& record : WriteRecords(writes)) raw.value += record;
  return raw;
}

}  // namespace rockpoint::bench
