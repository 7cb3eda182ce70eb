// A sweep's output directory: a manifest naming the sweep (and a digest of its expanded cases, so a
// changed sweep file cannot be mixed with old shards), then one results file per finished shard and
// one failure file per failed shard, each written atomically (a shard killed midway leaves nothing).
//   DIR/sweep-manifest.json      {"sweep", "digest", "cases", "shards", "document": the results' header}
//   DIR/shard-0003-of-0010.json  a results JSON whose rows carry "case", with "shard", "shards", "digest"
// Both are written and read through ResultsDocument, the results JSON's one writer and reader.
//   DIR/shard-0003-of-0010.failed  what failed, for the user
#pragma once

#include "../model/sweep_spec.h"
#include "../results/results_document.h"

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

// The merged results without their rows: kind, scenario, and the model (no variants) or the variants
// as `ringsim run --json` writes them, the topologies when there are several.
ResultsDocument merged_document_header(const SweepSpec& spec);

struct SweepManifest {
  std::string sweep;  // the sweep file as given
  std::string digest;
  std::size_t cases = 0;
  std::size_t shards = 0;
  ResultsDocument header;  // merged_document_header
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
  // ROWS each carry their case_index.
  void write_done(ShardId shard, const std::string& digest, const std::vector<ResultRow>& rows) const;
  void write_failed(ShardId shard, const std::vector<std::string>& failures) const;
  std::filesystem::path results_file(ShardId shard) const;
  std::filesystem::path failed_file(ShardId shard) const;
  const std::filesystem::path& path() const { return dir_; }

  // Every shard's rows, merged in case order under the manifest's header (without case numbers).
  // Throws std::runtime_error naming the shards not done, or a case missing or present twice;
  // InputError "FILE: JSON path: ..." for a damaged file.
  ResultsDocument merge() const;

 private:
  std::vector<ResultRow> shard_rows(ShardId shard, const std::string& digest) const;

  std::filesystem::path dir_;
};

}  // namespace ringsim
