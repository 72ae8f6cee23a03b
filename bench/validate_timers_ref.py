#!/usr/bin/env python3
"""References for bench/validate_timers, on the same cases and inputs:

  bench       triton.testing.do_bench and do_bench_cudagraph, `--repeats` times each, with wall time
  ncu-target  each case a few times between marker kernels, for ncu's gpu__time_duration
  merge       caliber's JSON + the above -> one list of rows (case, timer, cache, flush_method,
              median_us, cv_pct, wall_s, kernel_only_us, activities_per_call, ncu_us,
              ncu_kernels, ...), and the full table on stdout
  summary     one line per case against the issues' targets (kernel vs ncu, CV, adaptive wall),
              then issue 22's table: kernel hot / cold under each flush method beside ncu

Row fields a script reads (timers-h200.json, one object per row):
  cache, flush_method   "hot", or "cold" with the flush method ("write": the memset flush of runs
                        1-2; "read", "write_read"; do_bench rows: "zero_256MB", its cache.zero_())
  median_us, cv_pct     the timer's median over the repeats and its CV across them
  kernel_only_us        kernel timer only: median over repeats of the kernels' summed time per
                        call (memsets and memcpys left out, as ncu leaves them out)
  activities_per_call   kernel timer only: {"kernels", "memsets", "memcpys", "kernel_us",
                        "memset_us", "memcpy_us", "calls", "counts_vary"} of the first repeat
  ncu_us, ncu_kernels   ncu's median summed gpu__time_duration of one call in the row's cache
                        state, and how many kernels it profiled per call
  kernel_target_ok      |kernel_only_us - ncu_us| <= max(2% of ncu_us, 1.2 us x ncu_kernels)

The marker kernel (torch.cuda._sleep, a kernel named spin_kernel) splits ncu's kernel list into
groups whose order the target writes down, so no NVTX filtering is needed and one ncu process
covers every case.
"""
import argparse
import csv
import json
import statistics
import sys
import time

MARKER_KERNEL = "spin_kernel"


def validation_cases():
    """name -> builder returning a zero-argument call; mirrors validation_cases() in C++."""
    import torch

    dev = "cuda"

    def randn(*shape, dtype):
        return torch.randn(*shape, device=dev, dtype=dtype)

    def mm(n, dtype):
        def build():
            a, b = randn(n, n, dtype=dtype), randn(n, n, dtype=dtype)
            return lambda: torch.mm(a, b)
        return build

    def unary(shape, dtype, fn):
        def build():
            x = randn(*shape, dtype=dtype)
            return lambda: fn(x)
        return build

    def add():
        x, y = randn(1 << 20, dtype=torch.float32), randn(1 << 20, dtype=torch.float32)
        return lambda: torch.add(x, y)

    def layer_norm():
        x = randn(4096, 4096, dtype=torch.float16)
        w = torch.ones(4096, device=dev, dtype=torch.float16)
        b = torch.zeros(4096, device=dev, dtype=torch.float16)
        return lambda: torch.nn.functional.layer_norm(x, (4096,), w, b)

    def uniform():
        x = torch.empty(4096, 4096, device=dev, dtype=torch.float16)
        return lambda: x.uniform_()

    return {
        "mm_bf16_4096x4096x4096": mm(4096, torch.bfloat16),
        "mm_fp16_256x256x256": mm(256, torch.float16),
        "softmax_fp16_4096x4096": unary((4096, 4096), torch.float16, lambda x: torch.softmax(x, -1)),
        "add_fp32_1048576": add,
        "sum_fp32_16777216": unary((1 << 24,), torch.float32, torch.sum),
        "layer_norm_fp16_4096x4096": layer_norm,
        "sort_fp32_1048576": unary((1 << 20,), torch.float32, torch.sort),
        "topk_fp16_64x8192_k128": unary((64, 8192), torch.float16, lambda x: torch.topk(x, 128)),
        "uniform__fp16_4096x4096": uniform,
        "dropout_fp16_4096x4096": unary(
            (4096, 4096), torch.float16, lambda x: torch.nn.functional.dropout(x, 0.5, True)),
    }


