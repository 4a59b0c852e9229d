#include "workloads/datasets/DatasetSelection.hpp"

#include <charconv>
#include <filesystem>

#include "workloads/datasets/IdxFile.hpp"
#include "workloads/datasets/IdxImageSource.hpp"
#include "workloads/datasets/SyntheticImageSource.hpp"
#include "workloads/training/ConfigError.hpp"

namespace trainscope::workloads {
namespace {

namespace fs = std::filesystem;

bool is_idx_dataset(const std::string& name) {
    return name == "fashion-mnist" || name == "mnist";
}

// Prefers the gzip file, as Debian ships it; takes the raw file otherwise.
fs::path idx_file(const fs::path& folder, const std::string& stem) {
    const fs::path gz = folder / (stem + ".gz");
    const fs::path raw = folder / stem;
    std::error_code ec;
    if (fs::is_regular_file(gz, ec)) {
        return gz;
    }
    if (fs::is_regular_file(raw, ec)) {
        return raw;
    }
    throw ConfigError("dataset: file " + gz.string() + " (or " + raw.string() +
                      ") not found; scripts/bootstrap installs Debian's dataset-fashion-mnist "
                      "into " +
                      kFashionMnistDir);
}

}  // namespace

fs::path dataset_folder(const TrainingConfig& config) {
    if (config.dataset == "fashion-mnist") {
        return config.dataset_dir.empty() ? fs::path(kFashionMnistDir)
                                          : fs::path(config.dataset_dir);
    }
    if (config.dataset == "mnist") {
        if (config.dataset_dir.empty()) {
            throw ConfigError(
                "dataset_dir: dataset=mnist needs dataset_dir, the folder with "
                "train-images-idx3-ubyte[.gz], train-labels-idx1-ubyte[.gz], "
                "t10k-images-idx3-ubyte[.gz] and t10k-labels-idx1-ubyte[.gz]");
        }
        return fs::path(config.dataset_dir);
    }
    std::error_code ec;
    if (!fs::is_directory(config.dataset, ec)) {
        throw ConfigError("dataset: '" + config.dataset +
                          "' is neither fashion-mnist, mnist, synthetic nor a folder with IDX "
                          "files");
    }
    return fs::path(config.dataset);
}

Shape parse_input_shape(const std::string& text) {
    std::int64_t dims[3] = {0, 0, 0};
    const char* cursor = text.data();
    const char* end = text.data() + text.size();
    bool ok = true;
    for (int i = 0; i < 3 && ok; ++i) {
        const auto [next, error] = std::from_chars(cursor, end, dims[i]);
        ok = error == std::errc() && dims[i] >= 1 && dims[i] <= 65536;
        cursor = next;
        if (i < 2) {
            ok = ok && cursor != end && *cursor == 'x';
            ++cursor;
        }
    }
    if (!ok || cursor != end) {
        throw ConfigError("input_shape: '" + text +
                          "' is not CxHxW with positive integers (for example 3x32x32)");
    }
    return Shape{dims[0], dims[1], dims[2]};
}

int dataset_classes(const TrainingConfig& config) {
    return is_idx_dataset(config.dataset) ? 10 : config.classes;
}

Shape dataset_sample_shape(const TrainingConfig& config) {
    if (config.dataset == "synthetic") {
        return parse_input_shape(config.input_shape);
    }
    const std::vector<std::uint32_t> dims =
        read_idx_dims(idx_file(dataset_folder(config), "train-images-idx3-ubyte"));
    if (dims.size() == 4) {
        return Shape{dims[1], dims[2], dims[3]};
    }
    if (dims.size() == 3) {
        return Shape{1, dims[1], dims[2]};
    }
    throw ConfigError("dataset: the training images are not N x H x W");
}

TrainingData load_training_data(const TrainingConfig& config) {
    TrainingData data;
    if (config.classes < 2) {
        throw ConfigError("classes: " + std::to_string(config.classes) + " must be at least 2");
    }
    if (config.dataset == "synthetic") {
        const Shape shape = parse_input_shape(config.input_shape);
        data.classes = config.classes;
        data.train = std::make_unique<SyntheticImageSource>(shape, config.classes,
                                                            kSyntheticTrainImages, config.seed, 0);
        data.test = std::make_unique<SyntheticImageSource>(shape, config.classes,
                                                           kSyntheticTestImages, config.seed, 1);
        data.description =
            "synthetic " + shape.to_string() + ", " + std::to_string(config.classes) + " classes";
        return data;
    }
    const fs::path folder = dataset_folder(config);
    // The MNIST family has ten classes whatever `classes` says.
    data.classes = dataset_classes(config);
    data.train =
        std::make_unique<IdxImageSource>(idx_file(folder, "train-images-idx3-ubyte"),
                                         idx_file(folder, "train-labels-idx1-ubyte"), data.classes);
    data.test =
        std::make_unique<IdxImageSource>(idx_file(folder, "t10k-images-idx3-ubyte"),
                                         idx_file(folder, "t10k-labels-idx1-ubyte"), data.classes);
    if (!(data.train->image_shape() == data.test->image_shape())) {
        throw ConfigError("dataset: training images are " + data.train->image_shape().to_string() +
                          " but test images " + data.test->image_shape().to_string());
    }
    data.description = config.dataset + " (" + folder.string() + ")";
    return data;
}

}  // namespace trainscope::workloads
