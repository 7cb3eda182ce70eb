#include "results_document.h"

#include "../common/atomic_file.h"
#include "../common/input_error.h"
#include "../common/json_input.h"

#include <fmt/format.h>
#include <type_traits>

namespace ringsim {
namespace {

const char* kNotResults = "not a ringsim results JSON (expected an object with a \"results\" array, "
                          "as `ringsim run --json FILE` writes)";

// The keys of a row or of the envelope, read with the file and JSON path in every error.
class FieldReader {
 public:
  FieldReader(const nlohmann::json& object, const std::string& file, std::string path)
      : object_(object), file_(file), path_(std::move(path)) {}

  template <typename T>
  T required(const char* key) const {
    const auto it = object_.find(key);
    if (it == object_.end()) throw_input_error(file_, path_, fmt::format("missing \"{}\"", key));
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      // Only integers in T's range (json_input.h: a float converted by nlohmann can be undefined behaviour).
      const std::optional<T> number = json_integer<T>(*it);
      if (!number) throw_input_error(file_, at(key), fmt::format("unexpected {}", describe_json(*it)));
      return *number;
    }
    try {
      return it->get<T>();
    } catch (const nlohmann::json::exception&) {
      throw_input_error(file_, at(key), fmt::format("unexpected {}", describe_json(*it)));
    }
  }

  template <typename T>
  std::optional<T> optional(const char* key) const {
    const auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return std::nullopt;
    return required<T>(key);
  }

  // The object under KEY, when present and not null.
  std::optional<FieldReader> object(const char* key) const {
    const auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return std::nullopt;
    if (!it->is_object()) throw_input_error(file_, at(key), fmt::format("expected an object, found {}", describe_json(*it)));
    return FieldReader(*it, file_, at(key));
  }

  nlohmann::json raw(const char* key) const { return object_.contains(key) ? object_.at(key) : nlohmann::json(); }
  std::string at(const char* key) const { return fmt::format("{}/{}", path_, key); }
  void fail(const std::string& message) const { throw_input_error(file_, path_, message); }

 private:
  const nlohmann::json& object_;
  const std::string& file_;
  std::string path_;
};

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
  if (!row.variant.empty()) json["variant"] = row.variant;
  if (row.closed_form_s) json["closed_form_s"] = *row.closed_form_s;
  if (row.cost_model)
    json["cost_model"] = {{"alpha_s", row.cost_model->alpha_s},
                          {"beta_s_per_byte", row.cost_model->beta_s_per_byte},
                          {"gamma_s_per_byte", row.cost_model->gamma_s_per_byte}};
  return json;
}

TrafficSummary read_traffic(const FieldReader& traffic) {
  return {traffic.required<std::uint64_t>("max_rank_sent_bytes"), traffic.required<std::uint64_t>("max_rank_recv_bytes"),
          traffic.optional<std::uint64_t>("total_bytes").value_or(0), traffic.optional<std::uint64_t>("steps").value_or(0)};
}

