#include "workloads/backends/cpu/detail/OnednnConvolution.hpp"

#include <omp.h>

#include <map>
#include <oneapi/dnnl/dnnl.hpp>
#include <optional>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include "common/LibraryError.hpp"
#include "common/SourcePlace.hpp"
#include "workloads/backends/cpu/AlignedBuffer.hpp"

namespace trainscope::workloads::cpu {
namespace {

using dnnl::memory;
using Tag = memory::format_tag;
using DataType = memory::data_type;

// A failed oneDNN call (common/LibraryError.hpp). oneDNN's C++ API throws dnnl::error
// rather than returning a status, so there is no check macro: each catch translates, and
// the call text names the operation and its shapes.
class OnednnError final : public LibraryError {
  public:
    using LibraryError::LibraryError;
};

[[noreturn]] void throw_onednn(const char* what, const ConvDims& d, const dnnl::error& error,
                               SourcePlace where = SourcePlace::here()) {
    std::ostringstream call;
    call << what << " for x " << d.n << "x" << d.c << "x" << d.h << "x" << d.w << ", w " << d.k
         << "x" << d.c << "x" << d.r << "x" << d.s << ", stride " << d.stride << ", padding "
         << d.padding;
    throw OnednnError("oneDNN", where.file, where.line, call.str(), error.what(),
                      static_cast<int>(error.status));
}

// One operand of a primitive: the plain layout it has in backend memory, the layout the
// primitive chose, and the reorder between them (inputs: plain -> chosen; outputs:
// chosen -> plain). No reorder when the two agree.
struct Layout {
    memory::desc plain;
    memory::desc chosen;
    std::optional<dnnl::reorder> reorder;

    static Layout input(const dnnl::engine& engine, const memory::desc& plain,
                        const memory::desc& chosen) {
        Layout layout{plain, chosen, std::nullopt};
        if (plain != chosen) {
            layout.reorder.emplace(dnnl::reorder::primitive_desc(engine, plain, engine, chosen));
        }
        return layout;
    }
    static Layout output(const dnnl::engine& engine, const memory::desc& plain,
                         const memory::desc& chosen) {
        Layout layout{plain, chosen, std::nullopt};
        if (plain != chosen) {
            layout.reorder.emplace(dnnl::reorder::primitive_desc(engine, chosen, engine, plain));
        }
        return layout;
    }
};

struct Key {
    std::int64_t n, c, h, w, k, r, s;
    int stride, padding;
    bool bias;

    auto tie() const { return std::tie(n, c, h, w, k, r, s, stride, padding, bias); }
    bool operator<(const Key& other) const { return tie() < other.tie(); }
};

struct Descriptors {
    memory::desc x, w, y, bias;
    memory::dims strides, padding;
};

Descriptors descriptors(const ConvDims& d, bool bias) {
    return Descriptors{memory::desc({d.n, d.c, d.h, d.w}, DataType::f32, Tag::nchw),
                       memory::desc({d.k, d.c, d.r, d.s}, DataType::f32, Tag::oihw),
                       memory::desc({d.n, d.k, d.p, d.q}, DataType::f32, Tag::nchw),
                       bias ? memory::desc({d.k}, DataType::f32, Tag::x) : memory::desc(),
                       {d.stride, d.stride},
                       {d.padding, d.padding}};
}

memory::desc any(const memory::desc& plain) {
    return memory::desc(plain.dims(), DataType::f32, Tag::any);
}

struct ForwardPrimitive {
    dnnl::convolution_forward::primitive_desc pd;
    dnnl::convolution_forward primitive;
    Layout x, w, y;
};

struct BackwardDataPrimitive {
    dnnl::convolution_backward_data primitive;
    Layout dy, w, dx;
    std::string impl;
};

struct BackwardFilterPrimitive {
    dnnl::convolution_backward_weights primitive;
    Layout x, dy, dw;
    std::string impl;
};

struct Entry {
    Descriptors plain;
    ForwardPrimitive forward;
    std::optional<BackwardDataPrimitive> backward_data;
    std::optional<BackwardFilterPrimitive> backward_filter;
};

std::string shape_text(const Key& key) {
    std::ostringstream text;
    text << key.n << "x" << key.c << "x" << key.h << "x" << key.w << " k" << key.k << " r" << key.r
         << " s" << key.stride << " p" << key.padding;
    return text.str();
}

}  // namespace

struct OnednnConvolutions::State {
    int threads;
    dnnl::engine engine{dnnl::engine::kind::cpu, 0};
    dnnl::stream stream{engine};
    std::map<Key, Entry> entries;
    // Blocked copies of the operands of the call in flight.
    AlignedBuffer staged[3];

