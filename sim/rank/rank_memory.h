// The rank's buffers. Under SMPI, buffers whose values are not checked are SMPI-shared: every rank
// maps the same pages, so a 64 MiB x 512-rank run costs almost no memory (smpi-facts.md).
#pragma once

#include <cstddef>
#include <memory>

namespace ringsim {

bool running_under_smpi();

// Message slots of NCCL's algorithms: every float is written (received, or staged for a send) before
// it is read, so they are not zeroed. Zeroing them took 70% of a 16-rank Tree/LL128 validate of
// 8 MiB (16 channels x 48 slots of 576 kB per rank and call), most of it faulting in pages no call touched.
using SlotMemory = std::unique_ptr<float[]>;
inline SlotMemory slot_memory(std::size_t floats) { return std::make_unique_for_overwrite<float[]>(floats); }

class RankBuffers {
 public:
  // hold_values=false is honoured only under SMPI; under a real MPI buffers always hold values.
  RankBuffers(std::size_t count, bool hold_values);
  ~RankBuffers();
  RankBuffers(const RankBuffers&) = delete;
  RankBuffers& operator=(const RankBuffers&) = delete;

  float* input() const { return input_; }
  float* output() const { return output_; }
  float* scratch() const { return scratch_; }
  bool hold_values() const { return hold_values_; }

 private:
  bool hold_values_;
  float* input_ = nullptr;
  float* output_ = nullptr;
  float* scratch_ = nullptr;
};

}  // namespace ringsim
