#include "reports/store/LaneSummaryStore.hpp"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>
#include <string>

#include "common/LibraryError.hpp"
#include "profiler/sqlite/SqliteBlob.hpp"
#include "profiler/trace/TemporaryFile.hpp"
#include "reports/store/SqliteError.hpp"

namespace trainscope::reports {

using profiler::RowSummaryLevel;
using profiler::SummaryBucket;

namespace {

static_assert(std::endian::native == std::endian::little,
              "lane_summaries records are little-endian; add byte swapping for this machine");

template <typename T>
void put(std::vector<std::byte>& out, T value) {
    const auto at = out.size();
    out.resize(at + sizeof(T));
    std::memcpy(out.data() + at, &value, sizeof(T));
}

template <typename T>
T take(const std::byte*& in) {
    T value;
    std::memcpy(&value, in, sizeof(T));
    in += sizeof(T);
    return value;
}

std::vector<std::byte> pack(std::span<const SummaryBucket> buckets) {
    std::vector<std::byte> out;
    out.reserve(buckets.size() * kLaneSummaryRecordBytes);
    for (const SummaryBucket& b : buckets) {
        put(out, b.first_start);
        put(out, b.last_end);
        put(out, b.busy_ns);
        put(out, b.longest_ns);
        put(out, b.count);
        put(out, b.name);
        put(out, static_cast<std::uint8_t>(b.kind));
    }
    return out;
}

// Byte i of every record together: the records' high bytes (times in one trace, small
// counts) become long runs that deflate finds.
std::vector<std::byte> shuffle(const std::vector<std::byte>& packed) {
    const std::size_t n = packed.size() / kLaneSummaryRecordBytes;
    std::vector<std::byte> out(packed.size());
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t b = 0; b < kLaneSummaryRecordBytes; ++b)
            out[b * n + r] = packed[r * kLaneSummaryRecordBytes + b];
    return out;
}

std::vector<std::byte> unshuffle(const std::vector<std::byte>& shuffled) {
    const std::size_t n = shuffled.size() / kLaneSummaryRecordBytes;
    std::vector<std::byte> out(shuffled.size());
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t b = 0; b < kLaneSummaryRecordBytes; ++b)
            out[r * kLaneSummaryRecordBytes + b] = shuffled[b * n + r];
    return out;
}

// zlib's refusals: out of memory as std::bad_alloc, anything else (a stream in a state
// it should not be in, a library of another version) as the library's fault.
#define TS_ZLIB_CHECK(call)                                           \
    do {                                                              \
        if (const int zlib_status = (call); zlib_status != Z_OK)      \
            throw_zlib_error(__FILE__, __LINE__, #call, zlib_status); \
    } while (false)

class ZlibError final : public LibraryError {
  public:
    using LibraryError::LibraryError;
};

[[noreturn]] void throw_zlib_error(const char* file, int line, const char* call, int status) {
    if (status == Z_MEM_ERROR)
        throw std::bad_alloc();
    throw ZlibError("zlib", file, line, call, zError(status), status);
}

std::vector<std::byte> encode(const std::vector<SummaryBucket>& buckets) {
    const auto shuffled = shuffle(pack(buckets));
    uLongf size = compressBound(static_cast<uLong>(shuffled.size()));
    std::vector<std::byte> out(size);
    // The fastest level: the next (6) saves another 12 % of these bytes for 3.5 times
    // the time, and the import pays it for every level of every row.
    TS_ZLIB_CHECK(compress2(reinterpret_cast<Bytef*>(out.data()), &size,
                            reinterpret_cast<const Bytef*>(shuffled.data()),
                            static_cast<uLong>(shuffled.size()), Z_BEST_SPEED));
    out.resize(size);
    return out;
}

// zlib's deflate stream, ended however the writing ends.
class Deflater {
  public:
    Deflater() {
        // The same stream as compress2's at encode's level: the same bytes come out.
        TS_ZLIB_CHECK(deflateInit(&z_, Z_BEST_SPEED));
    }
    Deflater(const Deflater&) = delete;
    Deflater& operator=(const Deflater&) = delete;
    ~Deflater() { deflateEnd(&z_); }

    // Deflates `in` (all of it; then, with `finish`, the stream's end) into `out`.
    void put(std::span<const std::byte> in, bool finish, profiler::TemporaryFile& out) {
        z_.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(in.data()));
        z_.avail_in = static_cast<uInt>(in.size());
        for (;;) {
            z_.next_out = reinterpret_cast<Bytef*>(buffer_.data());
            z_.avail_out = static_cast<uInt>(buffer_.size());
            const int rc = deflate(&z_, finish ? Z_FINISH : Z_NO_FLUSH);
            if (rc == Z_STREAM_ERROR)
                throw_zlib_error(__FILE__, __LINE__, "deflate", rc);
            out.append(std::span(buffer_).first(buffer_.size() - z_.avail_out));
            if (finish ? rc == Z_STREAM_END : z_.avail_in == 0 && z_.avail_out != 0)
                return;
        }
    }

  private:
    z_stream z_{};
    std::vector<std::byte> buffer_ = std::vector<std::byte>(std::size_t{1} << 16);
};

}  // namespace

