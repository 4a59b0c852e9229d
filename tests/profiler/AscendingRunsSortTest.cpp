#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "profiler/analysis/AscendingRunsSort.hpp"

namespace trainscope::profiler {
namespace {

using Keyed = std::pair<int, int>;  // (key, original position)

bool by_key(const Keyed& a, const Keyed& b) {
    return a.first < b.first;
}

// Interleaved ascending runs, as correlation ids of several streams in trace order, with
// equal keys across runs: the result must equal std::stable_sort's, ties included.
std::vector<Keyed> runs_of(int runs, int length, std::mt19937& random) {
    std::vector<Keyed> v;
    for (int r = 0; r < runs; ++r) {
        int key = static_cast<int>(random() % 5);
        for (int i = 0; i < length; ++i) {
            key += static_cast<int>(random() % 3);  // 0 keeps ties within a run too
            v.emplace_back(key, static_cast<int>(v.size()));
        }
    }
    return v;
}

TEST(AscendingRunsSort, EqualsStableSortForAnyNumberOfRuns) {
    std::mt19937 random(7);
    for (const int runs : {0, 1, 2, 3, 5, 8, 1500}) {
        std::vector<Keyed> v = runs_of(runs, 37, random);
        std::vector<Keyed> expected = v;
        std::stable_sort(expected.begin(), expected.end(), by_key);
        sort_ascending_runs(v.begin(), v.end(), by_key);
        EXPECT_EQ(v, expected) << runs << " runs";
    }
}

TEST(AscendingRunsSort, SortsShuffledInput) {
    std::mt19937 random(11);
    std::vector<std::uint64_t> v(5000);
    for (auto& x : v)
        x = random() % 1000;
    std::vector<std::uint64_t> expected = v;
    std::sort(expected.begin(), expected.end());
    sort_ascending_runs(v.begin(), v.end(), std::less<std::uint64_t>());
    EXPECT_EQ(v, expected);
}

}  // namespace
}  // namespace trainscope::profiler
