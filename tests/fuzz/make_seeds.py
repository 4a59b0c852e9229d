#!/usr/bin/python3
"""Writes the fuzz targets' seed corpora into OUT/<target>/: small inputs cut from the
shared GPU traces (../shared/traces) and the example matrices, so that each fuzzer starts
from the real formats' structure without committing megabytes of seeds.

usage: make_seeds.py SOURCE_DIR SHARED_DIR OUT
"""
import gzip
import json
import shutil
import sqlite3
import sys
from pathlib import Path

EVENTS_PER_CATEGORY = 6
ROWS_PER_TABLE = 12
# The tables import_nsys_sqlite reads (docs/formats.md); the rest of an export is left out.
NSYS_TABLES = ["CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
               "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
               "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS", "TARGET_INFO_GPU",
               "TARGET_INFO_SESSION_START_TIME"]
STRING_ID_COLUMNS = ["demangledName", "shortName", "mangledName", "nameId", "textId"]


def kineto_seeds(shared: Path, out: Path) -> None:
    """A few events of every category (and every phase) of each trace, with its header."""
    for trace in sorted((shared / "traces" / "kineto").glob("*.json.gz")):
        with gzip.open(trace, "rt", encoding="utf-8") as f:
            doc = json.load(f)
        kept, seen = [], {}
        for event in doc.get("traceEvents", []):
            key = (event.get("cat"), event.get("ph"))
            if seen.get(key, 0) < EVENTS_PER_CATEGORY:
                seen[key] = seen.get(key, 0) + 1
                kept.append(event)
        doc["traceEvents"] = kept
        text = json.dumps(doc, separators=(",", ":")).encode()
        name = trace.name.removesuffix(".json.gz")
        (out / f"{name}.json").write_bytes(text)
        (out / f"{name}.json.gz").write_bytes(gzip.compress(text, mtime=0))


def nsys_seeds(shared: Path, out: Path) -> None:
    """The importer's tables, a few rows each, as an SQL script and as an SQLite file."""
    for export in sorted((shared / "traces" / "nsys").glob("*.sqlite")):
        source = sqlite3.connect(f"file:{export}?mode=ro", uri=True)
        small = sqlite3.connect(":memory:")
        string_ids = set()
        for table in NSYS_TABLES:
            row = source.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()
            if row is None:
                continue
            small.execute(row[0])
            cursor = source.execute(f"SELECT * FROM {table} LIMIT {ROWS_PER_TABLE}")
            columns = [c[0] for c in cursor.description]
            rows = cursor.fetchall()
            small.executemany(f"INSERT INTO {table} VALUES ({','.join('?' * len(columns))})", rows)
            for r in rows:
                string_ids.update(r[columns.index(c)] for c in STRING_ID_COLUMNS if c in columns)
        small.execute(source.execute("SELECT sql FROM sqlite_master WHERE name = 'StringIds'")
                      .fetchone()[0])
        for sid in sorted(i for i in string_ids if isinstance(i, int)):
            row = source.execute("SELECT id, value FROM StringIds WHERE id = ?", (sid,)).fetchone()
            if row is not None:
                small.execute("INSERT INTO StringIds VALUES (?, ?)", row)
        small.commit()
        (out / f"{export.stem}.sql").write_text("\n".join(small.iterdump()) + "\n")
        database = out / f"{export.stem}.sqlite"
        database.unlink(missing_ok=True)
        small.execute("VACUUM INTO ?", (str(database),))


def main() -> None:
    source, shared, out = (Path(a) for a in sys.argv[1:4])
    targets = {t: out / t for t in ["kineto_importer", "nsys_sqlite", "matrix_file", "cell_job",
                                    "cupti_decoder"]}
    for d in targets.values():
        d.mkdir(parents=True, exist_ok=True)
    kineto_seeds(shared, targets["kineto_importer"])
    nsys_seeds(shared, targets["nsys_sqlite"])
    for matrix in sorted((source / "examples").glob("*.toml")):
        shutil.copy(matrix, targets["matrix_file"] / matrix.name)
    for committed in sorted((source / "tests" / "fuzz" / "seeds").glob("*/*")):
        shutil.copy(committed, targets[committed.parent.name] / committed.name)


if __name__ == "__main__":
    main()
