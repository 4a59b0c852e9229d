#include <gtest/gtest.h>

#include "harness/cli/UsageError.hpp"
#include "harness/matrix/AxisCatalog.hpp"
#include "harness/matrix/Cell.hpp"
#include "harness/runner/MatrixPlan.hpp"
#include "workloads/training/TrainingConfig.hpp"

namespace trainscope::harness {
namespace {

std::string error_of(const AxisValues& axes) {
    try {
        expand_matrix(axes);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

TEST(MatrixExpansion, CartesianProductWithDefaults) {
    const auto cells =
        expand_matrix({{"precision", {"fp32", "fp64"}}, {"batch", {"16", "32", "64"}}});
    ASSERT_EQ(cells.size(), 6u);
    EXPECT_EQ(cells[0].at("precision"), "fp32");
    EXPECT_EQ(cells[0].at("batch"), "16");
    EXPECT_EQ(cells[1].at("batch"), "32");
    EXPECT_EQ(cells[3].at("precision"), "fp64");
    EXPECT_EQ(cells[0].at("model"), "seed-cnn");
    // A caching allocator by default, as PyTorch has; the engine's own default agrees.
    EXPECT_EQ(cells[0].at("allocator"), "pool");
    EXPECT_EQ(workloads::to_string(workloads::TrainingConfig{}.allocator), "pool");
    EXPECT_EQ(varying_axes(cells), (std::vector<std::string>{"precision", "batch"}));
}

TEST(MatrixExpansion, KeysAreCanonicalAndDistinct) {
    const auto cells = expand_matrix({{"batch", {"32", "64"}}});
    EXPECT_NE(cells[0].key(), cells[1].key());
    EXPECT_NE(cells[0].key().find("batch=32"), std::string::npos);
    EXPECT_EQ(cells[0].key(), expand_matrix({{"batch", {"32"}}})[0].key());
}

// `trainscope status` labels cells read back from the database by their key.
TEST(MatrixExpansion, AKeyReadsBackIntoTheSameCell) {
    for (const Cell& cell : expand_matrix({{"batch", {"32", "64"}}, {"precision", {"fp16"}}})) {
        const Cell back = Cell::from_key(cell.key());
        EXPECT_EQ(back.values, cell.values);
        EXPECT_EQ(back.key(), cell.key());
    }
    EXPECT_TRUE(Cell::from_key("").values.empty());
}

// A dataset folder may hold the key's separators; the key escapes them, and a key of
// plain values is the text stored before the escape existed, so an old database's cells
// still match (resume) and read back (status).
TEST(MatrixExpansion, AKeyKeepsSeparatorsInsideValuesAndPlainKeysAsTheyWere) {
    Cell cell = expand_matrix({{"batch", {"32"}}})[0];
    cell.values["dataset"] = "/data/a;b=c\\d";
    const std::string key = cell.key();
    EXPECT_NE(key.find("dataset=/data/a\\;b\\=c\\\\d"), std::string::npos) << key;
    EXPECT_EQ(Cell::from_key(key).values, cell.values);
    EXPECT_EQ(Cell::from_key(key).key(), key);

    // key() as it was before the escape: values as they are, in catalog order.
    const auto unescaped_key = [](const Cell& c) {
        std::string text;
        for (const auto& axis : axis_catalog()) {
            if (const auto it = c.values.find(axis.name); it != c.values.end())
                text += (text.empty() ? "" : ";") + axis.name + "=" + it->second;
        }
        return text;
    };
    for (const Cell& plain : expand_matrix(
             {{"model", {"resnet", "seed-cnn"}}, {"dataset", {"/data/idx-files", "synthetic"}}}))
        EXPECT_EQ(plain.key(), unescaped_key(plain));
    // As stored before: an unescaped '=' inside a value, a pair without '=' skipped.
    const Cell old = Cell::from_key("model=resnet;dataset=/d=1;junk;batch=8");
    EXPECT_EQ(old.values, (std::map<std::string, std::string>{
                              {"model", "resnet"}, {"dataset", "/d=1"}, {"batch", "8"}}));
}

TEST(MatrixExpansion, ErrorsNameAxisValueAndValidOnes) {
    const auto bad_precision = error_of({{"precision", {"fp8"}}});
    EXPECT_NE(bad_precision.find("'fp8'"), std::string::npos) << bad_precision;
    EXPECT_NE(bad_precision.find("precision"), std::string::npos);
    EXPECT_NE(bad_precision.find("fp32, tf32, fp16, bf16, fp64"), std::string::npos);
    const auto bad_batch = error_of({{"batch", {"0"}}});
    EXPECT_NE(bad_batch.find("positive integer"), std::string::npos) << bad_batch;
    EXPECT_NE(error_of({{"batch", {"12x"}}}).find("'12x'"), std::string::npos);
    EXPECT_NE(error_of({{"colour", {"red"}}}).find("unknown axis 'colour'"), std::string::npos);
    EXPECT_NE(error_of({{"batch", {"8", "8"}}}).find("twice"), std::string::npos);
    EXPECT_NE(error_of({{"learning_rate", {"-1"}}}).find("positive number"), std::string::npos);
}

TEST(MatrixExpansion, DeduplicateDropsCellsThatBecameEqual) {
    auto cells = expand_matrix({{"depth", {"8", "14"}}});
    for (auto& c : cells)
        c.values["depth"] = "n/a";
    EXPECT_EQ(deduplicate(cells).size(), 1u);
}

// (batch, framework) of each cell, in order.
std::vector<std::pair<std::string, std::string>> batch_and_framework(
    const std::vector<Cell>& cells) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const Cell& cell : cells)
        out.emplace_back(cell.at("batch"), cell.at("framework"));
    return out;
}

using Order = std::vector<std::pair<std::string, std::string>>;

// A comparison across frameworks pairs cells that differ only in framework: they run one
// after the other, not a whole matrix apart, and which goes first alternates.
TEST(MatrixExpansion, FrameworkVariesFastestAndAlternatesWhichGoesFirst) {
    std::vector<Cell> cells =
        expand_matrix({{"framework", {"trainscope", "pytorch"}}, {"batch", {"16", "32", "64"}}});
    EXPECT_EQ(batch_and_framework(cells), (Order{{"16", "trainscope"},
                                                 {"16", "pytorch"},
                                                 {"32", "trainscope"},
                                                 {"32", "pytorch"},
                                                 {"64", "trainscope"},
                                                 {"64", "pytorch"}}));
    alternate_framework_order(cells);
    EXPECT_EQ(batch_and_framework(cells), (Order{{"16", "trainscope"},
                                                 {"16", "pytorch"},
                                                 {"32", "pytorch"},
                                                 {"32", "trainscope"},
                                                 {"64", "trainscope"},
                                                 {"64", "pytorch"}}));
    // The keys stay in catalog order (framework first): existing databases' cells match.
    EXPECT_EQ(cells[0].key().rfind("framework=trainscope;model=seed-cnn;depth=20;", 0), 0u)
        << cells[0].key();
    EXPECT_EQ(cells[3].key(),
              expand_matrix({{"framework", {"trainscope"}}, {"batch", {"32"}}})[0].key());
    // The columns of a summary keep the catalog's order too.
    EXPECT_EQ(varying_axes(cells), (std::vector<std::string>{"framework", "batch"}));
}

// A case with one cell left (an exclude rule, a duplicate dropped) does not count: the
// cases that compare alternate among themselves.
TEST(MatrixExpansion, AlternationCountsOnlyCasesWithBothFrameworks) {
    std::vector<Cell> cells =
        expand_matrix({{"framework", {"trainscope", "pytorch"}}, {"batch", {"16", "32", "64"}}});
    cells.erase(cells.begin() + 3);  // batch 32 under pytorch
    alternate_framework_order(cells);
    EXPECT_EQ(batch_and_framework(cells), (Order{{"16", "trainscope"},
                                                 {"16", "pytorch"},
                                                 {"32", "trainscope"},
                                                 {"64", "pytorch"},
                                                 {"64", "trainscope"}}));
    std::vector<Cell> one_framework = expand_matrix({{"batch", {"16", "32"}}});
    const auto before = batch_and_framework(one_framework);
    alternate_framework_order(one_framework);
    EXPECT_EQ(batch_and_framework(one_framework), before);
}

// --resume finds a matrix whose cells an earlier version ran in another order.
TEST(MatrixExpansion, TheSameCellsInAnotherOrderAreTheSameMatrix) {
    const std::string a = R"({"cells": ["x", "y"], "settings": {"steps": 5}})";
    const std::string b = R"({"cells": ["y", "x"], "settings": {"steps": 5}})";
    EXPECT_TRUE(same_matrix(a, b));
    EXPECT_EQ(matrix_identity(a), matrix_identity(b));
    EXPECT_FALSE(same_matrix(a, R"({"cells": ["x"], "settings": {"steps": 5}})"));
    EXPECT_FALSE(same_matrix(a, R"({"cells": ["x", "y"], "settings": {"steps": 6}})"));
    EXPECT_FALSE(same_matrix("not json", "not json"));
}

}  // namespace
}  // namespace trainscope::harness
