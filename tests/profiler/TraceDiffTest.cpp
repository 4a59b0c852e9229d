// trainscope diff's analysis on hand-made traces: new and missing names, the shared
// name normalisation, the sort order, step ranges, categories and self time.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "HandBuiltTrace.hpp"
#include "profiler/analysis/OpSelfTime.hpp"
#include "profiler/analysis/ShortKernelName.hpp"
#include "profiler/analysis/TraceDiff.hpp"

namespace trainscope::profiler {
namespace {

using testing::HandBuiltTrace;

const TraceDiffRow* row_named(const TraceDiff& d, std::string_view name,
                              DiffSubject subject = DiffSubject::Kernel) {
    for (const auto& r : d.rows) {
        if (r.name == name && r.subject == subject)
            return &r;
    }
    return nullptr;
}

constexpr const char* kAddFloat =
    "void at::native::vectorized_elementwise_kernel<4, float>(int, float*)";
constexpr const char* kAddHalf =
    "void at::native::vectorized_elementwise_kernel<2, c10::Half>(int, c10::Half*)";

TEST(NormalizeKernelName, DropsReturnTypeTemplateArgumentsAndParameters) {
    EXPECT_EQ(normalize_kernel_name(kAddFloat), "at::native::vectorized_elementwise_kernel");
    EXPECT_EQ(normalize_kernel_name(
                  "void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned "
                  "int, 4, 64, 64>(float*, at::native::(anonymous "
                  "namespace)::CatArrInputTensorMetadata<float, "
                  "unsigned int, 64, 64>, int)"),
              "at::native::(anonymous namespace)::CatArrayBatchedCopy");
    EXPECT_EQ(normalize_kernel_name("void ns::Outer<int>::inner<float>(int)"), "ns::Outer::inner");
    EXPECT_EQ(normalize_kernel_name("volta_sgemm_128x64_nn"), "volta_sgemm_128x64_nn");
    EXPECT_EQ(normalize_kernel_name("broken<(int"), "broken<(int");
    // Namespaces stay: two libraries' reduce_kernel are two kernels.
    EXPECT_NE(normalize_kernel_name("void a::reduce_kernel<1>()"),
              normalize_kernel_name("void b::reduce_kernel<1>()"));
}

TEST(TraceDiff, NewMissingAndChangedNamesSortedByAbsoluteChange) {
    HandBuiltTrace a;
    a.kernel(0, 7, "volta_sgemm_128x64_nn", 0, 100);
    a.kernel(0, 7, "volta_sgemm_128x64_nn", 200, 300);
    a.kernel(0, 7, "old_kernel", 400, 450);
    a.memcpy(0, 7, 500, 530, 64);
    HandBuiltTrace b;
    b.kernel(0, 7, "volta_sgemm_128x64_nn", 0, 400);  // +200 ns, one call fewer
    b.kernel(0, 7, "new_kernel", 500, 510);
    b.memcpy(0, 7, 600, 630, 64);  // unchanged
    const TraceDiff d = diff_traces(a.trace(), b.trace());
    ASSERT_EQ(d.rows.size(), 4u);
    EXPECT_EQ(d.rows[0].name, "volta_sgemm_128x64_nn");
    EXPECT_EQ(d.rows[1].name, "old_kernel");
    EXPECT_EQ(d.rows[2].name, "new_kernel");
    EXPECT_EQ(d.rows[3].name, "Memcpy HtoD (Pinned -> Device)");
    const TraceDiffRow& gemm = d.rows[0];
    EXPECT_EQ(gemm.a.count, 2);
    EXPECT_EQ(gemm.b.count, 1);
    EXPECT_EQ(gemm.a.total_ns, 200);
    EXPECT_EQ(gemm.b.total_ns, 400);
    ASSERT_TRUE(gemm.a.mean_ns());
    EXPECT_DOUBLE_EQ(*gemm.a.mean_ns(), 100.0);
    EXPECT_EQ(gemm.change_ns(), 200);
    ASSERT_TRUE(gemm.relative());
    EXPECT_DOUBLE_EQ(*gemm.relative(), 1.0);
    EXPECT_EQ(gemm.presence(), DiffPresence::Both);
    EXPECT_EQ(d.rows[1].presence(), DiffPresence::Missing);
    EXPECT_EQ(d.rows[1].change_ns(), -50);
    EXPECT_EQ(d.rows[2].presence(), DiffPresence::New);
    EXPECT_FALSE(d.rows[2].relative());
    // A side that lacks the name has no mean (not 0 ns).
    EXPECT_FALSE(d.rows[1].b.mean_ns());
    EXPECT_FALSE(d.rows[2].a.mean_ns());
    ASSERT_TRUE(d.rows[2].b.mean_ns());
    EXPECT_DOUBLE_EQ(*d.rows[2].b.mean_ns(), 10.0);
    EXPECT_EQ(d.rows[3].change_ns(), 0);
    EXPECT_EQ(d.rows[3].category, KernelCategory::MemcpyMemset);
}

TEST(TraceDiff, AWindowPerTraceTakesTheWorkStartingInIt) {
    HandBuiltTrace a;
    a.kernel(0, 7, "volta_sgemm_128x64_nn", 0, 100);
    a.kernel(0, 7, "volta_sgemm_128x64_nn", 200, 300);  // starts inside, ends outside
    a.kernel(0, 7, "old_kernel", 400, 450);
    HandBuiltTrace b;
    b.kernel(0, 7, "volta_sgemm_128x64_nn", 1000, 1400);
    TraceDiffOptions options;
    options.window_a = {0, 250};
    options.window_b = {1000, 2000};
    const TraceDiff d = diff_traces(a.trace(), b.trace(), options);
    ASSERT_EQ(d.rows.size(), 1u);
    EXPECT_EQ(d.rows[0].a.count, 2);
    EXPECT_EQ(d.rows[0].a.total_ns, 200);
    EXPECT_EQ(d.rows[0].b.total_ns, 400);
}

TEST(TraceDiff, InstantiationsOfOneKernelAreOneRowUnlessExactNames) {
    HandBuiltTrace a;
    a.kernel(0, 7, kAddFloat, 0, 100);
    HandBuiltTrace b;
    b.kernel(0, 7, kAddFloat, 0, 100);
    b.kernel(0, 7, kAddHalf, 200, 250);
    const TraceDiff merged = diff_traces(a.trace(), b.trace());
    ASSERT_EQ(merged.rows.size(), 1u);
    EXPECT_EQ(merged.rows[0].name, "at::native::vectorized_elementwise_kernel");
    EXPECT_EQ(merged.rows[0].b.count, 2);
    EXPECT_EQ(merged.rows[0].change_ns(), 50);
    EXPECT_EQ(merged.rows[0].variants, 2);
    EXPECT_EQ(merged.rows[0].category, KernelCategory::Elementwise);

    TraceDiffOptions exact;
    exact.exact_names = true;
    const TraceDiff apart = diff_traces(a.trace(), b.trace(), exact);
    ASSERT_EQ(apart.rows.size(), 2u);
    EXPECT_EQ(apart.rows[0].name, kAddHalf);
    EXPECT_EQ(apart.rows[0].presence(), DiffPresence::New);
    EXPECT_EQ(apart.rows[1].change_ns(), 0);
}

TEST(TraceDiff, CategoriesSumTheirRows) {
    HandBuiltTrace a;
    a.kernel(0, 7, "volta_sgemm_128x64_nn", 0, 100);
    a.kernel(0, 7, "cutlass_80_tensorop_s1688gemm_64x64", 100, 150);
    a.kernel(0, 7, "implicit_convolve_sgemm", 200, 260);
    HandBuiltTrace b;
    b.kernel(0, 7, "volta_sgemm_128x64_nn", 0, 120);
    b.kernel(0, 7, "implicit_convolve_sgemm", 200, 220);
    const TraceDiff d = diff_traces(a.trace(), b.trace());
    ASSERT_EQ(d.categories.size(), 2u);
    EXPECT_EQ(d.categories[0].category, KernelCategory::Convolution);  // -40 before -30
    EXPECT_EQ(d.categories[0].change_ns(), -40);
    EXPECT_EQ(d.categories[1].category, KernelCategory::Gemm);
    EXPECT_EQ(d.categories[1].a.count, 2);
    EXPECT_EQ(d.categories[1].a.total_ns, 150);
    EXPECT_EQ(d.categories[1].b.total_ns, 120);
}

// Two ProfilerStep ranges (Kineto's, numbered 5 and 6); step 6's kernel starts after
// the range ends (the GPU runs behind) but was launched inside it.
HandBuiltTrace two_step_trace(std::int64_t gemm_ns) {
    HandBuiltTrace t;
    t.host_op(1, "ProfilerStep#5", 0, 1000);
    t.host_op(1, "ProfilerStep#6", 1000, 2000);
    t.host_op(1, "aten::mm", 100, 200, 1);
    t.host_op(1, "nn.Module: Linear_0", 90, 210, 1);
    t.host_op(1, "torch/nn/modules/module.py(1743): _call_impl", 90, 210, 1);
    t.host_op(1, "<frozen os>(808): getenv", 90, 95, 2);
    t.host_op(1, "aten::mm", 1100, 1300, 1);
    t.runtime_call(1, "cudaLaunchKernel", 150, 160, 1);
    t.runtime_call(1, "cudaLaunchKernel", 1900, 1910, 2);
    t.kernel(0, 7, "volta_sgemm_128x64_nn", 300, 300 + gemm_ns, 1);
    t.kernel(0, 7, "volta_sgemm_128x64_nn", 2100, 2100 + 2 * gemm_ns, 2);
    return t;
}

TraceDiff all_of(HandBuiltTrace& a, HandBuiltTrace& b) {
    return diff_traces(a.trace(), b.trace());
}

TEST(TraceDiff, StepRangeTakesGpuWorkByItsLaunch) {
    auto a = two_step_trace(100);
    auto b = two_step_trace(150);
    TraceDiffOptions only6;
    only6.steps = StepRange{6, 6};
    const TraceDiff d = diff_traces(a.trace(), b.trace(), only6);
    EXPECT_EQ(d.steps_a, 1);
    EXPECT_EQ(d.steps_b, 1);
    const TraceDiffRow* gemm = row_named(d, "volta_sgemm_128x64_nn");
    ASSERT_NE(gemm, nullptr);
    EXPECT_EQ(gemm->a.count, 1);
    EXPECT_EQ(gemm->a.total_ns, 200);
    EXPECT_EQ(gemm->b.total_ns, 300);
    const TraceDiffRow* mm = row_named(d, "aten::mm", DiffSubject::Operator);
    ASSERT_NE(mm, nullptr);
    EXPECT_EQ(mm->a.count, 1);
    EXPECT_EQ(mm->a.total_ns, 200);
    // Steps are steps, not operators, and Python frames wrap operators.
    EXPECT_EQ(row_named(d, "ProfilerStep#6", DiffSubject::Operator), nullptr);
    EXPECT_EQ(row_named(all_of(a, b), "nn.Module: Linear_0", DiffSubject::Operator), nullptr);
    EXPECT_EQ(all_of(a, b).rows.size(), 2u);

    const TraceDiff all = diff_traces(a.trace(), b.trace());
    EXPECT_EQ(all.steps_a, 2);
    EXPECT_EQ(row_named(all, "volta_sgemm_128x64_nn")->a.count, 2);
    TraceDiffOptions kernels_only;
    kernels_only.operators = false;
    EXPECT_EQ(row_named(diff_traces(a.trace(), b.trace(), kernels_only), "aten::mm",
                        DiffSubject::Operator),
              nullptr);
}

TEST(TraceDiff, PerStepDividesTheStepsWorkByTheStepCount) {
    auto a = two_step_trace(100);
    a.kernel(0, 7, "volta_sgemm_128x64_nn", 2500, 2600);  // after the steps: evaluation
    auto b = two_step_trace(150);
    TraceDiffOptions per_step;
    per_step.per_step = true;
    const TraceDiff d = diff_traces(a.trace(), b.trace(), per_step);
    ASSERT_TRUE(d.per_step);
    const TraceDiffRow* gemm = row_named(d, "volta_sgemm_128x64_nn");
    ASSERT_NE(gemm, nullptr);
    EXPECT_EQ(gemm->a.count, 2);  // counts and totals stay whole
    EXPECT_EQ(gemm->a.total_ns, 300);
    EXPECT_DOUBLE_EQ(gemm->a.time_ns, 150.0);
    EXPECT_DOUBLE_EQ(gemm->b.time_ns, 225.0);
    EXPECT_DOUBLE_EQ(gemm->change_ns(), 75.0);
    EXPECT_DOUBLE_EQ(*gemm->relative(), 0.5);

    HandBuiltTrace no_steps;
    no_steps.kernel(0, 7, "volta_sgemm_128x64_nn", 0, 100);
    const TraceDiff totals = diff_traces(a.trace(), no_steps.trace(), per_step);
    EXPECT_FALSE(totals.per_step);
    EXPECT_DOUBLE_EQ(row_named(totals, "volta_sgemm_128x64_nn")->a.time_ns, 400.0);
}

TEST(TraceDiff, StepsAreNumberedByTheirNamesOrByPosition) {
    auto kineto = two_step_trace(100);
    EXPECT_EQ(steps_in_range(kineto.trace(), StepRange{6, std::nullopt}),
              std::vector<std::int64_t>{6});
    HandBuiltTrace ours;
    ours.nvtx_range(1, "step", 0, 10);
    ours.nvtx_range(1, "step", 10, 20);
    ours.nvtx_range(1, "step", 20, 30);
    EXPECT_EQ(steps_in_range(ours.trace(), StepRange{1, 2}), (std::vector<std::int64_t>{1, 2}));
    EXPECT_TRUE(steps_in_range(ours.trace(), StepRange{7, 9}).empty());
}

TEST(TraceDiff, ParsesStepRanges) {
    const auto r = parse_step_range("3:5");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->first, 3);
    EXPECT_EQ(r->last, 5);
    EXPECT_EQ(parse_step_range("4")->last, 4);
    EXPECT_FALSE(parse_step_range("7:")->last);
    EXPECT_FALSE(parse_step_range(":7")->first);
    for (const char* bad : {"", ":", "5:3", "a:b", "-1:2", "1:2:3", "1.5"})
        EXPECT_FALSE(parse_step_range(bad)) << bad;
}

// Two ranks run the same steps at the same time: step N is step N of each rank, the work
// is checked against the steps of its own rank, and per-step times divide by the steps
// per rank.
TEST(TraceDiff, StepsOfAMultiRankTraceAreNumberedAndCheckedPerRank) {
    HandBuiltTrace a;
    for (const std::int64_t rank : {0, 1}) {
        const std::int64_t shift = rank * 10;  // rank 1 runs 10 ns behind rank 0
        a.nvtx_range(1 + rank, "ProfilerStep#0", shift, 100 + shift);
        a.nvtx_range(1 + rank, "ProfilerStep#1", 100 + shift, 200 + shift);
        a.kernel(static_cast<std::int32_t>(rank), 7, "gemm", 50 + shift, 60 + shift);
        a.kernel(static_cast<std::int32_t>(rank), 7, "gemm", 150 + shift, 160 + shift);
    }
    // Rank 1's step 0, though rank 0's step 1 has begun.
    a.kernel(1, 7, "late", 105, 106);
    Trace& ta = a.trace();
    for (Lane& lane : ta.lanes)
        lane.rank = lane.device == 1 || lane.stream_or_thread == 2 ? 1 : 0;
    ta.world_size = 2;

    const auto steps = training_steps(ta);
    ASSERT_EQ(steps.size(), 4u);
    EXPECT_EQ(count_training_steps(ta), 4);
    for (const auto& s : steps)
        EXPECT_EQ(s.number, s.begin_ns % 100 == 0 ? s.begin_ns / 100 : (s.begin_ns - 10) / 100);
    EXPECT_EQ(steps_in_range(ta, StepRange{}), (std::vector<std::int64_t>{0, 1}));

    HandBuiltTrace b;
    b.nvtx_range(1, "ProfilerStep#0", 0, 100);
    b.nvtx_range(1, "ProfilerStep#1", 100, 200);
    b.kernel(0, 7, "gemm", 150, 170);
    TraceDiffOptions options;
    options.steps = StepRange{1, 1};
    const TraceDiff one = diff_traces(ta, b.trace(), options);
    EXPECT_EQ(one.steps_a, 1);
    EXPECT_EQ(one.ranks_a, 2);
    EXPECT_EQ(one.ranks_b, 1);
    const TraceDiffRow* gemm = row_named(one, "gemm");
    ASSERT_NE(gemm, nullptr);
    EXPECT_EQ(gemm->a.count, 2);  // step 1 of each rank
    EXPECT_EQ(gemm->a.total_ns, 20);
    EXPECT_EQ(row_named(one, "late"), nullptr);

    TraceDiffOptions per_step;
    per_step.per_step = true;
    const TraceDiff d = diff_traces(ta, b.trace(), per_step);
    ASSERT_TRUE(d.per_step);
    EXPECT_EQ(d.steps_a, 2);  // per rank
    gemm = row_named(d, "gemm");
    ASSERT_NE(gemm, nullptr);
    EXPECT_EQ(gemm->a.count, 4);
    EXPECT_DOUBLE_EQ(gemm->a.time_ns, 20.0);  // 40 ns over both ranks' 2 steps
    EXPECT_DOUBLE_EQ(gemm->b.time_ns, 10.0);
}

// A PyTorch CPU trace's ops as torch.profiler nests them, recorded children first (the
// order does not matter), inside a Python frame that is not an op: linear holds t and
// addmm; conv2d holds convolution, which holds _convolution, which holds the mkldnn kernel
// that does the work, lasting `conv_ns`.
HandBuiltTrace nested_cpu_ops(std::int64_t conv_ns) {
    HandBuiltTrace t;
    t.host_op(1, "aten::addmm", 10, 90, 2);
    t.host_op(1, "aten::t", 5, 10, 2);
    t.host_op(1, "aten::linear", 0, 100, 1);
    t.host_op(1, "nn.Module: Linear_0", -5, 105);
    const std::int64_t end = 215 + conv_ns;
    t.host_op(1, "aten::conv2d", 200, end + 15);
    t.host_op(1, "aten::convolution", 205, end + 10, 1);
    t.host_op(1, "aten::_convolution", 210, end + 5, 2);
    t.host_op(1, "aten::mkldnn_convolution", 215, end, 3);
    return t;
}

// Nested ops are rows of their own: their self times add up to the time the outermost
// ops cover, once, where the totals count the convolution four times; the changes and
// the order follow self time, so the op whose own work changed comes first, not its
// wrappers.
TEST(TraceDiff, SelfTimeCountsNestedOpsOnceAndOrdersTheRows) {
    auto a = nested_cpu_ops(170);
    auto b = nested_cpu_ops(70);
    const TraceDiff d = diff_traces(a.trace(), b.trace());
    std::int64_t self = 0;
    std::int64_t total = 0;
    for (const TraceDiffRow& row : d.rows) {
        EXPECT_EQ(row.subject, DiffSubject::Kernel) << "a CPU trace's ops are its device work";
        self += row.a.self_ns;
        total += row.a.total_ns;
    }
    EXPECT_EQ(self, 100 + 200) << "linear and conv2d, the outermost ops";
    EXPECT_EQ(total, 100 + 5 + 80 + 200 + 190 + 180 + 170);
    EXPECT_EQ(row_named(d, "nn.Module: Linear_0"), nullptr) << "a Python frame is no op";
    const TraceDiffRow* linear = row_named(d, "aten::linear");
    ASSERT_NE(linear, nullptr);
    EXPECT_EQ(linear->a.total_ns, 100);
    EXPECT_EQ(linear->a.self_ns, 15);
    EXPECT_DOUBLE_EQ(linear->a.self_time_ns, 15.0);
    const TraceDiffRow* conv2d = row_named(d, "aten::conv2d");
    ASSERT_NE(conv2d, nullptr);
    EXPECT_EQ(conv2d->a.self_ns, 10);
    EXPECT_EQ(conv2d->change_ns(), 0.0) << "its total fell by 100 ns, its own time did not";
    EXPECT_EQ(conv2d->b.total_ns - conv2d->a.total_ns, -100);
    EXPECT_EQ(d.rows[0].name, "aten::mkldnn_convolution");
    EXPECT_EQ(d.rows[0].change_ns(), -100.0);
    std::int64_t category_self = 0;
    for (const CategoryDiffRow& c : d.categories)
        category_self += c.a.self_ns;
    EXPECT_EQ(category_self, 300);

    // In a GPU trace the host ops are the operators: the same self times.
    a.kernel(0, 7, "volta_sgemm_128x64_nn", 20, 80);
    const TraceDiff gpu = diff_traces(a.trace(), b.trace());
    const TraceDiffRow* op = row_named(gpu, "aten::linear", DiffSubject::Operator);
    ASSERT_NE(op, nullptr);
    EXPECT_EQ(op->a.self_ns, 15);
    EXPECT_EQ(row_named(gpu, "volta_sgemm_128x64_nn")->a.self_ns, 60) << "a kernel's own time";
}

// torch 1.13 writes whole microseconds: a nested op may end 1 us after its parent. That
// microsecond is the child's, so self times still cover each instant once; a zero-length
// op and ops on another lane change nothing.
TEST(OpSelfTime, AnOpOverhangingItsParentKeepsItsOwnTimeAndEachInstantCountsOnce) {
    HandBuiltTrace t;
    t.host_op(1, "aten::to", 0, 100);
    t.host_op(1, "aten::_to_copy", 10, 101, 1);  // 1 past its parent's end
    t.host_op(1, "aten::empty", 50, 50, 2);
    t.host_op(1, "aten::relu", 101, 120);
    t.host_op(2, "aten::add", 0, 30);
    const Trace& trace = t.trace();
    const std::vector<std::int64_t> self =
        op_self_times(trace, std::vector<bool>(trace.activities.size(), true));
    std::map<std::string, std::int64_t> by_name;
    for (std::size_t i = 0; i < trace.activities.size(); ++i)
        by_name[trace.strings.at(trace.activities[i].name)] = self[i];
    EXPECT_EQ(by_name["aten::to"], 10);
    EXPECT_EQ(by_name["aten::_to_copy"], 91);
    EXPECT_EQ(by_name["aten::empty"], 0);
    EXPECT_EQ(by_name["aten::relu"], 19);
    EXPECT_EQ(by_name["aten::add"], 30);
    // Not an op: its whole duration.
    std::vector<bool> all_but_first(trace.activities.size(), true);
    for (std::size_t i = 0; i < trace.activities.size(); ++i)
        all_but_first[i] = trace.strings.at(trace.activities[i].name) != "aten::to";
    const auto without_to = op_self_times(trace, all_but_first);
    for (std::size_t i = 0; i < trace.activities.size(); ++i) {
        if (trace.strings.at(trace.activities[i].name) == "aten::to") {
            EXPECT_EQ(without_to[i], 100);
        }
    }
}

}  // namespace
}  // namespace trainscope::profiler
