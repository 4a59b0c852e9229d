"""A Kineto trace of any size, as ../shared/traces/make_huge_kineto_trace.py makes it.

fast_replicate writes that script's output byte for byte (tests/bench/job_vs_hta
--check-generator compares the two), with each event serialised once instead of once per
copy: about 100 MB a second here instead of 2 to 3, so that the huge-trace benchmarks can
make 10 GB in minutes. Shared by tests/bench/huge_traces and tests/bench/job_vs_hta.
"""
import gzip
import json


def fast_replicate(src, target_mb, out):
    """make_huge_kineto_trace.py's output, byte for byte, with each event serialised once."""
    d = json.load(gzip.open(src))
    ev = d["traceEvents"]
    ts = [e["ts"] for e in ev if isinstance(e.get("ts"), (int, float))]
    t0, t1 = min(ts), max(ts)
    span = (t1 - t0) + 1000
    head = {k: v for k, v in d.items() if k != "traceEvents"}
    # Per event: the pieces between its variable fields, and how to fill each.
    templates = []
    for e in ev:
        fields = []
        e2 = dict(e)
        if isinstance(e2.get("ts"), (int, float)):
            fields.append(("ts", e2["ts"]))
            e2["ts"] = "\x00ts\x00"
        a = e2.get("args")
        if isinstance(a, dict) and "correlation" in a:
            a = dict(a)
            fields.append(("corr", a["correlation"]))
            a["correlation"] = "\x00corr\x00"
            e2["args"] = a
        if e2.get("ph") in ("s", "f") and "id" in e2 and isinstance(e2["id"], int):
            fields.append(("id", e2["id"]))
            e2["id"] = "\x00id\x00"
        text = json.dumps(e2)
        marks = sorted((text.index('"\\u0000' + name + '\\u0000"'), name, value)
                       for name, value in fields)
        pieces, at = [], 0
        for pos, name, _ in marks:
            pieces.append(text[at:pos])
            at = pos + len('"\\u0000' + name + '\\u0000"')
        pieces.append(text[at:])
        templates.append((pieces, [(name, value) for _, name, value in marks]))
    with open(out, "w") as f:
        f.write("{")
        for k, v in head.items():
            f.write(json.dumps(k) + ":" + json.dumps(v) + ",")
        f.write('"traceEvents":[\n')
        first = True
        rep = 0
        written = 0
        while written < target_mb * 1e6:
            off = rep * span
            chunk = []
            for pieces, fields in templates:
                parts = [pieces[0]]
                for i, (name, value) in enumerate(fields):
                    if name == "ts":
                        v = value + off
                    elif rep:  # correlation and flow ids move on from the second copy
                        v = value + rep * 10_000_000
                    else:
                        v = value
                    parts.append(json.dumps(v))
                    parts.append(pieces[i + 1])
                s = ("" if first else ",\n") + "".join(parts)
                chunk.append(s)
                written += len(s)
                first = False
            f.write("".join(chunk))
            rep += 1
        f.write("\n]}\n")
    return rep


if __name__ == "__main__":
    import sys

    if len(sys.argv) != 4:
        sys.exit("usage: kineto_replicate.py SOURCE.json.gz SIZE_MB OUT.json")
    print(fast_replicate(sys.argv[1], float(sys.argv[2]), sys.argv[3]), "replicas")
