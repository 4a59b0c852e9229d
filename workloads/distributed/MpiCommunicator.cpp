#include "workloads/distributed/MpiCommunicator.hpp"

#include <mpi.h>

#include <chrono>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "workloads/annotation/CollectiveRange.hpp"
#include "workloads/distributed/MpiError.hpp"
#include "workloads/distributed/MpiSession.hpp"

namespace trainscope::workloads {
namespace {

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// An owned communicator handle, freed once (MPI_Comm_free) while MPI is still up.
struct CommDeleter {
    void operator()(MPI_Comm* comm) const noexcept {
        if (comm != nullptr && *comm != MPI_COMM_NULL && MpiSession::initialized()) {
            TS_MPI_CHECK_NOEXCEPT(MPI_Comm_free(comm));
        }
        delete comm;
    }
};
using OwnedComm = std::unique_ptr<MPI_Comm, CommDeleter>;

OwnedComm duplicate(MPI_Comm parent) {
    OwnedComm comm(new MPI_Comm(MPI_COMM_NULL));
    TS_MPI_CHECK(MPI_Comm_dup(parent, comm.get()));
    TS_MPI_CHECK(MPI_Comm_set_errhandler(*comm, MPI_ERRORS_RETURN));
    return comm;
}

}  // namespace

struct MpiCommunicator::State {
    // One all-reduce in flight; the vectors keep their capacity from step to step.
    struct Pending {
        void* data = nullptr;
        int elements = 0;
        DType dtype = DType::f32;
        std::int64_t start_ns = 0;
        std::int64_t done_ns = 0;
        std::uint64_t range = 0;  // the NVTX range a tracer sees as the collective
    };

    OwnedComm comm;
    OwnedComm node;  // the ranks sharing this node's memory
    // The host-side collectives between steps (stop vote, loss sum, broadcast, barrier):
    // a communicator of their own, so the trace tells them from the gradients' traffic.
    OwnedComm control;
    int rank = 0;
    int size = 1;
    int local_rank = 0;
    int local_size = 1;
    std::vector<MPI_Request> requests;
    std::vector<Pending> pending;
    std::vector<int> finished;  // MPI_Testsome's output
    CommunicationTimes times;
    // Every collective, blocking ones included: every rank starts them in the same order,
    // so the count pairs them across ranks in the trace.
    std::uint64_t collectives_started = 0;