std::vector<std::byte> unpack_lane_summary_blob(LaneSummaryEncoding encoding,
                                                std::span<const std::byte> blob,
                                                std::size_t bucket_count, const std::string& what) {
    const std::size_t size = bucket_count * kLaneSummaryRecordBytes;
    const auto damaged = [&what](const char* how) {
        return StoreError("level-of-detail summaries of " + what + " " + how +
                          "; the file is damaged");
    };
    switch (encoding) {
        case LaneSummaryEncoding::Packed:
            if (blob.size() != size)
                throw damaged("have a record of the wrong size");
            return {blob.begin(), blob.end()};
        case LaneSummaryEncoding::ShuffledDeflate: {
            // Deflate makes at most about 1032 bytes of one: a count beyond that is damage,
            // and must not become an allocation of its size first.
            if (bucket_count > (blob.size() + 1) * 1032 / kLaneSummaryRecordBytes + 1)
                throw damaged("do not inflate to their bucket count");
            std::vector<std::byte> shuffled(size);
            uLongf got = static_cast<uLongf>(size);
            const int rc = uncompress(reinterpret_cast<Bytef*>(shuffled.data()), &got,
                                      reinterpret_cast<const Bytef*>(blob.data()),
                                      static_cast<uLong>(blob.size()));
            if (rc != Z_OK || got != size)
                throw damaged("do not inflate to their bucket count");
            return unshuffle(shuffled);
        }
    }
    throw damaged("have an unknown encoding");
}

LaneSummaryWriter::LaneSummaryWriter(const ResultsDatabase& db, std::int64_t run_id)
    : db_(db),
      run_id_(run_id),
      insert_(db.prepare("INSERT INTO lane_summaries (run_id, lane, depth, level, width_ns, "
                         "origin_ns, bucket_count, buckets) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
                         "?8)")) {
    db.prepare(
          "INSERT INTO lane_summary_runs (run_id, base_width_ns, level_factor, min_per_bucket, "
          "encoding) VALUES (?1, ?2, 4, ?3, ?4)")
        .bind(1, run_id)
        .bind(2, profiler::kSummaryBaseWidthNs)
        .bind(3, profiler::kMinActivitiesPerBucket)
        .bind(4, static_cast<std::int64_t>(LaneSummaryEncoding::ShuffledDeflate))
        .run();
}

// The level's row but its blob (?8).
Statement& LaneSummaryWriter::bind_level(const RowSummaryLevel& l) {
    return insert_.bind(1, run_id_)
        .bind(2, static_cast<std::int64_t>(l.lane))
        .bind(3, static_cast<int>(l.depth))
        .bind(4, l.level)
        .bind(5, l.width_ns)
        .bind(6, l.origin_ns)
        .bind(7, static_cast<std::int64_t>(l.bucket_count()));
}

void LaneSummaryWriter::write(const std::vector<RowSummaryLevel>& levels) {
    for (const RowSummaryLevel& l : levels) {
        if (!l.spilled.chunks.empty()) {
            write_spilled(l);
            continue;
        }
        const auto bytes = encode(l.buckets);
        bind_level(l).bind_blob(8, bytes).run();
    }
}

