#include "harness/runner/RooflineFacts.hpp"

#include <exception>
#include <string>

#include "reports/metrics/MetricTags.hpp"
#include "workloads/backend/BackendKind.hpp"
#include "workloads/datasets/DatasetSelection.hpp"
#include "workloads/devices/DevicePeaks.hpp"
#include "workloads/devices/DeviceQuery.hpp"
#include "workloads/models/ModelFlops.hpp"

namespace trainscope::harness {

namespace {

void add_peaks(RooflineFacts& facts, const workloads::DevicePeaks& peaks) {
    if (peaks.flops.value > 0.0) {
        facts.metrics.push_back({reports::metric_tag::peak_tflops, peaks.flops.value * 1e-12});
        facts.environment["peak_flops_source"] = peaks.flops.source;
    }
    if (peaks.bandwidth.value > 0.0) {
        facts.metrics.push_back(
            {reports::metric_tag::peak_bandwidth_gbps, peaks.bandwidth.value * 1e-9});
        facts.environment["peak_bandwidth_source"] = peaks.bandwidth.source;
    }
}

}  // namespace

RooflineFacts measure_roofline_facts(const workloads::TrainingConfig& config,
                                     double host_bandwidth_bytes_per_s) {
    RooflineFacts facts;
    try {
        const workloads::ModelFlops flops = workloads::model_flops_per_image(
            config.model, config.model_params, workloads::dataset_sample_shape(config),
            workloads::dataset_classes(config));
        facts.metrics.push_back({reports::metric_tag::model_flops_fwd_per_image, flops.forward});
        facts.metrics.push_back({reports::metric_tag::model_flops_bwd_per_image, flops.backward});
    } catch (const std::exception& e) {
        // The training run reports a bad model or dataset itself, in its own words.
        facts.environment["roofline_note"] = std::string("no model FLOPs: ") + e.what();
    }
    if (workloads::is_backend(config.backend, workloads::BackendKind::cuda)) {
        const workloads::DeviceInventory inventory = workloads::query_cuda_devices();
        if (config.device >= 0 &&
            static_cast<std::size_t>(config.device) < inventory.devices.size()) {
            add_peaks(facts, workloads::gpu_peaks(
                                 inventory.devices[static_cast<std::size_t>(config.device)],
                                 config.precision));
        } else {
            facts.environment["roofline_note"] = "no GPU peaks: " + inventory.status;
        }
    } else {
        const workloads::CpuFacts cpu = workloads::read_cpu_facts();
        const bool given = host_bandwidth_bytes_per_s > 0.0;
        workloads::DevicePeaks peaks = workloads::cpu_peaks(
            cpu, config.precision,
            given ? host_bandwidth_bytes_per_s : workloads::measure_triad_bandwidth(cpu.cores));
        if (given)
            peaks.bandwidth.source += ", once for all ranks before they started";
        add_peaks(facts, peaks);
    }
    return facts;
}

double host_bandwidth_for_ranks(const Cell& cell) {
    const auto value = [&cell](const char* axis) {
        const auto it = cell.values.find(axis);
        return it == cell.values.end() ? std::string() : it->second;
    };
    const std::string ranks = value("ranks");
    if (!cell.skip_reason.empty() || ranks.empty() || std::stoi(ranks) < 2 ||
        value("framework") == "pytorch" ||
        !workloads::is_backend(value("backend"), workloads::BackendKind::cpu))
        return 0.0;
    return workloads::measure_triad_bandwidth(workloads::read_cpu_facts().cores);
}

}  // namespace trainscope::harness
