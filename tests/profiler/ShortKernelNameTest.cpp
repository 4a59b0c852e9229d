// Kernel names shortened as Nsight Systems shortens them, on names from real traces.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <memory>
#include <set>
#include <string>
#include <tuple>

#include "TraceFixtures.hpp"
#include "profiler/analysis/ShortKernelName.hpp"

namespace trainscope::profiler {
namespace {

using testing::kineto_fixture;
using testing::shared_trace_path;

// The one kernel name of a fixture that starts with `prefix` (the full names run to
// kilobytes, so the test names them by their start).
std::string kernel_starting_with(const Trace& trace, const std::string& prefix) {
    std::set<std::string> found;
    for (const Activity& a : trace.activities) {
        const std::string& name = trace.strings.at(a.name);
        if (a.kind == ActivityKind::Kernel && name.rfind(prefix, 0) == 0)
            found.insert(name);
    }
    EXPECT_EQ(found.size(), 1u) << prefix;
    return found.empty() ? std::string() : *found.begin();
}

using Case = std::tuple<std::string, std::string, std::string>;  // trace, name start, short
class ShortKernelNameOfRealKernel : public ::testing::TestWithParam<Case> {};

TEST_P(ShortKernelNameOfRealKernel, IsTheFunctionsOwnName) {
    const auto& [stem, prefix, expected] = GetParam();
    const std::string full = kernel_starting_with(kineto_fixture(stem), prefix);
    EXPECT_EQ(shorten_kernel_name(full), expected) << full;
}

INSTANTIATE_TEST_SUITE_P(
    KinetoTraces, ShortKernelNameOfRealKernel,
    ::testing::Values(
        Case{"v100_resnet50_training",
             "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>",
             "vectorized_elementwise_kernel"},
        Case{"v100_resnet50_training",
             "void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, "
             "at::native::func_wrapper_t<float, at::native::sum_functor",
             "reduce_kernel"},
        Case{"v100_resnet50_training", "void (anonymous namespace)::softmax_warp_forward<",
             "softmax_warp_forward"},
        Case{"v100_resnet50_training", "cask_cudnn::computeOffsetsKernel(", "computeOffsetsKernel"},
        Case{"v100_resnet50_training", "void cudnn::cnn::im2col4d_kernel<float, long>",
             "im2col4d_kernel"},
        Case{"v100_resnet50_training", "void implicit_convolve_sgemm<float, float, 128, 5, 5,",
             "implicit_convolve_sgemm"},
        Case{"v100_resnet50_training", "volta_sgemm_128x32_nt", "volta_sgemm_128x32_nt"},
        Case{"h100_vit_image_classification",
             "void at::native::(anonymous namespace)::CatArrayBatchedCopy<", "CatArrayBatchedCopy"},
        Case{"h100_vit_image_classification",
             "void cudnn::engines_precompiled::nchwToNhwcKernel<__nv_bfloat16, __nv_bfloat16, "
             "float, false, true, (cudnnKernelDataType_t)0>",
             "nchwToNhwcKernel"},
        Case{"h100_vit_image_classification", "void cutlass__5x_cudnn::Kernel<", "Kernel"},
        Case{"h100_bert_small_inference",
             "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_bf16_256x128", "Kernel2"},
        Case{"h100_bert_small_inference", "void pytorch_flash::flash_fwd_kernel<",
             "flash_fwd_kernel"},
        Case{"a100_two_streams_add", "void at::native::elementwise_kernel<128, 2, ",
             "elementwise_kernel"},
        Case{"a100_two_streams_add", "void epilogue::impl::globalKernel<", "globalKernel"},
        Case{"a100_two_streams_add", "ampere_sgemm_32x32_sliced1x4_tn",
             "ampere_sgemm_32x32_sliced1x4_tn"}));

TEST(ShortKernelName, EveryKinetoKernelBecomesAnIdentifierInsideItsFullName) {
    for (const char* stem : {"h100_bert_small_inference", "h100_vit_image_classification",
                             "v100_resnet50_training", "a100_two_streams_add"}) {
        const Trace& trace = kineto_fixture(stem);
        std::set<std::string> seen;
        for (const Activity& a : trace.activities) {
            const std::string& full = trace.strings.at(a.name);
            if (a.kind != ActivityKind::Kernel || !seen.insert(full).second)
                continue;
            const std::string s = shorten_kernel_name(full);
            ASSERT_FALSE(s.empty()) << full;
            EXPECT_EQ(s.find_first_of("<>()[]{}: "), std::string::npos) << full << " -> " << s;
            EXPECT_NE(full.find(s), std::string::npos) << full << " -> " << s;
        }
        EXPECT_GT(seen.size(), 2u) << stem;
    }
}

TEST(ShortKernelName, AgreesWithTheShortNameNsightSystemsStored) {
    sqlite3* raw = nullptr;
    const std::string path = shared_trace_path("nsys/a100_saxpy_mpi_cuda.sqlite").string();
    ASSERT_EQ(sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    const std::unique_ptr<sqlite3, decltype(&sqlite3_close)> db(raw, &sqlite3_close);
    sqlite3_stmt* raw_stmt = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db.get(),
                                 "SELECT d.value, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                                 "JOIN StringIds d ON d.id = k.demangledName "
                                 "JOIN StringIds s ON s.id = k.shortName",
                                 -1, &raw_stmt, nullptr),
              SQLITE_OK);
    const std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)> stmt(raw_stmt,
                                                                          &sqlite3_finalize);
    int rows = 0;
    while (sqlite3_step(stmt.get()) == SQLITE_ROW) {
        const std::string demangled =
            reinterpret_cast<const char*>(sqlite3_column_text(stmt.get(), 0));
        const std::string short_name =
            reinterpret_cast<const char*>(sqlite3_column_text(stmt.get(), 1));
        EXPECT_EQ(shorten_kernel_name(demangled), short_name) << demangled;
        ++rows;
    }
    EXPECT_EQ(rows, 5);
}

TEST(ShortKernelName, LeavesNamesItCannotParseAlone) {
    EXPECT_EQ(shorten_kernel_name("broken<int(float>"), "broken<int(float>");
    EXPECT_EQ(shorten_kernel_name("  relu_kernel  "), "relu_kernel");
    EXPECT_EQ(shorten_kernel_name("conv_fwd"), "conv_fwd");  // CPU backend ops
    EXPECT_EQ(
        shorten_kernel_name("std::enable_if<true, void>::type cub::DeviceScanKernel<int>(int)"),
        "DeviceScanKernel");
}

}  // namespace
}  // namespace trainscope::profiler
