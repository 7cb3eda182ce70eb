// The alpha-beta-gamma cost model's parameters (Thakur, Rabenseifner and Gropp 2005): a message of n
// bytes between two ranks costs alpha + n*beta, adding n bytes of floats costs n*gamma. Results carry
// them (results/case_results.h); analysis/algorithm_costs.h derives them and evaluates the closed forms.
#pragma once

namespace ringsim {

struct CostParameters {
  double alpha_s = 0;
  double beta_s_per_byte = 0;
  double gamma_s_per_byte = 0;

  bool operator==(const CostParameters&) const = default;
};

}  // namespace ringsim
