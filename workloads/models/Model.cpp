#include "workloads/models/Model.hpp"

#include <cmath>
#include <random>
#include <stdexcept>

#include "workloads/layers/ParameterGroups.hpp"

namespace trainscope::workloads {
namespace {

// Uniform in [low, high) from 53 random bits: the same values on every platform,
// unlike std::uniform_real_distribution.
double uniform(std::mt19937_64& engine, double low, double high) {
    const double unit = static_cast<double>(engine() >> 11) * 0x1.0p-53;
    return low + (high - low) * unit;
}

void upload(StepContext& context, const std::vector<double>& values, Tensor& tensor) {
    if (tensor.dtype() == DType::f64) {
        context.backend.copy_from_host(values.data(), tensor);
        return;
    }
    std::vector<float> narrowed(values.begin(), values.end());
    context.backend.copy_from_host(narrowed.data(), tensor);
}

}  // namespace

Model::Model(std::string name, const Shape& input_shape, std::vector<std::unique_ptr<Layer>> layers)
    : name_(std::move(name)), input_shape_(input_shape), layers_(std::move(layers)) {
    if (layers_.empty()) {
        throw std::logic_error("Model " + name_ + " has no layers");
    }
    for (const auto& layer : layers_) {
        for (Parameter* p : layer->parameters()) {
            parameters_.push_back(p);
        }
        for (StateBuffer* b : layer->buffers()) {
            buffers_.push_back(b);
        }
    }
    plan_segments();
}

std::int64_t Model::parameter_count() const {
    std::int64_t count = 0;
    for (const Parameter* p : parameters()) {
        count += p->shape.elements();
    }
    return count;
}

void Model::materialize(StepContext& context, std::uint64_t seed) {
    std::mt19937_64 engine(seed);
    const bool mixed = context.policy.storage_rounding != StorageRounding::none;
    for (Parameter* p : parameters()) {
        std::vector<double> values(static_cast<std::size_t>(p->shape.elements()));
        switch (p->init) {
            case ParameterInit::fan_in_uniform: {
                const double bound = 1.0 / std::sqrt(static_cast<double>(p->fan_in));
                for (double& v : values) {
                    v = uniform(engine, -bound, bound);
                }
                break;
            }
            case ParameterInit::ones:
                std::fill(values.begin(), values.end(), 1.0);
                break;
            case ParameterInit::zeros:
                break;
        }
        p->value = context.make_master(p->shape);
        upload(context, values, p->value);
        // A parameter computing with its master (batch norm's) gets a master-dtype gradient,
        // as cuDNN writes it; the others get theirs in the storage dtype, like activations.
        p->gradient =
            p->keep_master_precision ? context.make_master(p->shape) : context.make(p->shape);
        context.backend.fill(p->gradient, 0.0);
        if (mixed && !p->keep_master_precision) {
            p->compute_copy = context.make(p->shape);
        }
    }
    for (StateBuffer* b : buffers()) {
        b->value = context.make_master(b->shape);
        context.backend.fill(b->value, b->initial_value);
    }
    gradient_groups_.clear();
    for (const std::vector<std::size_t>& positions : group_by_gradient_dtype(parameters_)) {
        std::vector<const Tensor*>& group = gradient_groups_.emplace_back();
        for (std::size_t i : positions) {
            group.push_back(&parameters_[i]->gradient);
        }
    }
    converted_masters_.clear();
    converted_copies_.clear();
    rounded_masters_.clear();
    rounded_copies_.clear();
    for (Parameter* p : parameters_) {
        if (p->compute_copy.empty())
            continue;
        const bool native = p->compute_copy.dtype() != p->value.dtype();
        // f32 master -> f16/bf16 (native), or -> f32 holding rounded values (emulated).
        (native ? converted_masters_ : rounded_masters_).push_back(&p->value);
        (native ? converted_copies_ : rounded_copies_).push_back(&p->compute_copy);
    }
    refresh_compute_copies(context);
}

void Model::refresh_compute_copies(StepContext& context) {
    if (!rounded_copies_.empty()) {
        if (context.emulates_storage()) {
            context.backend.round_copy_multi(rounded_masters_, rounded_copies_,
                                             context.policy.storage_rounding);
        } else {
            for (std::size_t i = 0; i < rounded_copies_.size(); ++i)
                context.backend.copy(*rounded_masters_[i], *rounded_copies_[i]);
        }
    }
    if (!converted_copies_.empty()) {
        context.backend.convert_multi(converted_masters_, converted_copies_);
    }
}

void Model::flag_non_finite_gradients(StepContext& context, Tensor& overflow) {
    for (const std::vector<const Tensor*>& group : gradient_groups_) {
        context.backend.flag_non_finite_multi(group, overflow);
    }
}

void Model::set_recompute(bool recompute) {
    recompute_ = recompute;
    plan_segments();
}

void Model::plan_segments() {
    segments_.clear();
    const std::size_t count = layers_.size();
    const auto per_segment = static_cast<std::size_t>(
        std::ceil(static_cast<double>(count) / std::ceil(std::sqrt(static_cast<double>(count)))));
    for (std::size_t begin = 0; begin < count; begin += per_segment) {
        Segment segment;
        segment.begin = begin;
        segment.end = std::min(count, begin + per_segment);
        segments_.push_back(segment);
    }
    // The last segment's backward follows its forward at once: nothing to gain there.
    for (std::size_t s = 0; s + 1 < segments_.size(); ++s) {
        segments_[s].checkpointed = recompute_;
    }
}

Tensor Model::forward(StepContext& context, const Tensor& x) {
    Tensor activation = x;
    for (Segment& segment : segments_) {
        const bool drop_saved = !context.training || segment.checkpointed;
        if (context.training && segment.checkpointed) {
            segment.input = activation;
        }
        for (std::size_t i = segment.begin; i < segment.end; ++i) {
            activation = layers_[i]->forward(context, activation);
            if (drop_saved) {
                layers_[i]->release_saved();
            }
        }
    }
    return activation;
}

void Model::backward(StepContext& context, const Tensor& doutput) {
    Tensor gradient = doutput;
    for (std::size_t s = segments_.size(); s-- > 0;) {
        Segment& segment = segments_[s];
        if (segment.checkpointed) {
            context.recomputing = true;
            Tensor activation = std::move(segment.input);
            segment.input = Tensor();
            for (std::size_t i = segment.begin; i < segment.end; ++i) {
                activation = layers_[i]->forward(context, activation);
            }
            context.recomputing = false;
        }
        for (std::size_t i = segment.end; i-- > segment.begin;) {
            gradient = layers_[i]->backward(context, gradient, i > 0);
            layers_[i]->release_saved();
        }
    }
}

}  // namespace trainscope::workloads
