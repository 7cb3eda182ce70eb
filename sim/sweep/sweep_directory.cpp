#include "sweep_directory.h"

#include "../analysis/variant_plan.h"
#include "../common/atomic_file.h"
#include "../common/input_error.h"
#include "../common/json_input.h"

#include <charconv>
#include <fmt/format.h>
#include <map>

namespace ringsim {
namespace {

constexpr const char* kManifestName = "sweep-manifest.json";

std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = 1469598103934665603ULL) {
  for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ULL;
  return hash;
}

JsonObjectReader read_object(const std::filesystem::path& file, const nlohmann::json& content) {
  return JsonValue(content, file.string(), "").object();
}

}  // namespace

std::optional<ShardId> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) return std::nullopt;
  ShardId shard;
  auto whole = [](std::string_view digits, std::size_t& value) {
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return !digits.empty() && ec == std::errc() && end == digits.data() + digits.size();
  };
  if (!whole(std::string_view(text).substr(0, slash), shard.index) || !whole(std::string_view(text).substr(slash + 1), shard.count))
    return std::nullopt;
  if (shard.count == 0 || shard.index >= shard.count) return std::nullopt;
  return shard;
}

std::vector<std::size_t> cases_of_shard(std::size_t cases, ShardId shard) {
  std::vector<std::size_t> mine;
  for (std::size_t c = shard.index; c < cases; c += shard.count) mine.push_back(c);
  return mine;
}

std::string sweep_digest(const SweepSpec& spec, const ExpandedSweep& sweep) {
  std::uint64_t hash = fnv1a(fmt::format("{}|{}|{}|{}|", spec.name, fmt::join(spec.sizes, ","), spec.iterations, spec.warmup));
  for (const SweepCase& one : sweep.cases) {
    const SweepGroup& group = sweep.groups[one.group];
    const Scenario& scenario = group.scenario;
    hash = fnv1a(fmt::format("{}|{}|{}|{}|{}\n", spec.topologies[group.topology].string(), group.variant,
                             scenario.model.to_json().dump(), scenario.placements[one.placement].label(),
                             scenario.algorithms[one.algorithm]),
                 hash);
    // A collective other than all_reduce only: an allreduce sweep's digest stays what it was.
    if (const Collective collective = scenario.collectives[one.collective]; collective != Collective::all_reduce)
      hash = fnv1a(fmt::format("{}\n", collective_name(collective)), hash);
  }
  return fmt::format("{:016x}", hash);
}

ResultsDocument merged_document_header(const SweepSpec& spec) {
  ResultsDocument document;
  document.scenario = spec.name;
  // As `ringsim run` names them, for compact topologies: the model NCCL's algorithms ran under beside MODEL.
  auto nccl_model = [&](const ModelSettings& model) {
    const auto separate = separate_nccl_model(model, spec.algorithms);
    return separate ? separate->to_json() : nlohmann::json();
  };
  if (spec.variants.empty()) document.model = spec.model.to_json(), document.nccl_model = nccl_model(spec.model);
  for (const ScenarioVariant& variant : spec.variants)
    document.variants.push_back({variant.name, variant.model.to_json(), nccl_model(variant.model)});
  if (spec.topologies.size() > 1)
    for (const auto& topology : spec.topologies) document.topologies.push_back(topology.string());
  return document;
}

void SweepDirectory::claim(const SweepManifest& manifest) const {
  const auto file = dir_ / kManifestName;
  if (std::filesystem::exists(file)) {
    const SweepManifest existing = this->manifest();
    if (existing.digest != manifest.digest)
      throw InputError(fmt::format("{}: holds the results of another sweep ({}, digest {}; this one has {}): give another --out",
                                   dir_.string(), existing.sweep, existing.digest, manifest.digest));
    if (existing.shards != manifest.shards)
      throw InputError(fmt::format("{}: was split into {} shards, not {}: use --shards {} (or another --out)", dir_.string(),
                                   existing.shards, manifest.shards, existing.shards));
    return;
  }
  std::error_code error;
  std::filesystem::create_directories(dir_, error);
  if (error) throw InputError(fmt::format("--out {}: cannot create the directory ({})", dir_.string(), error.message()));
  const nlohmann::json content = {{"sweep", manifest.sweep}, {"digest", manifest.digest}, {"cases", manifest.cases},
                                  {"shards", manifest.shards}, {"document", manifest.header.to_json()}};
  write_file_atomically(file, content.dump(2) + "\n");
}

