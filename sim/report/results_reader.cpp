#include "results_reader.h"

#include "../common/input_error.h"
#include "../common/json_input.h"
#include "../results/case_results.h"

#include <algorithm>
#include <fmt/format.h>

namespace ringsim {
namespace {

const char* kNotResults = "not a ringsim results JSON (expected an object with a \"results\" array, "
                          "as `ringsim run --json FILE` writes)";

template <typename T>
T required(const nlohmann::json& entry, const char* key, const std::string& file, const std::string& path) {
  const auto it = entry.find(key);
  if (it == entry.end()) throw_input_error(file, path, fmt::format("missing \"{}\"", key));
  try {
    return it->get<T>();
  } catch (const nlohmann::json::exception&) {
    throw_input_error(file, fmt::format("{}/{}", path, key), fmt::format("unexpected {}", describe_json(*it)));
  }
}

template <typename T>
std::optional<T> optional(const nlohmann::json& entry, const char* key, const std::string& file,
                          const std::string& path) {
  const auto it = entry.find(key);
  if (it == entry.end() || it->is_null()) return std::nullopt;
  return required<T>(entry, key, file, path);
}

ResultEntry parse_entry(const nlohmann::json& row, const std::string& file, const std::string& path) {
  if (!row.is_object()) throw_input_error(file, path, fmt::format("expected an object, found {}", describe_json(row)));
  ResultEntry entry;
  entry.placement = required<std::string>(row, "placement", file, path);
  entry.order = optional<std::string>(row, "order", file, path).value_or("block");
  entry.algorithm = optional<std::string>(row, "algorithm", file, path).value_or("ring");
  entry.variant = optional<std::string>(row, "variant", file, path).value_or("");
  entry.ranks = required<int>(row, "ranks", file, path);
  entry.bytes = required<std::uint64_t>(row, "bytes", file, path);
  entry.time_s = required<double>(row, "time_s", file, path);
  if (entry.ranks < 1 || entry.bytes == 0 || !(entry.time_s > 0))
    throw_input_error(file, path, "ranks, bytes and time_s must be positive");
  entry.busbw_GBps = optional<double>(row, "busbw_GBps", file, path)
                         .value_or(busbw_GBps(entry.bytes, entry.time_s, entry.ranks));
  if (const auto traffic = row.find("traffic"); traffic != row.end() && !traffic->is_null()) {
    const std::string at = path + "/traffic";
    entry.traffic = RankTraffic{required<std::uint64_t>(*traffic, "max_rank_sent_bytes", file, at),
                                  required<std::uint64_t>(*traffic, "max_rank_recv_bytes", file, at),
                                  optional<std::uint64_t>(*traffic, "total_bytes", file, at).value_or(0),
                                  optional<int>(*traffic, "steps", file, at).value_or(0)};
  }
  entry.closed_form_s = optional<double>(row, "closed_form_s", file, path);
  if (const auto model = row.find("cost_model"); model != row.end() && !model->is_null()) {
    const std::string at = path + "/cost_model";
    entry.cost_model = CostParameters{required<double>(*model, "alpha_s", file, at),
                                      required<double>(*model, "beta_s_per_byte", file, at),
                                      optional<double>(*model, "gamma_s_per_byte", file, at).value_or(0)};
  }
  return entry;
}

}  // namespace

std::string ResultEntry::case_label() const {
  // "1-1-...-1" over 32 nodes would fill a legend line: name long placements by their node count.
  const std::string where =
      placement.size() <= 16 ? placement : fmt::format("{} nodes", std::count(placement.begin(), placement.end(), '-') + 1);
  const std::string label = fmt::format("{} {} {} ({} ranks)", where, order, algorithm, ranks);
  return variant.empty() ? label : fmt::format("{} [{}]", label, variant);
}

ResultsDocument parse_results_document(const nlohmann::json& document, const std::string& file) {
  if (!document.is_object() || !document.contains("results") || !document.at("results").is_array())
    throw InputError(fmt::format("{}: {}: {}", file, document.is_object() ? "/results" : "/", kNotResults));
  const auto& rows = document.at("results");
  if (rows.empty()) throw InputError(fmt::format("{}: /results: no results to report (the array is empty)", file));
  ResultsDocument results;
  const auto text = [&](const char* key, const char* otherwise) {
    return document.contains(key) && document.at(key).is_string() ? document.at(key).get<std::string>() : otherwise;
  };
  results.kind = text("kind", "simulated");
  results.scenario = text("scenario", "");
  if (document.contains("model")) results.model = document.at("model");
  for (std::size_t i = 0; i < rows.size(); ++i)
    results.entries.push_back(parse_entry(rows[i], file, fmt::format("/results/{}", i)));
  return results;
}

ResultsDocument load_results_document(const std::filesystem::path& file) {
  return parse_results_document(load_json_file(file), file.string());
}

}  // namespace ringsim
