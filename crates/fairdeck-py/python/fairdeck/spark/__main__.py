"""``python -m fairdeck.spark shuffle IN... OUT --format text|parquet --seed S [--buckets K]``
and ``python -m fairdeck.spark bench IN... [--master M] [--rounds R]`` (see ``_bench``).

Runs under ``spark-submit`` (the master and resources come from it) and
under plain ``python`` (Spark's embedded ``local[*]`` master). Prints the
seed that replays the run. Exit status: 0 done, 2 usage error, 1 runtime
error (one line on stderr, no traceback).
"""

from __future__ import annotations

import argparse
import os
import re
import sys


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m fairdeck.spark",
        description="Exact, reproducible shuffles of files larger than a machine, on Apache Spark.",
    )
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("shuffle", help="shuffle the lines (text) or rows (Parquet) of files")
    s.add_argument("paths", nargs="+", metavar="IN", help="input files or directories, then OUT")
    s.add_argument("output", metavar="OUT", help="output directory (must be empty or absent)")
    s.add_argument("--format", choices=["text", "parquet"],
                   help="input format (default: read from the files' first bytes)")
    s.add_argument("--seed", help="64 hex digits, or any text (hashed); default: a fresh seed")
    s.add_argument("--buckets", type=int, help="number of parts (default: from size and memory)")
    s.add_argument("--task-memory", default="512MB", help="memory per task for one bucket")
    s.add_argument("--split-bytes", help="text split size (default: spark.sql.files.maxPartitionBytes)")
    s.add_argument("--master", help="Spark master (default: spark-submit's, else local[*])")
    s.add_argument("--overwrite", action="store_true", help="replace the output's contents")
    b = sub.add_parser("bench", help="time the shuffle against orderBy(rand()) on the same input")
    b.add_argument("paths", nargs="+", metavar="IN", help="input files or directories")
    b.add_argument("--format", choices=["text", "parquet"],
                   help="input format (default: read from the files' first bytes)")
    b.add_argument("--master", help="Spark master (default: spark-submit's, else local[*])")
    b.add_argument("--rounds", type=int, default=3, help="timed runs of each, after a warm-up")
    b.add_argument("--work", help="where the runs write (default: the system's temporary directory)")
    return p


def _one_line(e: Exception) -> str:
    """The innermost Python error of a failed Spark job, else its first line."""
    lines = str(e).strip().splitlines()
    errors = [x.strip() for x in lines if re.match(r"\s*\w+(Error|Exception): ", x)]
    return errors[-1] if errors else (lines[0] if lines else type(e).__name__)


#: The master URLs Spark accepts (its "Master URLs" documentation): a bad
#: one is a usage error here, not a hundred lines of JVM stack traces.
MASTER = re.compile(
    r"local(\[(\d+|\*)(,\d+)?\])?|local-cluster\[\d+,\d+,\d+\]"
    r"|spark://[^\s,/:]+:\d+(,[^\s,/:]+:\d+)*/?|yarn|k8s://\S+"
)


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if getattr(args, "buckets", None) is not None and args.buckets < 1:
        print("python -m fairdeck.spark: --buckets must be at least 1", file=sys.stderr)
        return 2
    if args.command == "bench" and args.rounds < 1:
        print("python -m fairdeck.spark: --rounds must be at least 1", file=sys.stderr)
        return 2
    if args.master is not None and not MASTER.fullmatch(args.master):
        print(f"python -m fairdeck.spark: --master {args.master!r} is not a Spark master URL "
              "(local, local[N], local[*], spark://HOST:PORT, yarn, k8s://URL)", file=sys.stderr)
        return 2
    try:
        from pyspark.sql import SparkSession

        from fairdeck.spark import _formats, _output
        from fairdeck.spark._listing import list_inputs

        # Fail fast, before starting Spark: missing inputs, an output that
        # overlaps an input, a non-empty output without --overwrite.
        listing = list_inputs(args.paths)
        if args.command == "shuffle":
            _output.check(args.output, args.overwrite, listing, args.paths)
        fmt = _formats.detect(listing, args.format)

        from fairdeck.spark import shuffle

        if "PYSPARK_GATEWAY_PORT" not in os.environ:
            # Plain python starts Spark itself: its Python workers must run
            # this interpreter, which has fairdeck (spark-submit decides itself).
            os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        builder = SparkSession.builder.appName("fairdeck shuffle").config(
            "spark.ui.showConsoleProgress", "false"
        )
        if args.master:
            builder = builder.master(args.master)
        spark = builder.getOrCreate()
        spark.sparkContext.setLogLevel("ERROR")
        if args.command == "bench":
            from fairdeck.spark import _bench

            result = _bench.run(spark, args.paths, fmt, args.rounds, args.work)
            print(_bench.report(result, spark.sparkContext.master))
            return 0
        result = shuffle(args.paths, seed=args.seed, buckets=args.buckets, output=args.output,
                         format=args.format, spark=spark, task_memory=args.task_memory,
                         split_bytes=args.split_bytes, overwrite=args.overwrite)
    except FileExistsError as e:
        from fairdeck.spark._output import OutputNotEmpty

        if isinstance(e, OutputNotEmpty):  # name this command's flag, not the API's
            e = OutputNotEmpty(e.path, "--overwrite")
        print(f"python -m fairdeck.spark: {e}", file=sys.stderr)
        return 1
    except (ValueError, OSError) as e:
        print(f"python -m fairdeck.spark: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # a Spark job failure: one line, not a JVM stack trace
        print(f"python -m fairdeck.spark: {_one_line(e)}", file=sys.stderr)
        return 1
    parts = "part" if result.buckets == 1 else "parts"
    print(f"{result.rows} rows in {result.buckets} {parts} in {args.output}")
    print(f"seed: {result.seed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