def cv_pct(values):
    if len(values) < 2 or statistics.mean(values) == 0:
        return 0.0
    return statistics.stdev(values) / statistics.mean(values) * 100


def bench(args):
    import torch
    from triton.testing import do_bench, do_bench_cudagraph

    # Each tool at its defaults, asked for the median (caliber's headline statistic).
    tools = {"do_bench": do_bench, "do_bench_cudagraph": do_bench_cudagraph}
    rows = []
    for name, build in validation_cases().items():
        fn = build()
        torch.cuda.synchronize()
        for tool_name, tool in tools.items():
            latencies, walls, error = [], [], None
            for _ in range(args.repeats):
                start = time.perf_counter()
                try:
                    ms = tool(fn, return_mode="median")
                except Exception as e:  # one failing tool must not lose the others' rows
                    error = f"{type(e).__name__}: {e}"
                    break
                walls.append(time.perf_counter() - start)
                latencies.append(ms * 1e3)
            row = {"case": name, "timer": tool_name, "policy": "fixed",
                   # do_bench zeroes a 256 MB buffer before every call; the graph variant does not.
                   "cache": "cold" if tool_name == "do_bench" else "hot"}
            if tool_name == "do_bench":
                row["flush_method"] = "zero_256MB"
            if error:
                row["error"] = error
            if latencies:
                row.update(repeats_us=latencies, median_us=statistics.median(latencies),
                           cv_pct=cv_pct(latencies), wall_s=statistics.mean(walls))
            print(json.dumps(row), file=sys.stderr)
            rows.append(row)
    with open(args.out, "w") as f:
        json.dump(rows, f, indent=1)


def ncu_target(args):
    import torch

    calls = {name: build() for name, build in validation_cases().items()}
    torch.cuda.synchronize()
    plan = []  # one entry per marker kernel: which case and which call follows it
    for name, fn in calls.items():
        for call in range(args.calls + 1):  # call 0 is the warmup (JIT, library handles)
            torch.cuda._sleep(1000)
            fn()
            torch.cuda.synchronize()
            plan.append({"case": name, "call": call})
    with open(args.plan, "w") as f:
        json.dump(plan, f)


NCU_UNIT_NS = {"nsecond": 1, "ns": 1, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6,
               "second": 1e9, "s": 1e9}


def read_ncu_csv(path):
    """Kernel (name, duration ns) in launch order from the output of ncu --csv --print-units base.

    The file is everything ncu printed: its ==PROF== and ==ERROR== lines and whatever the target
    wrote are interleaved with the CSV, whose rows (and only those) start with a double quote.
    """
    kernels = []
    try:
        with open(path, errors="replace") as f:
            lines = [line for line in f if line.startswith('"')]
    except FileNotFoundError:
        return kernels
    for row in csv.DictReader(lines):
        if row.get("Metric Name") != "gpu__time_duration.sum":
            continue
        value = row["Metric Value"].replace(",", "")
        scale = NCU_UNIT_NS.get(row.get("Metric Unit") or "nsecond", 1)
        kernels.append((int(row["ID"]), row["Kernel Name"], float(value) * scale))
    kernels.sort()
    return [(name, ns) for _, name, ns in kernels]


