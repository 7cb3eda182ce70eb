// A sweep file (docs/sweeps.md): a cartesian product of topologies, placements (listed or generated),
// algorithms, sizes and model variants, expanded into the cases `ringsim sweep` runs. Each case is
// one case of a scenario (placement x algorithm, every size in one run), so a sweep's cases run,
// and their results read, exactly as `ringsim run`'s do.
#pragma once

#include "scenario.h"

#include <cstddef>
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

namespace ringsim {

// {"every_placement": N}: every vector of rank counts over the topology's nodes summing to N, each
// node at most its rank slots (and "max_per_node"). {"every_subset": K, "ranks_per_node": R}: every
// choice of K nodes with R ranks each (R defaults to the first node's slots). "up_to_symmetry"
// (default true) keeps one representative of placements that differ only by swapping identical
// nodes of one rack (same GPUs, NICs, links): among them, the non-increasing counts in node order.
struct PlacementGenerator {
  enum class Kind { every_placement, every_subset } kind = Kind::every_placement;
  int ranks = 0;          // every_placement: N
  int nodes = 0;          // every_subset: K
  int per_node = 0;       // every_placement: max_per_node (0: slots); every_subset: R (0: slots)
  bool up_to_symmetry = true;
  std::vector<RankOrder> orders = {RankOrder::block};
};

struct SweepPlacementEntry {
  std::variant<PlacementSpec, PlacementGenerator> entry;
  std::string path;  // "/placements/2", for errors found when the topology is known
};

struct SweepSpec {
  std::filesystem::path file;
  std::string name;
  std::string question;
  std::vector<std::filesystem::path> topologies;  // resolved against the sweep's directory
  std::vector<SweepPlacementEntry> placements;
  std::vector<std::string> algorithms;
  std::vector<std::uint64_t> sizes;
  int iterations = 5;
  int warmup = 1;
  ModelSettings model;
  // "variants" x "model_axes" (each key's values, e.g. {"nic_bandwidth": ["1Gbps", "10Gbps"]}),
  // named "VARIANT / key=value, ..."; empty: one run under `model`.
  std::vector<ScenarioVariant> variants;
  std::vector<Collective> collectives = {Collective::all_reduce};  // "collectives", as a scenario's
};

// Reads and validates everything that needs no platform; throws InputError naming file and path.
SweepSpec load_sweep(const std::filesystem::path& file);

// One topology under one variant: a scenario whose placements are the sweep's for that topology.
struct SweepGroup {
  std::size_t topology = 0;  // index in SweepSpec::topologies
  std::string variant;       // empty without variants
  Scenario scenario;         // model = the variant's; variants empty
};

struct SweepCase {
  std::size_t group = 0;
  std::size_t placement = 0;  // index in the group's scenario.placements
  std::size_t algorithm = 0;
  std::size_t collective = 0;  // index in the group's scenario.collectives
};

// Cases in a fixed order: topologies, variants, placements, algorithms, collectives (outer to inner).
struct ExpandedSweep {
  std::vector<SweepGroup> groups;
  std::vector<SweepCase> cases;
};

// Generates and checks the placements of every topology (LAYOUTS and TOPOLOGIES parallel to
// SPEC.topologies; a topology is null for SimGrid XML, whose nodes count as all different).
// Throws InputError "FILE: /placements/I: ..." for a placement that does not fit or a generator
// that yields nothing. A placement listed twice (or listed and generated) runs once.
ExpandedSweep expand_sweep(const SweepSpec& spec, const std::vector<ClusterLayout>& layouts,
                           const std::vector<const Topology*>& topologies);

// The rank counts GENERATOR yields on LAYOUT (one entry per placement, before orders are applied),
// trailing empty nodes dropped. NODE_CLASS[k]: nodes with equal classes are interchangeable.
std::vector<std::vector<int>> generate_rank_counts(const PlacementGenerator& generator, const ClusterLayout& layout,
                                                   const std::vector<int>& node_class);

// Nodes of one rack with the same GPUs, NICs and links share a class; every node of a SimGrid XML
// platform (TOPOLOGY null) has its own.
std::vector<int> interchangeable_node_classes(const ClusterLayout& layout, const Topology* topology);

}  // namespace ringsim
