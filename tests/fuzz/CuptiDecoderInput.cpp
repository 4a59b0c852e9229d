#include "tests/fuzz/FuzzInputs.hpp"

#if TRAINSCOPE_FUZZ_HAS_CUPTI
#include <cupti.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "profiler/cupti/CuptiActivityDecoder.hpp"
#include "tests/fuzz/TraceInvariants.hpp"

namespace trainscope::fuzz {

const bool kHaveCuptiDecoder = true;

namespace {

// Reads the input front to back; past its end every byte is zero.
class ByteReader {
  public:
    explicit ByteReader(Bytes data) : data_(data) {}
    bool empty() const { return offset_ >= data_.size(); }
    std::uint8_t byte() { return empty() ? 0 : data_[offset_++]; }
    void fill(void* out, std::size_t size) {
        const std::size_t n = std::min(size, data_.size() - std::min(offset_, data_.size()));
        if (n > 0)
            std::memcpy(out, data_.data() + offset_, n);
        offset_ += n;
    }

  private:
    Bytes data_;
    std::size_t offset_ = 0;
};

// Strings a real record points at: CUPTI owns them for the record's lifetime. A fuzzed
// pointer would only test that wild pointers crash, so the fuzzer picks one of these.
const char* const kNames[] = {nullptr,
                              "",
                              "_Z9saxpy_gpuifPfS_",
                              "_Z1",
                              "main",
                              "volta_sgemm_128x64_nn",
                              "_ZN2at6native29vectorized_elementwise"};

template <typename T>
const char* pick_name(const T& raw_bits) {
    std::uint8_t selector = 0;
    std::memcpy(&selector, &raw_bits, 1);
    return kNames[selector % std::size(kNames)];
}

// The record kinds the decoder knows, and one it does not (NAME), each with its struct.
template <typename Record>
void append(std::vector<std::uint8_t>& buffer, ByteReader& in, CUpti_ActivityKind kind) {
    Record record;
    std::memset(&record, 0, sizeof record);
    in.fill(&record, sizeof record);
    record.kind = kind;
    if constexpr (requires(Record r) { r.name; })
        record.name = pick_name(record.name);
    if constexpr (requires(Record r) { r.domain; })
        record.domain = pick_name(record.domain);
    if constexpr (requires(Record r) { r.overheadData; })
        record.overheadData = nullptr;
    const std::size_t at = buffer.size();
    buffer.resize(at + sizeof record);
    std::memcpy(buffer.data() + at, &record, sizeof record);
}

void append_record(std::vector<std::uint8_t>& buffer, ByteReader& in) {
    switch (in.byte() % 13) {
        case 0:
            return append<CUpti_ActivityKernel10>(buffer, in, CUPTI_ACTIVITY_KIND_KERNEL);
        case 1:
            return append<CUpti_ActivityKernel10>(buffer, in,
                                                  CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        case 2:
            return append<CUpti_ActivityMemcpy6>(buffer, in, CUPTI_ACTIVITY_KIND_MEMCPY);
        case 3:
            return append<CUpti_ActivityMemset4>(buffer, in, CUPTI_ACTIVITY_KIND_MEMSET);
        case 4:
            return append<CUpti_ActivityAPI>(buffer, in, CUPTI_ACTIVITY_KIND_RUNTIME);
        case 5:
            return append<CUpti_ActivityAPI>(buffer, in, CUPTI_ACTIVITY_KIND_DRIVER);
        case 6:
            return append<CUpti_ActivityMarker2>(buffer, in, CUPTI_ACTIVITY_KIND_MARKER);
        case 7:
            return append<CUpti_ActivityMarkerData2>(buffer, in, CUPTI_ACTIVITY_KIND_MARKER_DATA);
        case 8:
            return append<CUpti_ActivitySynchronization2>(buffer, in,
                                                          CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
        case 9:
            return append<CUpti_ActivityOverhead3>(buffer, in, CUPTI_ACTIVITY_KIND_OVERHEAD);
        case 10:
            return append<CUpti_ActivityDevice5>(buffer, in, CUPTI_ACTIVITY_KIND_DEVICE);
        case 11:
            return append<CUpti_ActivityContext3>(buffer, in, CUPTI_ACTIVITY_KIND_CONTEXT);
        default:
            return append<CUpti_ActivityName>(buffer, in, CUPTI_ACTIVITY_KIND_NAME);
    }
}

}  // namespace

// Input: the trace's base time, how many bytes of the last record the buffer cuts off
// (a buffer CUPTI completed early), the capture's end, then records: a kind selector and
// the struct's bytes. Decoded as CuptiTracer decodes a completed buffer, then finished.
void cupti_decoder_input(Bytes data) {
    ByteReader in(data);
    profiler::Trace trace;
    in.fill(&trace.base_ns, sizeof trace.base_ns);
    const std::size_t cut = in.byte() % 16;
    std::int64_t end_ns = 0;
    in.fill(&end_ns, sizeof end_ns);
    std::vector<std::uint8_t> records;
    while (!in.empty())
        append_record(records, in);
    const std::size_t valid = records.size() - std::min(cut, records.size());
    // Exactly `valid` bytes on the heap: a read past them is an AddressSanitizer report.
    const auto buffer = std::make_unique<std::uint8_t[]>(std::max<std::size_t>(valid, 1));
    if (valid > 0)
        std::memcpy(buffer.get(), records.data(), valid);
    profiler::CuptiActivityDecoder decoder(trace);
    decoder.decode_buffer(buffer.get(), valid);
    decoder.finish(end_ns);
    check_trace_invariants(trace);
}

}  // namespace trainscope::fuzz

#else

#include <cstdio>
#include <cstdlib>

namespace trainscope::fuzz {

const bool kHaveCuptiDecoder = false;

void cupti_decoder_input(Bytes) {
    std::fprintf(stderr, "fuzz: this build has no CUPTI, so no CUPTI decoder to test\n");
    std::abort();
}

}  // namespace trainscope::fuzz

#endif
