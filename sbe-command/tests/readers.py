"""Read Parquet files with pyarrow, DuckDB, Polars (its own reader),
DataFusion and Spark (local[2]), and compare, for the rows of each file and
for the entries of each list inside it (groups, sets, arrays; nested lists
too): row counts, each leaf column's non-null count, integer min/max and
exact decimal sums. pyarrow is the reference the others are compared with.

    python3 readers.py FILE... [--spark-default FILE...]

Spark reads the files before --spark-default with
spark.sql.legacy.parquet.nanosAsLong (it refuses TIMESTAMP(NANOS)), and those
after with its default settings (what `--timestamp-unit us` is for). Either
way a file with a time of day needs spark.sql.timeType.enabled: Spark has no
TIME type otherwise. Prints `FILE: READER: agrees` or `DIFFERS` per file and
reader; exits 1 when any differs or fails."""

import decimal
import sys

import datafusion
import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from pyspark.sql import SparkSession


def levels(schema):
    """The row levels of a table: (list path, leaves). A list path is the
    steps from the table's rows down to a list's entries, each step the
    struct path (field names) to a list column from the level above; a leaf
    is (struct path, type) of a column that is neither a list nor a struct.
    The top level has the empty list path."""
    out = []

    def walk(steps, prefix, t, leaves):
        if pa.types.is_struct(t):
            for f in t:
                walk(steps, prefix + (f.name,), f.type, leaves)
        elif pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
            inner = []
            out.append((steps + (prefix,), inner))
            walk(steps + (prefix,), (), t.value_type, inner)
        else:
            leaves.append((prefix, t))

    top = []
    out.append(((), top))
    for f in schema:
        walk((), (f.name,), f.type, top)
    return out


def kind(t):
    if pa.types.is_integer(t):
        return "int"
    if pa.types.is_decimal(t):
        return "dec"
    return "other"


# The reference: pyarrow compute over the whole table.
def pyarrow_stats(table, steps, leaves):
    def down(arr, path):
        for name in path:
            arr = pc.struct_field(arr, name)
        return arr

    if not steps:
        rows = table.num_rows
        arrays = [down(table.column(p[0]).combine_chunks(), p[1:]) for p, _ in leaves]
    else:
        # The entries of every list, a null list or a null parent having none.
        arr = pc.list_flatten(down(table.column(steps[0][0]).combine_chunks(), steps[0][1:]))
        for step in steps[1:]:
            arr = pc.list_flatten(down(arr, step))
        rows = None
        arrays = [down(arr, p) for p, _ in leaves]
    r = [rows]
    for a, (_, t) in zip(arrays, leaves):
        r.append(len(a) - a.null_count)
        k = kind(t)
        if k == "int":
            mm = pc.min_max(a)
            r += [mm["min"].as_py(), mm["max"].as_py()]
        elif k == "dec":
            vals = [v for v in a.to_pylist() if v is not None]
            r.append(sum(vals, decimal.Decimal(0)) if vals else None)
    return r


def aggregates(refs, leaves, quote_sum=lambda e: f"sum({e})"):
    aggs = []
    for e, (_, t) in zip(refs, leaves):
        aggs.append(f"count({e})")
        k = kind(t)
        if k == "int":
            aggs += [f"min({e})", f"max({e})"]
        elif k == "dec":
            aggs.append(quote_sum(e))
    return aggs


def dq(name):
    return '"' + name.replace('"', '""') + '"'


def bq(name):
    return "`" + name.replace("`", "``") + "`"


def duckdb_stats(con, f, steps, leaves):
    src = f"read_parquet('{f}')"
    if not steps:
        refs = [".".join(dq(n) for n in p) for p, _ in leaves]
        sql = f"select {', '.join(['count(*)'] + aggregates(refs, leaves))} from {src} t"
        return list(con.sql(sql).fetchall()[0])
    rel = f"(select unnest(t.{'.'.join(dq(n) for n in steps[0])}) as x from {src} t)"
    for step in steps[1:]:
        rel = f"(select unnest(s.x.{'.'.join(dq(n) for n in step)}) as x from {rel} s)" if step else \
            f"(select unnest(s.x) as x from {rel} s)"
    refs = [".".join(["s.x"] + [dq(n) for n in p]) for p, _ in leaves]
    sql = f"select {', '.join(aggregates(refs, leaves))} from {rel} s"
    return [None] + list(con.sql(sql).fetchall()[0])


def datafusion_stats(ctx, steps, leaves):
    def get(e, path):
        return e + "".join(f"['{n}']" for n in path)

    if not steps:
        refs = [get(dq(p[0]), p[1:]) for p, _ in leaves]
        sql = f"select {', '.join(['count(*)'] + aggregates(refs, leaves))} from t"
        return list(ctx.sql(sql).to_arrow_table().to_pylist()[0].values())
    rel = f"(select unnest({get(dq(steps[0][0]), steps[0][1:])}) as x from t)"
    for step in steps[1:]:
        rel = f"(select unnest({get('s.x', step)}) as x from {rel} s)"
    refs = [get("s.x", p) for p, _ in leaves]
    sql = f"select {', '.join(aggregates(refs, leaves))} from {rel} s"
    return [None] + list(ctx.sql(sql).to_arrow_table().to_pylist()[0].values())


