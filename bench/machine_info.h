// What the report header says about the run: when, where (cores, CPU, load
// average at start and end: the machine may be shared), and which rockpoint
// (git commit of the source tree, when git is available).
//
// Thread-safety: plain values; Collect* read /proc and run `git` read-only.
#pragma once

#include <string>

namespace rockpoint::bench {

struct MachineInfo {
  unsigned cores = 0;
  std::string cpu_model;   // "" if unknown.
  std::string date_utc;    // ISO-8601, start of the run.
  std::string commit;      // "abc1234" (HEAD), "" if unknown.
  std::string load_start;  // /proc/loadavg's three figures.
  std::string load_end;
};

MachineInfo CollectMachineInfo();
// The current 1/5/15-minute load averages, "" if unknown.
std::string LoadAverage();

}  // namespace rockpoint::bench
