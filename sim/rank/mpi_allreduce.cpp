// The MPI library's own MPI_Allreduce (under SMPI, the algorithm chosen by --cfg=smpi/allreduce:NAME,
// by default SMPI's selector), as a reference. Its messages bypass the counted wrappers, so its
// traffic is unknown; under SMPI its reductions cost no simulated time (only ours call
// smpi_execute_flops).
#include "allreduce.h"

namespace ringsim {

void mpi_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  const double start = MPI_Wtime();
  MPI_Allreduce(input, output, static_cast<int>(count), MPI_FLOAT, MPI_SUM, ctx.comm);
  ctx.log.record({StepPhase::library, 0, 0, -1, count * sizeof(float), start, MPI_Wtime()});
}

}  // namespace ringsim
