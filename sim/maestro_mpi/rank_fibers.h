// Every rank of the maestro engine is a fiber of ours (Boost.Context) on its own guarded stack, run
// from SimGrid's maestro: a fiber runs until it must wait (for a message, a sleep, the other ranks),
// suspends back to the maestro, and is made ready again by a completion callback or a timer. One
// system thread, one fiber at a time: no locks.
#pragma once

#include <boost/context/fiber.hpp>

#include <cstddef>
#include <deque>
#include <functional>
#include <vector>

namespace ringsim::maestro_engine {

// Stacks of STACK_BYTES (a multiple of the page size) below a guard page that faults on overflow.
// The pages a stack touched are counted when it is freed, so a run reports its deepest stack.
class RankFibers {
 public:
  explicit RankFibers(std::size_t stack_bytes);
  RankFibers(const RankFibers&) = delete;
  RankFibers& operator=(const RankFibers&) = delete;

  // Creates the fiber of RANK (ranks 0..n-1, in order) running BODY, ready to run.
  void spawn(int rank, std::function<void()> body);
  // In a fiber: returns to the maestro until wake() makes this fiber ready and the maestro runs it.
  void suspend();
  // Makes RANK ready (once, however often it is woken before it runs).
  void wake(int rank);
  // In the maestro: runs ready fibers, oldest first, until none is ready.
  void run_ready();

  int current() const { return current_; }  // the running fiber's rank, -1 in the maestro
  int unfinished() const { return unfinished_; }
  std::size_t stack_bytes() const { return stack_bytes_; }
  // The most stack any finished fiber touched, in bytes (page granularity).
  std::size_t deepest_stack() const { return deepest_stack_; }

 private:
  struct Slot {
    boost::context::fiber fiber;
    bool ready = false;
  };
  class GuardedStack;

  std::size_t stack_bytes_;
  std::size_t deepest_stack_ = 0;
  std::vector<Slot> slots_;
  std::deque<int> ready_;
  boost::context::fiber maestro_;  // where the running fiber returns to
  int current_ = -1;
  int unfinished_ = 0;
  bool running_ = false;
};

}  // namespace ringsim::maestro_engine
