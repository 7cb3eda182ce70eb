#include "chunk_movement.h"

#include "../common/json_input.h"
#include "../model/algorithm_registry.h"
#include "../rank/ring_schedule.h"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
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

namespace {

// The most ranks a scenario simulates (sim/model/scenario.cpp): a timeline cannot hold more.
constexpr int kMostRanks = 65536;

// A trace event's keys are read with the checked accessor; keys ringsim does not read are allowed.
std::string text(JsonObjectReader& fields, std::string_view key) { return fields.optional_string(key).value_or(""); }

// The integer under KEY from MIN to MAX; WHAT says what it counts in the error.
template <typename T>
T integer(JsonObjectReader& fields, std::string_view key, T min, T max, std::string_view what) {
  if (fields.optional_value(key) == nullptr) fields.fail(key, fmt::format("missing required key ({})", what));
  return fields.required(key).integer<T>(min, max, what);
}

JsonObjectReader event_object(const JsonValue& event) {
  if (!event.json().is_object()) event.fail(fmt::format("expected an object, found {}", describe_json(event.json())));
  return event.object();
}

JsonObjectReader args_of(JsonObjectReader& event) {
  if (event.optional_value("args") == nullptr) event.fail("args", "missing required key (an object)");
  return event_object(event.required("args"));
}

// A ring case of the timeline: a "process_name" event whose args name the algorithm "ring".
struct RingProcess {
  int ranks = 0;
  std::uint64_t bytes = 0;
  std::string name;
  std::string ranks_path;  // where "ranks" is, for the error when the ring is too large to replay
};

std::map<int, RingProcess> ring_processes(const std::vector<JsonValue>& events) {
  constexpr int kIntMin = std::numeric_limits<int>::min(), kIntMax = std::numeric_limits<int>::max();
  std::map<int, RingProcess> rings;
  for (const JsonValue& value : events) {
    JsonObjectReader event = event_object(value);
    if (text(event, "ph") != "M" || text(event, "name") != "process_name") continue;
    JsonObjectReader args = args_of(event);
    if (!names_algorithm(text(args, "algorithm"), AlgorithmId::ring)) continue;
    const int pid = integer<int>(event, "pid", kIntMin, kIntMax, "a process id");
    rings[pid] = {integer<int>(args, "ranks", 1, kMostRanks, "a rank count"),
                  integer<std::uint64_t>(args, "bytes", 0, std::numeric_limits<std::uint64_t>::max(), "a byte count"),
                  text(args, "name"), args.path_of("ranks")};
  }
  return rings;
}

// The step records of process PID; phase numbers in the order their names first appear.
std::vector<StepRecord> ring_steps(const std::vector<JsonValue>& events, int pid, int ranks, std::vector<std::string>& phase_names) {
  constexpr int kIntMin = std::numeric_limits<int>::min(), kIntMax = std::numeric_limits<int>::max();
  const std::string rank_of_ring = fmt::format("a rank of the {}-rank ring", ranks);
  std::vector<StepRecord> steps;
  for (const JsonValue& value : events) {
    JsonObjectReader event = event_object(value);
    if (text(event, "ph") != "X" || event.optional_value("pid") == nullptr) continue;
    if (integer<int>(event, "pid", kIntMin, kIntMax, "a process id") != pid) continue;
    JsonObjectReader args = args_of(event);
    const std::string phase = args.required_string("phase");
    auto known = std::find(phase_names.begin(), phase_names.end(), phase);
    if (known == phase_names.end()) known = phase_names.insert(phase_names.end(), phase);
    steps.push_back({integer<int>(event, "tid", 0, ranks - 1, rank_of_ring), static_cast<int>(known - phase_names.begin()),
                     integer<int>(args, "step", 0, kIntMax, "a step number"),
                     integer<int>(args, "chunk", 0, ranks - 1, fmt::format("a chunk of the {}-rank ring", ranks)),
                     integer<int>(args, "peer", 0, ranks - 1, rank_of_ring),
                     integer<std::uint64_t>(args, "bytes", 0, std::numeric_limits<std::uint64_t>::max(), "a byte count"), 0, 0});
  }
  return steps;
}

}  // namespace

std::optional<ChunkMovement> movement_from_timeline(const nlohmann::json& trace, const std::string& file) {
  if (!trace.is_object() || !trace.contains("traceEvents") || !trace.at("traceEvents").is_array())
    throw_input_error(file, trace.is_object() ? "/traceEvents" : "/",
                      "not a timeline (expected a Chrome trace with \"traceEvents\", as `ringsim run --timeline FILE` writes)");
  const std::vector<JsonValue> events = JsonValue(trace.at("traceEvents"), file, "/traceEvents").array();
  const auto rings = ring_processes(events);
  if (rings.empty()) return std::nullopt;
  const auto chosen = std::min_element(rings.begin(), rings.end(), [](const auto& a, const auto& b) {
    if (a.second.ranks != b.second.ranks) return better_ring_to_draw(a.second.ranks, b.second.ranks);
    return a.second.bytes < b.second.bytes;
  });
  const RingProcess& ring = chosen->second;
  // The replay keeps every rank's copy of every chunk after every step: ranks² numbers per step.
  if (ring.ranks > kLargestReplayedRing)
    throw_input_error(file, ring.ranks_path,
                      fmt::format("the ring case best to draw has {} ranks; the step-by-step picture replays rings "
                                  "of at most {}",
                                  ring.ranks, kLargestReplayedRing));
  std::vector<std::string> phase_names;
  const auto steps = ring_steps(events, chosen->first, ring.ranks, phase_names);
  return replay_steps(ring.ranks, phase_names, steps, fmt::format("the recorded steps of {} in {}", ring.name, file));
}

}  // namespace ringsim
