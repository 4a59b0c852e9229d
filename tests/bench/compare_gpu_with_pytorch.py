#!/usr/bin/env python3
"""Training step time of trainscope's CUDA backend against PyTorch on the same GPU, through
the matrix's `framework` axis (docs/pytorch.md), as compare_cpu_with_pytorch.py does on
the CPU.

Each round is one `trainscope run --framework trainscope,pytorch --backend cuda` of a
case (model, precision): the two cells run one after the other on the same device, each in
its own child process, the PyTorch one by the project's worker with the interpreter of
--python (fp32 with TF32 off, tf32 with `allow_tf32`, fp16 autocast + GradScaler, bf16
autocast, fp64 a double model; docs/pytorch.md, "The same workload"). Both are measured
and summarised by the harness alike: the median step time of the measured steps, a step
being forward, loss, backward and optimizer step with the batch staged before its clock
starts. The table gives per case the median of the rounds' medians per side and their
ratio. Target: trainscope within 1.2x of PyTorch's step time; a case above it makes the
script exit 1.

fp16 ratios carry a design difference, not only speed: PyTorch's GradScaler reads
`found_inf` with `.item()` in the middle of `scaler.step` (a host sync inside the step)
and autocast (O1) re-casts the fp32 weights to fp16 at every forward, while trainscope
reads its overflow flag after the step and keeps O2-style fp16 compute copies of the
weights, refreshed once per optimizer step.

    tests/bench/compare_gpu_with_pytorch.py --trainscope build/bin/trainscope --batch 256
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

TARGET_RATIO = 1.2


def run_round(args, model, precision):
    """One matrix with both frameworks on the GPU; median step ms of each, by framework."""
    with tempfile.TemporaryDirectory() as folder:
        command = [args.trainscope, "run", "--framework", "trainscope,pytorch", "--backend",
                   "cuda", "--device", str(args.device), "--model", model, "--precision",
                   precision, "--batch", str(args.batch), "--steps", str(args.steps),
                   "--warmup", str(args.warmup), "--dataset", "synthetic", "--input",
                   "1x28x28", "--classes", "10", "--eval-every", "0", "--python", args.python,
                   "--out", os.path.join(folder, "results.db"), "--json", "-q"]
        if model == "resnet":
            command += ["--depth", str(args.depth), "--width", str(args.width)]
        out = subprocess.run(command, capture_output=True, text=True)
        if not out.stdout.strip():
            raise RuntimeError(f"trainscope failed ({out.returncode}): {out.stderr.strip()}")
    result = {}
    for run in json.loads(out.stdout)["runs"]:
        if run["status"] != "ok":
            raise RuntimeError(f"{run['cell']}: {run['status']}: {run['error']}")
        result[run["axes"]["framework"]] = float(run["metrics"]["step_ms_median"])
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trainscope", default="build/bin/trainscope")
    parser.add_argument("--python", default="python3", help="interpreter with torch (CUDA)")
    parser.add_argument("--models", default="seed-cnn,resnet")
    parser.add_argument("--precisions", default="fp32,tf32,fp16,bf16,fp64")
    parser.add_argument("--depth", type=int, default=20, help="resnet depth, 6n+2")
    parser.add_argument("--width", type=int, default=16, help="resnet width")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--steps", type=int, default=110)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--device", type=int, default=0)
    args = parser.parse_args()
    if args.rounds < 3:
        parser.error("--rounds: at least 3, for a median and a spread")
    failed = False
    print(f"{'model':10} {'prec':>5} {'batch':>5} {'trainscope ms':>22} {'pytorch ms':>22} "
          f"{'ratio (range)':>17} {'target':>6}")
    for model in args.models.split(","):
        for precision in args.precisions.split(","):
            ours, theirs = [], []
            for _ in range(args.rounds):
                r = run_round(args, model, precision)
                ours.append(r["trainscope"])
                theirs.append(r["pytorch"])
            ratios = [x / y for x, y in zip(ours, theirs)]
            ratio = statistics.median(ratios)
            failed |= ratio > TARGET_RATIO
            print(f"{model:10} {precision:>5} {args.batch:5} "
                  f"{statistics.median(ours):9.3f} ({min(ours):.3f}-{max(ours):.3f}) "
                  f"{statistics.median(theirs):9.3f} ({min(theirs):.3f}-{max(theirs):.3f}) "
                  f"{ratio:6.2f} ({min(ratios):.2f}-{max(ratios):.2f}) {TARGET_RATIO:6.1f}",
                  flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
