#include "workloads/training/TrainingSession.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#include "workloads/annotation/NvtxRange.hpp"
#include "workloads/backend/BackendRegistry.hpp"
#include "workloads/backend/CountingBackend.hpp"
#include "workloads/datasets/BatchLoader.hpp"
#include "workloads/datasets/DatasetSelection.hpp"
#include "workloads/distributed/BatchShard.hpp"
#include "workloads/distributed/CommunicatorFactory.hpp"
#include "workloads/distributed/GradientSync.hpp"
#include "workloads/distributed/MpiSession.hpp"
#include "workloads/distributed/RankThreads.hpp"
#include "workloads/memory/CachingPool.hpp"
#include "workloads/memory/TensorAllocator.hpp"
#include "workloads/models/ModelCatalog.hpp"
#include "workloads/numerics/LossScaler.hpp"
#include "workloads/optim/Optimizer.hpp"
#include "workloads/training/CapturedStep.hpp"
#include "workloads/training/ConfigValidation.hpp"
#include "workloads/training/Evaluation.hpp"
#include "workloads/training/StepCountRecorder.hpp"

namespace trainscope::workloads {
namespace {

// A batch on the backend, ready for its step, and the host time its staging took.
struct StagedBatch {
    Batch batch;
    std::int64_t index = -1;
    std::int64_t data_ns = 0;
};

// The objects of one run, declared so that tensors die before the allocators they
// came from and those before the backend.
class TrainingRun {
  public:
    TrainingRun(const TrainingConfig& config, TrainingObserver* observer);
    TrainingResult run();

  private:
    // Returns false when the observer asked to stop. next_index (-1: none) is the batch
    // of the next step, staged once this step's timed window has closed.
    bool train_step(std::int64_t batch_index, int epoch, std::int64_t next_index);
    // Gathers, scales and copies a batch to the backend: data staging, never inside a
    // step's timed window.
    StagedBatch stage_batch(std::int64_t batch_index);
    // Forward, loss, backward and update of one batch, queued on the backend. With loss
    // scaling (fp16) the gradients are checked into overflow_ and the updates skip
    // themselves on overflow where they run; the engine reads the flag after the step
    // (step_applied). The loss totals stay with the backend until take_loss_totals().
    void queue_step_work(StepContext& context, const Batch& batch, double loss_scale);
    // cuda_graph=true: eager warm-up, capture (again when the loss scale changed), or
    // replay of the step work.
    void run_captured_step(double loss_scale);
    // After synchronize(): whether the step's updates were applied; feeds the loss scaler.
    bool step_applied();
    void record_evaluation(int epoch);
    // ranks > 1: the MPI communicator of the world, checked against the config.
    std::unique_ptr<MpiCommunicator> join_ranks() const;
    void add_distributed_metrics();
    void report_parameters();

