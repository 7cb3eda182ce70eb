#include "chunk_movement.h"

#include "../common/input_error.h"
#include "../rank/ring_schedule.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace ringsim {

ChunkMovement replay_steps(int ranks, const std::vector<std::string>& phase_names,
                           const std::vector<StepRecord>& steps, std::string source) {
  ChunkMovement movement;
  movement.ranks = ranks;
  movement.source = std::move(source);
  movement.initial.assign(static_cast<std::size_t>(ranks), std::vector<int>(static_cast<std::size_t>(ranks), 1));
  // Group the records by (phase, step): every rank's records of one step happen "at once".
  std::map<std::pair<int, int>, std::vector<const StepRecord*>> by_step;
  for (const StepRecord& record : steps)
    if (record.rank >= 0 && record.rank < ranks && record.chunk >= 0 && record.chunk < ranks && record.peer >= 0 &&
        record.peer < ranks)
      by_step[{record.phase, record.step}].push_back(&record);

  auto state = movement.initial;
  for (const auto& [key, records] : by_step) {
    const std::string& phase = static_cast<std::size_t>(key.first) < phase_names.size()
                                   ? phase_names[static_cast<std::size_t>(key.first)]
                                   : fmt::format("phase {}", key.first);
    const bool reduces = phase.find("reduce") != std::string::npos;
    const auto before = state;
    MovementStep step{fmt::format("{} {}", phase, key.second), std::vector<int>(static_cast<std::size_t>(ranks), -1), {}};
    for (const StepRecord* r : records) {
      const auto rank = static_cast<std::size_t>(r->rank), chunk = static_cast<std::size_t>(r->chunk);
      const int sent = before[static_cast<std::size_t>(r->peer)][chunk];
      state[rank][chunk] = std::min(ranks, reduces ? before[rank][chunk] + sent : sent);
      step.received_chunk[rank] = r->chunk;
    }
    step.contributions = state;
    movement.steps.push_back(std::move(step));
    if (reduces) movement.last_reduce_step = static_cast<int>(movement.steps.size()) - 1;
  }
  return movement;
}

bool better_ring_to_draw(int a, int b) {
  const auto readable = [](int n) { return n >= 4 && n <= 16; };
  if (readable(a) != readable(b)) return readable(a);
  return a < b;
}

ChunkMovement ring_schedule_movement(int ranks) {
  std::vector<StepRecord> steps;
  for (int phase = 0; phase < 2; ++phase)
    for (int i = 0; i < ranks - 1; ++i)
      for (int r = 0; r < ranks; ++r) {
        steps.push_back({r, phase, i, ring_recv_chunk(r, i, phase == 0, ranks), (r - 1 + ranks) % ranks, 0, 0, 0});
      }
  return replay_steps(ranks, default_phase_names(), steps,
                      fmt::format("the ring's schedule for {} ranks (sim/rank/ring_schedule.h)", ranks));
}

std::optional<ChunkMovement> movement_from_timeline(const nlohmann::json& trace, const std::string& file) {
  if (!trace.is_object() || !trace.contains("traceEvents") || !trace.at("traceEvents").is_array())
    throw InputError(fmt::format("{}: not a timeline (expected a Chrome trace with \"traceEvents\", as "
                                 "`ringsim run --timeline FILE` writes)",
                                 file));
  struct Process {
    int ranks = 0;
    std::uint64_t bytes = 0;
    std::string name;
  };
  std::map<int, Process> ring_processes;
  try {
    for (const auto& event : trace.at("traceEvents"))
      if (event.value("ph", "") == "M" && event.value("name", "") == "process_name") {
        const auto& args = event.at("args");
        if (args.value("algorithm", "") == "ring")
          ring_processes[event.at("pid").get<int>()] = {args.at("ranks").get<int>(),
                                                        args.at("bytes").get<std::uint64_t>(),
                                                        args.value("name", "")};
      }
    if (ring_processes.empty()) return std::nullopt;
    const auto chosen = std::min_element(ring_processes.begin(), ring_processes.end(), [](const auto& a, const auto& b) {
      if (a.second.ranks != b.second.ranks) return better_ring_to_draw(a.second.ranks, b.second.ranks);
      return a.second.bytes < b.second.bytes;
    });
    // Phase numbers are given in the order their names first appear, step records per slice.
    std::vector<std::string> phase_names;
    std::vector<StepRecord> steps;
    for (const auto& event : trace.at("traceEvents")) {
      if (event.value("ph", "") != "X" || event.value("pid", -1) != chosen->first) continue;
      const auto& args = event.at("args");
      const std::string phase = args.at("phase").get<std::string>();
      auto known = std::find(phase_names.begin(), phase_names.end(), phase);
      if (known == phase_names.end()) known = phase_names.insert(phase_names.end(), phase);
      steps.push_back({event.at("tid").get<int>(), static_cast<int>(known - phase_names.begin()),
                       args.at("step").get<int>(), args.at("chunk").get<int>(), args.at("peer").get<int>(),
                       args.at("bytes").get<std::uint64_t>(), 0, 0});
    }
    return replay_steps(chosen->second.ranks, phase_names, steps,
                        fmt::format("the recorded steps of {} in {}", chosen->second.name, file));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: malformed timeline event: {}", file, e.what()));
  }
}

}  // namespace ringsim
