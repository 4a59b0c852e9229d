#!/usr/bin/env python3
"""Training throughput of trainscope's CPU backend against PyTorch on the same CPU, through
the matrix's `framework` axis (docs/pytorch.md).

Each round is one `trainscope run --framework trainscope,pytorch` of a case: the two
cells run one after the other, each in its own child process, the PyTorch one by the
project's worker with the interpreter of --python. Both are measured and summarised by
the harness alike (images/s = images of the measured steps / their summed time; a step
is forward, loss, backward and optimizer step, the batch staged outside the window on
both sides). The table gives the median of the rounds per side with their range, and the
median and range of the per-round ratios. A case whose median ratio is below its target
makes the script exit 1.

    tests/bench/compare_cpu_with_pytorch.py --trainscope build/bin/trainscope \
        --python /usr/bin/python3 --rounds 3 --threads 2

With --matrix FILE a round is one `trainscope run FILE` with the file's own settings
(examples/framework.toml: the product path as a user runs it), every case of the file in
it; the table is then Markdown, one row per case (the cell without its framework), and
each round's load average is printed, since a busy machine moves the figures.

    tests/bench/compare_cpu_with_pytorch.py --matrix examples/framework.toml --rounds 5 \
        --python /usr/bin/python3
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

CASES = [
    # model, batch, precision
    ("seed-cnn", 32, "fp32"),
    ("seed-cnn", 64, "fp32"),
    ("seed-cnn", 128, "fp32"),
    ("resnet", 64, "fp32"),
    ("seed-cnn", 32, "fp64"),
    ("seed-cnn", 64, "fp64"),
    ("seed-cnn", 128, "fp64"),
    ("resnet", 64, "fp64"),
]
TARGETS = {("seed-cnn", "fp32"): 1.5, ("resnet", "fp32"): 1.0, ("seed-cnn", "fp64"): 1.5}


def run_round(args, model, batch, precision):
    """One matrix with both frameworks; images/s of each, by framework."""
    with tempfile.TemporaryDirectory() as tmp:
        command = [args.trainscope, "run", "--framework", "trainscope,pytorch", "--backend",
                   "cpu", "--model", model, "--batch", str(batch), "--precision", precision,
                   "--steps", str(args.steps), "--warmup", str(args.warmup), "--threads",
                   str(args.threads), "--python", args.python, "--out",
                   os.path.join(tmp, "r.db"), "--json", "-q"]
        if model == "resnet":
            command += ["--depth", "8", "--width", "16"]
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    result = {}
    for run in json.loads(out)["runs"]:
        if run["status"] != "ok":
            raise RuntimeError(f"{run['cell']}: {run['status']}: {run['error']}")
        result[run["axes"]["framework"]] = run["metrics"]["images_per_s"]
    return result


def run_matrix_round(args):
    """One `trainscope run FILE`: images/s by case (the cell key less its framework) and
    framework."""
    with tempfile.TemporaryDirectory() as tmp:
        command = [args.trainscope, "run", args.matrix, "--python", args.python, "--out",
                   os.path.join(tmp, "r.db"), "--json", "-q"]
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    result = {}
    for run in json.loads(out)["runs"]:
        if run["status"] != "ok":
            raise RuntimeError(f"{run['cell']}: {run['status']}: {run['error']}")
        axes = run["axes"]
        params = f" ({axes['model_params']})" if axes["model_params"] else ""
        case = f"{axes['model']}{params} {axes['precision']} batch {axes['batch']}"
        result.setdefault(case, {})[axes["framework"]] = run["metrics"]["images_per_s"]
    return result


def matrix_table(args):
    rounds = []
    for i in range(args.rounds):
        before = os.getloadavg()[0]
        rounds.append(run_matrix_round(args))
        # Each round as it ends, so an interrupted comparison keeps what it measured.
        print(f"round {i + 1}: load average {before:.1f} before, {os.getloadavg()[0]:.1f} after: "
              f"{json.dumps(rounds[-1])}", flush=True)
    print("| case | trainscope img/s | PyTorch img/s | ratio |")
    print("|---|---|---|---|")
    for case in rounds[0]:
        ours = [r[case]["trainscope"] for r in rounds]
        theirs = [r[case]["pytorch"] for r in rounds]
        ratios = [x / y for x, y in zip(ours, theirs)]
        print(f"| {case} | {statistics.median(ours):.0f} ({spread(ours)}) | "
              f"{statistics.median(theirs):.0f} ({spread(theirs)}) | "
              f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f}) |")
    return 0


def spread(values):
    return f"{min(values):.0f}-{max(values):.0f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trainscope", default="build/bin/trainscope")
    parser.add_argument("--python", default="python3", help="interpreter with torch")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--only", help="model:batch:precision, e.g. seed-cnn:64:fp32")
    parser.add_argument("--matrix", help="a matrix file with framework = [trainscope, pytorch]: "
                        "one run of it per round, with its own settings")
    args = parser.parse_args()
    if args.rounds < 3:
        parser.error("--rounds: at least 3, for a median and a spread")
    if args.matrix:
        return matrix_table(args)
    cases = CASES
    if args.only:
        m, b, p = args.only.split(":")
        cases = [(m, int(b), p)]
    print(f"settings: --threads {args.threads}, {args.steps} steps ({args.warmup} warm-up), "
          f"{args.rounds} rounds, python {args.python}; images/s of the measured steps")
    print(f"{'model':10} {'batch':>5} {'prec':>5} {'trainscope img/s':>22} "
          f"{'pytorch img/s':>20} {'ratio (range)':>18} {'target':>6}")
    failed = False
    for model, batch, precision in cases:
        ours, theirs = [], []
        for _ in range(args.rounds):
            r = run_round(args, model, batch, precision)
            ours.append(r["trainscope"])
            theirs.append(r["pytorch"])
        ratios = [x / y for x, y in zip(ours, theirs)]
        target = TARGETS.get((model, precision), 1.0)
        failed |= statistics.median(ratios) < target
        print(f"{model:10} {batch:5} {precision:>5} {statistics.median(ours):10.0f} "
              f"({spread(ours):>9}) {statistics.median(theirs):8.0f} ({spread(theirs):>9}) "
              f"{statistics.median(ratios):6.2f} ({min(ratios):.2f}-{max(ratios):.2f}) "
              f"{target:6.1f}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