    Entry& entry(const ConvDims& d, bool bias) {
        const Key key{d.n, d.c, d.h, d.w, d.k, d.r, d.s, d.stride, d.padding, bias};
        if (auto found = entries.find(key); found != entries.end()) {
            return found->second;
        }
        const Descriptors plain = descriptors(d, bias);
        try {
            const dnnl::convolution_forward::desc desc(
                dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct,
                any(plain.x), any(plain.w), plain.bias, any(plain.y), plain.strides, plain.padding,
                plain.padding);
            dnnl::convolution_forward::primitive_desc pd(desc, engine);
            ForwardPrimitive forward{pd, dnnl::convolution_forward(pd),
                                     Layout::input(engine, plain.x, pd.src_desc()),
                                     Layout::input(engine, plain.w, pd.weights_desc()),
                                     Layout::output(engine, plain.y, pd.dst_desc())};
            return entries.emplace(key, Entry{plain, std::move(forward), {}, {}}).first->second;
        } catch (const dnnl::error& error) {
            throw_onednn("convolution forward setup", d, error);
        }
    }

    BackwardDataPrimitive& backward_data(const ConvDims& d) {
        Entry& e = entry(d, false);
        if (!e.backward_data) {
            try {
                const dnnl::convolution_backward_data::desc desc(
                    dnnl::algorithm::convolution_direct, any(e.plain.x), any(e.plain.w),
                    any(e.plain.y), e.plain.strides, e.plain.padding, e.plain.padding);
                dnnl::convolution_backward_data::primitive_desc pd(desc, engine, e.forward.pd);
                e.backward_data.emplace(BackwardDataPrimitive{
                    dnnl::convolution_backward_data(pd),
                    Layout::input(engine, e.plain.y, pd.diff_dst_desc()),
                    Layout::input(engine, e.plain.w, pd.weights_desc()),
                    Layout::output(engine, e.plain.x, pd.diff_src_desc()), pd.impl_info_str()});
            } catch (const dnnl::error& error) {
                throw_onednn("convolution backward-data setup", d, error);
            }
        }
        return *e.backward_data;
    }

    BackwardFilterPrimitive& backward_filter(const ConvDims& d, bool bias) {
        Entry& e = entry(d, bias);
        if (!e.backward_filter) {
            try {
                const dnnl::convolution_backward_weights::desc desc(
                    dnnl::algorithm::convolution_direct, any(e.plain.x), any(e.plain.w),
                    e.plain.bias, any(e.plain.y), e.plain.strides, e.plain.padding,
                    e.plain.padding);
                dnnl::convolution_backward_weights::primitive_desc pd(desc, engine, e.forward.pd);
                e.backward_filter.emplace(BackwardFilterPrimitive{
                    dnnl::convolution_backward_weights(pd),
                    Layout::input(engine, e.plain.x, pd.src_desc()),
                    Layout::input(engine, e.plain.y, pd.diff_dst_desc()),
                    Layout::output(engine, e.plain.w, pd.diff_weights_desc()), pd.impl_info_str()});
            } catch (const dnnl::error& error) {
                throw_onednn("convolution backward-filter setup", d, error);
            }
        }
        return *e.backward_filter;
    }

    // The operand in the primitive's layout: the caller's memory itself, or a reordered
    // copy in staged[slot].
    memory stage_input(const Layout& layout, const float* data, int slot) {
        memory user(layout.plain, engine, const_cast<float*>(data));
        if (!layout.reorder) {
            return user;
        }
        staged[slot].reserve(layout.chosen.get_size());
        memory copy(layout.chosen, engine, staged[slot].as<void>());
        layout.reorder->execute(stream, user, copy);
        return copy;
    }

    memory output_target(const Layout& layout, float* data, int slot) {
        if (!layout.reorder) {
            return memory(layout.plain, engine, data);
        }
        staged[slot].reserve(layout.chosen.get_size());
        return memory(layout.chosen, engine, staged[slot].as<void>());
    }

