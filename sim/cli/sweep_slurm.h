// `ringsim sweep run --slurm`: the shards as a Slurm job array, one task per shard, each task running
// `ringsim sweep run SWEEP --out DIR --shard I/K`; and what squeue/sacct say about it for `status`.
#pragma once

#include "../sweep/sweep_directory.h"

#include <filesystem>
#include <string>
#include <vector>

namespace ringsim {

struct SlurmSubmission {
  std::filesystem::path sweep;  // absolute: tasks start in Slurm's working directory
  std::filesystem::path out;    // absolute
  std::size_t shards = 0;
  std::vector<ShardId> pending;     // the tasks to submit (shards not done)
  std::vector<std::string> sbatch;  // user's extra sbatch arguments (after --)
};

// Writes OUT/slurm/sweep.sbatch, submits it with `sbatch --parsable --array=...`, records the job
// id in OUT/slurm/job-id and prints it. Returns 0, or 1 when sbatch fails (its output printed).
int submit_slurm_array(const SlurmSubmission& submission);

// For `sweep status`: the recorded job's tasks as squeue and sacct see them, when they are installed.
void print_slurm_status(const std::filesystem::path& out);

}  // namespace ringsim