    void complete(std::size_t i) {
        Pending& p = pending[i];
        p.done_ns = now_ns();
        end_collective_range(p.range);
        // The sum becomes the mean; 1/size is exact for power-of-two world sizes.
        const double scale = 1.0 / static_cast<double>(size);
        if (p.dtype == DType::f64) {
            double* values = static_cast<double*>(p.data);
            for (int e = 0; e < p.elements; ++e) {
                values[e] *= scale;
            }
        } else {
            float* values = static_cast<float*>(p.data);
            const auto factor = static_cast<float>(scale);
            for (int e = 0; e < p.elements; ++e) {
                values[e] *= factor;
            }
        }
        times.communication_ns += p.done_ns - p.start_ns;
    }
};

MpiCommunicator::MpiCommunicator() : state_(std::make_unique<State>()) {
    if (!MpiSession::initialized()) {
        throw std::logic_error("MpiCommunicator: MPI is not initialized (make an MpiSession)");
    }
    state_->comm = duplicate(MPI_COMM_WORLD);
    state_->control = duplicate(MPI_COMM_WORLD);
    TS_MPI_CHECK(MPI_Comm_rank(*state_->comm, &state_->rank));
    TS_MPI_CHECK(MPI_Comm_size(*state_->comm, &state_->size));
    state_->node = OwnedComm(new MPI_Comm(MPI_COMM_NULL));
    TS_MPI_CHECK(MPI_Comm_split_type(*state_->comm, MPI_COMM_TYPE_SHARED, state_->rank,
                                     MPI_INFO_NULL, state_->node.get()));
    TS_MPI_CHECK(MPI_Comm_rank(*state_->node, &state_->local_rank));
    TS_MPI_CHECK(MPI_Comm_size(*state_->node, &state_->local_size));
}

MpiCommunicator::~MpiCommunicator() {
    // Requests still in flight (a step that threw) must finish before their buffers go.
    if (MpiSession::initialized()) {
        for (std::size_t i = 0; i < state_->requests.size(); ++i) {
            if (state_->requests[i] != MPI_REQUEST_NULL) {
                TS_MPI_CHECK_NOEXCEPT(MPI_Wait(&state_->requests[i], MPI_STATUS_IGNORE));
                end_collective_range(state_->pending[i].range);
            }
        }
    }
}

int MpiCommunicator::rank() const {
    return state_->rank;
}
int MpiCommunicator::size() const {
    return state_->size;
}
int MpiCommunicator::local_rank() const {
    return state_->local_rank;
}
int MpiCommunicator::local_size() const {
    return state_->local_size;
}

void MpiCommunicator::start_all_reduce_mean(const Tensor& tensor) {
    if (tensor.dtype() != DType::f32 && tensor.dtype() != DType::f64) {
        throw std::logic_error(std::string("MpiCommunicator: all-reduce of ") +
                               dtype_name(tensor.dtype()) +
                               "; the CPU backend's gradients are "
                               "f32 or f64");
    }
    if (tensor.elements() > std::numeric_limits<int>::max()) {
        throw std::logic_error("MpiCommunicator: a bucket of " + std::to_string(tensor.elements()) +
                               " elements exceeds MPI's int count; use a smaller bucket_mb");
    }
    State::Pending pending;
    pending.data = tensor.raw();
    pending.elements = static_cast<int>(tensor.elements());
    pending.dtype = tensor.dtype();
    pending.start_ns = now_ns();
    const bool f64 = pending.dtype == DType::f64;
    pending.range = start_collective_range("all_reduce", f64 ? "double" : "float", f64 ? 8 : 4,
                                           static_cast<std::uint64_t>(tensor.bytes()),
                                           state_->collectives_started++);
    MPI_Request request = MPI_REQUEST_NULL;
    try {
        TS_MPI_CHECK(MPI_Iallreduce(MPI_IN_PLACE, pending.data, pending.elements,
                                    pending.dtype == DType::f64 ? MPI_DOUBLE : MPI_FLOAT, MPI_SUM,
                                    *state_->comm, &request));
    } catch (...) {
        end_collective_range(pending.range);
        throw;
    }
    state_->requests.push_back(request);
    state_->pending.push_back(pending);
    state_->times.all_reduces += 1;
    state_->times.bytes += static_cast<std::int64_t>(tensor.bytes());
}

void MpiCommunicator::progress() {
    State& s = *state_;
    if (s.requests.empty()) {
        return;
    }
    s.finished.resize(s.requests.size());
    int count = 0;
    TS_MPI_CHECK(MPI_Testsome(static_cast<int>(s.requests.size()), s.requests.data(), &count,
                              s.finished.data(), MPI_STATUSES_IGNORE));
    // MPI_UNDEFINED: no active request left.
    for (int i = 0; i < count && count != MPI_UNDEFINED; ++i) {
        s.complete(static_cast<std::size_t>(s.finished[static_cast<std::size_t>(i)]));
    }
}

void MpiCommunicator::wait_all() {
    State& s = *state_;
    const std::int64_t start = now_ns();
    for (std::size_t i = 0; i < s.requests.size(); ++i) {
        if (s.requests[i] != MPI_REQUEST_NULL) {
            TS_MPI_CHECK(MPI_Wait(&s.requests[i], MPI_STATUS_IGNORE));
            s.complete(i);
        }
    }
    s.times.exposed_ns += now_ns() - start;
    s.requests.clear();
    s.pending.clear();
}

CommunicationTimes MpiCommunicator::take_step_times() {
    const CommunicationTimes times = state_->times;
    state_->times = CommunicationTimes{};
    return times;
}

void MpiCommunicator::all_reduce_sum(std::span<double> values) {
    if (values.empty()) {
        return;
    }
    const ScopedCollectiveRange range("all_reduce", "double", 8, values.size_bytes(),
                                      state_->collectives_started++, kControlCollectiveGroup);
    TS_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()),
                               MPI_DOUBLE, MPI_SUM, *state_->control));
}

void MpiCommunicator::broadcast(std::span<std::byte> bytes, int root) {
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        throw std::logic_error("MpiCommunicator::broadcast: more than 2^31-1 bytes");
    }
    const ScopedCollectiveRange range("broadcast", "byte", 1, bytes.size(),
                                      state_->collectives_started++, kControlCollectiveGroup);
    TS_MPI_CHECK(
        MPI_Bcast(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, root, *state_->control));
}

void MpiCommunicator::barrier() {
    const ScopedCollectiveRange range("barrier", "", 0, 0, state_->collectives_started++,
                                      kControlCollectiveGroup);
    TS_MPI_CHECK(MPI_Barrier(*state_->control));
}

}  // namespace trainscope::workloads
