#include "workloads/backends/cpu/detail/OnednnConvolution.hpp"

#include <omp.h>

#include <array>
#include <initializer_list>
#include <map>
#include <oneapi/dnnl/dnnl.hpp>
#include <optional>
#include <sstream>
#include <tuple>

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

// A oneDNN memory object made once, when its primitive is, and pointed at each call's
// data: making one allocates on the host (the object and its storage), pointing one does
// not, so a steady-state step's convolutions allocate nothing of their own.
class CachedMemory {
  public:
    CachedMemory() = default;
    CachedMemory(const memory::desc& desc, const dnnl::engine& engine)
        : object_(desc, engine, DNNL_MEMORY_NONE) {}

    dnnl_memory_t at(const void* data) {
        if (data != handle_) {
            object_.set_data_handle(const_cast<void*>(data));
            handle_ = data;
        }
        return object_.get();
    }

  private:
    memory object_;
    const void* handle_ = nullptr;
};

// Runs a primitive through the C API with the arguments in a fixed array: the C++ API's
// execute() takes an std::unordered_map and copies it into an std::vector, both allocated
// per call. (oneDNN's own execution still allocates inside the library: its argument map
// and some parallel_nd closures.)
// A primitive that asked for a scratchpad gets it as one more argument.
void execute(const dnnl::primitive& primitive, const dnnl::stream& stream,
             std::initializer_list<dnnl_exec_arg_t> args, dnnl_memory_t scratchpad = nullptr) {
    std::array<dnnl_exec_arg_t, 8> all{};
    std::size_t count = 0;
    for (const dnnl_exec_arg_t& arg : args)
        all.at(count++) = arg;
    if (scratchpad != nullptr)
        all.at(count++) = {DNNL_ARG_SCRATCHPAD, scratchpad};
    const dnnl_status_t status =
        dnnl_primitive_execute(primitive.get(), stream.get(), static_cast<int>(count), all.data());
    if (status != dnnl_success) {
        throw dnnl::error(status, "could not execute a primitive");
    }
}

// The memory a primitive needs for itself. With scratchpad_mode::user oneDNN asks for it
// rather than allocating its own, and it comes from one of State's scratchpad buffers,
// counted as the op's workspace.
struct Scratchpad {
    std::size_t bytes = 0;
    CachedMemory memory;

    template <class PrimitiveDesc>
    static Scratchpad of(const PrimitiveDesc& pd, const dnnl::engine& engine) {
        const memory::desc desc = pd.scratchpad_desc();
        Scratchpad scratchpad;
        scratchpad.bytes = desc.get_size();
        if (scratchpad.bytes > 0)
            scratchpad.memory = CachedMemory(desc, engine);
        return scratchpad;
    }
};

dnnl::primitive_attr user_scratchpad() {
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    return attr;
}

// One operand of a primitive: the plain layout it has in backend memory, the layout the
// primitive chose, and the reorder between them (inputs: plain -> chosen; outputs:
// chosen -> plain). No reorder when the two agree. The reorder takes its scratchpad from
// us too (user mode), so what it needs is counted as workspace like the convolution's.
struct Layout {
    memory::desc plain;
    memory::desc chosen;
    std::optional<dnnl::reorder> reorder;
    CachedMemory user;    // plain, at the caller's tensor
    CachedMemory staged;  // chosen, at a staging buffer (reorder only)
    Scratchpad reorder_scratchpad;

    static Layout input(const dnnl::engine& engine, const memory::desc& plain,
                        const memory::desc& chosen) {
        return make(engine, plain, chosen, plain, chosen);
    }
    static Layout output(const dnnl::engine& engine, const memory::desc& plain,
                         const memory::desc& chosen) {
        return make(engine, plain, chosen, chosen, plain);
    }