def polars_stats(df, steps, leaves):
    def get(e, path):
        for n in path:
            e = e.struct.field(n)
        return e

    if steps:
        cur = df.select(get(pl.col(steps[0][0]), steps[0][1:]).alias("x")).explode("x")
        for step in steps[1:]:
            cur = cur.select(get(pl.col("x"), step).alias("x")).explode("x")
        refs = [get(pl.col("x"), p) for p, _ in leaves]
        r = [None]
    else:
        cur = df
        refs = [get(pl.col(p[0]), p[1:]) for p, _ in leaves]
        r = [df.height]
    exprs = []
    for i, (e, (_, t)) in enumerate(zip(refs, leaves)):
        exprs.append(e.count().alias(f"c{i}"))
        k = kind(t)
        if k == "int":
            exprs += [e.min().alias(f"lo{i}"), e.max().alias(f"hi{i}")]
        elif k == "dec":
            exprs.append(e.sum().alias(f"s{i}"))
    if exprs:
        r += list(cur.select(exprs).row(0))
    return r


def spark_stats(spark, steps, leaves):
    def get(e, path):
        return ".".join([e] + [bq(n) for n in path])

    dec_sum = lambda e: f"cast(sum({e}) as string)"  # noqa: E731
    if not steps:
        refs = [get("t", p) for p, _ in leaves]
        sql = f"select {', '.join(['count(*)'] + aggregates(refs, leaves, dec_sum))} from t"
        return list(spark.sql(sql).collect()[0])
    frm = f"t lateral view explode({get('t', steps[0])}) v0 as x0"
    for i, step in enumerate(steps[1:], 1):
        frm += f" lateral view explode({get(f'x{i - 1}', step)}) v{i} as x{i}"
    last = f"x{len(steps) - 1}"
    refs = [get(last, p) for p, _ in leaves]
    sql = f"select {', '.join(aggregates(refs, leaves, dec_sum))} from {frm}"
    return [None] + list(spark.sql(sql).collect()[0])


def norm(v):
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, (decimal.Decimal, str, float)):
        return decimal.Decimal(str(v)).normalize()
    return v


def has(t, pred):
    if pred(t):
        return True
    if pa.types.is_struct(t):
        return any(has(f.type, pred) for f in t)
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        return has(t.value_type, pred)
    return False


def main(args):
    default_from = args.index("--spark-default") if "--spark-default" in args else len(args)
    files = [(f, i >= default_from) for i, f in enumerate(args) if f != "--spark-default"]
    spark = (SparkSession.builder.master("local[2]").appName("sbe-readers")
             .config("spark.ui.enabled", "false")
             .config("spark.sql.session.timeZone", "UTC")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    con = duckdb.connect()
    ok = True
    for f, spark_default in files:
        table = pq.read_table(f)
        schema = table.schema
        nanos = any(has(x.type, lambda t: pa.types.is_timestamp(t) and t.unit == "ns") for x in schema)
        times = any(has(x.type, pa.types.is_time) for x in schema)
        if spark_default and nanos:
            print(f"{f}: has nanosecond timestamps, which Spark refuses with its default settings")
            ok = False
        settings = {}
        if not spark_default:
            settings["spark.sql.legacy.parquet.nanosAsLong"] = "true"
        if times:
            settings["spark.sql.timeType.enabled"] = "true"
        for k in ["spark.sql.legacy.parquet.nanosAsLong", "spark.sql.timeType.enabled"]:
            if k in settings:
                spark.conf.set(k, settings[k])
            else:
                spark.conf.unset(k)
        print(f"{f}: spark settings: {settings or 'default'}")
        ctx = datafusion.SessionContext()
        ctx.register_parquet("t", f)
        readers = {
            "duckdb": lambda s, lv: duckdb_stats(con, f, s, lv),
            "datafusion": lambda s, lv: datafusion_stats(ctx, s, lv),
        }
        try:
            df = pl.read_parquet(f)
            readers["polars"] = lambda s, lv: polars_stats(df, s, lv)
        except Exception as e:  # noqa: BLE001
            print(f"{f}: polars: FAILS to open: {str(e)[:300]}")
            ok = False
        try:
            spark.read.parquet(f).createOrReplaceTempView("t")
            readers["spark"] = lambda s, lv: spark_stats(spark, s, lv)
        except Exception as e:  # noqa: BLE001
            print(f"{f}: spark: FAILS to open: {str(e).splitlines()[0][:300]}")
            ok = False
        agree = {name: True for name in ["pyarrow", *readers]}
        compared = 0
        for steps, leaves in levels(schema):
            want = [norm(v) for v in pyarrow_stats(table, steps, leaves)]
            compared += len(leaves)
            where = "/".join(".".join(s) for s in steps) or "rows"
            for name, stats in readers.items():
                try:
                    got = [norm(v) for v in stats(steps, leaves)]
                except Exception as e:  # noqa: BLE001
                    print(f"{f}: {name}: FAILS at {where}: {str(e).splitlines()[0][:300]}")
                    agree[name] = False
                    continue
                if got != want:
                    diff = [(i, w, g) for i, (w, g) in enumerate(zip(want, got)) if w != g][:5]
                    print(f"{f}: {name}: DIFFERS at {where}: (index, pyarrow, {name}) {diff}")
                    agree[name] = False
        for name, same in agree.items():
            ok &= same
            if same:
                print(f"{f}: {name}: agrees")
        print(f"{f}: {table.num_rows} rows, {compared} leaves over {len(levels(schema))} levels")
    spark.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