    void finish_output(const Layout& layout, memory& result, float* data) {
        if (layout.reorder) {
            memory user(layout.plain, engine, data);
            layout.reorder->execute(stream, result, user);
        }
        stream.wait();
    }
};

OnednnConvolutions::OnednnConvolutions(int threads) : state_(std::make_unique<State>()) {
    state_->threads = threads;
}

OnednnConvolutions::~OnednnConvolutions() = default;

void OnednnConvolutions::forward(const ConvDims& d, const float* x, const float* w,
                                 const float* bias, float* y) {
    // oneDNN sizes its OpenMP team from the calling thread's setting.
    omp_set_num_threads(state_->threads);
    const bool with_bias = bias != nullptr;
    try {
        ForwardPrimitive& p = state_->entry(d, with_bias).forward;
        memory src = state_->stage_input(p.x, x, 0);
        memory weights = state_->stage_input(p.w, w, 1);
        memory dst = state_->output_target(p.y, y, 2);
        std::unordered_map<int, memory> args{
            {DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}};
        if (with_bias) {
            args.emplace(DNNL_ARG_BIAS, memory(descriptors(d, true).bias, state_->engine,
                                               const_cast<float*>(bias)));
        }
        p.primitive.execute(state_->stream, args);
        state_->finish_output(p.y, dst, y);
    } catch (const dnnl::error& error) {
        throw_onednn("convolution forward", d, error);
    }
}

void OnednnConvolutions::backward_data(const ConvDims& d, const float* dy, const float* w,
                                       float* dx) {
    omp_set_num_threads(state_->threads);
    try {
        BackwardDataPrimitive& p = state_->backward_data(d);
        memory diff_dst = state_->stage_input(p.dy, dy, 0);
        memory weights = state_->stage_input(p.w, w, 1);
        memory diff_src = state_->output_target(p.dx, dx, 2);
        p.primitive.execute(state_->stream, {{DNNL_ARG_DIFF_DST, diff_dst},
                                             {DNNL_ARG_WEIGHTS, weights},
                                             {DNNL_ARG_DIFF_SRC, diff_src}});
        state_->finish_output(p.dx, diff_src, dx);
    } catch (const dnnl::error& error) {
        throw_onednn("convolution backward-data", d, error);
    }
}

void OnednnConvolutions::backward_filter(const ConvDims& d, const float* x, const float* dy,
                                         float* dw, float* dbias) {
    omp_set_num_threads(state_->threads);
    const bool with_bias = dbias != nullptr;
    try {
        BackwardFilterPrimitive& p = state_->backward_filter(d, with_bias);
        memory src = state_->stage_input(p.x, x, 0);
        memory diff_dst = state_->stage_input(p.dy, dy, 1);
        memory diff_weights = state_->output_target(p.dw, dw, 2);
        std::unordered_map<int, memory> args{{DNNL_ARG_SRC, src},
                                             {DNNL_ARG_DIFF_DST, diff_dst},
                                             {DNNL_ARG_DIFF_WEIGHTS, diff_weights}};
        if (with_bias) {
            args.emplace(DNNL_ARG_DIFF_BIAS,
                         memory(descriptors(d, true).bias, state_->engine, dbias));
        }
        p.primitive.execute(state_->stream, args);
        state_->finish_output(p.dw, diff_weights, dw);
    } catch (const dnnl::error& error) {
        throw_onednn("convolution backward-filter", d, error);
    }
}

std::string OnednnConvolutions::version() {
    const dnnl_version_t* v = dnnl_version();
    std::ostringstream text;
    text << v->major << "." << v->minor << "." << v->patch << " (" << v->hash << ", cpu runtime "
         << (v->cpu_runtime == DNNL_RUNTIME_OMP ? "OpenMP" : "other") << ")";
    return text.str();
}

std::string OnednnConvolutions::implementations() const {
    std::ostringstream text;
    for (const auto& [key, entry] : state_->entries) {
        if (text.tellp() > 0) {
            text << "; ";
        }
        text << shape_text(key) << (key.bias ? " bias" : "") << ": fwd "
             << entry.forward.pd.impl_info_str();
        if (entry.backward_data) {
            text << ", bwd-data " << entry.backward_data->impl;
        }
        if (entry.backward_filter) {
            text << ", bwd-filter " << entry.backward_filter->impl;
        }
    }
    return text.str();
}

}  // namespace trainscope::workloads::cpu
