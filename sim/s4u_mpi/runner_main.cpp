// ringsim-rank-s4u: the rank program (sim/rank/, built against this engine's mpi.h) with every rank
// an S4U actor on its hostfile host, in one process, instead of smpirun.
//   ringsim-rank-s4u [--cfg=KEY:VALUE ...] [--log=...] PLATFORM HOSTFILE RANK_OPTIONS...
#include "rank_hosts.h"
#include "rank_world.h"
#include "send_settings.h"

#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

#include <cstdio>
#include <string>
#include <vector>

int ringsim_rank_main(int argc, char** argv);  // rank_main.cpp, compiled with -Dmain=ringsim_rank_main

int main(int argc, char** argv) {
  using namespace ringsim::s4u_engine;
  simgrid::s4u::Engine engine(&argc, argv);  // consumes --cfg and --log
  if (argc < 3) {
    std::fprintf(stderr, "usage: ringsim-rank-s4u [--cfg=KEY:VALUE ...] PLATFORM HOSTFILE RANK_OPTIONS...\n");
    return 2;
  }
  try {
    engine.load_platform(argv[1]);
    std::vector<simgrid::s4u::Host*> host_of_rank = rank_hosts(engine, argv[2]);
    set_detached_send_threshold(
        static_cast<std::size_t>(simgrid::config::get_value<int>("smpi/send-is-detached-thresh")));

    RankWorld world(std::move(host_of_rank));
    world.set_wtime_sleep(simgrid::config::get_value<double>("smpi/wtime"));
    set_world(&world);
    // Every rank sees the rank program's name followed by its options, as under smpirun.
    std::vector<std::string> rank_arguments{"ringsim-rank"};
    for (int i = 3; i < argc; ++i) rank_arguments.emplace_back(argv[i]);
    for (int rank = 0; rank < world.size(); ++rank) {
      auto actor = simgrid::s4u::Actor::create("rank" + std::to_string(rank), world.host(rank), [rank_arguments]() {
        std::vector<std::string> owned = rank_arguments;
        std::vector<char*> pointers;
        for (std::string& argument : owned) pointers.push_back(argument.data());
        pointers.push_back(nullptr);
        ringsim_rank_main(static_cast<int>(owned.size()), pointers.data());
      });
      world.bind_actor(actor->get_pid(), rank);
    }
    engine.run();
    set_world(nullptr);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "ringsim-rank-s4u: %s\n", error.what());
    return 2;
  }
  return 0;
}
