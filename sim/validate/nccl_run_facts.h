// What NCCL's own log lines (NCCL_DEBUG=INFO) say about a measured run: its channels and their rings,
// the transport, NIC and GPUDirect RDMA of every hop between nodes, the trees, and the settings the
// environment forced (NCCL_ALGO, NCCL_PROTO, NCCL_MIN_NCHANNELS, ...). Read once at the reader's edge
// (readers/nccl_info_lines.cpp); validate and calibrate take them as the simulated run's settings.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

// One side of a hop between nodes: "Ring 00 : 3 -> 4 [send] via NET/IB/2/GDRDMA".
struct NcclNetworkHop {
  int channel = 0;
  int from = 0;
  int to = 0;
  bool send = true;        // [send] on the sending rank, [receive] on the receiving one
  std::string transport;   // "IB", "Socket", "IBext", ...
  int device = 0;          // the NIC's index in NCCL's list of the node's NICs
  bool gdr = false;        // "/GDRDMA": GPUDirect RDMA, the NIC reads and writes GPU memory
  int line = 0;
};

struct NcclRunFacts {
  std::optional<int> channels;            // "Channel 00/02 : 0 1" -> 2 (2.4: the channels listed)
  std::map<int, std::vector<int>> rings;  // channel -> its ring, as rank 0 lists it
  std::vector<NcclNetworkHop> network_hops;
  std::vector<std::string> trees;         // "Trees [0] 1/-1/-1->0->-1 [1] ...", as each rank prints it
  std::string network;                    // "IB", "Socket": the network NCCL used (empty: not printed)
  std::vector<std::string> nics;          // "mlx5_0:1", ... from "NET/IB : Using [0]mlx5_0:1/IB ..."
  std::map<std::string, std::string> environment;  // "NCCL_ALGO" -> "Ring" ("set by environment to")
  std::map<std::string, int> environment_lines;    // where each was read
  // The settings that change what ringsim simulates, as NCCL spells them ("RING" -> "Ring"): a
  // single algorithm or protocol (a list such as "LL,Simple" or "^LL128" is not one), a channel count.
  std::optional<std::string> algorithm;  // NCCL_ALGO: "Ring", "Tree", "CollnetDirect", ...
  std::optional<std::string> protocol;   // NCCL_PROTO: "LL", "LL128", "Simple"
  std::optional<int> min_channels;       // NCCL_MIN_NCHANNELS
  std::optional<int> max_channels;       // NCCL_MAX_NCHANNELS
  // The latency the network plugin reports to NCCL, us, where it logs it ("NET/OFI Internode latency set
  // at 75.0 us", aws-ofi-nccl), and the line.
  std::optional<double> net_latency_us;
  int net_latency_line = 0;
  // The libfabric provider NCCL's OFI plugin logs ("NET/OFI Selected Provider is cxi, fabric is cxi"):
  // "efa" on AWS, "cxi" on HPE Slingshot; empty where the log names none. The plugin's name
  // ("AWS Libfabric") is the same on both.
  std::string ofi_provider;
  int ofi_provider_line = 0;

  bool empty() const {
    return !channels && rings.empty() && network_hops.empty() && trees.empty() && network.empty() && nics.empty() &&
           environment.empty() && !net_latency_us;
  }
  // The highest NIC index any hop used, when hops name one.
  std::optional<int> highest_device() const;
  bool any_gdr() const;
  // The OFI plugin runs over Slingshot's cxi provider: named so, or NICs named "cxi0", ...
  bool ofi_over_cxi() const;
  // "2 channels, NET/IB NICs 0-1 (GDRDMA), NCCL_ALGO=Ring": one line for the reader's summary.
  std::string describe() const;
};

}  // namespace ringsim
