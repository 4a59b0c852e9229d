#include "workloads/models/Model.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace trainscope::workloads {
namespace {

// Uniform in [low, high) from 53 random bits: the same values on every platform,
// unlike std::uniform_real_distribution.
double uniform(std::mt19937_64& engine, double low, double high) {
    const double unit = static_cast<double>(engine() >> 11) * 0x1.0p-53;
    return low + (high - low) * unit;
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
    flat_ = FlatParameters(parameters_, context);
    std::vector<double> values(static_cast<std::size_t>(flat_.layout_elements()), 0.0);
    std::mt19937_64 engine(seed);
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
        const Parameter& p = *parameters_[i];
        const auto first = values.begin() + flat_.offset(i);
        const auto last = first + p.shape.elements();
        switch (p.init) {
            case ParameterInit::fan_in_uniform: {
                const double bound = 1.0 / std::sqrt(static_cast<double>(p.fan_in));
                for (auto v = first; v != last; ++v) {
                    *v = uniform(engine, -bound, bound);
                }
                break;
            }
            case ParameterInit::ones:
                std::fill(first, last, 1.0);
                break;
            case ParameterInit::zeros:
                break;
        }
    }
    flat_.upload_masters(context, values);
    flat_state_ = FlatState(buffers_, context);
    refresh_compute_copies(context);
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

void Model::backward(StepContext& context, const Tensor& doutput, BackwardObserver* observer) {
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
            if (observer != nullptr) {
                observer->after_layer(i);
            }
        }
    }
}

}  // namespace trainscope::workloads
