#include "bench/machine_info.h"

#include <cstdio>
#include <ctime>
#include <fstream>
#include <thread>

namespace rockpoint::bench {
namespace {

// The first line of `command`'s output, "" on failure.
std::string FirstLine(const std::string& command) {
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return "";
  char buffer[256];
  std::string line;
  if (std::fgets(buffer, sizeof(buffer), pipe) != nullptr) line = buffer;
  const int status = ::pclose(pipe);
  if (status != 0) return "";
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) {
    line.pop_back();
  }
  return line;
}

}  // namespace

std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  if (!(in >> one >> five >> fifteen)) return "";
  return one + " " + five + " " + fifteen;
}

MachineInfo CollectMachineInfo() {
  MachineInfo info;
  info.cores = std::thread::hardware_concurrency();
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) info.cpu_model = line.substr(colon + 2);
      break;
    }
  }
  const std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  info.date_utc = date;
#ifdef ROCKPOINT_SOURCE_DIR
  // rev-parse only reads; GIT_OPTIONAL_LOCKS=0 keeps git from touching
  // the index.
  info.commit = FirstLine("GIT_OPTIONAL_LOCKS=0 git -C '" ROCKPOINT_SOURCE_DIR
                          "' rev-parse --short HEAD 2>/dev/null");
#endif
  info.load_start = LoadAverage();
  return info;
}

}  // namespace rockpoint::bench