// A spilled level's blob, the same bytes as encode's without holding them: each chunk's
// records packed and shuffled into a temporary file, byte i of every chunk in turn
// deflated into a second one, whose size the row's zeroblob takes; then copied into the
// row in pieces. zlib 1.x (Debian's) gives the same bytes however its input comes in: at
// level 1 it matches only with a full lookahead, so pieces deflate as the whole would.
// (zlib-ng's level 1 may cut its blocks otherwise: other bytes, the same records.)
void LaneSummaryWriter::write_spilled(const RowSummaryLevel& l) {
    profiler::TemporaryFile shuffled("the lane summaries");
    struct Chunk {
        std::int64_t offset;
        std::size_t records;
    };
    std::vector<Chunk> chunks;
    l.for_each_chunk([&](std::span<const SummaryBucket> buckets) {
        chunks.push_back({shuffled.append(shuffle(pack(buckets))), buckets.size()});
    });
    profiler::TemporaryFile deflated("the lane summaries");
    {
        Deflater deflater;
        std::vector<std::byte> plane;
        for (std::size_t b = 0; b < kLaneSummaryRecordBytes; ++b) {
            for (const Chunk& c : chunks) {
                plane.resize(c.records);
                shuffled.read(c.offset + static_cast<std::int64_t>(b * c.records), plane);
                deflater.put(plane, false, deflated);
            }
        }
        deflater.put({}, true, deflated);
    }
    bind_level(l).bind_zeroblob(8, deflated.size()).run();
    profiler::SqliteBlobWriter blob(db_.handle(), "lane_summaries", "buckets",
                                    db_.last_insert_rowid());
    std::vector<std::byte> piece;
    constexpr std::int64_t kPiece = std::int64_t{1} << 20;
    for (std::int64_t at = 0; at < deflated.size(); at += kPiece) {
        piece.resize(static_cast<std::size_t>(std::min(kPiece, deflated.size() - at)));
        deflated.read(at, piece);
        blob.write(piece, at);
    }
    blob.close();
}

void write_lane_summaries(const ResultsDatabase& db, std::int64_t run_id,
                          const std::vector<RowSummaryLevel>& levels) {
    LaneSummaryWriter(db, run_id).write(levels);
}

std::optional<std::vector<RowSummaryLevel>> load_lane_summaries(const ResultsDatabase& db,
                                                                std::int64_t run_id) {
    if (db.schema_version() < 4)
        return std::nullopt;
    auto made = db.prepare(db.schema_version() >= 6
                               ? "SELECT encoding FROM lane_summary_runs WHERE run_id = ?1"
                               : "SELECT 0 FROM lane_summary_runs WHERE run_id = ?1");
    made.bind(1, run_id);
    if (!made.step())
        return std::nullopt;
    const auto encoding = static_cast<LaneSummaryEncoding>(made.column_int64(0));
    const std::string what = "run " + std::to_string(run_id) + " in '" + db.path().string() + "'";
    auto rows = db.prepare(
        "SELECT lane, depth, level, width_ns, origin_ns, bucket_count, buckets FROM "
        "lane_summaries WHERE run_id = ?1 ORDER BY lane, depth, level");
    rows.bind(1, run_id);
    std::vector<RowSummaryLevel> out;
    while (rows.step()) {
        RowSummaryLevel l;
        l.lane = static_cast<profiler::LaneId>(rows.column_int64(0));
        l.depth = static_cast<std::uint16_t>(rows.column_int64(1));
        l.level = static_cast<int>(rows.column_int64(2));
        l.width_ns = rows.column_int64(3);
        l.origin_ns = rows.column_int64(4);
        const auto count = rows.column_int64(5);
        if (count < 0 || l.width_ns <= 0)
            throw StoreError("level-of-detail summaries of " + what +
                             " have a record of the wrong size; the file is damaged");
        const auto packed = unpack_lane_summary_blob(encoding, rows.column_blob(6),
                                                     static_cast<std::size_t>(count), what);
        l.buckets.resize(static_cast<std::size_t>(count));
        const std::byte* in = packed.data();
        for (SummaryBucket& b : l.buckets) {
            b.first_start = take<std::int64_t>(in);
            b.last_end = take<std::int64_t>(in);
            b.busy_ns = take<std::int64_t>(in);
            b.longest_ns = take<std::int64_t>(in);
            b.count = take<std::uint32_t>(in);
            b.name = take<profiler::StringId>(in);
            b.kind = static_cast<profiler::ActivityKind>(take<std::uint8_t>(in));
        }
        out.push_back(std::move(l));
    }
    return out;
}

}  // namespace trainscope::reports
