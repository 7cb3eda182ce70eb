// `ringsim validate --explain`'s output: the ranking of the candidate mechanisms (run_diagnosis.h) as a
// table, the sentences that name the one explaining the run and what would confirm it, the measured
// curve against the hardware's and the explaining candidate's, and the same as JSON.
#pragma once

#include "../validate/run_diagnosis.h"

#include <nlohmann/json.hpp>

namespace ringsim {

void print_diagnosis(const Diagnosis& diagnosis, const ValidationOptions& options);

// {"ranking": [{"candidate", "score", ...}], "left_out": [...], "explained_by": NAME or null, ...}
nlohmann::json diagnosis_json(const Diagnosis& diagnosis);

}  // namespace ringsim
