#!/usr/bin/env python3
"""Training throughput of trainscope's CPU backend against PyTorch on the same CPU.

trainscope is measured on the product path: `trainscope run` with its defaults (the
caching allocator `pool`, no tracing), one cell per round, each in its own child
process as a user's matrix runs. PyTorch trains the same model (same layers, PyTorch
default initialization, Adam lr 1e-3) on Fashion-MNIST batches drawn at random from
memory. A step covers forward, loss, backward and the optimizer step on both sides; the
batch is gathered and scaled before the step's clock starts on both sides (trainscope
stages it outside the timed window and records that time apart as data_ms_median;
docs/workloads.md, "A step"). images/s is batch / median step time after warm-up on
both sides.
The sides run alternately `--rounds` times (the machine is noisy); the table gives the
median of each side's rounds with their range, and the median and range of the
per-round ratios.

`--bench build/tests/bench/bench_cpu_training` adds the engine benchmark (the same
settings, run_training directly) as a third interleaved side, and the ratio of
`trainscope run` to it: the figures a user sees must agree with the engine's own.
`--allocator device` measures raw allocation per tensor instead of the default.

PyTorch is Debian's python3-torch (apt-get install python3-torch libopenblas0-pthread),
run with OPENBLAS_NUM_THREADS=1 and torch.set_num_threads(threads).

    tests/bench/compare_cpu_with_pytorch.py --trainscope build/bin/trainscope \
        --bench build/tests/bench/bench_cpu_training --rounds 5 --threads 2
"""
import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from pytorch_models import build_model

FASHION = "/usr/share/datasets/fashion-mnist"
CASES = [
    # model, batch, precision
    ("seed-cnn", 32, "fp32"),
    ("seed-cnn", 64, "fp32"),
    ("seed-cnn", 128, "fp32"),
    ("resnet", 64, "fp32"),
    ("seed-cnn", 64, "fp64"),
]
TARGETS = {("seed-cnn", "fp32"): 1.5, ("resnet", "fp32"): 1.0, ("seed-cnn", "fp64"): 1.5}


def torch_worker(model_name, batch, precision, steps, warmup, threads):
    import numpy as np
    import torch
    from torch import nn

    torch.set_num_threads(threads)
    torch.manual_seed(1)
    with gzip.open(os.path.join(FASHION, "train-images-idx3-ubyte.gz")) as f:
        images = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 1, 28, 28)
    with gzip.open(os.path.join(FASHION, "train-labels-idx1-ubyte.gz")) as f:
        labels = np.frombuffer(f.read(), np.uint8, offset=8).astype(np.int64)
    dtype = torch.float64 if precision == "fp64" else torch.float32
    images = torch.from_numpy(images.copy())
    labels = torch.from_numpy(labels)

    model = build_model(torch, nn, model_name, depth=8, width=16)
    model = model.to(dtype)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()
    generator = torch.Generator().manual_seed(1)
    times = []
    for step in range(steps):
        # Data staging, outside the timed step as in trainscope.
        index = torch.randint(0, images.shape[0], (batch,), generator=generator)
        x = images[index].to(dtype) / 255.0
        y = labels[index]
        start = time.perf_counter()
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        times.append(time.perf_counter() - start)
    measured = sorted(times[warmup:])
    median = measured[len(measured) // 2]
    print(f"median_step_ms={median * 1e3:.3f} images_per_s={batch / median:.1f}")


def images_per_s(output):
    for token in output.split():
        if token.startswith("images_per_s="):
            return float(token.split("=")[1])
    raise RuntimeError(f"no images_per_s in: {output}")


def run_product(trainscope, model, batch, precision, steps, warmup, threads, allocator):
    """One `trainscope run` cell with the product's defaults; images/s from its median."""
    with tempfile.TemporaryDirectory() as tmp:
        command = [trainscope, "run", "--backend", "cpu", "--model", model, "--batch",
                   str(batch), "--precision", precision, "--steps", str(steps), "--warmup",
                   str(warmup), "--threads", str(threads), "--out",
                   os.path.join(tmp, "r.db"), "--json", "-q"]
        if model == "resnet":
            command += ["--depth", "8", "--width", "16"]
        if allocator:
            command += ["--allocator", allocator]
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    run = json.loads(out)["runs"][0]
    if run["status"] != "ok":
        raise RuntimeError(f"trainscope run failed: {run['error']}")
    return batch / (run["metrics"]["step_ms_median"] * 1e-3)


def run_bench(bench, model, batch, precision, steps, warmup, threads, allocator):
    out = subprocess.run([bench, "--model", model, "--batch", str(batch), "--precision",
                          precision, "--steps", str(steps), "--warmup", str(warmup),
                          "--threads", str(threads), "--allocator", allocator or "pool"],
                         check=True, capture_output=True, text=True).stdout
    return images_per_s(out)


def run_torch(model, batch, precision, steps, warmup, threads):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS=str(threads))
    out = subprocess.run([sys.executable, __file__, "--torch-worker", model, str(batch),
                          precision, str(steps), str(warmup), str(threads)],
                         check=True, capture_output=True, text=True, env=env).stdout
    return images_per_s(out)


