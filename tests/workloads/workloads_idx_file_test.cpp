// The IDX reader on Debian's Fashion-MNIST and on broken copies of it.
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "workloads/datasets/DatasetSelection.hpp"
#include "workloads/datasets/IdxFile.hpp"
#include "workloads/training/ConfigError.hpp"

namespace trainscope::workloads {
namespace {

namespace fs = std::filesystem;

const fs::path kLabels = fs::path(kFashionMnistDir) / "t10k-labels-idx1-ubyte.gz";
const fs::path kImages = fs::path(kFashionMnistDir) / "t10k-images-idx3-ubyte.gz";

class WorkloadsIdxFile : public ::testing::Test {
  protected:
    void SetUp() override {
        if (!fs::exists(kLabels)) {
            GTEST_SKIP() << kLabels << " missing: scripts/bootstrap installs dataset-fashion-mnist";
        }
        dir_ =
            fs::temp_directory_path() /
            ("workloads_idx_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }

    static std::vector<unsigned char> raw_bytes(const fs::path& gz) {
        gzFile file = gzopen(gz.c_str(), "rb");
        std::vector<unsigned char> bytes;
        unsigned char buffer[65536];
        int got = 0;
        while ((got = gzread(file, buffer, sizeof buffer)) > 0) {
            bytes.insert(bytes.end(), buffer, buffer + got);
        }
        gzclose(file);
        return bytes;
    }

    fs::path write(const std::string& name, const std::vector<unsigned char>& bytes) {
        const fs::path path = dir_ / name;
        std::ofstream(path, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()),
                   static_cast<std::streamsize>(bytes.size()));
        return path;
    }

    static std::vector<unsigned char> file_bytes(const fs::path& path) {
        std::ifstream in(path, std::ios::binary);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }

    static std::string error_of(const fs::path& path) {
        try {
            read_idx_file(path);
        } catch (const ConfigError& error) {
            return error.what();
        }
        return "";
    }

    fs::path dir_;
};

TEST_F(WorkloadsIdxFile, ReadsDebianFashionMnist) {
    const IdxArray labels = read_idx_file(kLabels);
    ASSERT_EQ(labels.dims, std::vector<std::uint32_t>{10000});
    ASSERT_EQ(labels.values.size(), 10000u);
    EXPECT_EQ(labels.values[0], 9);  // the first test image is an ankle boot
    std::vector<int> per_class(10, 0);
    for (std::uint8_t label : labels.values) {
        ASSERT_LT(label, 10);
        ++per_class[label];
    }
    for (int count : per_class) {
        EXPECT_EQ(count, 1000);  // Fashion-MNIST's test set is balanced
    }
    const IdxArray images = read_idx_file(kImages);
    EXPECT_EQ(images.dims, (std::vector<std::uint32_t>{10000, 28, 28}));
    EXPECT_EQ(images.values.size(), 10000u * 28u * 28u);
    EXPECT_EQ(read_idx_dims(kImages), images.dims);
}

TEST_F(WorkloadsIdxFile, ReadsUncompressedFiles) {
    const fs::path raw = write("t10k-labels-idx1-ubyte", raw_bytes(kLabels));
    EXPECT_EQ(read_idx_file(raw).values, read_idx_file(kLabels).values);
}

TEST_F(WorkloadsIdxFile, TruncatedRawFileNamesTheFile) {
    std::vector<unsigned char> bytes = raw_bytes(kLabels);
    bytes.resize(bytes.size() - 100);
    const fs::path path = write("short-labels", bytes);
    const std::string message = error_of(path);
    EXPECT_NE(message.find(path.string()), std::string::npos) << message;
    EXPECT_NE(message.find("truncated"), std::string::npos) << message;
}

TEST_F(WorkloadsIdxFile, TruncatedHeader) {
    const fs::path path = write("header-only", {0, 0, 8, 3, 0, 0});
    EXPECT_NE(error_of(path).find("truncated"), std::string::npos) << error_of(path);
}

TEST_F(WorkloadsIdxFile, TruncatedGzipNamesTheFile) {
    std::vector<unsigned char> bytes = file_bytes(kImages);
    bytes.resize(bytes.size() / 2);
    const fs::path path = write("half.gz", bytes);
    const std::string message = error_of(path);
    EXPECT_NE(message.find(path.string()), std::string::npos) << message;
    EXPECT_FALSE(message.empty());
}

TEST_F(WorkloadsIdxFile, CorruptGzipIsReported) {
    std::vector<unsigned char> bytes = file_bytes(kLabels);
    for (std::size_t i = 20; i < bytes.size() - 8; i += 7) {
        bytes[i] ^= 0x5a;
    }
    const fs::path path = write("corrupt.gz", bytes);
    const std::string message = error_of(path);
    EXPECT_NE(message.find(path.string()), std::string::npos) << message;
}

TEST_F(WorkloadsIdxFile, WrongMagicNumber) {
    std::vector<unsigned char> bytes = raw_bytes(kLabels);
    bytes[0] = 0x1f;
    const fs::path path = write("bad-magic", bytes);
    EXPECT_NE(error_of(path).find("not an IDX file"), std::string::npos) << error_of(path);
    bytes[0] = 0;
    bytes[2] = 0x0d;  // float elements
    const fs::path floats = write("float-type", bytes);
    EXPECT_NE(error_of(floats).find("element type"), std::string::npos) << error_of(floats);
}

TEST_F(WorkloadsIdxFile, ExtraBytesAfterTheData) {
    std::vector<unsigned char> bytes = raw_bytes(kLabels);
    bytes.push_back(1);
    const fs::path path = write("long-labels", bytes);
    EXPECT_NE(error_of(path).find("bytes after"), std::string::npos) << error_of(path);
}

TEST_F(WorkloadsIdxFile, MissingFileSaysHowToInstall) {
    const std::string message = error_of(dir_ / "nothing-here.gz");
    EXPECT_NE(message.find("nothing-here.gz"), std::string::npos) << message;
    EXPECT_NE(message.find("scripts/bootstrap"), std::string::npos) << message;
}

}  // namespace
}  // namespace trainscope::workloads