  private:
    static Layout make(const dnnl::engine& engine, const memory::desc& plain,
                       const memory::desc& chosen, const memory::desc& from,
                       const memory::desc& to) {
        Layout layout{plain, chosen, std::nullopt, CachedMemory(plain, engine), {}, {}};
        if (plain != chosen) {
            const dnnl::reorder::primitive_desc pd(engine, from, engine, to, user_scratchpad());
            layout.reorder.emplace(pd);
            layout.staged = CachedMemory(chosen, engine);
            layout.reorder_scratchpad = Scratchpad::of(pd, engine);
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
    CachedMemory bias;  // with a bias only
    Scratchpad scratchpad;
};

struct BackwardDataPrimitive {
    dnnl::convolution_backward_data primitive;
    Layout dy, w, dx;
    std::string impl;
    Scratchpad scratchpad;
};

struct BackwardFilterPrimitive {
    dnnl::convolution_backward_weights primitive;
    Layout x, dy, dw;
    std::string impl;
    CachedMemory dbias;  // with a bias only
    Scratchpad scratchpad;
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
    dnnl::primitive_attr attr = user_scratchpad();
    std::map<Key, Entry> entries;
    // Blocked copies of the operands of the call in flight, and its scratchpad.
    AlignedBuffer staged[3];
    AlignedBuffer scratchpad;
    // The reorders' own: a reorder runs while the convolution's scratchpad may be held.
    AlignedBuffer reorder_scratchpad;

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
            dnnl::convolution_forward::primitive_desc pd(desc, attr, engine);
            ForwardPrimitive forward{pd,
                                     dnnl::convolution_forward(pd),
                                     Layout::input(engine, plain.x, pd.src_desc()),
                                     Layout::input(engine, plain.w, pd.weights_desc()),
                                     Layout::output(engine, plain.y, pd.dst_desc()),
                                     bias ? CachedMemory(plain.bias, engine) : CachedMemory(),
                                     Scratchpad::of(pd, engine)};
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
                dnnl::convolution_backward_data::primitive_desc pd(desc, attr, engine,
                                                                   e.forward.pd);
                e.backward_data.emplace(
                    BackwardDataPrimitive{dnnl::convolution_backward_data(pd),
                                          Layout::input(engine, e.plain.y, pd.diff_dst_desc()),
                                          Layout::input(engine, e.plain.w, pd.weights_desc()),
                                          Layout::output(engine, e.plain.x, pd.diff_src_desc()),
                                          pd.impl_info_str(), Scratchpad::of(pd, engine)});
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
                dnnl::convolution_backward_weights::primitive_desc pd(desc, attr, engine,
                                                                      e.forward.pd);
                e.backward_filter.emplace(BackwardFilterPrimitive{
                    dnnl::convolution_backward_weights(pd),
                    Layout::input(engine, e.plain.x, pd.src_desc()),
                    Layout::input(engine, e.plain.y, pd.diff_dst_desc()),
                    Layout::output(engine, e.plain.w, pd.diff_weights_desc()), pd.impl_info_str(),
                    bias ? CachedMemory(e.plain.bias, engine) : CachedMemory(),
                    Scratchpad::of(pd, engine)});
            } catch (const dnnl::error& error) {
                throw_onednn("convolution backward-filter setup", d, error);
            }
        }
        return *e.backward_filter;
    }

    // The operand in the primitive's layout: the caller's memory itself, or a reordered
    // copy in staged[slot].
    dnnl_memory_t stage_input(Layout& layout, const float* data, int slot) {
        const dnnl_memory_t user = layout.user.at(data);
        if (!layout.reorder) {
            return user;
        }
        staged[slot].reserve(layout.chosen.get_size());
        const dnnl_memory_t copy = layout.staged.at(staged[slot].as<void>());
        execute(*layout.reorder, stream, {{DNNL_ARG_SRC, user}, {DNNL_ARG_DST, copy}},
                reorder_scratchpad_for(layout));
        return copy;
    }

    dnnl_memory_t output_target(Layout& layout, float* data, int slot) {
        if (!layout.reorder) {
            return layout.user.at(data);
        }
        staged[slot].reserve(layout.chosen.get_size());
        return layout.staged.at(staged[slot].as<void>());
    }

    dnnl_memory_t scratchpad_for(Scratchpad& s) { return scratchpad_in(scratchpad, s); }

    dnnl_memory_t reorder_scratchpad_for(Layout& layout) {
        return scratchpad_in(reorder_scratchpad, layout.reorder_scratchpad);
    }

    static dnnl_memory_t scratchpad_in(AlignedBuffer& buffer, Scratchpad& s) {
        if (s.bytes == 0)
            return nullptr;
        buffer.reserve(s.bytes);
        return s.memory.at(buffer.as<void>());
    }

    void finish_output(Layout& layout, dnnl_memory_t result, float* data) {
        if (layout.reorder) {
            execute(*layout.reorder, stream,
                    {{DNNL_ARG_SRC, result}, {DNNL_ARG_DST, layout.user.at(data)}},
                    reorder_scratchpad_for(layout));
        }
        stream.wait();
    }
};

