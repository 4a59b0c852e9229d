#include "workloads/distributed/NcclCommunicator.hpp"

#include <nccl.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "workloads/backends/cuda/CudaResources.hpp"
#include "workloads/distributed/MpiCommunicator.hpp"
#include "workloads/distributed/NcclError.hpp"

namespace trainscope::workloads {
namespace {

struct NcclCommDeleter {
    using pointer = ncclComm_t;
    void operator()(ncclComm_t comm) const noexcept {
        TS_NCCL_CHECK_NOEXCEPT(ncclCommDestroy(comm));
    }
};
using OwnedNcclComm = std::unique_ptr<std::remove_pointer_t<ncclComm_t>, NcclCommDeleter>;

ncclDataType_t nccl_type(DType dtype) {
    switch (dtype) {
        case DType::f64:
            return ncclFloat64;
        case DType::f32:
            return ncclFloat32;
        case DType::f16:
            return ncclFloat16;
        case DType::bf16:
            return ncclBfloat16;
        default:
            throw std::logic_error(std::string("NcclCommunicator: all-reduce of ") +
                                   dtype_name(dtype) + " gradients");
    }
}

// One all-reduce's events, kept from step to step: compute_ready on the compute stream
// (the bucket's gradients are written), start and end around the call on the
// communication stream (its timing).
struct Slot {
    cuda::CudaEvent compute_ready = cuda::make_event(false);
    cuda::CudaEvent start = cuda::make_event(true);
    cuda::CudaEvent end = cuda::make_event(true);
};

}  // namespace

struct NcclCommunicator::State {
    cuda::CudaStream stream = cuda::make_stream();
    cudaStream_t compute = nullptr;
    OwnedNcclComm comm;
    std::vector<Slot> slots;
    std::size_t used = 0;        // slots used since the last take_step_times
    bool backward_done = false;  // compute_done was recorded this step
    cuda::CudaEvent compute_done = cuda::make_event(true);
    std::int64_t bytes = 0;
};

NcclCommunicator::NcclCommunicator(std::unique_ptr<MpiCommunicator> world, void* compute_stream)
    : mpi_(std::move(world)), state_(std::make_unique<State>()) {
    MpiCommunicator& mpi = *mpi_;
    state_->compute = static_cast<cudaStream_t>(compute_stream);
    ncclUniqueId id;
    std::memset(&id, 0, sizeof id);
    if (mpi.rank() == 0) {
        TS_NCCL_CHECK(ncclGetUniqueId(&id));
    }
    mpi.broadcast(std::as_writable_bytes(std::span(&id, 1)), 0);
    ncclComm_t comm = nullptr;
    TS_NCCL_CHECK(ncclCommInitRank(&comm, mpi.size(), id, mpi.rank()));
    state_->comm.reset(comm);
}

NcclCommunicator::~NcclCommunicator() {
    // Collectives still queued (a step that threw) finish before the communicator goes.
    TS_CUDA_CHECK_NOEXCEPT(cudaStreamSynchronize(state_->stream.get()));
}

int NcclCommunicator::rank() const {
    return mpi_->rank();
}
int NcclCommunicator::size() const {
    return mpi_->size();
}
int NcclCommunicator::local_rank() const {
    return mpi_->local_rank();
}

void NcclCommunicator::start_all_reduce_mean(const Tensor& tensor) {
    State& s = *state_;
    if (s.used == s.slots.size()) {
        s.slots.emplace_back();  // the first step only: later steps reuse the slots
    }
    Slot& slot = s.slots[s.used++];
    TS_CUDA_CHECK(cudaEventRecord(slot.compute_ready.get(), s.compute));
    TS_CUDA_CHECK(cudaStreamWaitEvent(s.stream.get(), slot.compute_ready.get(), 0));
    TS_CUDA_CHECK(cudaEventRecord(slot.start.get(), s.stream.get()));
    TS_NCCL_CHECK(ncclAllReduce(tensor.raw(), tensor.raw(),
                                static_cast<std::size_t>(tensor.elements()),
                                nccl_type(tensor.dtype()), ncclAvg, s.comm.get(), s.stream.get()));
    TS_CUDA_CHECK(cudaEventRecord(slot.end.get(), s.stream.get()));
    s.bytes += static_cast<std::int64_t>(tensor.bytes());
}

void NcclCommunicator::wait_all() {
    State& s = *state_;
    if (s.used == 0) {
        return;
    }
    TS_CUDA_CHECK(cudaEventRecord(s.compute_done.get(), s.compute));
    s.backward_done = true;
    TS_CUDA_CHECK(cudaStreamWaitEvent(s.compute, s.slots[s.used - 1].end.get(), 0));
}

CommunicationTimes NcclCommunicator::take_step_times() {
    State& s = *state_;
    CommunicationTimes times;
    const auto elapsed_ns = [](cudaEvent_t from, cudaEvent_t to) {
        float ms = 0.0f;
        TS_CUDA_CHECK(cudaEventElapsedTime(&ms, from, to));
        return static_cast<std::int64_t>(static_cast<double>(ms) * 1e6);
    };
    for (std::size_t i = 0; i < s.used; ++i) {
        times.communication_ns += elapsed_ns(s.slots[i].start.get(), s.slots[i].end.get());
    }
    if (s.backward_done) {
        // The compute stream waited from its last gradient until the last all-reduce ended.
        const std::int64_t exposed =
            elapsed_ns(s.compute_done.get(), s.slots[s.used - 1].end.get());
        times.exposed_ns = exposed > 0 ? exposed : 0;
    }
    times.all_reduces = static_cast<std::int64_t>(s.used);
    times.bytes = s.bytes;
    s.used = 0;
    s.bytes = 0;
    s.backward_done = false;
    return times;
}

void NcclCommunicator::all_reduce_sum(std::span<double> values) {
    mpi_->all_reduce_sum(values);
}

void NcclCommunicator::broadcast(std::span<std::byte> bytes, int root) {
    mpi_->broadcast(bytes, root);
}

void NcclCommunicator::barrier() {
    mpi_->barrier();
}

}  // namespace trainscope::workloads