def ncu_medians_us(csv_path, plan_path):
    """case -> (median over the measured calls of the summed kernel durations of one call,
    the most frequent number of kernels ncu profiled in one call)."""
    try:
        with open(plan_path) as f:
            plan = json.load(f)
    except FileNotFoundError:
        return {}
    groups, current = [], None
    for name, ns in read_ncu_csv(csv_path):
        if MARKER_KERNEL in name:
            current = []
            groups.append(current)
        elif current is not None:
            current.append(ns)
    if len(groups) != len(plan):
        print(f"merge: {csv_path}: {len(groups)} marker groups for {len(plan)} planned calls; "
              "ncu_us left empty", file=sys.stderr)
        return {}
    print(f"merge: {csv_path}: {len(groups)} marker groups, as planned", file=sys.stderr)
    per_case, counts = {}, {}
    for entry, durations in zip(plan, groups):
        if entry["call"] > 0:
            per_case.setdefault(entry["case"], []).append(sum(durations) / 1e3)
            counts.setdefault(entry["case"], []).append(len(durations))
    return {case: (statistics.median(v), most_frequent(counts[case]))
            for case, v in per_case.items()}


def most_frequent(values):
    """The most frequent value, the smaller one on a tie (as caliber's activity summary)."""
    return min(set(values), key=lambda v: (-values.count(v), v))


def kernel_target_ok(kernel_only_us, ncu_us, kernels):
    """Issue 22's target: |kernel_only_us - ncu_us| <= max(2% of ncu_us, 1.2 us x kernels)."""
    return abs(kernel_only_us - ncu_us) <= max(0.02 * ncu_us, 1.2 * max(kernels, 1))


def merge(args):
    with open(args.caliber) as f:
        caliber = json.load(f)
    try:
        with open(args.ref) as f:
            ref = json.load(f)
    except FileNotFoundError:
        ref = []
    ncu = {"hot": ncu_medians_us(args.ncu_hot, args.plan_hot),
           "cold": ncu_medians_us(args.ncu_cold, args.plan_cold)}
    merged = []
    for row in caliber["rows"] + ref:
        out = dict(row)
        out.setdefault("median_us", None)
        out.setdefault("cv_pct", None)
        out.setdefault("wall_s", None)
        if out.get("cache") == "cold":
            out.setdefault("flush_method", "write")  # rows of runs before flush methods
        ncu_us, ncu_kernels = ncu.get(row.get("cache", "hot"), {}).get(row["case"], (None, None))
        out["ncu_us"], out["ncu_kernels"] = ncu_us, ncu_kernels
        if out["median_us"] is not None and ncu_us:
            out["delta_vs_ncu_pct"] = (out["median_us"] / ncu_us - 1) * 100
        if out.get("kernel_only_us") is not None and ncu_us:
            out["kernel_only_delta_us"] = out["kernel_only_us"] - ncu_us
            out["kernel_target_ok"] = kernel_target_ok(out["kernel_only_us"], ncu_us,
                                                       ncu_kernels or 1)
        merged.append(out)
    with open(args.out, "w") as f:
        json.dump(merged, f, indent=1)
    fmt = "{:<28} {:<19} {:<8} {:<15} {:>10} {:>7} {:>7} {:>9} {:<16} {:>10} {:>5} {:>8}"
    print(fmt.format("case", "timer", "policy", "cache", "median_us", "cv_pct", "wall_s",
                     "kernel_us", "activities", "ncu_us", "ncu_k", "d_ncu%"))
    num = lambda v, spec: "-" if v is None else format(v, spec)
    for r in merged:
        cache = r.get("cache", "")
        if r.get("flush_method"):
            cache += "/" + r["flush_method"]
        a = r.get("activities_per_call")
        acts = f"k={a['kernels']} s={a['memsets']} c={a['memcpys']}" if a else "-"
        print(fmt.format(r["case"], r["timer"], r.get("policy", ""), cache[:15],
                         num(r["median_us"], ".2f"), num(r["cv_pct"], ".2f"),
                         num(r["wall_s"], ".3f"), num(r.get("kernel_only_us"), ".2f"), acts,
                         num(r["ncu_us"], ".2f"), num(r.get("ncu_kernels"), "d"),
                         num(r.get("delta_vs_ncu_pct"), "+.1f")) +
              ("  " + r["error"][:60] if r.get("error") else ""))