OnednnConvolutions::OnednnConvolutions(int threads, WorkspaceUse* workspace)
    : state_(std::make_unique<State>()) {
    state_->threads = threads;
    for (AlignedBuffer& buffer : state_->staged)
        buffer.count_in(workspace);
    state_->scratchpad.count_in(workspace);
    state_->reorder_scratchpad.count_in(workspace);
}

OnednnConvolutions::~OnednnConvolutions() = default;

void OnednnConvolutions::forward(const ConvDims& d, const float* x, const float* w,
                                 const float* bias, float* y) {
    // oneDNN sizes its OpenMP team from the calling thread's setting.
    omp_set_num_threads(state_->threads);
    const bool with_bias = bias != nullptr;
    try {
        ForwardPrimitive& p = state_->entry(d, with_bias).forward;
        const dnnl_memory_t src = state_->stage_input(p.x, x, 0);
        const dnnl_memory_t weights = state_->stage_input(p.w, w, 1);
        const dnnl_memory_t dst = state_->output_target(p.y, y, 2);
        const dnnl_memory_t scratchpad = state_->scratchpad_for(p.scratchpad);
        if (with_bias) {
            execute(p.primitive, state_->stream,
                    {{DNNL_ARG_SRC, src},
                     {DNNL_ARG_WEIGHTS, weights},
                     {DNNL_ARG_BIAS, p.bias.at(bias)},
                     {DNNL_ARG_DST, dst}},
                    scratchpad);
        } else {
            execute(p.primitive, state_->stream,
                    {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}},
                    scratchpad);
        }
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
        const dnnl_memory_t diff_dst = state_->stage_input(p.dy, dy, 0);
        const dnnl_memory_t weights = state_->stage_input(p.w, w, 1);
        const dnnl_memory_t diff_src = state_->output_target(p.dx, dx, 2);
        execute(p.primitive, state_->stream,
                {{DNNL_ARG_DIFF_DST, diff_dst},
                 {DNNL_ARG_WEIGHTS, weights},
                 {DNNL_ARG_DIFF_SRC, diff_src}},
                state_->scratchpad_for(p.scratchpad));
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
        const dnnl_memory_t src = state_->stage_input(p.x, x, 0);
        const dnnl_memory_t diff_dst = state_->stage_input(p.dy, dy, 1);
        const dnnl_memory_t diff_weights = state_->output_target(p.dw, dw, 2);
        const dnnl_memory_t scratchpad = state_->scratchpad_for(p.scratchpad);
        if (with_bias) {
            execute(p.primitive, state_->stream,
                    {{DNNL_ARG_SRC, src},
                     {DNNL_ARG_DIFF_DST, diff_dst},
                     {DNNL_ARG_DIFF_WEIGHTS, diff_weights},
                     {DNNL_ARG_DIFF_BIAS, p.dbias.at(dbias)}},
                    scratchpad);
        } else {
            execute(p.primitive, state_->stream,
                    {{DNNL_ARG_SRC, src},
                     {DNNL_ARG_DIFF_DST, diff_dst},
                     {DNNL_ARG_DIFF_WEIGHTS, diff_weights}},
                    scratchpad);
        }
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
