// A sweep's output directory: a manifest naming the sweep (and a digest of its expanded cases, so a
// changed sweep file cannot be mixed with old shards), then one results file per finished shard and
// one failure file per failed shard, each written atomically (a shard killed midway leaves nothing).
//   DIR/sweep-manifest.json      {"sweep", "digest", "cases", "shards", "document"}
//   DIR/shard-0003-of-0010.json  {"shard", "shards", "digest", "results": [rows tagged "case"]}
//   DIR/shard-0003-of-0010.failed  what failed, for the user
#pragma once

#include "../model/sweep_spec.h"

#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

struct ShardId {
  std::size_t index = 0;
  std::size_t count = 1;
};

// "3/10" (0-based index); nullopt unless 0 <= I < K.
std::optional<ShardId> parse_shard(const std::string& text);

// The cases shard I of K runs: every K-th case from I (round robin, so that shards mix small and
// large placements and finish at similar times).
std::vector<std::size_t> cases_of_shard(std::size_t cases, ShardId shard);

// A 16-hex-digit FNV-1a digest of everything that decides the sweep's results: per case its
// topology file, variant, model, placement, order, algorithm; the sizes, iterations, warm-up.
std::string sweep_digest(const SweepSpec& spec, const ExpandedSweep& sweep);

// The merged results JSON without its rows: kind, scenario, and "model" (no variants) or "variants"
// as `ringsim run --json` writes them, "topologies" with several.
nlohmann::json merged_document_header(const SweepSpec& spec);

struct SweepManifest {
  std::string sweep;  // the sweep file as given
  std::string digest;
  std::size_t cases = 0;
  std::size_t shards = 0;
  nlohmann::json document;  // merged_document_header
};

enum class ShardState { done, failed, pending };

class SweepDirectory {
 public:
  explicit SweepDirectory(std::filesystem::path dir) : dir_(std::move(dir)) {}

  // Creates DIR and its manifest, or checks that the manifest already there describes the same sweep
  // and shard count; throws InputError "DIR: ..." otherwise.
  void claim(const SweepManifest& manifest) const;
  // Throws InputError when DIR holds no manifest.
  SweepManifest manifest() const;

  ShardState state(std::size_t shard, std::size_t shards) const;
  void write_done(ShardId shard, const std::string& digest, const nlohmann::json& rows) const;
  void write_failed(ShardId shard, const std::vector<std::string>& failures) const;
  std::filesystem::path results_file(ShardId shard) const;
  std::filesystem::path failed_file(ShardId shard) const;
  const std::filesystem::path& path() const { return dir_; }

  // Every shard's rows, merged in case order under the manifest's header. Throws std::runtime_error
  // naming the shards not done, or a case missing or present twice.
  nlohmann::json merge() const;

 private:
  std::filesystem::path dir_;
};

}  // namespace ringsim
