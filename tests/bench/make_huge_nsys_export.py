#!/usr/bin/env python3
"""Makes a large Nsight Systems SQLite export from a small one, for measuring the import.

Usage: make_huge_nsys_export.py SOURCE.sqlite SIZE_MB OUT.sqlite

Copies SOURCE (its tables the importer reads, and the small ones it joins: StringIds,
ThreadNames, TARGET_INFO_*) and doubles the activity tables' rows until the file holds at
least SIZE_MB: each doubling appends a copy of every row shifted by the span the rows
cover so far (plus 1 us), with correlation ids shifted past the largest so far, so that
the copies follow one another on the same threads and streams and every launch still
joins its own kernel; the last step copies only as many replicas as reach the size. The tables the importer does not read (sampling, scheduling,
call chains) are left out, so the size is the importer's input. Prints
"N replicas, K kernels, A activity rows, S MB" (an import must find N times the source's)
on stdout. A benchmark input, never committed: the tests/bench/huge_traces note says
where the measurements are written down.
"""
import os
import sqlite3
import sys

# The tables NsysSqliteImporter reads rows of (profiler/formats/NsysSqliteImporter.hpp),
# and which columns carry time and correlation ids.
ACTIVITY_TABLES = {
    "CUPTI_ACTIVITY_KIND_KERNEL": True,
    "CUPTI_ACTIVITY_KIND_MEMCPY": True,
    "CUPTI_ACTIVITY_KIND_MEMSET": True,
    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION": True,
    "CUPTI_ACTIVITY_KIND_RUNTIME": True,
    "NVTX_EVENTS": False,  # no correlationId
}
SMALL_TABLES = ["StringIds", "ThreadNames", "TARGET_INFO_GPU", "TARGET_INFO_SESSION_START_TIME"]


def tables(db):
    return {r[0] for r in db.execute("SELECT name FROM main.sqlite_master WHERE type = 'table'")}


def columns(db, table):
    return [r[1] for r in db.execute(f"PRAGMA main.table_info({table})")]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    source, size_mb, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    if os.path.exists(out):
        os.remove(out)
    db = sqlite3.connect(out)
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    db.execute("ATTACH DATABASE ? AS src", (f"file:{source}?mode=ro",))
    src_tables = {r[0] for r in db.execute("SELECT name FROM src.sqlite_master WHERE type = 'table'")}
    present = [t for t in list(ACTIVITY_TABLES) + SMALL_TABLES if t in src_tables]
    for t in present:
        sql = db.execute("SELECT sql FROM src.sqlite_master WHERE name = ?", (t,)).fetchone()[0]
        db.execute(sql)
        db.execute(f"INSERT INTO main.{t} SELECT * FROM src.{t}")
    db.commit()
    db.execute("DETACH DATABASE src")
    acts = [t for t in ACTIVITY_TABLES if t in present]
    first = min(db.execute(f"SELECT MIN(start) FROM {t}").fetchone()[0] or 0 for t in acts)
    last = max(db.execute(f"SELECT MAX(COALESCE(end, start)) FROM {t}").fetchone()[0] or 0
               for t in acts)
    span = last - first + 1000
    corr = 1 + max(db.execute(f"SELECT MAX(correlationId) FROM {t}").fetchone()[0] or 0
                   for t in acts if ACTIVITY_TABLES[t])
    replica_span = span  # replica i starts i * replica_span after the first
    replicas = 1
    page = db.execute("PRAGMA page_size").fetchone()[0]

    def size():
        return db.execute("PRAGMA page_count").fetchone()[0] * page

    def append_copy(of_replicas):
        """Appends the first `of_replicas` replicas again, after the last one."""
        for t in acts:
            cols = columns(db, t)
            shifted = []
            for c in cols:
                if c in ("start", "end"):
                    shifted.append(f"{c} + {span}")
                elif c == "correlationId" and ACTIVITY_TABLES[t]:
                    shifted.append(f"{c} + {corr}")
                elif c == "id":
                    shifted.append("NULL")  # an INTEGER PRIMARY KEY, if any: a new row id
                else:
                    shifted.append(c)
            db.execute(f"INSERT INTO {t} ({', '.join(cols)}) SELECT {', '.join(shifted)} "
                       f"FROM {t} WHERE start < {first + of_replicas * replica_span}")
        db.commit()

    target = size_mb * 1e6
    # Doubling while the whole next copy fits, then the part of one that reaches the size.
    while size() * 2 <= target:
        append_copy(replicas)
        span *= 2
        corr *= 2
        replicas *= 2
    if size() < target:
        part = int((target - size()) / (size() / replicas)) + 1
        append_copy(min(part, replicas))
        replicas += min(part, replicas)
    kernels = db.execute("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0]
    rows = sum(db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in acts)
    db.close()
    print(f"{replicas} replicas, {kernels} kernels, {rows} activity rows, "
          f"{os.path.getsize(out) / 1e6:.0f} MB")


if __name__ == "__main__":
    main()
