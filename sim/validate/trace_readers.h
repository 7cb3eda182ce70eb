// The trace readers, one file each under readers/, registered by format name in trace_readers.cpp
// (as SMPI registers its collectives), and chosen by content when no format is named.
#pragma once

#include "measured_trace.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

struct TraceReader {
  std::string_view name;
  std::string_view description;
  // True when TEXT looks like this format (cheap, on the first lines or keys).
  bool (*detect)(std::string_view text);
  // Parses TEXT; throws InputError "FILE:LINE: what is wrong" for malformed input.
  MeasuredTrace (*read)(std::string_view text, const std::string& file);
  // True for a benchmark's sweep (one run per rank count, sizes printed in increasing order): sizes
  // that do not increase mean two runs in one file or a damaged one, and read_trace() rejects them.
  bool one_sweep = false;
};

const std::vector<TraceReader>& trace_readers();

// Reads FILE with the named FORMAT, or the first reader whose detect() accepts it. COLLECTIVE: the
// nccl-tests program to read from a log of several ("all_gather_perf"; default all_reduce_perf).
// Throws InputError naming the file when it is unreadable, of no known format, or malformed.
MeasuredTrace read_trace(const std::filesystem::path& file, const std::optional<std::string>& format,
                         const std::optional<std::string>& collective = std::nullopt);

// The nccl-tests programs whose runs FILE holds, in log order, each once ("all_reduce_perf", "all_gather_perf",
// ...; an unnamed run whose rows read as an all-reduce's is all_reduce_perf), when FILE reads as an nccl-tests
// log (FORMAT, else detected); empty for another format. Throws InputError when FILE cannot be read.
std::vector<std::string> suite_programs(const std::filesystem::path& file, const std::optional<std::string>& format);

// The collective an nccl-tests program ("all_gather_perf", "./build/alltoall_perf_mpi") runs; nullopt for
// one ringsim does not simulate (gather_perf, hypercube_perf).
std::optional<Collective> nccl_tests_collective(std::string_view program);

// The readers, defined in readers/*.cpp.
bool detect_ringsim_results(std::string_view text);
MeasuredTrace read_ringsim_results(std::string_view text, const std::string& file);
bool detect_nccl_tests(std::string_view text);
MeasuredTrace read_nccl_tests(std::string_view text, const std::string& file);
MeasuredTrace read_nccl_tests_collective(std::string_view text, const std::string& file, const std::string& collective);
std::vector<std::string> nccl_tests_programs(std::string_view text);
bool detect_osu(std::string_view text);
MeasuredTrace read_osu(std::string_view text, const std::string& file);
bool detect_imb(std::string_view text);
MeasuredTrace read_imb(std::string_view text, const std::string& file);
bool detect_horovod_timeline(std::string_view text);
MeasuredTrace read_horovod_timeline(std::string_view text, const std::string& file);

}  // namespace ringsim
