#include "results_document.h"

#include "../common/atomic_file.h"
#include "../common/input_error.h"
#include "../common/json_input.h"

#include <fmt/format.h>
#include <limits>

namespace ringsim {
namespace {

const char* kNotResults = "not a ringsim results JSON (expected an object with a \"results\" array, "
                          "as `ringsim run --json FILE` writes)";

nlohmann::json row_json(const ResultRow& row) {
  nlohmann::json json{{"placement", row.placement},
                      {"order", row.order},
                      {"algorithm", row.algorithm},
                      {"ranks", row.ranks},
                      {"bytes", row.bytes},
                      {"iterations", row.iterations},
                      {"time_s", row.time_s},
                      {"algbw_GBps", row.algbw_GBps},
                      {"busbw_GBps", row.busbw_GBps},
                      {"time_stats", {{"min", row.time_stats.min}, {"median", row.time_stats.median}, {"max", row.time_stats.max}}},
                      {"wrong", row.wrong ? nlohmann::json(*row.wrong) : nlohmann::json()},
                      {"traffic", traffic_json(row.traffic)}};
  // Only when not SMPI, the engine of every golden, whose JSON carries no "engine" key.
  if (row.engine != "smpi") json["engine"] = row.engine;
  // Only when not all_reduce, likewise: allreduce's files stay as they were.
  if (row.collective != collective_name(Collective::all_reduce)) json["collective"] = row.collective;
  if (!row.variant.empty()) json["variant"] = row.variant;
  if (!row.topology.empty()) json["topology"] = row.topology;
  if (row.case_index) json["case"] = *row.case_index;
  if (row.closed_form_s) json["closed_form_s"] = *row.closed_form_s;
  if (row.nccl_ran) json["nccl_ran"] = *row.nccl_ran;
  if (row.cost_model)
    json["cost_model"] = {{"alpha_s", row.cost_model->alpha_s},
                          {"beta_s_per_byte", row.cost_model->beta_s_per_byte},
                          {"gamma_s_per_byte", row.cost_model->gamma_s_per_byte}};
  return json;
}

// Results files are read leniently (keys ringsim does not know are ignored, newer writers may add
// some) but every value through the checked accessor: a wrong type or a number out of range is an error.
TrafficSummary read_traffic(JsonObjectReader traffic) {
  const auto count = [&](std::string_view key) { return traffic.required(key).integer<std::uint64_t>(); };
  const auto optional_count = [&](std::string_view key) {
    const auto value = traffic.optional(key);
    return value && !value->is_null() ? value->integer<std::uint64_t>() : 0;
  };
  return {count("max_rank_sent_bytes"), count("max_rank_recv_bytes"), optional_count("total_bytes"), optional_count("steps")};
}

// The value under KEY unless it is absent or null.
std::optional<JsonValue> present(JsonObjectReader& fields, std::string_view key) {
  auto value = fields.optional(key);
  if (value && value->is_null()) return std::nullopt;
  return value;
}

std::optional<std::string> optional_text(JsonObjectReader& fields, std::string_view key) {
  const auto value = present(fields, key);
  return value ? std::optional(value->string()) : std::nullopt;
}

std::optional<double> optional_number(JsonObjectReader& fields, std::string_view key) {
  const auto value = present(fields, key);
  return value ? std::optional(value->number()) : std::nullopt;
}

ResultRow read_row(const JsonValue& value) {
  JsonObjectReader fields = value.object();
  ResultRow row;
  row.placement = fields.required("placement").string();
  row.order = optional_text(fields, "order").value_or(row.order);
  row.algorithm = optional_text(fields, "algorithm").value_or(row.algorithm);
  row.engine = optional_text(fields, "engine").value_or(row.engine);
  row.collective = optional_text(fields, "collective").value_or(row.collective);
  const std::optional<Collective> collective = find_collective(row.collective);
  if (!collective) value.fail(fmt::format("unknown collective \"{}\"; known: {}", row.collective, fmt::join(kCollectiveNames, ", ")));
  row.variant = optional_text(fields, "variant").value_or("");
  row.topology = optional_text(fields, "topology").value_or("");
  if (const auto index = present(fields, "case")) row.case_index = index->integer<std::size_t>();
  row.ranks = fields.required("ranks").integer<int>(1, std::numeric_limits<int>::max());
  row.bytes = fields.required("bytes").integer<std::uint64_t>();
  row.time_s = fields.required("time_s").number();
  if (row.ranks < 1 || row.bytes == 0 || !(row.time_s > 0)) value.fail("ranks, bytes and time_s must be positive");
  if (const auto iterations = present(fields, "iterations")) row.iterations = iterations->integer<std::uint64_t>();
  row.algbw_GBps = optional_number(fields, "algbw_GBps").value_or(algbw_GBps(row.bytes, row.time_s));
  row.busbw_GBps = optional_number(fields, "busbw_GBps").value_or(busbw_GBps(row.bytes, row.time_s, row.ranks, *collective));
  row.time_stats = {row.time_s, row.time_s, row.time_s};
  if (const auto stats = present(fields, "time_stats")) {
    JsonObjectReader stat = stats->object();
    row.time_stats = {stat.required("min").number(), stat.required("median").number(), stat.required("max").number()};
  }
  if (const auto wrong = present(fields, "wrong")) row.wrong = wrong->integer<long long>();
  if (const auto traffic = present(fields, "traffic")) row.traffic = read_traffic(traffic->object());
  row.closed_form_s = optional_number(fields, "closed_form_s");
  row.nccl_ran = optional_text(fields, "nccl_ran");
  if (const auto model = present(fields, "cost_model")) {
    JsonObjectReader cost = model->object();
    row.cost_model = CostParameters{cost.required("alpha_s").number(), cost.required("beta_s_per_byte").number(),
                                    optional_number(cost, "gamma_s_per_byte").value_or(0)};
  }
  return row;
}

}  // namespace

std::vector<ResultRow> result_rows(const std::vector<CaseResult>& cases, const std::string& variant) {
  std::vector<ResultRow> rows;
  for (const CaseResult& c : cases)
    for (const SizeResult& size : c.sizes) {
      ResultRow& row = rows.emplace_back();
      row.placement = c.spec.placement.ranks_text();
      row.order = order_name(c.spec.placement.order);
      row.algorithm = c.spec.algorithm;
      row.engine = c.spec.engine;
      row.collective = collective_name(c.spec.collective);
      row.variant = variant;
      row.ranks = c.ranks;
      row.bytes = size.bytes;
      row.iterations = size.times_s.size();
      row.time_s = size.median_s();
      row.algbw_GBps = algbw_GBps(size.bytes, row.time_s);
      row.busbw_GBps = busbw_GBps(size.bytes, row.time_s, c.ranks, c.spec.collective);
      row.time_stats = {size.min_s(), row.time_s, size.max_s()};
      row.wrong = size.wrong;
      row.traffic = size.traffic;
      row.closed_form_s = size.closed_form_s;
      row.nccl_ran = size.nccl_ran;
      row.cost_model = c.cost_model;
    }
  return rows;
}

nlohmann::json ResultsDocument::to_json() const {
  nlohmann::json json{{"kind", kind}, {"scenario", scenario}, {"results", nlohmann::json::array()}};
  for (const ResultRow& row : rows) json["results"].push_back(row_json(row));
  if (!model.is_null()) json["model"] = model;
  if (!nccl_model.is_null()) json["nccl_model"] = nccl_model;
  for (const VariantModel& variant : variants) {
    nlohmann::json entry{{"name", variant.name}, {"model", variant.model}};
    if (!variant.nccl_model.is_null()) entry["nccl_model"] = variant.nccl_model;
    json["variants"].push_back(std::move(entry));
  }
  if (!topologies.empty()) json["topologies"] = topologies;
  if (!source.is_null()) json["source"] = source;
  if (!findings.empty()) json["findings"] = findings;
  // Absent from files of results not simulated from a scenario (merged sweeps, measurements).
  if (!question.empty()) json["question"] = question;
  if (!topology.empty()) json["topology"] = topology;
  if (!assumed.empty()) json["assumed"] = assumed;
  return json;
}

void ResultsDocument::save(const std::filesystem::path& file) const {
  write_file_atomically(file, to_json().dump(2) + "\n");
}

ResultsDocument ResultsDocument::parse_part(const nlohmann::json& json, const std::string& file, const std::string& path) {
  JsonObjectReader envelope = JsonValue(json, file, path).object();
  ResultsDocument document;
  // Text keys of another type are left at their defaults, as the first readers did.
  const auto text = [&](std::string_view key, const std::string& otherwise) {
    const nlohmann::json* value = envelope.optional_value(key);
    return value != nullptr && value->is_string() ? value->get<std::string>() : otherwise;
  };
  document.kind = text("kind", document.kind);
  document.scenario = text("scenario", "");
  document.question = text("question", "");
  document.topology = text("topology", "");
  if (const nlohmann::json* model = envelope.optional_value("model")) document.model = *model;
  if (const nlohmann::json* nccl_model = envelope.optional_value("nccl_model")) document.nccl_model = *nccl_model;
  if (const nlohmann::json* source = envelope.optional_value("source")) document.source = *source;
  if (const auto variants = envelope.optional("variants"))
    for (const JsonValue& value : variants->array()) {
      JsonObjectReader variant = value.object();
      const nlohmann::json* model = variant.optional_value("model");
      const nlohmann::json* nccl_model = variant.optional_value("nccl_model");
      document.variants.push_back({variant.required("name").string(), model != nullptr ? *model : nlohmann::json(),
                                   nccl_model != nullptr ? *nccl_model : nlohmann::json()});
    }
  if (const auto topologies = present(envelope, "topologies"))
    for (const JsonValue& topology : topologies->array()) document.topologies.push_back(topology.string());
  if (const auto findings = present(envelope, "findings"))
    for (const JsonValue& finding : findings->array()) document.findings.push_back(finding.string());
  if (const auto assumed = present(envelope, "assumed"))
    for (const JsonValue& value : assumed->array()) document.assumed.push_back(value.string());
  if (const auto rows = envelope.optional("results"))
    for (const JsonValue& row : rows->array()) document.rows.push_back(read_row(row));
  return document;
}

ResultsDocument ResultsDocument::parse(const nlohmann::json& json, const std::string& file) {
  if (!json.is_object() || !json.contains("results") || !json.at("results").is_array())
    throw InputError(fmt::format("{}: {}: {}", file, json.is_object() ? "/results" : "/", kNotResults));
  if (json.at("results").empty()) throw InputError(fmt::format("{}: /results: no results to report (the array is empty)", file));
  return parse_part(json, file, "");
}

ResultsDocument ResultsDocument::load(const std::filesystem::path& file) {
  return parse(load_json_file(file), file.string());
}

}  // namespace ringsim
