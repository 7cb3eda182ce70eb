// `ringsim run`'s work without its output: every variant planned and checked (variant_plan.h), then
// simulated in turn, then compared in findings. The command renders the result (tables, JSON).
#pragma once

#include "../analysis/scenario_findings.h"
#include "simulation.h"

#include <optional>
#include <string>
#include <vector>

namespace ringsim {

struct RunOptions {
  int jobs = 1;
  bool quiet = false;
  // --out DIR and --timeline FILE; with variants, each variant's gets its index and name.
  std::optional<std::string> out_dir, timeline;
};

struct RunResults {
  std::vector<VariantRun> runs;       // in variant order
  std::vector<std::string> findings;  // scenario_findings.h; empty unless every variant finished
  bool complete = true;               // false when a case failed: RUNS holds the variants before it
};

// Throws InputError before any case starts when any variant, placement or model does not fit the
// platform; std::runtime_error when nothing can run (no smpirun).
RunResults run_scenario(const Scenario& scenario, const Platform& platform, const RunOptions& options);

// PATH for variant VARIANT (index INDEX): "dir/out" -> "dir/out.2-NAME", "t.json" -> "t.2-NAME.json";
// PATH itself without variants.
std::optional<std::string> variant_output(const std::optional<std::string>& path, const std::string& variant, std::size_t index);

}  // namespace ringsim