SweepManifest SweepDirectory::manifest() const {
  const auto file = dir_ / kManifestName;
  if (!std::filesystem::exists(file))
    throw InputError(fmt::format("{}: no {} here: not the --out of `ringsim sweep run`", dir_.string(), kManifestName));
  const nlohmann::json content = load_json_file(file);
  JsonObjectReader fields = read_object(file, content);
  return {fields.required_string("sweep"), fields.required_string("digest"), fields.required("cases").integer<std::size_t>(),
          fields.required("shards").integer<std::size_t>(),
          ResultsDocument::parse_part(fields.required_value("document"), file.string(), "/document")};
}

std::filesystem::path SweepDirectory::results_file(ShardId shard) const {
  return dir_ / fmt::format("shard-{:04}-of-{:04}.json", shard.index, shard.count);
}

std::filesystem::path SweepDirectory::failed_file(ShardId shard) const {
  return dir_ / fmt::format("shard-{:04}-of-{:04}.failed", shard.index, shard.count);
}

ShardState SweepDirectory::state(std::size_t shard, std::size_t shards) const {
  if (std::filesystem::exists(results_file({shard, shards}))) return ShardState::done;
  if (std::filesystem::exists(failed_file({shard, shards}))) return ShardState::failed;
  return ShardState::pending;
}

void SweepDirectory::write_done(ShardId shard, const std::string& digest, const std::vector<ResultRow>& rows) const {
  ResultsDocument part;
  part.rows = rows;
  nlohmann::json content = part.to_json();
  content.update({{"shard", shard.index}, {"shards", shard.count}, {"digest", digest}});
  write_file_atomically(results_file(shard), content.dump(1) + "\n");
  std::filesystem::remove(failed_file(shard));
}

void SweepDirectory::write_failed(ShardId shard, const std::vector<std::string>& failures) const {
  write_file_atomically(failed_file(shard), fmt::format("{}\n", fmt::join(failures, "\n")));
}

// The rows of a finished shard's file, each with its case number; throws unless written for DIGEST.
std::vector<ResultRow> SweepDirectory::shard_rows(ShardId shard, const std::string& digest) const {
  const auto file = results_file(shard);
  const nlohmann::json content = load_json_file(file);
  JsonObjectReader fields = read_object(file, content);
  if (const std::string written = fields.required_string("digest"); written != digest)
    throw std::runtime_error(fmt::format("{}: written for another sweep (digest {})", file.string(), written));
  std::vector<ResultRow> rows = ResultsDocument::parse_part(content, file.string(), "").rows;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (!rows[i].case_index) throw_input_error(file.string(), fmt::format("/results/{}/case", i), "missing required key");
  return rows;
}

ResultsDocument SweepDirectory::merge() const {
  const SweepManifest manifest = this->manifest();
  std::vector<std::size_t> missing;
  // By case number, in order; maps, so that a damaged manifest's case count allocates nothing.
  std::map<std::size_t, std::vector<ResultRow>> by_case;
  std::map<std::size_t, std::size_t> shard_of_case;
  for (std::size_t s = 0; s < manifest.shards; ++s) {
    if (state(s, manifest.shards) != ShardState::done) {
      missing.push_back(s);
      continue;
    }
    const auto file = results_file({s, manifest.shards});
    for (ResultRow& row : shard_rows({s, manifest.shards}, manifest.digest)) {
      const std::size_t c = *row.case_index;
      if (c >= manifest.cases) throw std::runtime_error(fmt::format("{}: case {} is not in the sweep", file.string(), c));
      if (const auto [other, added] = shard_of_case.emplace(c, s); !added && other->second != s)
        throw std::runtime_error(fmt::format("{}: case {} is also in shard {}", file.string(), c, other->second));
      row.case_index.reset();
      by_case[c].push_back(std::move(row));
    }
  }
  if (!missing.empty())
    throw std::runtime_error(fmt::format("{}: {} of {} shards not done (shards {}); run `ringsim sweep run` again",
                                         dir_.string(), missing.size(), manifest.shards, fmt::join(missing, ", ")));
  ResultsDocument document = manifest.header;
  std::size_t expected = 0;  // every case from 0 up, none left out
  for (auto& [c, rows] : by_case) {
    if (c != expected) break;
    for (ResultRow& row : rows) document.rows.push_back(std::move(row));
    ++expected;
  }
  if (expected != manifest.cases) throw std::runtime_error(fmt::format("{}: case {} has no result", dir_.string(), expected));
  return document;
}

}  // namespace ringsim
