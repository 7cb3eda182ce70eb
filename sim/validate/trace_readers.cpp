// The registry of trace formats. Order matters for auto-detection: the most specific first.
#include "trace_readers.h"

#include "../common/input_error.h"
#include "../common/json_input.h"
#include "../common/units.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace ringsim {

const std::vector<TraceReader>& trace_readers() {
  static const std::vector<TraceReader> kReaders{
      {"ringsim", "ringsim results JSON (ringsim run/measure --json)", detect_ringsim_results, read_ringsim_results},
      {"horovod-timeline", "Horovod timeline (HOROVOD_TIMELINE / --timeline-filename)", detect_horovod_timeline,
       read_horovod_timeline},
      {"nccl-tests", "nccl-tests all_reduce_perf output", detect_nccl_tests, read_nccl_tests},
      {"imb", "Intel MPI Benchmarks IMB-MPI1 Allreduce output", detect_imb, read_imb},
      {"osu", "OSU Micro-Benchmarks osu_allreduce output", detect_osu, read_osu},
  };
  return kReaders;
}

MeasuredTrace read_trace(const std::filesystem::path& file, const std::optional<std::string>& format) {
  const std::string text = read_input_file(file);
  std::vector<std::string_view> names;
  for (const auto& reader : trace_readers()) names.push_back(reader.name);
  for (const auto& reader : trace_readers()) {
    if (format ? reader.name == *format : reader.detect(text)) return reader.read(text, file.string());
  }
  if (format)
    throw InputError(fmt::format("unknown trace format \"{}\"; known: {}", *format, fmt::join(names, ", ")));
  throw InputError(fmt::format("{}: not a trace format ringsim knows ({}); name one with --format", file.string(),
                               fmt::join(names, ", ")));
}

std::vector<std::string> MeasuredRun::hosts() const {
  std::vector<std::string> hosts;
  for (const auto& rank : ranks)
    if (std::find(hosts.begin(), hosts.end(), rank.host) == hosts.end()) hosts.push_back(rank.host);
  return hosts;
}

std::string MeasuredTrace::summary() const {
  if (points.empty()) return format + ": no points";
  std::set<std::uint64_t> sizes;
  for (const auto& point : points) sizes.insert(point.bytes);
  std::string about_run;
  if (run && !run->ranks.empty()) about_run += fmt::format(" on {} hosts", run->hosts().size());
  if (run && run->library_version) about_run += fmt::format(", {} {}", run->library, *run->library_version);
  return fmt::format("{}: {} points at {} sizes, {} to {}{}{}; time = {}", format, points.size(), sizes.size(),
                     format_bytes(*sizes.begin()), format_bytes(*sizes.rbegin()),
                     ranks ? fmt::format(", {} ranks", *ranks) : std::string(), about_run, time_meaning);
}

}  // namespace ringsim
