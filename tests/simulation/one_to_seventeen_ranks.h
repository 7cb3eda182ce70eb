// The placements the result checks run: one per rank count N = 1..17 on up to five 4-GPU nodes, block
// and cyclic, uneven nodes included.
#pragma once

namespace ringsim::testing {

inline constexpr const char* kFiveNodeTopology = R"({"racks": [{"nodes": [{"name": "n", "count": 5, "gpus": 4}]}]})";

inline constexpr const char* kOneToSeventeenRanks = R"(["1", "2", "1-1-1", "2-2", {"ranks": "2-2-1", "order": "cyclic"}, "3-3",
    "4-3", {"ranks": "4-3-1", "order": "cyclic"}, "3-3-3", "4-4-2", "4-4-3", "4-4-4",
    {"ranks": "4-4-4-1", "order": "cyclic"}, "4-4-4-2", "4-4-4-3", "4-4-4-4", {"ranks": "4-4-4-4-1", "order": "cyclic"}])";

}  // namespace ringsim::testing
