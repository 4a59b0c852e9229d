#!/usr/bin/env python3
"""trainscope's PyTorch worker: trains one matrix cell with PyTorch (docs/pytorch.md).

Started by a `framework=pytorch` cell in its child process, with the interpreter the
user named by --python:

    python3 trainscope_pytorch_worker.py JOB.json RESULT.json
    python3 trainscope_pytorch_worker.py --probe        # prints what this torch can do
    python3 trainscope_pytorch_worker.py --first-batch JOB.json OUT   # test: batch 0's data
    python3 trainscope_pytorch_worker.py --parameters '[{"model": "resnet", "model_params":
        {"depth": "8"}, "input_shape": "1x28x28", "classes": 10}]'   # the models' sizes

It trains the same model (layer for layer), on the same data in the same order, with the
same precision, optimizer, learning rate, batch, warm-up and length as trainscope's
engine would, and writes the raw per-step times, losses, evaluations, parameter count and
peak memory as JSON. It computes no statistic: the harness does, with its own code. At a
trace level other than off it profiles with torch.profiler and writes Kineto's JSON,
which the harness imports. Uses only torch, the standard library and
trainscope_pytorch_data.py (the data: IDX files, synthetic images, shuffling, scaling),
which lies beside it.
"""
import ctypes
import json
import math
import os
import sys
import time
from contextlib import nullcontext

from trainscope_pytorch_data import (Shuffler, first_batch, load_data, master_dtype,
                                     pixel_scale, scaled)

