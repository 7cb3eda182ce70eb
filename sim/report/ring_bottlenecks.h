// The ring of each case of a results JSON embedded in its topology, with the bottleneck named as
// `ringsim analyze` names it: the placement's ring in the topology's routes under the case's model
// (the results' model, or its variant's); for NCCL's algorithms, the resource that binds NCCL's choice. The topology is the one the results name, or --topology.
#pragma once

#include "../analysis/ring_analysis.h"
#include "../platform/cluster_layout.h"
#include "nccl_channels.h"
#include "placement_ranking.h"

#include <memory>
#include <string>
#include <vector>

namespace ringsim {

// One ring case's embedding under its variant's model.
struct RingCase {
  std::vector<std::string> hosts;  // host of each rank, in rank order
  RingEmbedding ring;
  Bottleneck bottleneck;
  std::string description;  // "NIC node0-nic (up): 2 ring edges at 10 Gbit/s"
  std::string mechanism;    // "NIC sharing"
};

class RingCases {
 public:
  // Throws InputError naming the file when the topology cannot be read or a model in the results
  // is not valid.
  RingCases(const std::string& topology_file, const ResultsDocument& results, const std::string& results_file);
  ~RingCases();

  // The row's case, computed once; null for rows not of the ring. Throws InputError when the row's
  // placement does not fit the topology.
  const RingCase* of(const ResultRow& row) const;
  // The row's NCCL case (NCCL's choice at the row's size, what binds it, its channels over the NICs),
  // computed once; null for rows not of NCCL's algorithms or on a platform without NCCL's view.
  const NcclChannelsCase* nccl_of(const ResultRow& row) const;
  const ClusterLayout& layout() const;
  const std::string& topology_file() const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

// A namer for rows of the results CASES were made from: the ring's bottleneck, NCCL's binding
// resource; "" for rows of neither.
BottleneckNamer ring_bottleneck_namer(const RingCases& cases);

}  // namespace ringsim
