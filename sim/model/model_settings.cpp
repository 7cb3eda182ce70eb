#include "model_settings.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace ringsim {
namespace {

constexpr std::array<std::string_view, 5> kNetworkModels{"SMPI", "CM02", "LV08", "IB", "NCCL"};
constexpr std::array<std::string_view, 4> kEngines{"auto", "smpi", "s4u", "maestro"};

}  // namespace

ModelSettings default_model_for(const std::vector<std::string>& algorithms) {
  const bool nccl_only = !algorithms.empty() && std::all_of(algorithms.begin(), algorithms.end(), [](const std::string& name) {
    const AlgorithmRow* row = find_algorithm_row(name);
    return row != nullptr && row->family == AlgorithmFamily::nccl;
  });
  return nccl_only ? ModelSettings{}.for_nccl_algorithms() : ModelSettings{};
}

ModelSettings ModelSettings::for_nccl_algorithms() const {
  if (network == "NCCL" || network_stated) return *this;
  ModelSettings nccl_model = *this;
  nccl_model.network = "NCCL";
  if (!crosstraffic_stated) nccl_model.crosstraffic = false;
  if (!factors_stated) nccl_model.factors = "none";
  return nccl_model;
}

std::vector<std::string> ModelSettings::cfg_arguments() const {
  std::vector<std::string> args{
      // NCCL: SimGrid's max-min sharing (CM02) over NICs carrying their transport's payload share.
      fmt::format("--cfg=network/model:{}", network == "NCCL" ? "CM02" : network),
      fmt::format("--cfg=network/crosstraffic:{}", crosstraffic ? 1 : 0),
  };
  // nccl_ring's thread blocks poll their requests with MPI_Testany during Simple's handshake; SMPI
  // would charge every test 100 us (and more after each failed one), which no GPU pays.
  if (network == "NCCL") args.emplace_back("--cfg=smpi/test:0");
  if (factors == "none") {
    // "1" alone segfaults in SimGrid 3.32; "0:1" means factor 1 from 0 bytes up.
    args.emplace_back("--cfg=smpi/bw-factor:0:1");
    args.emplace_back("--cfg=smpi/lat-factor:0:1");
  }
  for (const auto& [key, value] : simgrid) args.push_back(fmt::format("--cfg={}:{}", key, value));
  return args;
}

std::string ModelSettings::engine_for(int ranks, const AlgorithmRow& algorithm, bool wakes_per_slice) const {
  // The MPI library's own allreduce exists only under SMPI.
  if (engine == "smpi" || algorithm.smpi_only) return "smpi";
  if (engine == "s4u" || engine == "maestro") return engine;
  return ranks >= kMaestroAutoRanks || wakes_per_slice ? "maestro" : "smpi";
}

nlohmann::json ModelSettings::to_json() const {
  nlohmann::json raw = nlohmann::json::object();
  for (const auto& [key, value] : simgrid) raw[key] = value;
  nlohmann::json json = {{"network", network}, {"crosstraffic", crosstraffic}, {"factors", factors}, {"simgrid", raw}};
  if (engine != "auto") json["engine"] = engine;  // absent = auto, as in every golden
  if (link_bandwidth_scale != 1) json["link_bandwidth_scale"] = link_bandwidth_scale;
  if (link_latency_scale != 1) json["link_latency_scale"] = link_latency_scale;
  if (process_stack)
    json["process_stack"] = {{"nic_ratio", process_stack->nic_ratio},
                             {"sharing", process_stack->shared ? "shared" : "split"},
                             {"latency", fmt::format("{:g}us", process_stack->latency_s * 1e6)}};  // as read_model reads it
  if (nic_bandwidth_Bps) json["nic_bandwidth"] = fmt::format("{:g}Bps", *nic_bandwidth_Bps);
  if (nic_latency_s) json["nic_latency"] = fmt::format("{:g}us", *nic_latency_s * 1e6);
  if (nic_efficiency != 1) json["nic_efficiency"] = nic_efficiency;
  if (nic_half_duplex) json["nic_sharing"] = "half-duplex";
  if (nccl) json["nccl"] = nccl_settings_json(*nccl);
  for (const BackgroundLoad& load : background)
    json["background"].push_back({{"link", load.link}, {"direction", load.direction}, {"fraction", load.fraction}});
  return json;
}

