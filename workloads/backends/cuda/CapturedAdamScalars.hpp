#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "workloads/backend/OpGeometry.hpp"
#include "workloads/backends/cuda/kernels/OptimizerMath.hpp"

namespace trainscope::workloads::cuda {

// Adam's per-step constants for a step captured into a CUDA graph. A graph freezes kernel
// arguments, but bias correction changes every step, so captured Adam kernels read their
// AdamConstants from a device block instead; the host rewrites the block before every
// launch. Pure host logic (no CUDA calls): which slots the captured step uses and their
// bytes for the next launch, computed by the same adam_constants<T>() the eager kernels
// get as arguments, so a replayed step uses bit for bit the constants an eager step with
// the same step count would.
//
// Each distinct (element type, settings, grad_factor) met during capture gets one slot
// (all of a step's parameters share one). Replay k after a capture at Adam step s runs
// step s + k: a replay always follows a launch that applied its updates, because an
// fp16 step skipped on overflow changes the loss scale and the engine recaptures (which
// starts new slots). grad_factor (1 / loss scale) stays what it was for the same reason.
class CapturedAdamScalars {
  public:
    static constexpr std::size_t kSlotBytes = 64;
    static constexpr std::size_t kSlots = 16;
    static constexpr std::size_t kBlockBytes = kSlotBytes * kSlots;
    static_assert(sizeof(math::AdamConstants<double>) <= kSlotBytes);

    // The byte offset of the slot for these arguments, added if new (capture only).
    // Throws std::logic_error when more than kSlots distinct ones are met.
    std::size_t slot_offset(bool f64, const AdamSettings& settings, double grad_factor);
    // Moves every slot to the next Adam step (before a replay).
    void advance();
    // Writes every slot's constants into block (kBlockBytes, e.g. the pinned staging).
    void write(std::byte* block) const;
    std::size_t slots() const { return slots_.size(); }

  private:
    struct Slot {
        bool f64 = false;
        AdamSettings settings;
        double grad_factor = 1.0;
    };
    std::vector<Slot> slots_;
};

}  // namespace trainscope::workloads::cuda
