#include "workloads/distributed/GradientSync.hpp"

#include <map>
#include <stdexcept>

namespace trainscope::workloads {
namespace {

std::vector<GradientExtent> gradient_extents(const FlatParameters& flat) {
    const auto& spans = flat.spans();
    std::vector<GradientExtent> extents(flat.parameters().size());
    for (std::size_t i = 0; i < extents.size(); ++i) {
        const std::int64_t offset = flat.offset(i);
        std::size_t s = 0;
        while (s + 1 < spans.size() && offset >= spans[s + 1].begin) {
            ++s;
        }
        extents[i].span = s;
        extents[i].begin = offset;
        extents[i].end = spans[s].begin + spans[s].elements;
        extents[i].element_bytes = dtype_bytes(spans[s].gradients.dtype());
    }
    // A parameter's range reaches the next parameter of its buffer (the padding between).
    for (std::size_t i = 0; i < extents.size(); ++i) {
        for (std::size_t j = 0; j < extents.size(); ++j) {
            if (extents[j].span == extents[i].span && extents[j].begin > extents[i].begin &&
                extents[j].begin < extents[i].end) {
                extents[i].end = extents[j].begin;
            }
        }
    }
    return extents;
}

}  // namespace

GradientSync::GradientSync(Communicator& communicator, const Model& model,
                           std::int64_t bucket_bytes, bool overlap)
    : communicator_(communicator), overlap_(overlap) {
    const FlatParameters& flat = model.flat_parameters();
    const std::vector<GradientExtent> extents = gradient_extents(flat);
    buckets_ = plan_gradient_buckets(extents, bucket_bytes);
    std::vector<std::size_t> bucket_of(extents.size(), 0);
    for (std::size_t b = 0; b < buckets_.size(); ++b) {
        const GradientBucket& bucket = buckets_[b];
        const FlatParameters::Span& span = flat.spans()[bucket.span];
        views_.push_back(
            span.gradients.view(bucket.begin - span.begin, Shape{bucket.end - bucket.begin}));
        for (const std::size_t p : bucket.parameters) {
            bucket_of[p] = b;
        }
    }
    std::map<const Parameter*, std::size_t> index_of;
    for (std::size_t i = 0; i < flat.parameters().size(); ++i) {
        index_of[flat.parameters()[i]] = i;
    }
    buckets_of_layer_.resize(model.layers().size());
    for (std::size_t l = 0; l < model.layers().size(); ++l) {
        for (Parameter* p : model.layers()[l]->parameters()) {
            const auto found = index_of.find(p);
            if (found == index_of.end()) {
                throw std::logic_error("GradientSync: a parameter of layer " + std::to_string(l) +
                                       " is not in the flat buffers");
            }
            buckets_of_layer_[l].push_back(bucket_of[found->second]);
        }
    }
    waiting_.assign(buckets_.size(), 0);
    started_.assign(buckets_.size(), false);
    for (std::size_t b = 0; b < buckets_.size(); ++b) {
        waiting_[b] = buckets_[b].parameters.size();
    }
}

void GradientSync::start(std::size_t bucket) {
    started_[bucket] = true;
    communicator_.start_all_reduce_mean(views_[bucket]);
}

void GradientSync::after_layer(std::size_t layer) {
    if (!overlap_ || layer >= buckets_of_layer_.size()) {
        return;
    }
    for (const std::size_t b : buckets_of_layer_[layer]) {
        if (--waiting_[b] == 0) {
            start(b);
        }
    }
    communicator_.progress();
}

void GradientSync::finish() {
    // Without overlap, or for a bucket whose layer the hook never saw, in plan order.
    for (std::size_t b = 0; b < buckets_.size(); ++b) {
        if (!started_[b]) {
            start(b);
        }
    }
    communicator_.wait_all();
    for (std::size_t b = 0; b < buckets_.size(); ++b) {
        waiting_[b] = buckets_[b].parameters.size();
        started_[b] = false;
    }
}

}  // namespace trainscope::workloads
