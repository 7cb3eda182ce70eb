#include "shared_buffers.h"

#include "mpi.h"

#include <algorithm>
#include <new>
#include <sys/mman.h>
#include <vector>

namespace ringsim::s4u_engine {
namespace {

struct Region {
  char* start;
  std::size_t bytes;
  int users;
};

// One region serves every rank's request of up to its size; a larger request maps another.
// Engine state, touched by one actor at a time.
std::vector<Region>& regions() {
  static std::vector<Region> all;
  return all;
}

}  // namespace

void* allocate_shared(std::size_t bytes) {
  bytes = std::max<std::size_t>(bytes, 1);
  for (Region& region : regions())
    if (region.bytes >= bytes) {
      ++region.users;
      return region.start;
    }
  // Never written: NORESERVE keeps it out of the commit charge and out of the resident set.
  void* start = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (start == MAP_FAILED) throw std::bad_alloc();
  regions().push_back({static_cast<char*>(start), bytes, 1});
  return start;
}

void free_shared(void* data) {
  auto& all = regions();
  auto it = std::find_if(all.begin(), all.end(), [&](const Region& region) { return region.start == data; });
  if (it == all.end() || --it->users > 0) return;
  munmap(it->start, it->bytes);
  all.erase(it);
}

bool is_shared(const void* data) {
  const char* p = static_cast<const char*>(data);
  return std::any_of(regions().begin(), regions().end(),
                     [&](const Region& region) { return p >= region.start && p < region.start + region.bytes; });
}

}  // namespace ringsim::s4u_engine

void* ringsim_s4u_shared_malloc(std::size_t bytes) { return ringsim::s4u_engine::allocate_shared(bytes); }
void ringsim_s4u_shared_free(void* data) { ringsim::s4u_engine::free_shared(data); }
