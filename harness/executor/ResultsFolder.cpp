#include "harness/executor/ResultsFolder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace trainscope::harness {

namespace {

constexpr const char* kManifest = "submission.json";

// The number after `prefix` in a folder name ("sub-3" -> 3), or -1.
std::int64_t numbered(const std::string& name, const std::string& prefix) {
    if (name.rfind(prefix, 0) != 0)
        return -1;
    std::int64_t n = -1;
    const char* begin = name.data() + prefix.size();
    const char* end = name.data() + name.size();
    const auto [stop, ec] = std::from_chars(begin, end, n);
    return ec == std::errc{} && stop == end ? n : -1;
}

}  // namespace

std::filesystem::path Submission::task_file(int index) const {
    return dir / fmt::format("task-{}.json", index);
}

std::filesystem::path Submission::result_file(int index) const {
    return dir / fmt::format("result-{}.db", index);
}

std::filesystem::path Submission::failure_file(int index) const {
    return dir / fmt::format("failed-{}.json", index);
}

std::filesystem::path slurm_root(const std::filesystem::path& out) {
    std::filesystem::path root = out;
    root.replace_extension(".slurm");
    return root;
}

std::filesystem::path matrix_folder(const std::filesystem::path& out, std::int64_t matrix_id) {
    return slurm_root(out) / fmt::format("matrix-{}", matrix_id);
}

std::map<std::int64_t, std::filesystem::path> slurm_matrices(const std::filesystem::path& out) {
    std::map<std::int64_t, std::filesystem::path> found;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(slurm_root(out), ec)) {
        const auto id = numbered(entry.path().filename().string(), "matrix-");
        if (id > 0 && entry.is_directory())
            found[id] = entry.path();
    }
    return found;
}

Submission new_submission(const std::filesystem::path& matrix_dir) {
    std::filesystem::create_directories(matrix_dir);
    int next = 1;
    for (const auto& entry : std::filesystem::directory_iterator(matrix_dir)) {
        const auto n = numbered(entry.path().filename().string(), "sub-");
        next = std::max(next, static_cast<int>(n) + 1);
    }
    Submission s;
    s.number = next;
    s.dir = matrix_dir / fmt::format("sub-{}", next);
    std::filesystem::create_directory(s.dir);
    return s;
}

void write_submission(const Submission& s) {
    const nlohmann::json j{{"job_id", s.job_id},
                           {"cells", s.cell_keys},
                           {"time_per_cell", s.time_per_cell},
                           {"timeout_s", s.timeout_s}};
    const auto temp = s.dir / (std::string(kManifest) + ".tmp");
    {
        std::ofstream file(temp);
        file << j.dump(1);
        if (!file)
            throw std::runtime_error("cannot write " + temp.string());
    }
    std::filesystem::rename(temp, s.dir / kManifest);
}

Submission read_submission(const std::filesystem::path& dir) {
    std::ifstream file(dir / kManifest);
    if (!file)
        throw std::runtime_error("cannot read " + (dir / kManifest).string());
    const auto j = nlohmann::json::parse(file);
    Submission s;
    s.dir = dir;
    s.number = static_cast<int>(numbered(dir.filename().string(), "sub-"));
    s.job_id = j.at("job_id").get<std::string>();
    s.cell_keys = j.at("cells").get<std::vector<std::string>>();
    s.time_per_cell = j.at("time_per_cell").get<std::string>();
    s.timeout_s = j.at("timeout_s").get<long>();
    return s;
}

bool write_failure_marker(const Submission& s, const SlurmTask& task) {
    const auto final_file = s.failure_file(task.index);
    std::error_code ec;
    if (std::filesystem::exists(final_file, ec))
        return true;
    const nlohmann::json j{{"job_id", task.job_id},    {"index", task.index},
                           {"state", task.state_text}, {"node", task.node},
                           {"elapsed", task.elapsed},  {"reason", task.reason}};
    const auto temp = std::filesystem::path(final_file.string() + ".tmp");
    {
        std::ofstream file(temp);
        file << j.dump(1);
        if (!file) {
            std::filesystem::remove(temp, ec);
            return false;
        }
    }
    std::filesystem::rename(temp, final_file, ec);
    return !ec;
}

std::optional<SlurmTask> read_failure_marker(const Submission& s, int index) {
    std::ifstream file(s.failure_file(index));
    if (!file)
        return std::nullopt;
    const auto j = nlohmann::json::parse(file, nullptr, false);
    if (!j.is_object())
        return std::nullopt;
    SlurmTask task;
    task.job_id = j.value("job_id", "");
    task.index = j.value("index", index);
    task.state_text = j.value("state", "");
    task.state = parse_slurm_state(task.state_text);
    task.node = j.value("node", "");
    task.elapsed = j.value("elapsed", "");
    task.reason = j.value("reason", "");
    // A marker is only ever written for an ended task.
    if (!has_ended(task.state))
        return std::nullopt;
    return task;
}

std::vector<Submission> read_submissions(const std::filesystem::path& matrix_dir) {
    std::vector<Submission> found;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(matrix_dir, ec)) {
        if (numbered(entry.path().filename().string(), "sub-") > 0 &&
            std::filesystem::exists(entry.path() / kManifest))
            found.push_back(read_submission(entry.path()));
    }
    std::sort(found.begin(), found.end(),
              [](const Submission& a, const Submission& b) { return a.number < b.number; });
    return found;
}

}  // namespace trainscope::harness