void ModelSettings::adopt_topology_gpus(const Topology& topology) {
  NcclSettings settings = effective_nccl();
  if (settings.compute_capability_given) return;
  int generation = 0;
  for (const RackSpec& rack : topology.racks)
    for (const NodeSpec& node : rack.nodes) {
      if (node.gpu_compute_capability == 0 || (generation != 0 && node.gpu_compute_capability != generation)) return;
      generation = node.gpu_compute_capability;
    }
  if (generation == 0 || generation == settings.compute_capability) return;
  settings.compute_capability = generation;
  nccl = settings;
}

Topology ModelSettings::shape(Topology topology) const {
  if (network == "NCCL") {
    topology = with_transport_payload_share(std::move(topology));
    topology = with_nvlink_payload_share(std::move(topology), effective_nccl().compute_capability);
    topology = with_gpu_model_speeds(std::move(topology));
  }
  if (nic_bandwidth_Bps) topology = with_nic_bandwidth(std::move(topology), *nic_bandwidth_Bps);
  if (nic_latency_s) topology = with_nic_latency(std::move(topology), *nic_latency_s);
  if (nic_efficiency != 1) topology = scaled_nic_bandwidths(std::move(topology), nic_efficiency);
  if (link_latency_scale != 1) topology = scaled_latencies(std::move(topology), link_latency_scale);
  return scaled_bandwidths(std::move(topology), link_bandwidth_scale);
}

