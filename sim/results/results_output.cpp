#include "results_output.h"

#include "../common/input_error.h"
#include "results_table.h"

#include <fmt/format.h>

namespace ringsim {

int print_results(const Scenario& scenario, const ClusterLayout& layout, const std::string& header,
                  const std::vector<CaseResult>& results) {
  if (!scenario.question.empty()) fmt::print("# Question: {}\n", scenario.question);
  fmt::print("# {}\n\n", header);
  for (const auto& result : results) {
    fmt::print("{}\n", case_table(result, scenario, layout));
    // SMPI, the engine of every golden, goes unsaid; the S4U engine is named under its table.
    if (result.spec.engine != "smpi") fmt::print("(engine: {})\n\n", result.spec.engine);
  }
  fmt::print("{}", comparison_table(results));

  long long wrong = 0;
  for (const auto& result : results)
    for (const auto& size : result.sizes) wrong += size.wrong.value_or(0);
  if (wrong > 0) {
    fmt::print(stderr, "ringsim: {} wrong elements: an algorithm produced an incorrect sum\n", wrong);
    return 1;
  }
  return 0;
}

void check_output_file(const std::string& option, const std::string& file) {
  auto dir = std::filesystem::path(file).parent_path();
  std::error_code ignored;
  if (!dir.empty() && !std::filesystem::is_directory(dir, ignored)) {
    if (std::filesystem::exists(dir, ignored))
      throw InputError(fmt::format("{} {}: {} is not a directory", option, file, dir.string()));
    throw InputError(fmt::format("{} {}: directory {} does not exist", option, file, dir.string()));
  }
}

}  // namespace ringsim