def json_text(value):
    """JSON of `value` with non-finite floats as null: JSON has no NaN, and the harness
    reads null as NaN (a diverged loss, an evaluation after divergence)."""
    def finite(v):
        if isinstance(v, float) and not math.isfinite(v):
            return None
        if isinstance(v, dict):
            return {k: finite(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [finite(x) for x in v]
        return v
    return json.dumps(finite(value), allow_nan=False)


def build_model(torch, nn, job, in_shape, classes):
    """trainscope's models (workloads/models), layer for layer; PyTorch's default init draws
    the same fan-in uniform distributions (docs/pytorch.md, "Models")."""
    name = job["model"]
    c, h, w = in_shape
    if name == "seed-cnn":
        return nn.Sequential(nn.Conv2d(c, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                             nn.Linear(32 * ((h - 2) // 2) * ((w - 2) // 2), classes))
    if name == "lenet5":
        pool = nn.AvgPool2d if job["model_params"].get("pool", "avg") == "avg" else nn.MaxPool2d
        return nn.Sequential(nn.Conv2d(c, 6, 5, padding=2), nn.ReLU(), pool(2),
                             nn.Conv2d(6, 16, 5), nn.ReLU(), pool(2), nn.Flatten(),
                             nn.Linear(16 * ((h // 2 - 4) // 2) * ((w // 2 - 4) // 2), 120),
                             nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, classes))
    if name == "resnet":
        depth = int(job["model_params"].get("depth", 20))
        width = int(job["model_params"].get("width", 16))

        class BasicBlock(nn.Module):
            def __init__(self, cin, cout, stride):
                super().__init__()
                self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
                self.bn1 = nn.BatchNorm2d(cout)
                self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
                self.bn2 = nn.BatchNorm2d(cout)
                self.short = None
                if stride != 1 or cin != cout:
                    self.short = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                               nn.BatchNorm2d(cout))

            def forward(self, x):
                y = torch.relu(self.bn1(self.conv1(x)))
                y = self.bn2(self.conv2(y))
                return torch.relu(y + (x if self.short is None else self.short(x)))

        layers = [nn.Conv2d(c, width, 3, 1, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU()]
        cin = width
        for stage in range(3):
            cout = width << stage
            for block in range((depth - 2) // 6):
                layers.append(BasicBlock(cin, cout, 2 if stage > 0 and block == 0 else 1))
                cin = cout
        layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, classes)]
        return nn.Sequential(*layers)
    raise ValueError(f"model '{name}' has no PyTorch twin in this worker")


def probe():
    import torch
    import warnings
    cpu_fp16 = True
    try:
        # Older versions only warn and disable autocast: a warning is a refusal too.
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with torch.autocast("cpu", dtype=torch.float16):
                torch.ones(2, 2) @ torch.ones(2, 2)
    except Exception:  # noqa: BLE001 - any refusal means "not available"
        cpu_fp16 = False
    version = torch.__version__.split("+")[0].split(".")
    print(json.dumps({
        "torch_version": torch.__version__,
        "cuda_available": torch.cuda.is_available(),
        "cuda_devices": torch.cuda.device_count() if torch.cuda.is_available() else 0,
        "cpu_autocast_fp16": cpu_fp16,
        "cuda_malloc_async": (int(version[0]), int(version[1])) >= (2, 0),
    }))
    return 0


PHASES = ("step", "forward", "backward", "optimizer")


def to_kineto_layout(path):
    """A torch built without Kineto (Debian's 1.13) exports the legacy profiler's bare
    array of events with no categories. Rewrites it in Kineto's layout (traceEvents;
    cpu_op, and user_annotation for the phase ranges) so one importer reads both."""
    with open(path) as f:
        trace = json.load(f)
    if isinstance(trace, dict):
        return "kineto"
    pid = os.getpid()
    for event in trace:
        event["cat"] = "user_annotation" if event.get("name") in PHASES else "cpu_op"
        event["pid"] = pid
    with open(path, "w") as f:
        json.dump({"traceEvents": trace, "displayTimeUnit": "ms"}, f)
    return "legacy autograd profiler (this torch has no Kineto), rewritten in Kineto's layout"


def die_with_parent():
    """The cell's process may be killed (timeout, out of memory): end with it, as it does
    with the matrix (PR_SET_PDEATHSIG)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, 9)
    except (OSError, AttributeError):
        pass  # not Linux: the worker ends when its pipes close instead


class Steering:
    """The harness's side of a controlled run (job["controlled"]; docs/pytorch.md, "Stopping
    and probing"): after each step the worker reports it as one JSON line on its stdout and
    waits for one answer on stdin: go, stop, trace on, trace off. The harness applies the
    same stopping rule and tracing probe to these steps as to its engine's. Anything else
    that writes to fd 1 (torch's C++ warnings) goes to stderr, so the channel stays clean."""

    def __init__(self, controlled):
        self.channel = None
        if controlled:
            self.channel = os.fdopen(os.dup(1), "w")
            os.dup2(2, 1)
            sys.stdout = sys.stderr

    def report(self, kind, record):
        if self.channel is None:
            return "go"
        self.channel.write(json_text({kind: record}) + "\n")
        self.channel.flush()
        if kind != "step":
            return "go"
        answer = sys.stdin.readline().strip()
        return answer or "stop"  # the harness went away: stop


def train(job):
    die_with_parent()
    steering = Steering(job.get("controlled", False))
    # Allocator settings are read when CUDA initialises: before importing torch.
    if job["allocator"] == "device":
        os.environ["PYTORCH_NO_CUDA_MEMORY_CACHING"] = "1"
    elif job["allocator"] == "async":
        os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "backend:cudaMallocAsync"
    import torch
    import torch.utils.checkpoint
    from torch import nn

    cuda = job["backend"] == "cuda"
    if job["threads"] > 0:
        torch.set_num_threads(job["threads"])
    device = torch.device(f"cuda:{job['device']}" if cuda else "cpu")
    if cuda:
        torch.cuda.set_device(device)
    precision = job["precision"]
    torch.backends.cuda.matmul.allow_tf32 = precision == "tf32"
    torch.backends.cudnn.allow_tf32 = precision == "tf32"
    # trainscope picks cuDNN algorithms by heuristic by default (cudnn_algo=heuristic).
    torch.backends.cudnn.benchmark = False
    master = master_dtype(torch, precision)
    autocast_dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(precision)
    torch.manual_seed(job["seed"])

    (train_x, train_y), (test_x, test_y) = load_data(torch, job)
    in_shape = tuple(train_x.shape[1:])
    classes = job["classes"]
    model = build_model(torch, nn, job, in_shape, classes).to(device=device, dtype=master)
    parameter_count = sum(p.numel() for p in model.parameters())
    if job["optimizer"] == "adam":
        # A CUDA graph replays the update: Adam keeps its step count on the device then.
        extra = {"capturable": True} if job["cuda_graph"] else {}
        optimizer = torch.optim.Adam(model.parameters(), lr=job["learning_rate"], **extra)
    else:
        optimizer = torch.optim.SGD(model.parameters(), lr=job["learning_rate"],
                                    momentum=job["momentum"], weight_decay=job["weight_decay"])
    loss_fn = nn.CrossEntropyLoss()
    scaler = torch.cuda.amp.GradScaler(init_scale=job["initial_loss_scale"],
                                       growth_interval=job["loss_scale_growth_interval"],
                                       enabled=precision == "fp16" and cuda)
    recompute = job["activations"] == "recompute"
    resident = job["placement"] == "resident"
    pinned = job["host_memory"] == "pinned"
    non_blocking = job["transfer"] == "overlap"
    if resident:
        train_x, train_y = train_x.to(device), train_y.to(device)
        test_x, test_y = test_x.to(device), test_y.to(device)
    scale = pixel_scale(torch, master).to(train_x.device)

    def stage(images, labels, index):
        """The batch as trainscope stages it: gathered, scaled to [0, 1] in the master dtype."""
        x = scaled(scale, images[index])
        y = labels[index]
        if pinned and not resident:
            x, y = x.pin_memory(), y.pin_memory()
        return x.to(device, non_blocking=non_blocking), y.to(device, non_blocking=non_blocking)

    # Segments as trainscope's Model plans them: ceil(sqrt(layers)) of them, every one
    # but the last recomputed in the backward pass. Non-reentrant checkpointing, so the
    # parameters of a segment whose input needs no gradient (the first) still get theirs.
    layers = list(model)
    per_segment = -(-len(layers) // math.ceil(math.sqrt(len(layers))))
    segments = [nn.Sequential(*layers[i:i + per_segment])
                for i in range(0, len(layers), per_segment)]

    def forward(x):
        if not recompute:
            return model(x)
        for segment in segments[:-1]:
            x = torch.utils.checkpoint.checkpoint(segment, x, use_reentrant=False)
        return segments[-1](x)

    tracer = {"profile": None}

    def start_tracing():
        from torch.profiler import ProfilerActivity, profile
        activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
        tracer["profile"] = profile(activities=activities,
                                    record_shapes=job["trace_level"] == "full")
        tracer["profile"].__enter__()

    def stop_tracing():
        tracer["profile"].__exit__(None, None, None)
        finished, tracer["profile"] = tracer["profile"], None
        return finished

    def phase(name):
        # The phases trainscope's engine marks with NVTX ranges, for the trace views; only
        # while tracing, as the engine's ranges cost nothing without a tracer.
        return torch.profiler.record_function(name) if tracer["profile"] else nullcontext()

    def step_body(x, y):
        optimizer.zero_grad(set_to_none=True)
        with phase("forward"):
            if autocast_dtype is not None:
                with torch.autocast(device.type, dtype=autocast_dtype):
                    loss = loss_fn(forward(x), y)
            else:
                loss = loss_fn(forward(x), y)
        with phase("backward"):
            scaler.scale(loss).backward()
        with phase("optimizer"):
            scaler.step(optimizer)
            scaler.update()
        return loss

    def evaluate():
        model.eval()
        correct, total_loss = 0, 0.0
        with torch.no_grad():
            for first in range(0, test_x.shape[0], job["batch"]):
                index = torch.arange(first, min(first + job["batch"], test_x.shape[0]))
                x, y = stage(test_x, test_y, index.to(test_x.device))
                if autocast_dtype is not None:
                    with torch.autocast(device.type, dtype=autocast_dtype):
                        logits = model(x)
                else:
                    logits = model(x)
                total_loss += float(loss_fn(logits.float(), y)) * y.shape[0]
                correct += int((logits.argmax(1) == y).sum())
        model.train()
        return correct / test_x.shape[0], total_loss / test_x.shape[0]

    per_epoch = train_x.shape[0] // job["batch"]
    if per_epoch == 0:
        raise ValueError(f"batch {job['batch']} is larger than the training set")
    total = job["steps"] if job["steps"] > 0 else per_epoch * job["epochs"]
    shuffler = Shuffler(train_x.shape[0], job["seed"])
    sync = torch.cuda.synchronize if cuda else (lambda: None)

    if job["trace_file"]:
        start_tracing()

    graph = None
    capture_at = max(1, job["warmup_steps"] - 1)
    steps, evaluations = [], []
    train_ns, done, epoch, last_eval = 0, 0, 0, -1
    if cuda:
        torch.cuda.reset_peak_memory_stats(device)
    while done < total:
        order = torch.tensor(shuffler.next_epoch(), dtype=torch.int64)
        if resident:
            order = order.to(device)
        for b in range(per_epoch):
            if done >= total:
                break
            data_start = time.monotonic_ns()
            x, y = stage(train_x, train_y, order[b * job["batch"]:(b + 1) * job["batch"]])
            data_ns = time.monotonic_ns() - data_start
            scale_before = scaler.get_scale() if scaler.is_enabled() else 1.0
            sync()
            # CLOCK_MONOTONIC: the harness's steady_clock, for its telemetry window.
            start = time.monotonic_ns()
            if job["cuda_graph"] and done >= capture_at and graph is None:
                # PyTorch's whole-step capture recipe, in the last warm-up step when there
                # are two or more (eager steps before it created the optimizer's state);
                # capturing runs nothing, so this step then replays the graph too, and
                # later steps copy their batch into the static inputs.
                static_x, static_y = x.clone(), y.clone()
                graph = torch.cuda.CUDAGraph()
                optimizer.zero_grad(set_to_none=True)
                with torch.cuda.graph(graph):
                    static_loss = step_body(static_x, static_y)
            with phase("step"):
                if graph is not None:
                    static_x.copy_(x)
                    static_y.copy_(y)
                    graph.replay()
                    loss = static_loss
                else:
                    loss = step_body(x, y)
            sync()
            duration = time.monotonic_ns() - start
            loss_value = float(loss)
            scale_after = scaler.get_scale() if scaler.is_enabled() else 1.0
            train_ns += duration
            # JSON has no NaN: a diverged loss is null, which the harness reads as NaN.
            steps.append({"index": done, "epoch": epoch, "start_ns": start, "duration_ns": duration,
                          "loss": loss_value if math.isfinite(loss_value) else None,
                          "loss_scale": scale_before, "skipped": scale_after < scale_before,
                          "warmup": done < job["warmup_steps"], "data_ns": data_ns})
            done += 1
            answer = steering.report("step", steps[-1])
            if answer == "trace on" and tracer["profile"] is None:
                start_tracing()
            elif answer == "trace off" and tracer["profile"] is not None:
                stop_tracing()  # a probe's block: only the time it cost matters
            elif answer == "stop":
                total = done
            if job["eval_every_steps"] > 0 and done % job["eval_every_steps"] == 0 \
                    and job["evaluate"]:
                accuracy, test_loss = evaluate()
                evaluations.append({"epoch": epoch, "after_step": done, "train_time_ns": train_ns,
                                    "test_accuracy": accuracy, "test_loss": test_loss})
                steering.report("eval", evaluations[-1])
                last_eval = done
        if done % per_epoch == 0 and job["evaluate"] and last_eval != done:
            accuracy, test_loss = evaluate()
            evaluations.append({"epoch": epoch, "after_step": done, "train_time_ns": train_ns,
                                "test_accuracy": accuracy, "test_loss": test_loss})
            steering.report("eval", evaluations[-1])
            last_eval = done
        epoch += 1
    if job["evaluate"] and last_eval != done:
        accuracy, test_loss = evaluate()
        evaluations.append({"epoch": max(0, epoch - 1), "after_step": done,
                            "train_time_ns": train_ns, "test_accuracy": accuracy,
                            "test_loss": test_loss})
        steering.report("eval", evaluations[-1])
    profiler_kind = ""
    if tracer["profile"] is not None:
        finished = stop_tracing()
        if job["trace_file"]:
            finished.export_chrome_trace(job["trace_file"])
            profiler_kind = to_kineto_layout(job["trace_file"])

    environment = {"profiler": profiler_kind, "torch_version": torch.__version__, "torch_threads": str(torch.get_num_threads()),
                   "python": sys.version.split()[0], "python_executable": sys.executable}
    peak = 0
    if cuda:
        peak = torch.cuda.max_memory_allocated(device)
        environment["device_name"] = torch.cuda.get_device_name(device)
        environment["cudnn_version"] = str(torch.backends.cudnn.version())
    return {"steps": steps, "evaluations": evaluations, "parameter_count": parameter_count,
            "peak_memory_bytes": peak, "images_trained": done * job["batch"],
            "train_time_ns": train_ns, "steps_per_epoch": per_epoch, "environment": environment}


def main(argv):
    if len(argv) == 2 and argv[1] == "--probe":
        return probe()
    if len(argv) == 4 and argv[1] == "--first-batch":
        return first_batch(argv[2], argv[3])
    if len(argv) == 3 and argv[1] == "--parameters":
        # '[{"model": ..., "model_params": {...}, "input_shape": "CxHxW", "classes": N}, ...]':
        # one count per line, in order (one interpreter start for many models).
        import torch
        from torch import nn
        for spec in json.loads(argv[2]):
            shape = tuple(int(v) for v in spec["input_shape"].split("x"))
            model = build_model(torch, nn, spec, shape, spec["classes"])
            print(sum(p.numel() for p in model.parameters()))
        return 0
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        job = json.load(f)
    result = train(job)
    temp = argv[2] + ".tmp"
    with open(temp, "w") as f:
        f.write(json_text(result))
    os.replace(temp, argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
