// Summaries of repeated measurements, shared by the results (times over iterations) and the
// validator (errors and residuals over sizes).
#pragma once

#include <vector>

namespace ringsim {

// The middle value of VALUES, or the mean of the two middle ones for an even count; 0 when empty.
double median(std::vector<double> values);

}  // namespace ringsim
