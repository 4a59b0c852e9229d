#include "harness/isolation/CellJob.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "harness/cli/UsageError.hpp"
#include "harness/matrix/AxisCatalog.hpp"

namespace trainscope::harness {

using nlohmann::json;

void write_cell_job(const CellJob& job, const std::filesystem::path& file) {
    json j;
    j["cell"] = job.cell.values;
    j["skip_reason"] = job.cell.skip_reason;
    const RunLength& l = job.length;
    j["length"] = {{"steps", l.steps},
                   {"epochs", l.epochs},
                   {"warmup_steps", l.warmup_steps},
                   {"threads", l.threads},
                   {"seed", l.seed},
                   {"dataset_dir", l.dataset_dir},
                   {"input_shape", l.input_shape},
                   {"classes", l.classes},
                   {"eval_every_steps", l.eval_every_steps},
                   {"python", l.python}};
    if (l.target_accuracy)
        j["length"]["target_accuracy"] = *l.target_accuracy;
    j["stopping"] = {{"fixed_length", job.stopping.fixed_length},
                     {"rse_target", job.stopping.rse_target},
                     {"min_steps", job.stopping.min_steps},
                     {"max_time_s", job.stopping.max_time_s}};
    j["fault"] = to_string(job.fault);
    j["progress"] = {{"style", static_cast<int>(job.progress_style)},
                     {"index", job.index},
                     {"count", job.count},
                     {"label", job.label}};
    j["host_bandwidth_bytes_per_s"] = job.host_bandwidth_bytes_per_s;
    std::ofstream out(file);
    out << j.dump();
    if (!out)
        throw std::runtime_error("cannot write the cell job file " + file.string());
}

CellJob read_cell_job(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in)
        throw std::runtime_error("cannot read the cell job file " + file.string());
    const json j = json::parse(in);
    CellJob job;
    job.cell.values = j.at("cell").get<std::map<std::string, std::string>>();
    // The child parses these into the engine's types: a value outside the catalog is
    // refused here, as the CLI would refuse it, naming the axis and the valid values.
    for (const auto& [name, value] : job.cell.values) {
        const AxisInfo* axis = find_axis(name);
        if (axis == nullptr)
            throw UsageError("cell job file " + file.string() + ": unknown axis '" + name + "'");
        if (value != kNotApplicable)
            validate_axis_value(*axis, value);
    }
    job.cell.skip_reason = j.at("skip_reason").get<std::string>();
    const json& l = j.at("length");
    job.length.steps = l.at("steps").get<std::int64_t>();
    job.length.epochs = l.at("epochs").get<int>();
    job.length.warmup_steps = l.at("warmup_steps").get<int>();
    job.length.threads = l.at("threads").get<int>();
    job.length.seed = l.at("seed").get<std::uint64_t>();
    job.length.dataset_dir = l.at("dataset_dir").get<std::string>();
    job.length.input_shape = l.at("input_shape").get<std::string>();
    job.length.classes = l.at("classes").get<int>();
    job.length.eval_every_steps = l.at("eval_every_steps").get<std::int64_t>();
    job.length.python = l.value("python", job.length.python);
    if (l.contains("target_accuracy"))
        job.length.target_accuracy = l.at("target_accuracy").get<double>();
    const json& s = j.at("stopping");
    job.stopping.fixed_length = s.at("fixed_length").get<bool>();
    job.stopping.rse_target = s.at("rse_target").get<double>();
    job.stopping.min_steps = s.at("min_steps").get<std::int64_t>();
    job.stopping.max_time_s = s.at("max_time_s").get<double>();
    job.fault = parse_fault_injection(j.at("fault").get<std::string>());
    const json& p = j.at("progress");
    job.progress_style = static_cast<ProgressStyle>(p.at("style").get<int>());
    job.index = p.at("index").get<int>();
    job.count = p.at("count").get<int>();
    job.label = p.at("label").get<std::string>();
    job.host_bandwidth_bytes_per_s = j.value("host_bandwidth_bytes_per_s", 0.0);
    return job;
}

}  // namespace trainscope::harness
