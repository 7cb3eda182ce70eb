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
      {"nccl-tests", "nccl-tests all_reduce_perf output", detect_nccl_tests, read_nccl_tests, true},
      {"imb", "Intel MPI Benchmarks IMB-MPI1 Allreduce output", detect_imb, read_imb, true},
      {"osu", "OSU Micro-Benchmarks osu_allreduce output", detect_osu, read_osu, true},
  };
  return kReaders;
}

namespace {

void require_increasing_sizes(const MeasuredTrace& trace, const std::string& file) {
  for (std::size_t i = 1; i < trace.points.size(); ++i) {
    const MeasuredPoint& previous = trace.points[i - 1];
    const MeasuredPoint& point = trace.points[i];
    // IMB repeats its sweep per process count: a new count starts a new sweep.
    // nccl-tests prints size 0 for each size below one element (-b 1: 1 and 2 bytes): repeated 0s are rows.
    if (point.ranks == previous.ranks && point.bytes <= previous.bytes && point.bytes != 0)
      throw InputError(fmt::format("{}:{}: size {} after {} (line {}); {} prints one run's sizes in increasing "
                                   "order: is this two runs in one file?",
                                   file, point.line, point.bytes, previous.bytes, previous.line, trace.format));
  }
}

}  // namespace

MeasuredTrace read_trace(const std::filesystem::path& file, const std::optional<std::string>& format,
                         const std::optional<std::string>& collective) {
  const std::string text = read_input_file(file);
  std::vector<std::string_view> names;
  for (const auto& reader : trace_readers()) names.push_back(reader.name);
  for (const auto& reader : trace_readers()) {
    if (format ? reader.name == *format : reader.detect(text)) {
      if (collective && reader.name != "nccl-tests")
        throw InputError(fmt::format("{}: --collective picks a run of an nccl-tests log; this trace reads as {}",
                                     file.string(), reader.name));
      MeasuredTrace trace = collective ? read_nccl_tests_collective(text, file.string(), *collective)
                                       : reader.read(text, file.string());
      if (reader.one_sweep) require_increasing_sizes(trace, file.string());
      return trace;
    }
  }
  if (format)
    throw InputError(fmt::format("unknown trace format \"{}\"; known: {}", *format, fmt::join(names, ", ")));
  throw InputError(fmt::format("{}: not a trace format ringsim knows ({}); name one with --format", file.string(),
                               fmt::join(names, ", ")));
}

std::vector<std::string> suite_programs(const std::filesystem::path& file, const std::optional<std::string>& format) {
  const std::string text = read_input_file(file);
  for (const auto& reader : trace_readers())
    if (format ? reader.name == *format : reader.detect(text))
      return reader.name == "nccl-tests" ? nccl_tests_programs(text) : std::vector<std::string>{};
  return {};
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
  if (run && run->nccl) about_run += fmt::format(" ({})", run->nccl->describe());
  if (!section.empty()) about_run += fmt::format("; read {}", section);
  return fmt::format("{}: {} points at {} sizes, {} to {}{}{}; time = {}", format, points.size(), sizes.size(),
                     format_bytes(*sizes.begin()), format_bytes(*sizes.rbegin()),
                     ranks ? fmt::format(", {} ranks", *ranks) : std::string(), about_run, time_meaning);
}

}  // namespace ringsim
