#!/usr/bin/env python3
"""Data-parallel scaling on the CPU (docs/distributed.md, "Measured on a quiet machine").

For seed-cnn and ResNet-8 at global batch 128, `trainscope run` with its defaults runs
1 rank x 2 threads, 1 rank x 1 thread, and 2 ranks x 1 thread with overlap on and off,
interleaved, the order reversed every other round; prints per cell the median and range
of images/s, the efficiency against 1 x 1 (images/s at 2 / (2 x images/s at 1)), the
ratio to 1 x 2 (the same cores as one rank), and the communication shares.

    tests/bench/rank_scaling.py [ROUNDS] [TRAINSCOPE]   (defaults: 5, build/bin/trainscope)
"""
import json, subprocess, statistics, sys, os
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
TS = sys.argv[2] if len(sys.argv) > 2 else "build/bin/trainscope"
if rounds < 5:
    sys.exit("rank_scaling: at least 5 rounds, for a median and a spread")
models = [("seed-cnn", []), ("resnet-8", ["--model", "resnet", "--depth", "8"])]
sides = [("1x2", ["--ranks", "1", "--threads", "2"]),
         ("1x1", ["--ranks", "1", "--threads", "1"]),
         ("2x1 on", ["--ranks", "2", "--threads", "1", "--overlap", "on"]),
         ("2x1 off", ["--ranks", "2", "--threads", "1", "--overlap", "off"])]
res = {}
import tempfile
work = tempfile.mkdtemp(prefix="rank-scaling-")
for r in range(rounds):
    for mname, margs in models:
        order = sides if r % 2 == 0 else list(reversed(sides))
        for sname, sargs in order:
            args = [TS, "run", "--batch", "128"] + (margs or ["--model", "seed-cnn"]) + sargs + ["-o", os.path.join(work, f"r{r}.db"), "--json", "-q"]
            out = subprocess.run(args, capture_output=True, text=True)
            m = json.loads(out.stdout)["runs"][0]["metrics"]
            res.setdefault((mname, sname), []).append(m)
            print(r, mname, sname, round(m["images_per_s"]), m.get("communication_share"), m.get("exposed_communication_share"), flush=True)
def med(xs): return statistics.median(xs), min(xs), max(xs)
print("\n| model | cell | images/s median (range) | efficiency vs 1x1, median (range) | images/s vs 1x2 | comm. share | exposed share |")
print("|---|---|---|---|---|---|---|")
for mname, _ in models:
    one = [m["images_per_s"] for m in res[(mname, "1x1")]]
    same = [m["images_per_s"] for m in res[(mname, "1x2")]]
    for sname, _ in sides:
        ips = [m["images_per_s"] for m in res[(mname, sname)]]
        row = f"| {mname} | {sname} | %.0f (%.0f–%.0f) |" % med(ips)
        if sname.startswith("1x"):
            row += " — | — | — | — |"
        else:
            eff = [a / (2 * b) for a, b in zip(ips, one)]
            cs = [m.get("communication_share", float('nan')) for m in res[(mname, sname)]]
            es = [m.get("exposed_communication_share", float('nan')) for m in res[(mname, sname)]]
            ratio = [a / b for a, b in zip(ips, same)]
            row += " %.2f (%.2f–%.2f) |" % med(eff) + " %.2f (%.2f–%.2f) |" % med(ratio) + " %.3f |" % statistics.median(cs) + " %.3f |" % statistics.median(es)
        print(row)
