#include "sweep_slurm.h"

#include "../cases/process_pool.h"
#include "../cases/program_paths.h"
#include "../common/atomic_file.h"
#include "../common/json_input.h"

#include <fmt/format.h>

namespace ringsim {
namespace {

// POSIX shell quoting: paths may hold spaces.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string array_indices(const std::vector<ShardId>& pending) {
  std::vector<std::size_t> indices;
  for (const ShardId& shard : pending) indices.push_back(shard.index);
  if (!indices.empty() && indices.back() - indices.front() + 1 == indices.size())
    return fmt::format("{}-{}", indices.front(), indices.back());
  return fmt::format("{}", fmt::join(indices, ","));
}

}  // namespace

int submit_slurm_array(const SlurmSubmission& submission) {
  if (submission.pending.empty()) {
    fmt::print("every shard of {} is done: nothing to submit\n", submission.out.string());
    return 0;
  }
  const auto dir = submission.out / "slurm";
  std::filesystem::create_directories(dir);
  const std::string ringsim = (program_directory() / "ringsim").string();
  // Each task runs one shard on the cores Slurm gave it; a task whose shard is done exits at once.
  const std::string script = fmt::format(
      "#!/bin/sh\n"
      "#SBATCH --job-name=ringsim-sweep\n"
      "#SBATCH --output={}/shard-%a.log\n"
      "exec {} sweep run {} --out {} --shard \"$SLURM_ARRAY_TASK_ID/{}\" --jobs \"${{SLURM_CPUS_PER_TASK:-1}}\" --quiet\n",
      dir.string(), quoted(ringsim), quoted(submission.sweep.string()), quoted(submission.out.string()), submission.shards);
  const auto script_file = dir / "sweep.sbatch";
  write_file_atomically(script_file, script);
  std::vector<std::string> argv = {"sbatch", "--parsable", fmt::format("--array={}", array_indices(submission.pending))};
  argv.insert(argv.end(), submission.sbatch.begin(), submission.sbatch.end());
  argv.push_back(script_file.string());
  const CapturedOutput sbatch = capture_output(argv);
  if (sbatch.exit_status != 0) {
    fmt::print(stderr, "ringsim: {} failed (status {}):\n{}", fmt::join(argv, " "), sbatch.exit_status, sbatch.output);
    return 1;
  }
  std::string job = sbatch.output.substr(0, sbatch.output.find_first_of(";\n"));
  write_file_atomically(dir / "job-id", job + "\n");
  fmt::print("submitted job array {} ({} of {} shards): {}\n", job, submission.pending.size(), submission.shards,
             fmt::join(argv, " "));
  return 0;
}

void print_slurm_status(const std::filesystem::path& out) {
  const auto job_file = out / "slurm" / "job-id";
  if (!std::filesystem::exists(job_file)) return;
  std::string job = read_input_file(job_file);
  job = job.substr(0, job.find('\n'));
  fmt::print("slurm job array {}\n", job);
  if (find_on_path("squeue")) {
    const CapturedOutput queue = capture_output({"squeue", "-h", "-r", "-j", job, "-o", "%i %T %M %R"});
    fmt::print("squeue: {}\n", queue.output.empty() ? "no task queued or running" : "");
    if (!queue.output.empty()) fmt::print("{}", queue.output);
  }
  if (find_on_path("sacct")) {
    const CapturedOutput accounting = capture_output({"sacct", "-n", "-X", "-P", "-j", job, "-o", "JobID,State,ExitCode"});
    if (accounting.exit_status == 0 && !accounting.output.empty()) fmt::print("sacct:\n{}", accounting.output);
  }
}

}  // namespace ringsim