ResultRow read_row(const nlohmann::json& json, const std::string& file, const std::string& path) {
  if (!json.is_object()) throw_input_error(file, path, fmt::format("expected an object, found {}", describe_json(json)));
  const FieldReader fields(json, file, path);
  ResultRow row;
  row.placement = fields.required<std::string>("placement");
  row.order = fields.optional<std::string>("order").value_or(row.order);
  row.algorithm = fields.optional<std::string>("algorithm").value_or(row.algorithm);
  row.engine = fields.optional<std::string>("engine").value_or(row.engine);
  row.variant = fields.optional<std::string>("variant").value_or("");
  row.ranks = fields.required<int>("ranks");
  row.bytes = fields.required<std::uint64_t>("bytes");
  row.time_s = fields.required<double>("time_s");
  if (row.ranks < 1 || row.bytes == 0 || !(row.time_s > 0)) fields.fail("ranks, bytes and time_s must be positive");
  row.iterations = fields.optional<std::uint64_t>("iterations").value_or(0);
  row.algbw_GBps = fields.optional<double>("algbw_GBps").value_or(algbw_GBps(row.bytes, row.time_s));
  row.busbw_GBps = fields.optional<double>("busbw_GBps").value_or(busbw_GBps(row.bytes, row.time_s, row.ranks));
  row.time_stats = {row.time_s, row.time_s, row.time_s};
  if (const auto stats = fields.object("time_stats"))
    row.time_stats = {stats->required<double>("min"), stats->required<double>("median"), stats->required<double>("max")};
  row.wrong = fields.optional<long long>("wrong");
  if (const auto traffic = fields.object("traffic")) row.traffic = read_traffic(*traffic);
  row.closed_form_s = fields.optional<double>("closed_form_s");
  if (const auto model = fields.object("cost_model"))
    row.cost_model = CostParameters{model->required<double>("alpha_s"), model->required<double>("beta_s_per_byte"),
                                    model->optional<double>("gamma_s_per_byte").value_or(0)};
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
      row.variant = variant;
      row.ranks = c.ranks;
      row.bytes = size.bytes;
      row.iterations = size.times_s.size();
      row.time_s = size.median_s();
      row.algbw_GBps = algbw_GBps(size.bytes, row.time_s);
      row.busbw_GBps = busbw_GBps(size.bytes, row.time_s, c.ranks);
      row.time_stats = {size.min_s(), row.time_s, size.max_s()};
      row.wrong = size.wrong;
      row.traffic = size.traffic;
      row.closed_form_s = size.closed_form_s;
      row.cost_model = c.cost_model;
    }
  return rows;
}

nlohmann::json ResultsDocument::to_json() const {
  nlohmann::json json{{"kind", kind}, {"scenario", scenario}, {"results", nlohmann::json::array()}};
  for (const ResultRow& row : rows) json["results"].push_back(row_json(row));
  if (!model.is_null()) json["model"] = model;
  for (const VariantModel& variant : variants) json["variants"].push_back({{"name", variant.name}, {"model", variant.model}});
  if (!source.is_null()) json["source"] = source;
  if (!findings.empty()) json["findings"] = findings;
  // Absent from files of results not simulated from a scenario (merged sweeps, measurements).
  if (!question.empty()) json["question"] = question;
  if (!topology.empty()) json["topology"] = topology;
  return json;
}

void ResultsDocument::save(const std::filesystem::path& file) const {
  write_file_atomically(file, to_json().dump(2) + "\n");
}

ResultsDocument ResultsDocument::parse(const nlohmann::json& json, const std::string& file) {
  if (!json.is_object() || !json.contains("results") || !json.at("results").is_array())
    throw InputError(fmt::format("{}: {}: {}", file, json.is_object() ? "/results" : "/", kNotResults));
  const auto& rows = json.at("results");
  if (rows.empty()) throw InputError(fmt::format("{}: /results: no results to report (the array is empty)", file));
  const FieldReader envelope(json, file, "");
  ResultsDocument document;
  // Text keys of another type are left at their defaults, as the first readers did.
  const auto text = [&](const char* key, const std::string& otherwise) {
    return json.contains(key) && json.at(key).is_string() ? json.at(key).get<std::string>() : otherwise;
  };
  document.kind = text("kind", document.kind);
  document.scenario = text("scenario", "");
  document.question = text("question", "");
  document.topology = text("topology", "");
  document.model = envelope.raw("model");
  document.source = envelope.raw("source");
  if (json.contains("variants")) {
    const auto& variants = json.at("variants");
    if (!variants.is_array()) throw_input_error(file, "/variants", fmt::format("expected an array, found {}", describe_json(variants)));
    for (std::size_t i = 0; i < variants.size(); ++i) {
      const FieldReader variant(variants[i], file, fmt::format("/variants/{}", i));
      if (!variants[i].is_object()) variant.fail(fmt::format("expected an object, found {}", describe_json(variants[i])));
      document.variants.push_back({variant.required<std::string>("name"), variant.raw("model")});
    }
  }
  document.findings = envelope.optional<std::vector<std::string>>("findings").value_or(std::vector<std::string>{});
  for (std::size_t i = 0; i < rows.size(); ++i) document.rows.push_back(read_row(rows[i], file, fmt::format("/results/{}", i)));
  return document;
}

ResultsDocument ResultsDocument::load(const std::filesystem::path& file) {
  return parse(load_json_file(file), file.string());
}

}  // namespace ringsim
