#!/usr/bin/env python3
"""Training throughput of trainscope's CPU backend against PyTorch on the same CPU.

Both sides train the same model (same layers, PyTorch default initialization, Adam lr
1e-3) on Fashion-MNIST batches drawn at random from memory; a step covers gathering the
batch, forward, loss, backward and the optimizer step. Each program reports the median
step time after warm-up; the two run alternately `--rounds` times (the machine is noisy)
and the medians of those medians are compared.

PyTorch is Debian's python3-torch (apt-get install python3-torch libopenblas0-pthread),
run with OPENBLAS_NUM_THREADS=1 and torch.set_num_threads(threads).

    tests/bench/compare_cpu_with_pytorch.py --bench build/tests/bench/bench_cpu_training
"""
import argparse
import gzip
import os
import statistics
import subprocess
import sys
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
        start = time.perf_counter()
        index = torch.randint(0, images.shape[0], (batch,), generator=generator)
        x = images[index].to(dtype) / 255.0
        y = labels[index]
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


def run_ours(bench, model, batch, precision, steps, warmup, threads):
    out = subprocess.run([bench, "--model", model, "--batch", str(batch), "--precision",
                          precision, "--steps", str(steps), "--warmup", str(warmup),
                          "--threads", str(threads), "--allocator", "pool"],
                         check=True, capture_output=True, text=True).stdout
    return images_per_s(out)


def run_torch(model, batch, precision, steps, warmup, threads):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS=str(threads))
    out = subprocess.run([sys.executable, __file__, "--torch-worker", model, str(batch),
                          precision, str(steps), str(warmup), str(threads)],
                         check=True, capture_output=True, text=True, env=env).stdout
    return images_per_s(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", default="build/tests/bench/bench_cpu_training")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--only", help="model:batch:precision, e.g. seed-cnn:64:fp32")
    parser.add_argument("--show-rounds", action="store_true",
                        help="also print every round's images/s of both programs")
    parser.add_argument("--torch-worker", nargs=6, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.torch_worker:
        m, b, p, s, w, t = args.torch_worker
        torch_worker(m, int(b), p, int(s), int(w), int(t))
        return 0
    cases = CASES
    if args.only:
        m, b, p = args.only.split(":")
        cases = [(m, int(b), p)]
    failed = False
    print(f"{'model':10} {'batch':>5} {'prec':>5} {'trainscope img/s':>17} {'pytorch img/s':>14} "
          f"{'ratio':>6} {'target':>6}")
    for model, batch, precision in cases:
        ours, theirs = [], []
        for _ in range(args.rounds):
            ours.append(run_ours(args.bench, model, batch, precision, args.steps, args.warmup,
                                 args.threads))
            theirs.append(run_torch(model, batch, precision, args.steps, args.warmup,
                                    args.threads))
        a, b = statistics.median(ours), statistics.median(theirs)
        target = TARGETS.get((model, precision), 1.0)
        failed |= a / b < target
        print(f"{model:10} {batch:5} {precision:>5} {a:17.1f} {b:14.1f} {a / b:6.2f} "
              f"{target:6.1f}", flush=True)
        if args.show_rounds:
            print(f"{'':10}   rounds: trainscope {[round(v) for v in ours]}, "
                  f"pytorch {[round(v) for v in theirs]}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
