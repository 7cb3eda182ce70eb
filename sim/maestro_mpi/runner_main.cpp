// ringsim-rank-maestro: the rank program (sim/rank/, built against the S4U engine's mpi.h) with every
// rank a fiber run from SimGrid's maestro, in one process, instead of smpirun (docs/engines.md).
//   ringsim-rank-maestro [--cfg=KEY:VALUE ...] [--log=...] PLATFORM HOSTFILE RANK_OPTIONS...
// RINGSIM_MAESTRO_STACK_REPORT=FILE appends "deepest-stack BYTES of BYTES" to FILE at the end.
#include "maestro_world.h"
#include "rank_fibers.h"
#include "../s4u_mpi/rank_hosts.h"
#include "../s4u_mpi/send_settings.h"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Activity.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <xbt/config.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

int ringsim_rank_main(int argc, char** argv);  // rank_main.cpp, compiled with -Dmain=ringsim_rank_main

namespace {

// Each rank's stack: ten times the deepest a rank went in the runs measured (12 KiB: every algorithm
// at N = 1..17 and 32 ranks, the ring at 1024 and 4096; RINGSIM_MAESTRO_STACK_REPORT). Only the pages
// a rank touches become memory.
constexpr std::size_t kStackBytes = 128 * 1024;

void report_stack(const ringsim::maestro_engine::RankFibers& fibers) {
  const char* file = std::getenv("RINGSIM_MAESTRO_STACK_REPORT");
  if (file == nullptr || *file == '\0') return;
  std::ofstream(file, std::ios::app) << "deepest-stack " << fibers.deepest_stack() << " of " << fibers.stack_bytes()
                                     << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ringsim::maestro_engine;
  simgrid::s4u::Engine engine(&argc, argv);  // consumes --cfg and --log
  if (argc < 3) {
    std::fprintf(stderr, "usage: ringsim-rank-maestro [--cfg=KEY:VALUE ...] PLATFORM HOSTFILE RANK_OPTIONS...\n");
    return 2;
  }
  try {
    engine.load_platform(argv[1]);
    std::vector<simgrid::s4u::Host*> host_of_rank = ringsim::s4u_engine::rank_hosts(engine, argv[2]);
    ringsim::s4u_engine::set_detached_send_threshold(
        static_cast<std::size_t>(simgrid::config::get_value<int>("smpi/send-is-detached-thresh")));

    RankFibers fibers(kStackBytes);
    MaestroWorld world(std::move(host_of_rank), simgrid::config::get_value<double>("smpi/wtime"), fibers);
    set_world(&world);
    simgrid::s4u::Activity::on_completion_cb([&world](const simgrid::s4u::Activity& activity) { world.on_completion(activity); });
    // Every rank sees the rank program's name followed by its options, as under smpirun.
    std::vector<std::string> rank_arguments{"ringsim-rank"};
    for (int i = 3; i < argc; ++i) rank_arguments.emplace_back(argv[i]);
    for (int rank = 0; rank < world.size(); ++rank)
      fibers.spawn(rank, [&rank_arguments, rank]() {
        std::vector<std::string> owned = rank_arguments;
        std::vector<char*> pointers;
        for (std::string& argument : owned) pointers.push_back(argument.data());
        pointers.push_back(nullptr);
        try {
          ringsim_rank_main(static_cast<int>(owned.size()), pointers.data());
        } catch (const std::exception& error) {
          // An exception cannot leave a fiber: it ends the whole simulation, as a failing rank does.
          std::fprintf(stderr, "ringsim-rank-maestro: rank %d: %s\n", rank, error.what());
          std::fflush(stdout);
          std::_Exit(2);
        }
      });
    simgrid::kernel::timer::Timer::set(0.0, [&fibers] { fibers.run_ready(); });
    engine.run();
    report_stack(fibers);
    if (!world.all_finished()) {
      std::fprintf(stderr, "ringsim-rank-maestro: %d of %d ranks wait for messages that are never sent (deadlock)\n",
                   fibers.unfinished(), world.size());
      std::fflush(stdout);
      std::_Exit(3);  // the waiting fibers' stacks cannot be unwound
    }
    set_world(nullptr);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "ringsim-rank-maestro: %s\n", error.what());
    return 2;
  }
  return 0;
}