namespace {

// The smallest double above 0: a lower bound that excludes 0.
const double kAboveZero = std::nextafter(0.0, 1.0);

// Each reads one key of a "model" object into BASE (absent keys leave it as it is), in the order
// read_model lists them, so the first error found in a file is the same whatever the split.

// link_bandwidth_scale / link_latency_scale: a factor above 0 and at most 1000 (EXAMPLE in the error).
void read_link_scale(JsonObjectReader& reader, const char* key, const char* example, double& scale) {
  scale = reader.optional_number(key, kAboveZero, 1000, fmt::format("a positive factor such as {}", example)).value_or(scale);
}

void read_network_keys(JsonObjectReader& reader, ModelSettings& base) {
  if (auto network = reader.optional_string("network")) {
    if (std::find(kNetworkModels.begin(), kNetworkModels.end(), *network) == kNetworkModels.end())
      reader.fail("network", fmt::format("unknown network model \"{}\"; expected one of {}", *network,
                                         fmt::join(kNetworkModels, ", ")));
    base.network = *network;
    base.network_stated = true;
  }
  if (auto crosstraffic = reader.optional_bool("crosstraffic")) base.crosstraffic = *crosstraffic, base.crosstraffic_stated = true;
  if (auto factors = reader.optional_string("factors")) {
    if (*factors != "default" && *factors != "none")
      reader.fail("factors", fmt::format("expected \"default\" or \"none\", found \"{}\"", *factors));
    base.factors = *factors;
    base.factors_stated = true;
  }
  if (auto engine = reader.optional_string("engine")) {
    if (std::find(kEngines.begin(), kEngines.end(), *engine) == kEngines.end())
      reader.fail("engine", fmt::format("unknown engine \"{}\"; expected one of {}", *engine, fmt::join(kEngines, ", ")));
    base.engine = *engine;
  }
  read_link_scale(reader, "link_bandwidth_scale", "0.8", base.link_bandwidth_scale);
  read_link_scale(reader, "link_latency_scale", "0.5", base.link_latency_scale);
}

ProcessStack read_process_stack(const nlohmann::json& stack, const std::string& file, const std::string& path) {
  JsonObjectReader fields(stack, file, path);
  ProcessStack parsed;
  parsed.nic_ratio = fields.optional_number("nic_ratio", kAboveZero, std::numeric_limits<double>::max(),
                                            "the stack's bandwidth as a multiple of the NIC's, such as 1 or 2")
                         .value_or(parsed.nic_ratio);
  if (auto sharing = fields.optional_string("sharing")) {
    if (*sharing != "shared" && *sharing != "split")
      fields.fail("sharing", fmt::format("expected \"shared\" (send and receive compete) or \"split\", found \"{}\"", *sharing));
    parsed.shared = *sharing == "shared";
  }
  parsed.latency_s = fields.optional_latency("latency").value_or(0);
  fields.finish();
  return parsed;
}

void read_nic_keys(JsonObjectReader& reader, ModelSettings& base) {
  if (auto bandwidth = reader.optional_bandwidth("nic_bandwidth")) base.nic_bandwidth_Bps = *bandwidth;
  if (auto latency = reader.optional_latency("nic_latency")) base.nic_latency_s = *latency;
  base.nic_efficiency = reader.optional_number("nic_efficiency", kAboveZero, 1,
                                               "the share of the NIC's bandwidth traffic gets, above 0 and at most 1, such as 0.94")
                            .value_or(base.nic_efficiency);
  if (auto sharing = reader.optional_string("nic_sharing")) {
    if (*sharing != "split-duplex" && *sharing != "half-duplex")
      reader.fail("nic_sharing", fmt::format("expected \"split-duplex\" (each direction at full bandwidth) or \"half-duplex\" "
                                             "(send and receive share the NIC), found \"{}\"", *sharing));
    base.nic_half_duplex = *sharing == "half-duplex";
  }
}

BackgroundLoad read_background_load(const nlohmann::json& value, const std::string& file, const std::string& path) {
  JsonObjectReader fields(value, file, path);
  BackgroundLoad load;
  load.link = fields.required_string("link");
  load.direction = fields.optional_string("direction").value_or("both");
  if (load.direction != "up" && load.direction != "down" && load.direction != "both")
    fields.fail("direction", fmt::format("expected \"up\", \"down\" or \"both\", found \"{}\"", load.direction));
  load.fraction = fields.required("fraction").number(
      kAboveZero, std::nextafter(1.0, 0.0), "the share of the link's bandwidth the cross traffic takes, between 0 and 1 exclusive");
  fields.finish();
  return load;
}

void read_background(JsonObjectReader& reader, const std::string& file, ModelSettings& base) {
  const nlohmann::json* loads = reader.optional_value("background");
  if (loads == nullptr) return;
  if (!loads->is_array())
    reader.fail("background", "expected an array such as [{\"link\": \"node0-nic\", \"direction\": \"up\", \"fraction\": 0.5}]");
  base.background.clear();
  for (std::size_t i = 0; i < loads->size(); ++i)
    base.background.push_back(read_background_load((*loads)[i], file, reader.path_of("background", i)));
}

// "simgrid": {KEY: VALUE}, each a --cfg=KEY:VALUE; a later KEY replaces an earlier one (of BASE too).
void read_simgrid_settings(JsonObjectReader& reader, const std::string& file, ModelSettings& base) {
  const nlohmann::json* raw = reader.optional_value("simgrid");
  if (raw == nullptr) return;
  if (!raw->is_object()) reader.fail("simgrid", "expected an object of SimGrid --cfg settings, e.g. {\"network/TCP-gamma\": \"0\"}");
  for (const auto& [key, setting] : raw->items()) {
    const std::string where = reader.path_of("simgrid") + "/" + key;
    if (key.empty() || key.find_first_of(" :=\t\n") != std::string::npos)
      throw_input_error(file, where, "a SimGrid setting name has no spaces, ':' or '='");
    std::string text;
    if (setting.is_string()) text = setting.get<std::string>();
    else if (setting.is_boolean()) text = setting.get<bool>() ? "yes" : "no";
    else if (setting.is_number()) text = setting.dump();
    else throw_input_error(file, where, fmt::format("expected a string, number or boolean, found {}", describe_json(setting)));
    auto same_key = [&name = key](const auto& entry) { return entry.first == name; };  // clang 14: no binding capture
    std::erase_if(base.simgrid, same_key);
    base.simgrid.emplace_back(key, text);
  }
}

}  // namespace

ModelSettings read_model(const nlohmann::json& value, const std::string& file, const std::string& path,
                         ModelSettings base) {
  JsonObjectReader reader(value, file, path);
  read_network_keys(reader, base);
  if (const nlohmann::json* stack = reader.optional_value("process_stack"))
    base.process_stack = read_process_stack(*stack, file, reader.path_of("process_stack"));
  read_nic_keys(reader, base);
  read_background(reader, file, base);
  if (const nlohmann::json* settings = reader.optional_value("nccl"))
    base.nccl = read_nccl_settings(*settings, file, reader.path_of("nccl"), base.effective_nccl());
  // What `ringsim calibrate` fitted, kept for the record; it changes nothing by itself.
  if (const nlohmann::json* calibration = reader.optional_value("calibration"))
    if (!calibration->is_object()) reader.fail("calibration", "expected the object ringsim calibrate writes");
  read_simgrid_settings(reader, file, base);
  reader.finish();
  return base;
}

ModelSettings load_model_file(const std::filesystem::path& file, ModelSettings base) {
  return read_model(load_json_file(file), file.string(), "", std::move(base));
}

}  // namespace ringsim