def cv_limit_pct(median_us):
    """The issue's CV target across 5 repeats: 0.5% for cases of 20 us or more, 1.5% below."""
    return 0.5 if median_us >= 20 else 1.5


FLUSH_METHODS = ("write", "read", "write_read")


def summary(args):
    """One line per case against the targets: kernel_only_us vs ncu (hot, and cold under each
    flush method; issue 22's target), the worst CV of graph/batch/kernel against its limit, and
    the adaptive policy's slowest wall time against do_bench's. Then issue 22's table: hot, old
    cold (write) and new cold (read, write_read) beside ncu cold."""
    with open(args.merged) as f:
        rows = json.load(f)
    by_case = {}
    for r in rows:
        by_case.setdefault(r["case"], []).append(r)
    num = lambda v, spec: "-" if v is None else format(v, spec)

    default_captures = args.graph_captures or max(
        (r.get("default_graph_captures", 1) for r in rows if r["timer"] == "graph"), default=1)

    def is_default(r):
        # Graph rows with another capture count are the capture pass's experiment (rows of runs
        # before the knob have neither field: one capture, the default then). --graph-captures
        # judges the targets on another count's rows (a default changed after the run).
        return r["timer"] != "graph" or r.get("graph_captures", 1) == default_captures

    def find(case_rows, timer, policy=None, cache="hot", flush=None):
        for r in case_rows:
            if (r["timer"] == timer and r.get("cache") == cache and is_default(r) and
                    (policy is None or r.get("policy") == policy) and
                    (flush is None or r.get("flush_method") == flush) and
                    r.get("median_us") is not None):
                return r
        return None

    def vs_ncu(r):
        """(cell text, missed?) of one kernel row against ncu by issue 22's target."""
        if r is None:
            return "-", False
        value = r.get("kernel_only_us", r["median_us"])
        if r.get("ncu_us") is None:
            return f"{value:.2f}/no ncu", False
        ok = r.get("kernel_target_ok", False)
        return (f"{value:.2f}/{r['ncu_us']:.2f} {value - r['ncu_us']:+.2f} "
                f"{'ok' if ok else 'MISS'}"), not ok

    print("case                       kernel_only/ncu hot    " +
          " ".join(f"cold {m:<17}" for m in FLUSH_METHODS) +
          " worst CV g/b/k (limit)      adaptive wall vs do_bench")
    misses = {"hot": 0, "cv": 0, "wall": 0, **{m: 0 for m in FLUSH_METHODS}}
    for case, case_rows in by_case.items():
        cells = []
        text, missed = vs_ncu(find(case_rows, "kernel", "fixed", "hot"))
        misses["hot"] += missed
        cells.append(f"{text:<22}")
        for method in FLUSH_METHODS:
            text, missed = vs_ncu(find(case_rows, "kernel", "fixed", "cold", method))
            misses[method] += missed
            cells.append(f"{text:<22}")
        worst, worst_name = None, ""
        for r in case_rows:
            if (r["timer"] in ("graph", "batch", "kernel") and r.get("cv_pct") is not None and
                    is_default(r)):
                excess = r["cv_pct"] - cv_limit_pct(r["median_us"])
                if worst is None or excess > worst[0]:
                    worst = (excess, r)
        if worst:
            r = worst[1]
            ok = "ok" if worst[0] <= 0 else "MISS"
            misses["cv"] += ok == "MISS"
            worst_name = (f"{r['cv_pct']:.2f}% {r['timer'][0]}/{r['policy'][:5]}/{r['cache']} "
                          f"({cv_limit_pct(r['median_us'])}) {ok}")
        adaptive = [r["wall_s"] for r in case_rows if r.get("policy") == "adaptive"
                    and r["timer"] in ("graph", "batch", "kernel") and r.get("wall_s")
                    and is_default(r)]
        bench = find(case_rows, "do_bench", cache="cold")
        wall = "-"
        if adaptive and bench:
            ok = "ok" if max(adaptive) < bench["wall_s"] else "MISS"
            misses["wall"] += ok == "MISS"
            wall = f"{max(adaptive):.3f} vs {bench['wall_s']:.3f} s {ok}"
        print(f"{case[:26]:<26} {' '.join(cells)} {worst_name:<27} {wall}")
    print("targets missed: " + ", ".join(f"{k} {v}" for k, v in misses.items()))

    print()
    print(f"graph timer, CV across the repeats (%) by captures per measurement (default "
          f"{default_captures}), and the mean capture spread (max - min of the captures' medians)")
    counts = sorted({r["graph_captures"] for r in rows
                     if r["timer"] == "graph" and r.get("graph_captures")})
    print(f"{'case':<26} " + " ".join(f"{p[:5]} x{c:<10}" for p in ("fixed", "adapt")
                                       for c in counts))
    for case, case_rows in by_case.items():
        cells = []
        for policy in ("fixed", "adaptive"):
            for c in counts:
                r = next((r for r in case_rows if r["timer"] == "graph" and
                          r.get("policy") == policy and r.get("graph_captures") == c and
                          r.get("cv_pct") is not None), None)
                spread = r and r.get("capture_spread_pct")
                cells.append("-" if r is None else
                             f"{r['cv_pct']:.2f}" + (f"/{spread:.2f}" if spread else ""))
        print(f"{case[:26]:<26} " + " ".join(f"{c:<16}" for c in cells))

    print()
    print("issue 22: kernel timer, kernel_only_us (total us) [activities per call], median of "
          "the repeats")
    head = "{:<26} {:>22} " + " ".join("{:>22}" for _ in FLUSH_METHODS) + " {:>8} {:>8} {:>5} {:>8}"
    print(head.format("case", "hot", *[f"cold {m}" for m in FLUSH_METHODS], "ncu hot",
                      "ncu cold", "ncu_k", "do_bench"))
    for case, case_rows in by_case.items():
        def cell(r):
            if r is None:
                return "-"
            a = r.get("activities_per_call") or {}
            acts = f"[{a.get('kernels', '?')}/{a.get('memsets', '?')}/{a.get('memcpys', '?')}]"
            return f"{num(r.get('kernel_only_us'), '.2f')} ({r['median_us']:.2f}) {acts}"
        hot = find(case_rows, "kernel", "fixed", "hot")
        colds = [find(case_rows, "kernel", "fixed", "cold", m) for m in FLUSH_METHODS]
        any_cold = next((r for r in colds if r), None)
        bench = find(case_rows, "do_bench", cache="cold")
        print(head.format(case[:26], cell(hot), *[cell(r) for r in colds],
                          num(hot and hot.get("ncu_us"), ".2f"),
                          num(any_cold and any_cold.get("ncu_us"), ".2f"),
                          num((hot or any_cold or {}).get("ncu_kernels"), "d"),
                          num(bench and bench["median_us"], ".2f")))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("bench")
    p.add_argument("--out", required=True)
    p.add_argument("--repeats", type=int, default=5)
    p.set_defaults(run=bench)
    p = sub.add_parser("ncu-target")
    p.add_argument("--plan", required=True)
    p.add_argument("--calls", type=int, default=3)
    p.set_defaults(run=ncu_target)
    p = sub.add_parser("merge")
    for name in ("--caliber", "--ref", "--ncu-hot", "--ncu-cold", "--plan-hot", "--plan-cold",
                 "--out"):
        p.add_argument(name, required=True)
    p.set_defaults(run=merge)
    p = sub.add_parser("summary")
    p.add_argument("--merged", required=True)
    p.add_argument("--graph-captures", type=int, default=0,
                   help="judge graph rows of this capture count (default: the run's default)")
    p.set_defaults(run=summary)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
