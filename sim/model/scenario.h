// A scenario file (docs/scenario-format.md): one question, one platform, the cases to simulate.
#pragma once

#include "model_settings.h"
#include "placement.h"
#include "../rank/collective_catalog.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ringsim {

// One model of a what-if comparison: the scenario's cases are simulated once per variant, each under
// the scenario's "model" with the variant's keys merged over it.
struct ScenarioVariant {
  std::string name;
  ModelSettings model;
};

struct Scenario {
  std::filesystem::path file;
  std::string name;
  std::string question;
  std::filesystem::path topology;  // resolved against the scenario's directory
  std::vector<PlacementSpec> placements;
  std::vector<std::string> algorithms;
  std::vector<std::uint64_t> sizes;  // bytes
  int iterations = 5;
  int warmup = 1;
  ModelSettings model;
  std::vector<ScenarioVariant> variants;  // empty: one run under `model`
  bool algorithms_given = false;  // "algorithms" named (else ["ring"], and a trace may say which NCCL ran)
  // "collectives": nccl-tests' names without _perf (collective_catalog.h); every case runs each one.
  std::vector<Collective> collectives = {Collective::all_reduce};
  // "check": false skips checking the results, as nccl-tests' -c 0: no size's buffers hold values,
  // so a run that asks only for times pays no copies or sums (docs/commands.md, "#wrong").
  bool check = true;
};

// The scenario as run for one variant: its model, and its name suffixed with the variant's.
Scenario scenario_for_variant(const Scenario& scenario, const ScenarioVariant& variant);

// Whether a scenario must list its placements: `validate` and `calibrate` may take them from the
// measured trace instead (an nccl-tests header says where each rank ran).
enum class PlacementsKey { required, optional };

// Reads and validates everything that needs no platform; throws InputError naming file and path.
// With PlacementsKey::optional a scenario without "placements" has none.
Scenario load_scenario(const std::filesystem::path& file, PlacementsKey placements_key = PlacementsKey::required);

// Readers of the scenario's fields, shared with sweep files (sweep_spec.h); each throws InputError
// naming the file and JSON path.
// "sizes": ["1MiB", ...] or {"from", "to", "factor"}: bytes, each a non-empty multiple of 4.
std::vector<std::uint64_t> read_sizes(JsonObjectReader& top);
// "4-3-1" or {"ranks": "4-3-1", "order": "cyclic"} at PATH.
PlacementSpec read_placement(const nlohmann::json& value, const std::string& file, const std::string& path);
// "algorithms": names of the catalog; ["ring"] when absent.
std::vector<std::string> read_algorithms(JsonObjectReader& top);
// "collectives": nccl-tests' names, each once; [all_reduce] when absent. Every one of ALGORITHMS
// (read before, at /algorithms) must have a version for every collective named.
std::vector<Collective> read_collectives(JsonObjectReader& top, const std::vector<std::string>& algorithms);
// Whether ALGORITHM (a name of the catalog) has a version for COLLECTIVE, and the names that have one
// ("pairwise, linear"), for messages that refuse another.
bool runs_collective(std::string_view algorithm, Collective collective);
std::string collective_algorithms_text(Collective collective);
// "variants": [{"name", "model"}], each model over BASE; empty when absent.
std::vector<ScenarioVariant> read_variants(JsonObjectReader& top, const ModelSettings& base);

// Checks that every placement fits the platform's nodes; throws InputError at /placements/<i>.
void check_placements_fit(const Scenario& scenario, const ClusterLayout& layout);

}  // namespace ringsim