    const TrainingConfig& config_;
    TrainingObserver* observer_;
    PrecisionPolicy policy_;
    TrainingData data_;
    // Every run trains through the counting layer: its counts are run metrics.
    std::unique_ptr<CountingBackend> backend_;
    std::unique_ptr<CachingPool> pool_;
    // Bytes per tensor class of every allocator of the run (the captured step's too).
    MemoryLedger ledger_;
    std::unique_ptr<TensorAllocator> tensors_;
    std::unique_ptr<CapturedStep> captured_;  // cuda_graph=true only
    std::optional<StepContext> context_;
    std::unique_ptr<Model> model_;
    std::unique_ptr<Optimizer> optimizer_;
    std::unique_ptr<BatchLoader> train_loader_;
    std::unique_ptr<BatchLoader> test_loader_;
    std::optional<LossScaler> loss_scaler_;
    Tensor overflow_;  // f32 [1], Backend::flag_non_finite; loss scaling only
    bool previous_step_applied_ = true;
    TrainingResult result_;
    std::int64_t steps_done_ = 0;
    std::int64_t last_evaluated_step_ = -1;
    std::optional<StepCountRecorder> counts_;
    std::optional<StagedBatch> staged_;  // the next step's batch, staged during this step
    // ranks > 1 only (docs/distributed.md); the sync's views die before the communicator.
    std::unique_ptr<Communicator> communicator_;
    std::unique_ptr<GradientSync> gradient_sync_;
    std::string threads_rule_;  // how a multi-rank run chose its threads; "" when given
};

TrainingRun::TrainingRun(const TrainingConfig& config, TrainingObserver* observer)
    : config_(config), observer_(observer) {
    validate_run_parameters(config);
    policy_ = policy_for(config.precision);
    BackendOptions options;
    options.threads = config.threads;
    options.device = config.device;
    options.allocator = config.allocator;
    options.host_memory = config.host_memory;
    options.transfer = config.transfer;
    options.placement = config.placement;
    options.cuda_graph = config.cuda_graph;
    options.cudnn_algo = config.cudnn_algo;
    options.cudnn_workspace_bytes = config.cudnn_workspace_bytes;
    std::unique_ptr<MpiCommunicator> world = join_ranks();
    if (world && !is_backend(config.backend, BackendKind::cpu)) {
        options.device = config.device + world->local_rank();  // one GPU per rank
    }
    if (world && options.threads == 0) {
        // The ranks on a node share its cores (RankThreads.hpp).
        options.threads = default_rank_threads(
            static_cast<int>(std::thread::hardware_concurrency()), world->local_size());
        threads_rule_ =
            "cores / ranks on the node: " + std::to_string(std::thread::hardware_concurrency()) +
            " / " + std::to_string(world->local_size());
    }
    backend_ = std::make_unique<CountingBackend>(create_backend(config.backend, options));
    if (world) {
        communicator_ = make_gradient_communicator(std::move(world), *backend_);
    }
    counts_.emplace(*backend_);
    // The model first: its checks need only the sample shape (an IDX header), so a bad
    // model parameter fails before the dataset is read.
    model_ = build_model(config.model, config.model_params, dataset_sample_shape(config),
                         dataset_classes(config));
    model_->set_recompute(config.activations == Activations::recompute);
    data_ = load_training_data(config);
    if (config.batch > data_.train->size()) {
        throw ConfigError("batch: " + std::to_string(config.batch) +
                          " is larger than the training set (" +
                          std::to_string(data_.train->size()) + " images of " + data_.description +
                          "); use batch <= " + std::to_string(data_.train->size()));
    }
    if (!(data_.train->image_shape() == model_->input_shape())) {
        throw ConfigError("dataset: images are " + data_.train->image_shape().to_string() +
                          " but the header said " + model_->input_shape().to_string());
    }

    if (observer_ != nullptr) {
        ledger_.set_listener(observer_->memory_listener());
    }
    if (config.allocator == Allocator::pool) {
        pool_ = std::make_unique<CachingPool>(backend_->raw_allocator());
        tensors_ = std::make_unique<TensorAllocator>(*pool_, ledger_);
    } else {
        tensors_ = std::make_unique<TensorAllocator>(backend_->raw_allocator(), ledger_);
    }
    counts_->watch(*tensors_);
    // The backend's own op memory (convolution workspaces) counts as the workspace class.
    backend_->set_workspace_ledger(&ledger_);
    backend_->set_math_mode(policy_.math);
    // The backend decides where activations live: f16/bf16 on a backend that stores mixed
    // precision natively, else the master dtype with round_storage emulating them.
    context_.emplace(StepContext{*backend_, *tensors_, policy_,
                                 backend_->storage_dtype(policy_.precision), true, false});
    model_->materialize(*context_, config.seed);
    optimizer_ = make_optimizer(config, model_->flat_parameters(), *context_);
    if (communicator_) {
        gradient_sync_ = std::make_unique<GradientSync>(
            *communicator_, *model_, static_cast<std::int64_t>(config.bucket_mb * 1048576.0),
            config.overlap == Overlap::on);
    }
    // resident keeps both sets on the backend; the CPU backend's validation admits only
    // stream, GPU backends implement gather_rows for it.
    const BatchPlacement placement = config.placement;
    train_loader_ =
        std::make_unique<BatchLoader>(*data_.train, config.batch, true, config.seed, placement);
    test_loader_ =
        std::make_unique<BatchLoader>(*data_.test, config.batch, false, config.seed, placement);
    if (communicator_) {
        train_loader_->set_shard(
            shard_rows(config.batch, communicator_->rank(), communicator_->size()));
    }
    train_loader_->prepare(*context_);
    test_loader_->prepare(*context_);
    if (policy_.loss_scaling) {
        LossScaler::Settings settings;
        settings.initial_scale = config.initial_loss_scale;
        settings.growth_interval = config.loss_scale_growth_interval;
        loss_scaler_.emplace(settings);
        // Made once: a captured step reads and writes it at this address.
        overflow_ = tensors_->allocate(Shape{1}, DType::f32, TensorClass::optimizer_state);
    }
    if (config.cuda_graph) {
        captured_ = std::make_unique<CapturedStep>(
            pool_ ? static_cast<RawAllocator&>(*pool_) : backend_->raw_allocator(), ledger_);
        captured_->context.emplace(
            StepContext{*backend_, captured_->tensors, policy_, context_->dtype, true, false});
        captured_->input.images = context_->make(model_->input_shape().with_batch(config.batch),
                                                 TensorClass::input_batch);
        captured_->input.labels =
            tensors_->allocate(Shape{config.batch}, DType::i32, TensorClass::input_batch);
        counts_->watch(captured_->tensors);
    }
    // Setup queued work (weight uploads and conversions, a resident dataset's upload):
    // it must be done before step 0's timer starts, or that step's time includes it.
    backend_->synchronize();
}

void TrainingRun::queue_step_work(StepContext& context, const Batch& batch, double loss_scale) {
    Tensor dlogits;
    {
        PhaseRange range("forward");
        const Tensor logits = model_->forward(context, batch.images);
        dlogits = context.make(logits.shape(), TensorClass::activations);
        backend_->softmax_cross_entropy_deferred(logits, batch.labels, loss_scale, dlogits);
        context.round_result(dlogits);
    }
    {
        PhaseRange range("backward");
        model_->backward(context, dlogits, gradient_sync_.get());
        dlogits = Tensor();
    }
    if (gradient_sync_) {
        PhaseRange range("gradient sync");
        gradient_sync_->finish();
    }
    {
        PhaseRange range("optimizer");
        if (loss_scaler_) {
            backend_->fill(overflow_, 0.0);
            model_->flag_non_finite_gradients(context, overflow_);
        }
        optimizer_->step(context, 1.0 / loss_scale, overflow_);
        // A skipped update left the masters as they were, so this rewrites the same copies.
        model_->refresh_compute_copies(context);
    }
}

void TrainingRun::run_captured_step(double loss_scale) {
    CapturedStep& step = *captured_;
    // A replay must follow an applied launch: the backend moves the captured step counts
    // (Adam's bias correction) on at each replay. A skipped step backs the scale off
    // anyway, except once the scale has underflowed to 0 (a diverged run).
    if (step.captured && step.captured_loss_scale == loss_scale && previous_step_applied_) {
        PhaseRange range("graph replay");
        backend_->replay_step();
        return;
    }
    if (!step.captured && steps_done_ < CapturedStep::kEagerSteps) {
        queue_step_work(*step.context, step.input, loss_scale);
        return;
    }
    // The first capture, or a new one because fp16's loss scale, which the captured
    // kernels hold as arguments, changed (after an overflow, or after growth_interval
    // clean steps): rare enough that recapturing beats reading the scale from memory.
    PhaseRange range("graph capture");
    step.arena.seal();
    backend_->begin_step_capture();
    try {
        queue_step_work(*step.context, step.input, loss_scale);
    } catch (...) {
        // Freeing the step's memory on the way out is illegal while the stream captures.
        backend_->abandon_step_capture();
        throw;
    }
    backend_->end_step_capture();
    step.captured = true;
    step.captured_loss_scale = loss_scale;
    ++step.captures;
}

bool TrainingRun::step_applied() {
    if (!loss_scaler_) {
        return true;
    }
    float overflow = 0.0f;
    backend_->copy_to_host(overflow_, &overflow);
    return loss_scaler_->update(overflow == 0.0f);
}

StagedBatch TrainingRun::stage_batch(std::int64_t batch_index) {
    PhaseRange range("data load");
    const auto start = std::chrono::steady_clock::now();
    StagedBatch staged;
    staged.batch = train_loader_->load(*context_, batch_index);
    staged.index = batch_index;
    staged.data_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::steady_clock::now() - start)
                         .count();
    return staged;
}

bool TrainingRun::train_step(std::int64_t batch_index, int epoch, std::int64_t next_index) {
    PhaseRange step_range("step");
    StepContext& context = *context_;
    // The previous step staged this batch; the first step of an epoch stages its own,
    // before its timer starts.
    StagedBatch staged =
        staged_ && staged_->index == batch_index ? std::move(*staged_) : stage_batch(batch_index);
    staged_.reset();
    Batch& batch = staged.batch;
    const bool measured = steps_done_ >= config_.warmup_steps;
    // Marks what the step's time covers, so a trace can tell the timed work from the
    // staging and the wait around it (profiler/analysis/StepApiCounts).
    std::optional<PhaseRange> window;
    window.emplace("timed window");
    counts_->open();
    StepTimer& timer = backend_->start_step_timer();
    // The conversion to the storage dtype is compute (PyTorch's autocast casts inside the
    // forward), so it stays in the window; so does a graph's input refresh.
    batch.images = context.to_storage(std::move(batch.images));
    if (captured_) {
        // A graph reads its input at fixed addresses: the batch is copied there.
        backend_->copy(batch.images, captured_->input.images);
        backend_->copy(batch.labels, captured_->input.labels);
    }
    const double loss_scale = loss_scaler_ ? loss_scaler_->scale() : 1.0;
    if (captured_) {
        run_captured_step(loss_scale);
    } else {
        queue_step_work(context, batch, loss_scale);
    }
    // Closed as soon as the last operation is queued: on a device the end mark is queued
    // now, so neither the staging below nor the host's wait in synchronize() is timed.
    timer.close();
    const StepCounts counts = counts_->close(measured);
    window.reset();
    // The next batch is staged while the device runs this step where that can overlap
    // (the CPU, where the step is done and this is merely outside the window; a copy
    // stream; a resident dataset gathered on the device). A synchronous copy instead
    // queues behind this step on the compute stream and the host waits for it, so staged
    // now its data_ns would hold this step's device time: it is staged after the wait.
    const bool stage_during_step = is_backend(config_.backend, BackendKind::cpu) ||
                                   config_.transfer == Transfer::overlap ||
                                   config_.placement == Placement::resident;
    if (next_index >= 0 && stage_during_step)
        staged_ = stage_batch(next_index);
    const std::int64_t duration_ns = timer.elapsed_ns();
    backend_->synchronize();
    if (next_index >= 0 && !stage_during_step)
        staged_ = stage_batch(next_index);
    CrossEntropyTotals totals = backend_->take_loss_totals();
    StepRecord record;
    if (communicator_) {
        // The global mean: every rank's loss sum and row count, summed.
        std::array<double, 2> global{totals.loss_sum, static_cast<double>(totals.count)};
        communicator_->all_reduce_sum(global);
        totals.loss_sum = global[0];
        totals.count = static_cast<std::int64_t>(global[1]);
        const CommunicationTimes times = communicator_->take_step_times();
        record.communication_ns = times.communication_ns;
        record.exposed_communication_ns = times.exposed_ns;
    }
    const bool applied = step_applied();
    optimizer_->finish_step(applied);
    previous_step_applied_ = applied;
    if (observer_ != nullptr && observer_->wants_parameters()) {
        report_parameters();
    }
    record.duration_ns = duration_ns;
    record.index = steps_done_;
    record.epoch = epoch;
    record.loss = totals.loss_sum / static_cast<double>(totals.count);
    record.loss_scale = loss_scale;
    record.skipped = !applied;
    record.warmup = steps_done_ < config_.warmup_steps;
    record.counts = counts;
    record.data_ns = staged.data_ns;
    result_.steps.push_back(record);
    result_.train_time_ns += record.duration_ns;
    // Global images: every rank trained as many rows as this one.
    result_.images_trained += batch.images.shape()[0] * (communicator_ ? communicator_->size() : 1);
    ++steps_done_;
    bool keep_going = observer_ == nullptr || observer_->on_step(record);
    if (communicator_) {
        // Each rank's observer judges its own step times (the --rse stopping rule), so the
        // ranks could disagree on the last step, and the one that went on would wait
        // forever for the others' all-reduce: the run goes on while every rank wants to.
        std::array<double, 1> stop{keep_going ? 0.0 : 1.0};
        communicator_->all_reduce_sum(stop);
        keep_going = stop[0] == 0.0;
    }
    return keep_going;
}

void TrainingRun::record_evaluation(int epoch) {
    if (!config_.evaluate || last_evaluated_step_ == steps_done_) {
        return;
    }
    last_evaluated_step_ = steps_done_;
    const EvaluationScore score = evaluate(*model_, *test_loader_, *context_);
    EvalRecord record;
    record.epoch = epoch;
    record.after_step = steps_done_;
    record.train_time_ns = result_.train_time_ns;
    record.test_accuracy = score.accuracy;
    record.test_loss = score.loss;
    result_.evaluations.push_back(record);
    if (config_.target_accuracy && score.accuracy >= *config_.target_accuracy &&
        result_.extra_metrics.count("time_to_target_s") == 0) {
        result_.extra_metrics["time_to_target_s"] =
            static_cast<double>(record.train_time_ns) * 1e-9;
        result_.extra_metrics["steps_to_target"] = static_cast<double>(record.after_step);
    }
    if (observer_ != nullptr) {
        observer_->on_eval(record);
    }
}

TrainingResult TrainingRun::run() {
    const std::int64_t per_epoch = train_loader_->batches_per_epoch();
    const std::int64_t total_steps =
        config_.steps > 0 ? config_.steps : per_epoch * static_cast<std::int64_t>(config_.epochs);
    // An observer-stopped run passes a huge backstop as the step count: reserve sanely.
    result_.steps.reserve(static_cast<std::size_t>(std::min<std::int64_t>(total_steps, 1 << 16)));
    bool running = true;
    int epoch = 0;
    while (running && steps_done_ < total_steps) {
        PhaseRange epoch_range("epoch");
        train_loader_->start_epoch();
        for (std::int64_t b = 0; b < per_epoch && steps_done_ < total_steps; ++b) {
            const bool next_in_epoch = b + 1 < per_epoch && steps_done_ + 1 < total_steps;
            running = train_step(b, epoch, next_in_epoch ? b + 1 : -1);
            if (config_.eval_every_steps > 0 && steps_done_ % config_.eval_every_steps == 0) {
                record_evaluation(epoch);
            }
            if (!running) {
                break;
            }
        }
        if (running && steps_done_ % per_epoch == 0) {
            record_evaluation(epoch);  // a full epoch ended
        }
        ++epoch;
    }
    record_evaluation(std::max(0, epoch - 1));

    // The ledger counts every allocator of the run (the captured step's arena too), so its
    // peak is of all tensors alive at once; the allocators' own peaks, reached at different
    // moments, would add up to more than was ever in use.
    result_.peak_tensor_bytes = ledger_.peak_bytes();
    result_.peak_bytes_by_class = ledger_.peak();
    result_.max_bytes_by_class = ledger_.class_max();
    result_.parameter_count = model_->parameter_count();
    result_.emulated = backend_->emulates(policy_.precision);
    result_.environment = backend_->environment();
    result_.environment["precision"] = to_string(config_.precision);
    result_.environment["dataset"] = data_.description;
    // A backend with memory axes of its own (cuda) reports them; emplace keeps those.
    result_.environment.emplace("allocator",
                                to_string(pool_ ? Allocator::pool : Allocator::device));
    result_.environment["activations"] = to_string(config_.activations);
    if (loss_scaler_) {
        std::ostringstream scaling;
        scaling << "dynamic: first scale " << config_.initial_loss_scale << ", x2 after "
                << config_.loss_scale_growth_interval
                << " clean steps, x0.5 and the step skipped on inf/NaN gradients";
        result_.environment["loss_scaling"] = scaling.str();
    }
    result_.environment.emplace("host_memory", "n/a");
    result_.environment.emplace("transfer", "n/a");
    result_.environment.emplace("placement", "n/a");
    std::int64_t skipped = 0;
    for (const StepRecord& step : result_.steps) {
        skipped += step.skipped ? 1 : 0;
    }
    result_.extra_metrics["skipped_steps"] = static_cast<double>(skipped);
    result_.extra_metrics["steps_per_epoch"] = static_cast<double>(per_epoch);
    result_.extra_metrics["tensor_allocations"] = static_cast<double>(tensors_->allocations());
    counts_->add_metrics(result_.extra_metrics);
    add_distributed_metrics();
    if (captured_) {
        result_.extra_metrics["graph_arena_bytes"] =
            static_cast<double>(captured_->arena.reserved_bytes());
        result_.extra_metrics["graph_captures"] = static_cast<double>(captured_->captures);
    }
    if (pool_) {
        result_.extra_metrics["pool_high_water_bytes"] =
            static_cast<double>(pool_->high_water_bytes());
        result_.extra_metrics["pool_reused_blocks"] = static_cast<double>(pool_->reused_blocks());
        result_.extra_metrics["pool_upstream_allocations"] =
            static_cast<double>(pool_->upstream_allocations());
    }
    return std::move(result_);
}

std::unique_ptr<MpiCommunicator> TrainingRun::join_ranks() const {
    if (config_.ranks == 1) {
        return nullptr;
    }
    if (!MpiSession::initialized()) {
        throw ConfigError("ranks: " + std::to_string(config_.ranks) +
                          " needs the run started as that many MPI ranks (trainscope run "
                          "--ranks starts them with mpirun); use ranks=1 otherwise");
    }
    auto world = std::make_unique<MpiCommunicator>();
    if (world->size() != config_.ranks) {
        throw ConfigError("ranks: " + std::to_string(config_.ranks) + " but MPI started " +
                          std::to_string(world->size()) + " ranks; launch with mpirun -np " +
                          std::to_string(config_.ranks));
    }
    return world;
}

void TrainingRun::report_parameters() {
    const Tensor& masters = model_->flat_parameters().masters();
    std::vector<double> values(static_cast<std::size_t>(masters.elements()));
    if (masters.dtype() == DType::f64) {
        backend_->copy_to_host(masters, values.data());
    } else {
        std::vector<float> narrow(values.size());
        backend_->copy_to_host(masters, narrow.data());
        values.assign(narrow.begin(), narrow.end());
    }
    observer_->on_parameters(values);
}

void TrainingRun::add_distributed_metrics() {
    const int ranks = communicator_ ? communicator_->size() : 1;
    result_.environment["ranks"] = std::to_string(ranks);
    if (!threads_rule_.empty())
        result_.environment["threads_default"] = threads_rule_;
    result_.extra_metrics["ranks"] = static_cast<double>(ranks);
    result_.extra_metrics["global_batch"] = static_cast<double>(config_.batch);
    result_.extra_metrics["rank_batch"] = static_cast<double>(config_.batch / ranks);
    if (!communicator_) {
        return;
    }
    result_.environment["communicator"] = communicator_->library();
    result_.environment["overlap"] = to_string(config_.overlap);
    result_.environment["bucket_mb"] = std::to_string(config_.bucket_mb);
    result_.extra_metrics["rank"] = static_cast<double>(communicator_->rank());
    result_.extra_metrics["gradient_buckets"] =
        static_cast<double>(gradient_sync_->buckets().size());
    // Shares of the measured steps' time (warm-up excluded, as for step-time statistics).
    double step = 0.0;
    double communication = 0.0;
    double exposed = 0.0;
    for (const StepRecord& record : result_.steps) {
        if (!record.warmup) {
            step += static_cast<double>(record.duration_ns);
            communication += static_cast<double>(record.communication_ns);
            exposed += static_cast<double>(record.exposed_communication_ns);
        }
    }
    if (step > 0.0) {
        result_.extra_metrics["communication_share"] = communication / step;
        result_.extra_metrics["exposed_communication_share"] = exposed / step;
    }
}

}  // namespace

TrainingResult run_training(const TrainingConfig& config, TrainingObserver* observer) {
    TrainingRun run(config, observer);
    return run.run();
}

}  // namespace trainscope::workloads
