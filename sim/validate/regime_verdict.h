// One sentence per regime of a validation saying what its error is: a per-call latency the simulation
// misses (or charges too much), a rate off by how much, or both, and whether calibration is the cure.
// A rate is judged only where the regime's time depends on it: at sizes where the latency dominates,
// the fitted bandwidth is noise, and a percentage of it would read as an error the run does not show.
#pragma once

#include "latency_bandwidth_split.h"

#include <string>

namespace ringsim {

// Whether the regime's measured time is mostly its latency even at its largest size: the bytes' term
// below the latency there.
bool latency_bound(const RegimeSplit& regime);

// "each call pays 2.6 ms the simulation does not; the rate is within 9%" (no case label, no advice).
std::string regime_verdict(const RegimeSplit& regime);

// Whether the regime's error is one calibration fits: a latency gap of over 10% of the measured
// latency (and 1 us), or a rate off by over 10% where the rate is measured.
bool regime_needs_calibration(const RegimeSplit& regime);

}  // namespace ringsim