def spread(values):
    return f"{min(values):.0f}-{max(values):.0f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trainscope", default="build/bin/trainscope")
    parser.add_argument("--bench", help="also run bench_cpu_training, interleaved")
    parser.add_argument("--allocator", help="trainscope's --allocator (default: its own)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--only", help="model:batch:precision, e.g. seed-cnn:64:fp32")
    parser.add_argument("--show-rounds", action="store_true",
                        help="also print every round's images/s of every side")
    parser.add_argument("--torch-worker", nargs=6, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.torch_worker:
        m, b, p, s, w, t = args.torch_worker
        torch_worker(m, int(b), p, int(s), int(w), int(t))
        return 0
    if args.rounds < 5:
        parser.error("--rounds: at least 5, interleaved, for a median and a spread")
    cases = CASES
    if args.only:
        m, b, p = args.only.split(":")
        cases = [(m, int(b), p)]
    failed = False
    print(f"settings: trainscope run defaults{' --allocator ' + args.allocator if args.allocator else ''}, "
          f"--threads {args.threads}, {args.steps} steps ({args.warmup} warm-up), "
          f"{args.rounds} interleaved rounds; images/s = batch / median step time")
    header = (f"{'model':10} {'batch':>5} {'prec':>5} {'trainscope run img/s':>24} "
              f"{'pytorch img/s':>20} {'ratio (range)':>18} {'target':>6}")
    if args.bench:
        header += f" {'bench img/s':>20} {'run/bench (range)':>18}"
    print(header)
    for model, batch, precision in cases:
        product, theirs, bench = [], [], []
        for _ in range(args.rounds):
            product.append(run_product(args.trainscope, model, batch, precision, args.steps,
                                       args.warmup, args.threads, args.allocator))
            theirs.append(run_torch(model, batch, precision, args.steps, args.warmup,
                                    args.threads))
            if args.bench:
                bench.append(run_bench(args.bench, model, batch, precision, args.steps,
                                       args.warmup, args.threads, args.allocator))
        a, b = statistics.median(product), statistics.median(theirs)
        ratios = [x / y for x, y in zip(product, theirs)]
        target = TARGETS.get((model, precision), 1.0)
        failed |= statistics.median(ratios) < target
        line = (f"{model:10} {batch:5} {precision:>5} {a:10.0f} ({spread(product):>11}) "
                f"{b:8.0f} ({spread(theirs):>9}) {statistics.median(ratios):6.2f} "
                f"({min(ratios):.2f}-{max(ratios):.2f}) {target:6.1f}")
        if args.bench:
            agree = [x / y for x, y in zip(product, bench)]
            line += (f" {statistics.median(bench):8.0f} ({spread(bench):>9}) "
                     f"{statistics.median(agree):6.2f} ({min(agree):.2f}-{max(agree):.2f})")
        print(line, flush=True)
        if args.show_rounds:
            rounds = f"{'':10}   rounds: trainscope run {[round(v) for v in product]}, " \
                     f"pytorch {[round(v) for v in theirs]}"
            if args.bench:
                rounds += f", bench {[round(v) for v in bench]}"
            print(rounds, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
