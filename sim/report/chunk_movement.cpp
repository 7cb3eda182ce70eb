#include "chunk_movement.h"

#include "../common/json_input.h"
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

// The keys of one trace event (or of its "args"), read with the file and the JSON path in every error.
class EventFields {
 public:
  EventFields(const nlohmann::json& object, const std::string& file, std::string path)
      : object_(object), file_(file), path_(std::move(path)) {
    if (!object_.is_object()) throw_input_error(file_, path_, fmt::format("expected an object, found {}", describe_json(object_)));
  }

  const nlohmann::json* find(const char* key) const {
    const auto it = object_.find(key);
    return it == object_.end() ? nullptr : &*it;
  }
  std::string text(const char* key, const std::string& otherwise) const {
    const nlohmann::json* value = find(key);
    if (value == nullptr) return otherwise;
    if (!value->is_string()) fail(key, fmt::format("expected a string, found {}", describe_json(*value)));
    return value->get<std::string>();
  }
  std::string required_text(const char* key) const {
    if (find(key) == nullptr) fail(key, "missing required key (a string)");
    return text(key, "");
  }
  // The integer under KEY from MIN to MAX; WHAT says what it counts in the error.
  template <typename T>
  T integer(const char* key, T min, T max, std::string_view what) const {
    const nlohmann::json* value = find(key);
    if (value == nullptr) fail(key, fmt::format("missing required key ({})", what));
    const std::optional<T> number = json_integer<T>(*value, min, max);
    if (!number) fail(key, fmt::format("expected {} (an integer from {} to {}), found {}", what, min, max, describe_json(*value)));
    return *number;
  }
  EventFields object(const char* key) const {
    if (find(key) == nullptr) fail(key, "missing required key (an object)");
    return EventFields(*find(key), file_, at(key));
  }
  std::string at(const char* key) const { return fmt::format("{}/{}", path_, key); }
  [[noreturn]] void fail(const char* key, std::string_view message) const { throw_input_error(file_, at(key), message); }

 private:
  const nlohmann::json& object_;
  const std::string& file_;
  std::string path_;
};

// A ring case of the timeline: a "process_name" event whose args name the algorithm "ring".
struct RingProcess {
  int ranks = 0;
  std::uint64_t bytes = 0;
  std::string name;
  std::string ranks_path;  // where "ranks" is, for the error when the ring is too large to replay
};

std::map<int, RingProcess> ring_processes(const nlohmann::json& events, const std::string& file) {
  std::map<int, RingProcess> rings;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const EventFields event(events[i], file, fmt::format("/traceEvents/{}", i));
    if (event.text("ph", "") != "M" || event.text("name", "") != "process_name") continue;
    const EventFields args = event.object("args");
    if (args.text("algorithm", "") != "ring") continue;
    const int pid = event.integer<int>("pid", std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), "a process id");
    rings[pid] = {args.integer<int>("ranks", 1, kMostRanks, "a rank count"),
                  args.integer<std::uint64_t>("bytes", 0, std::numeric_limits<std::uint64_t>::max(), "a byte count"),
                  args.text("name", ""), args.at("ranks")};
  }
  return rings;
}

// The step records of process PID; phase numbers in the order their names first appear.
std::vector<StepRecord> ring_steps(const nlohmann::json& events, const std::string& file, int pid, int ranks,
                                   std::vector<std::string>& phase_names) {
  const std::string rank_of_ring = fmt::format("a rank of the {}-rank ring", ranks);
  std::vector<StepRecord> steps;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const EventFields event(events[i], file, fmt::format("/traceEvents/{}", i));
    if (event.text("ph", "") != "X" || event.find("pid") == nullptr) continue;
    if (event.integer<int>("pid", std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), "a process id") != pid)
      continue;
    const EventFields args = event.object("args");
    const std::string phase = args.required_text("phase");
    auto known = std::find(phase_names.begin(), phase_names.end(), phase);
    if (known == phase_names.end()) known = phase_names.insert(phase_names.end(), phase);
    steps.push_back({event.integer<int>("tid", 0, ranks - 1, rank_of_ring), static_cast<int>(known - phase_names.begin()),
                     args.integer<int>("step", 0, std::numeric_limits<int>::max(), "a step number"),
                     args.integer<int>("chunk", 0, ranks - 1, fmt::format("a chunk of the {}-rank ring", ranks)),
                     args.integer<int>("peer", 0, ranks - 1, rank_of_ring),
                     args.integer<std::uint64_t>("bytes", 0, std::numeric_limits<std::uint64_t>::max(), "a byte count"), 0, 0});
  }
  return steps;
}

}  // namespace

std::optional<ChunkMovement> movement_from_timeline(const nlohmann::json& trace, const std::string& file) {
  if (!trace.is_object() || !trace.contains("traceEvents") || !trace.at("traceEvents").is_array())
    throw_input_error(file, trace.is_object() ? "/traceEvents" : "/",
                      "not a timeline (expected a Chrome trace with \"traceEvents\", as `ringsim run --timeline FILE` writes)");
  const auto& events = trace.at("traceEvents");
  const auto rings = ring_processes(events, file);
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
  const auto steps = ring_steps(events, file, chosen->first, ring.ranks, phase_names);
  return replay_steps(ring.ranks, phase_names, steps, fmt::format("the recorded steps of {} in {}", ring.name, file));
}

}  // namespace ringsim
