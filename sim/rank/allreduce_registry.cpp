// The one table from algorithm name to code, as SMPI's colls registers its allreduce variants.
#include "algorithm_catalog.h"
#include "allreduce.h"

#include <utility>

namespace ringsim {
namespace {

constexpr std::pair<std::string_view, AllreduceFn> kAllreduceTable[] = {
    {"ring", &ring_allreduce},
};

static_assert(std::size(kAllreduceTable) == kAlgorithmCatalog.size(),
              "every algorithm in algorithm_catalog.h needs an entry here, and no more");

}  // namespace

AllreduceFn find_allreduce(std::string_view name) {
  for (const auto& [known, fn] : kAllreduceTable)
    if (known == name) return fn;
  return nullptr;
}

}  // namespace ringsim
