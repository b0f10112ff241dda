// WriteList: a task's writes as one put_writes list.
#include "formats/import_writes.h"

#include <map>

#include "formats/printable.h"

namespace rockpoint::formats {

Result<std::vector<ChannelWrite>> WriteList(
    const std::vector<PendingWrite>& writes, const std::string& task_id) {
  std::vector<const PendingWrite*> specials;
  std::map<int64_t, const PendingWrite*> regular;
  for (const PendingWrite& write : writes) {
    if (write.idx < 0) {
      specials.push_back(&write);
    } else {
      regular.emplace(write.idx, &write);
    }
  }
  // Position i of the list gets idx i; a gap (a position a special write
  // took when it was first written) is filled with a special write again,
  // which replaces itself with the same value.
  const int64_t max_idx = regular.empty() ? -1 : regular.rbegin()->first;
  std::vector<ChannelWrite> list;
  const int64_t positions = max_idx + 1;
  size_t next_special = 0;
  for (int64_t i = 0; i < positions; ++i) {
    const PendingWrite* write = nullptr;
    if (auto found = regular.find(i); found != regular.end()) {
      write = found->second;
    } else if (!specials.empty()) {
      write = specials[next_special % specials.size()];
      ++next_special;
    } else {
      return Status::InvalidArgument("writes of task " + Printable(task_id) +
                                     " skip idx " + std::to_string(i) +
                                     " without a special write to hold it");
    }
    list.push_back({write->channel, write->value});
  }
  for (size_t s = next_special; s < specials.size(); ++s) {
    list.push_back({specials[s]->channel, specials[s]->value});
  }
  return list;
}

}  // namespace rockpoint::formats
