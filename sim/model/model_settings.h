// The simulation model of a scenario (docs/scenario-format.md, "Model settings") and its translation to SimGrid --cfg.
#pragma once

#include "algorithm_registry.h"
#include "../common/json_input.h"
#include "../platform/platform_xml.h"
#include "../nccl/tuning/nccl_settings.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ringsim {

// "engine": "auto" runs cases of at least this many ranks on the maestro engine, which gives the S4U
// engine's simulated times at less CPU (docs/engines.md). Below it SMPI is fast enough (a 64 MiB ring:
// about 1 s at 64 ranks, 4 s at 128), and every golden, the flagship and the tests' small cases stay
// on SMPI; at 256 ranks SMPI takes ~40 s and the S4U and maestro engines ~1 s.
inline constexpr int kMaestroAutoRanks = 256;

struct ModelSettings {
  // SimGrid network/model: SMPI | CM02 | LV08 | IB, or NCCL: CM02 with each NIC at its transport's
  // payload share of the line rate (topology.h with_transport_payload_share), no SMPI factors.
  std::string network = "SMPI";
  bool crosstraffic = true;      // network/crosstraffic: ACKs of a flow load the reverse direction
  std::string factors = "default";  // default: SMPI's bandwidth/latency factors; none: factors of 1
  // Which of the three a "model" key or a --model file stated (for_nccl_algorithms keeps those).
  bool network_stated = false, crosstraffic_stated = false, factors_stated = false;
  std::vector<std::pair<std::string, std::string>> simgrid;  // raw --cfg key/value, applied last
  // Multiplies the bandwidth of every link of a compact topology's platform (sharing included, unlike
  // SMPI's bw-factor, which only bounds each flow). `ringsim calibrate` sets it; 1 = as described.
  double link_bandwidth_scale = 1;
  // Multiplies the latency of every link (NICs, links inside nodes, switches; after nic_latency):
  // what the latency-bound sizes of a trace measure against the topology's stated latencies.
  // `ringsim calibrate` fits it for nccl_ring when the trace has such sizes; 1 = as described.
  double link_latency_scale = 1;
  // {"nic_ratio": 1, "sharing": "shared" | "split", "latency": "0us"}: a per-process network stack
  // on every rank's inter-node path (platform_xml.h). Absent = none.
  std::optional<ProcessStack> process_stack;
  // "nic_bandwidth": "10Gbps": every NIC of a compact topology at this bandwidth (what-if upgrades).
  std::optional<double> nic_bandwidth_Bps;
  // "nic_latency": "2us": every NIC of a compact topology with this latency, so that a route between
  // nodes takes 2 x it + the switch's. `ringsim calibrate` sets it from the fitted per-step latency:
  // SimGrid's smpi/lat-factor would not do, as it applies to the SMPI network model only (not CM02).
  std::optional<double> nic_latency_s;
  // "nic_efficiency": 0.94: every NIC carries this share of its bandwidth (nominal or nic_bandwidth):
  // what a transport (TCP sockets, staging through host memory) gets of the line rate; the links inside
  // nodes and the switches keep theirs. `ringsim calibrate` sets it; 1 = the line rate.
  double nic_efficiency = 1;
  // "nic_sharing": "split-duplex" (default: each direction has the NIC's bandwidth) | "half-duplex".
  bool nic_half_duplex = false;
  // "background": [{"link": "node0-nic", "direction": "up" | "down" | "both", "fraction": 0.5}, ...]
  std::vector<BackgroundLoad> background;
  // "engine": what runs the rank program — "smpi" (smpirun), "maestro" (ringsim-rank-maestro: ranks as
  // fibers run from SimGrid's maestro), "s4u" (ringsim-rank-s4u: ranks as S4U
  // actors, docs/engines.md) or "auto" (maestro from kMaestroAutoRanks ranks up, else smpi).
  std::string engine = "auto";
  // "nccl": {"version", "channels", "protocol", "buffsize", "compute_capability"} for nccl_ring
  // (nccl_settings.h); absent = NCCL's defaults (effective_nccl()).
  std::optional<NcclSettings> nccl;
  // What NCCL's topology search would find on the platform: set per variant by the analysis
  // (variant_plan.h) for compact topologies, read by the launcher to pick nccl_ring's protocol.
  std::optional<NcclTopologyFacts> nccl_facts;

  NcclSettings effective_nccl() const { return nccl.value_or(NcclSettings{}); }

  // Whether the platform must be generated from the topology with this model (not taken as is).
  bool reshapes_platform() const {
    return network == "NCCL" || link_bandwidth_scale != 1 || link_latency_scale != 1 || nic_efficiency != 1 || process_stack.has_value() || nic_half_duplex || !background.empty() ||
           nic_bandwidth_Bps.has_value() || nic_latency_s.has_value();
  }
  // Under the NCCL network model NCCL's transports shape the routes: staging without GPUDirect RDMA,
  // and PXN on a rail fabric.
  PlatformModel platform_model() const {
    return {process_stack, nic_half_duplex, background, network == "NCCL", network == "NCCL" && effective_nccl().uses_pxn()};
  }
  // TOPOLOGY with this model's changes to its links (nic_bandwidth, nic_latency, nic_efficiency,
  // link_bandwidth_scale, link_latency_scale).
  Topology shape(Topology topology) const;
  // NCCL's GPU generation from TOPOLOGY's "gpu_model" when every node names one generation and neither
  // the scenario, a model file nor a trace's header has named one (nccl.compute_capability).
  void adopt_topology_gpus(const Topology& topology);

  // The engine a case of RANKS ranks running ALGORITHM uses ("smpi", "s4u" or "maestro"). WAKES_PER_SLICE:
  // the rank sleeps for simulated time at every message (nccl_ring's handshake), which SMPI's sleeps
  // make slow (over 10 minutes for one 32-rank fixture, 18 s on the maestro engine): auto takes maestro.
  std::string engine_for(int ranks, const AlgorithmRow& algorithm, bool wakes_per_slice = false) const;

  // The model NCCL's algorithms run under beside this one: the model made for NCCL (network NCCL, no
  // cross-traffic, no SMPI factors) with every key that was stated; this model itself when it is
  // NCCL's already or names its network (docs/scenario-format.md, "Model settings").
  ModelSettings for_nccl_algorithms() const;

  std::vector<std::string> cfg_arguments() const;  // "--cfg=network/model:SMPI", ...
  nlohmann::json to_json() const;
};

// Reads a "model" object over BASE: keys present override, absent keys keep BASE's value, and raw
// "simgrid" settings are merged key by key. Throws InputError naming the file and path.
// The model a scenario starts from before its "model" key: the model made for NCCL (network NCCL, no
// cross-traffic, no SMPI factors) when every algorithm is NCCL's, else SimGrid's SMPI defaults.
ModelSettings default_model_for(const std::vector<std::string>& algorithms);

ModelSettings read_model(const nlohmann::json& value, const std::string& file, const std::string& path,
                         ModelSettings base);

// A model file given with --model: a JSON object with the same keys as a scenario's "model".
ModelSettings load_model_file(const std::filesystem::path& file, ModelSettings base);

}  // namespace ringsim
