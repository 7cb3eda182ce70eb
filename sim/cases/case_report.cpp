#include "case_report.h"

#include "../analysis/algorithm_costs.h"
#include "../nccl/nccl_plan.h"
#include "../nccl/tuning/nccl_enqueue_rules.h"
#include "../nccl/tuning/nccl_launch.h"
#include "../nccl/tuning/nccl_nvls_costs.h"
#include "../nccl/nccl_rails.h"
#include "../common/atomic_file.h"
#include "../common/input_error.h"
#include "../rank/rank_nodes.h"
#include "../rank/rank_report.h"

#include <algorithm>
#include <deque>
#include <fmt/format.h>
#include <fstream>

namespace ringsim {
namespace {

// nccl_ring's (nccl_tree's, nccl's) channels, NCCL_BUFFSIZE, and protocol (and for nccl the algorithm)
// per size, as NCCL would choose them and launch them, and what the rank program takes from NCCL's
// view of the case: all read off the case's plan (nccl_plan.h).
std::vector<std::string> nccl_arguments(const Scenario& scenario, const NcclPlan& plan) {
  std::string channels, protocols, algorithms, software;
  bool spends_software = false;
  for (std::uint64_t bytes : scenario.sizes) {
    const NcclChoice choice = plan.choice_at(bytes);
    channels += (channels.empty() ? "" : ",") + std::to_string(plan.launch_channels_at(bytes));
    protocols += (protocols.empty() ? "" : ",") + std::string(protocol_name(choice.prediction.protocol));
    algorithms += (algorithms.empty() ? "" : ",") + std::string(nccl_algorithm_name(choice.algorithm));
    const double software_s = plan.software_cost_of(choice, bytes);
    software += fmt::format("{}{:g}", software.empty() ? "" : ",", software_s * 1e6);
    spends_software = spends_software || software_s > 0;
  }
  std::vector<std::string> arguments{"--nccl-channels", channels, "--nccl-buffsize", std::to_string(plan.settings.buffsize),
                                     "--nccl-protocols", protocols};
  // Under the model made for NCCL only: its channels poll with MPI_Testany, free there (model_settings.cpp).
  if (const auto& handshake = plan.handshake)
    arguments.insert(arguments.end(), {"--nccl-handshake", fmt::format("{:g},{:g}", handshake->intra_s * 1e6, handshake->net_s * 1e6)});
  if (const auto& hops = plan.ll128_hops)
    arguments.insert(arguments.end(), {"--nccl-ll128-hops", fmt::format("{:g},{:g}", hops->intra_s * 1e6, hops->net_s * 1e6)});
  if (const auto& rates = plan.block_rates)
    arguments.insert(arguments.end(), {"--nccl-block-rates", fmt::format("{:.6g},{:.6g}", rates->ll_Bps / 1e9, rates->ll128_Bps / 1e9)});
  if (const auto& hops = plan.tree_hops)
    arguments.insert(arguments.end(), {"--nccl-tree-hops", fmt::format("{:g},{:g}", hops->ll_s * 1e6, hops->ll128_s * 1e6)});
  if (const auto& nvls = plan.nvls)
    arguments.insert(arguments.end(), {"--nccl-nvls", fmt::format("{:g},{:g}", nvls->efficiency, nvls->latency_s * 1e6)});
  if (const auto& p2p = plan.p2p)
    arguments.insert(arguments.end(), {"--nccl-p2p", fmt::format("{},{},{},{:.6g}", p2p->channels, p2p->channels_per_peer, p2p->chunk_bytes,
                                                                 p2p->block_Bps / 1e9) + (p2p->flow_per_chunk ? ",chunks" : "")});
  if (plan.request == NcclRequest::choice) arguments.insert(arguments.end(), {"--nccl-algorithms", algorithms});
  if (spends_software) arguments.insert(arguments.end(), {"--nccl-software", software});
  if (plan.request != NcclRequest::ring)  // how the tree runs its phases and NVLS cuts its chunks depend on the release
    arguments.insert(arguments.end(), {"--nccl-enqueue", nccl_enqueue_argument(plan.rules)});
  // The NIC beside each rank's GPU, when any rank is not beside its node's first NIC: the channels'
  // rings then enter and leave nodes through different NICs (nccl_rails.h).
  std::vector<int> listed;
  for (int rail : plan.rails) listed.push_back(rail + 1);
  if (std::any_of(listed.begin(), listed.end(), [](int entry) { return entry != 1; }))
    arguments.insert(arguments.end(), {"--nccl-rails", node_list_text(listed)});
  return arguments;
}

}  // namespace

std::vector<std::string> rank_program_arguments(const Scenario& scenario, const SimulationCase& spec,
                                                const std::filesystem::path& report,
                                                const std::filesystem::path& events,
                                                const std::filesystem::path& progress) {
  std::string sizes;
  for (auto bytes : scenario.sizes) sizes += (sizes.empty() ? "" : ",") + std::to_string(bytes);
  std::vector<std::string> args{"--algorithm", spec.algorithm,
                                "--sizes",     sizes,
                                "--iterations", std::to_string(scenario.iterations),
                                "--warmup",    std::to_string(scenario.warmup),
                                "--nodes",     node_list_text(spec.ring.nodes),
                                "--out",       report.string(),
                                "--progress",  progress.string()};
  if (spec.collective != Collective::all_reduce)
    args.insert(args.end(), {"--collective", std::string(collective_name(spec.collective))});
  if (!events.empty()) args.insert(args.end(), {"--events", events.string()});
  if (!scenario.check) args.insert(args.end(), {"--check-limit", "0"});  // every size's buffers shared
  if (const auto plan = nccl_plan_of(spec, scenario.model))
    for (std::string& arg : nccl_arguments(scenario, *plan)) args.push_back(std::move(arg));
  return args;
}

std::filesystem::path write_hostfile(const std::filesystem::path& dir, const std::vector<std::string>& hosts) {
  std::string text;
  for (const auto& host : hosts) text += host + "\n";
  write_file_atomically(dir / "hostfile", text);
  return dir / "hostfile";
}

CaseResult read_case_report(const std::filesystem::path& report_file, const SimulationCase& spec,
                            const std::vector<std::uint64_t>& sizes) {
  std::ifstream in(report_file);
  if (!in) throw std::runtime_error(fmt::format("the rank program wrote no report ({})", report_file.string()));
  nlohmann::json report;
  try {
    report = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("{}: unreadable report: {}", report_file.string(), e.what()));
  }
  CaseResult result;
  result.spec = spec;
  try {
    const RankReport parsed = parse_rank_report(report, report_file.string());
    result.ranks = parsed.ranks;
    for (const RankSizeReport& reported : parsed.sizes) {
      SizeResult& size = result.sizes.emplace_back();
      size.bytes = reported.bytes;
      size.times_s = reported.times_s;
      size.wrong = reported.wrong;
      size.traffic = reported.traffic;
    }
  } catch (const InputError& e) {
    throw std::runtime_error(fmt::format("malformed report: {}", e.what()));
  }
  if (result.sizes.size() != sizes.size() || result.ranks != spec.placement.total_ranks())
    throw std::runtime_error(fmt::format("{}: report does not match the case (ranks {}, sizes {})",
                                         report_file.string(), result.ranks, result.sizes.size()));
  return result;
}

std::string log_tail(const std::filesystem::path& log, std::size_t lines) {
  std::ifstream in(log);
  std::deque<std::string> tail;
  for (std::string line; std::getline(in, line);) {
    tail.push_back(line);
    if (tail.size() > lines) tail.pop_front();
  }
  std::string text;
  for (const auto& line : tail) text += "  | " + line + "\n";
  return text;
}

}  // namespace ringsim
