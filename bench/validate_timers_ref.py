#!/usr/bin/env python3
"""References for bench/validate_timers, on the same cases and inputs:

  bench       triton.testing.do_bench and do_bench_cudagraph, `--repeats` times each, with wall time
  ncu-target  each case a few times between marker kernels, for ncu's gpu__time_duration
  merge       caliber's JSON + the above -> one list of rows (case, timer, median_us, cv_pct,
              wall_s, ncu_us, ...)

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


def read_ncu_csv(path):
    """Kernel (name, duration ns) in launch order from ncu --csv --print-units base output."""
    kernels = []
    try:
        with open(path) as f:
            lines = [line for line in f if line.startswith('"')]
    except FileNotFoundError:
        return kernels
    for row in csv.DictReader(lines):
        if row.get("Metric Name") != "gpu__time_duration.sum":
            continue
        value = row["Metric Value"].replace(",", "")
        unit = row.get("Metric Unit", "nsecond")
        scale = {"nsecond": 1, "usecond": 1e3, "msecond": 1e6, "second": 1e9}.get(unit, 1)
        kernels.append((int(row["ID"]), row["Kernel Name"], float(value) * scale))
    kernels.sort()
    return [(name, ns) for _, name, ns in kernels]


def ncu_medians_us(csv_path, plan_path):
    """case -> median over the measured calls of the summed kernel durations of one call."""
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
    per_case = {}
    for entry, durations in zip(plan, groups):
        if entry["call"] > 0:
            per_case.setdefault(entry["case"], []).append(sum(durations) / 1e3)
    return {case: statistics.median(v) for case, v in per_case.items()}


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
        out["ncu_us"] = ncu.get(row.get("cache", "hot"), {}).get(row["case"])
        if out["median_us"] is not None and out["ncu_us"]:
            out["delta_vs_ncu_pct"] = (out["median_us"] / out["ncu_us"] - 1) * 100
        merged.append(out)
    with open(args.out, "w") as f:
        json.dump(merged, f, indent=1)
    fmt = "{:<28} {:<19} {:<8} {:<4} {:>10} {:>7} {:>7} {:>10} {:>8}"
    print(fmt.format("case", "timer", "policy", "$", "median_us", "cv_pct", "wall_s", "ncu_us",
                     "d_ncu%"))
    num = lambda v, spec: "-" if v is None else format(v, spec)
    for r in merged:
        print(fmt.format(r["case"], r["timer"], r.get("policy", ""), r.get("cache", "")[:4],
                         num(r["median_us"], ".2f"), num(r["cv_pct"], ".2f"),
                         num(r["wall_s"], ".3f"), num(r["ncu_us"], ".2f"),
                         num(r.get("delta_vs_ncu_pct"), "+.1f")) +
              ("  " + r["error"][:60] if r.get("error") else ""))


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
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
