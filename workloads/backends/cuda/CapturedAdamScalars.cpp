#include "workloads/backends/cuda/CapturedAdamScalars.hpp"

#include <cstring>
#include <stdexcept>

namespace trainscope::workloads::cuda {
namespace {

bool same(const AdamSettings& a, const AdamSettings& b) {
    return a.learning_rate == b.learning_rate && a.beta1 == b.beta1 && a.beta2 == b.beta2 &&
           a.epsilon == b.epsilon && a.step == b.step;
}

template <typename T>
void write_slot(const AdamSettings& settings, double grad_factor, std::byte* out) {
    const math::AdamConstants<T> constants = math::adam_constants<T>(settings, grad_factor);
    std::memcpy(out, &constants, sizeof(constants));
}

}  // namespace

std::size_t CapturedAdamScalars::slot_offset(bool f64, const AdamSettings& settings,
                                             double grad_factor) {
    for (std::size_t i = 0; i < slots_.size(); ++i) {
        const Slot& slot = slots_[i];
        if (slot.f64 == f64 && slot.grad_factor == grad_factor && same(slot.settings, settings)) {
            return i * kSlotBytes;
        }
    }
    if (slots_.size() == kSlots) {
        throw std::logic_error("captured step: more than " + std::to_string(kSlots) +
                               " distinct Adam settings in one step");
    }
    slots_.push_back({f64, settings, grad_factor});
    return (slots_.size() - 1) * kSlotBytes;
}

void CapturedAdamScalars::advance() {
    for (Slot& slot : slots_) {
        ++slot.settings.step;
    }
}

void CapturedAdamScalars::write(std::byte* block) const {
    for (std::size_t i = 0; i < slots_.size(); ++i) {
        const Slot& slot = slots_[i];
        if (slot.f64) {
            write_slot<double>(slot.settings, slot.grad_factor, block + i * kSlotBytes);
        } else {
            write_slot<float>(slot.settings, slot.grad_factor, block + i * kSlotBytes);
        }
    }
}

}  // namespace trainscope::workloads::cuda
