#include "rank_fibers.h"

#include <boost/context/stack_context.hpp>

#include <algorithm>
#include <memory>
#include <new>
#include <stdexcept>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace ringsim::maestro_engine {

// Boost.Context's stack allocator concept: a mapping of guard page + stack, reserved lazily (only
// the pages a rank touches become memory), measured and unmapped when its fiber ends.
class RankFibers::GuardedStack {
 public:
  GuardedStack(std::size_t bytes, std::size_t* deepest) : bytes_(bytes), deepest_(deepest) {}

  boost::context::stack_context allocate() {
    const std::size_t page = page_size();
    void* base = mmap(nullptr, bytes_ + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                      -1, 0);
    if (base == MAP_FAILED) throw std::bad_alloc();
    if (mprotect(base, page, PROT_NONE) != 0) {
      munmap(base, bytes_ + page);
      throw std::bad_alloc();
    }
    boost::context::stack_context context;
    context.size = bytes_;
    context.sp = static_cast<char*>(base) + page + bytes_;
    return context;
  }

  void deallocate(boost::context::stack_context& context) noexcept {
    const std::size_t page = page_size();
    char* stack = static_cast<char*>(context.sp) - context.size;
    *deepest_ = std::max(*deepest_, touched_bytes(stack, context.size, page));
    munmap(stack - page, context.size + page);
  }

 private:
  static std::size_t page_size() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

  // A stack grows down: its depth is the distance from its top to the lowest page in memory.
  static std::size_t touched_bytes(char* stack, std::size_t bytes, std::size_t page) {
    std::vector<unsigned char> resident((bytes + page - 1) / page);
    if (mincore(stack, bytes, resident.data()) != 0) return 0;
    for (std::size_t i = 0; i < resident.size(); ++i)
      if ((resident[i] & 1) != 0) return bytes - i * page;
    return 0;
  }

  std::size_t bytes_;
  std::size_t* deepest_;
};

RankFibers::RankFibers(std::size_t stack_bytes) : stack_bytes_(stack_bytes) {}

void RankFibers::spawn(int rank, std::function<void()> body) {
  if (static_cast<std::size_t>(rank) != slots_.size()) throw std::logic_error("fibers are spawned in rank order");
  slots_.emplace_back();
  slots_.back().fiber = boost::context::fiber(
      std::allocator_arg, GuardedStack(stack_bytes_, &deepest_stack_),
      [this, body = std::move(body)](boost::context::fiber&& maestro) mutable {
        maestro_ = std::move(maestro);
        body();
        --unfinished_;
        return std::move(maestro_);
      });
  ++unfinished_;
  wake(rank);
}

void RankFibers::suspend() { maestro_ = std::move(maestro_).resume(); }

void RankFibers::wake(int rank) {
  Slot& slot = slots_[static_cast<std::size_t>(rank)];
  if (slot.ready) return;
  slot.ready = true;
  ready_.push_back(rank);
}

void RankFibers::run_ready() {
  if (running_) return;  // already draining further up the maestro's stack
  running_ = true;
  while (!ready_.empty()) {
    const int rank = ready_.front();
    ready_.pop_front();
    Slot& slot = slots_[static_cast<std::size_t>(rank)];
    slot.ready = false;
    current_ = rank;
    slot.fiber = std::move(slot.fiber).resume();
    current_ = -1;
  }
  running_ = false;
}

}  // namespace ringsim::maestro_engine
