// Memory that a CPU call of a compiled operator keeps for its next call. Scatter strips narrow
// their indices into a block of tens of MiB: allocated and faulted in afresh, it cost more than
// it saved (perf/results/2026-12-05-narrowed-strip-indices.md). One block, taken whole by one
// call at a time (a concurrent call allocates its own), freed with the plan; a copy of a plan
// keeps nothing.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <new>

namespace gs::plan {

class KeptScratch {
 public:
  struct Block {
    std::unique_ptr<uint8_t[]> data;
    uint64_t bytes = 0;
  };

  KeptScratch() = default;
  KeptScratch(const KeptScratch&) {}
  KeptScratch& operator=(const KeptScratch&) { return *this; }
  ~KeptScratch() { delete kept_.load(); }

  // A block of at least `bytes`: the kept one where it is large enough, else a new one; nullptr
  // when none can be allocated.
  std::unique_ptr<Block> Take(uint64_t bytes) const {
    std::unique_ptr<Block> block(kept_.exchange(nullptr));
    if (block != nullptr && block->bytes >= bytes) return block;
    block.reset(new (std::nothrow) Block);
    if (block == nullptr) return nullptr;
    block->data.reset(new (std::nothrow) uint8_t[bytes]);
    if (block->data == nullptr) return nullptr;
    block->bytes = bytes;
    return block;
  }

  // Keeps `block` for the next call, unless another call kept one first.
  void Keep(std::unique_ptr<Block> block) const {
    Block* expected = nullptr;
    if (block != nullptr && kept_.compare_exchange_strong(expected, block.get())) block.release();
  }

  // For tests: whether a block is kept, and freeing it.
  bool Holds() const { return kept_.load() != nullptr; }
  void Release() const { delete kept_.exchange(nullptr); }

 private:
  mutable std::atomic<Block*> kept_{nullptr};
};

}  // namespace gs::plan
