"""Independent Python/numpy computation of the serving metrics, for ReferenceCrossCheckTest.

Written from docs/reference-semantics.md (SGLang metrics, vLLM metrics, Statistics, Peak metrics), in
Python with numpy, so that float behaviour (int() truncation, np.ceil, numpy's pairwise sums and
percentiles) is the real thing rather than a Java re-implementation of it.

Regenerate reference-metrics.txt (numpy 2.x):
  ./mvnw -B -q test -Dtest=ReferenceCrossCheckTest -Dservebench.writeReference=true
  python3 src/test/resources/dev/servebench/metric/reference/reference_metrics.py target/reference-input \
      > src/test/resources/dev/servebench/metric/reference/reference-metrics.txt
"""
import os
import sys

import numpy as np


def read(path):
    lines = open(path).read().splitlines()
    head = lines[0].split()
    duration = float.fromhex(head[1])
    slo_ms = [float.fromhex(v) for v in head[2:5]]
    requests = []
    for line in lines[1:]:
        fields, sglang_itl, vllm_itl = line.split(" |")
        f = fields.split()[1:]
        requests.append({
            "ok": f[0] == "1", "prompt_len": int(f[1]), "output_len": int(f[2]),
            "start": float.fromhex(f[3]),
            "sglang": (float.fromhex(f[4]), float.fromhex(f[5]), [float.fromhex(x) for x in sglang_itl.split()]),
            "vllm": None if f[6] == "none" else (float.fromhex(f[6]), float.fromhex(f[7]),
                                                 [float.fromhex(x) for x in vllm_itl.split()]),
            "queue": float.fromhex(f[8]),
        })
    return duration, slo_ms, requests


def statistics(out, prefix, stem, values, with_max=False):
    data = values if values else 0  # both tools: np.stat(list or 0)
    out[f"{prefix}mean_{stem}_ms"] = np.mean(data) * 1000
    out[f"{prefix}median_{stem}_ms"] = np.median(data) * 1000
    out[f"{prefix}std_{stem}_ms"] = np.std(data) * 1000
    for p in (90, 95, 99):
        out[f"{prefix}p{p}_{stem}_ms"] = np.percentile(data, p) * 1000
    if with_max:
        out[f"{prefix}max_{stem}_ms"] = np.max(data) * 1000


def token_event_peak(runs):
    """runs: (start, ttft, itl list, latency) per successful request; section 3."""
    if not runs:
        return 0.0, 0
    t0 = min(r[0] for r in runs)
    buckets = int(np.ceil(max(r[0] + r[3] for r in runs) - t0)) + 1
    tokens = np.zeros(buckets)
    touching = np.zeros(buckets)
    for start, ttft, itl, latency in runs:
        t = start + ttft
        times = [t]
        for gap in itl:
            t = t + gap
            times.append(t)
        for t in times:
            b = int(t - t0)
            if 0 <= b < buckets:
                tokens[b] += 1
        for b in range(int(start - t0), min(int(start + latency - t0) + 1, buckets)):
            touching[b] += 1
    return float(np.max(tokens)), int(np.max(touching))


def sweep_peak(runs):
    events = sorted([(r[0], 1) for r in runs] + [(r[0] + r[3], -1) for r in runs])
    level = peak = 0
    for _, delta in events:
        level += delta
        peak = max(peak, level)
    return peak


def metrics(duration, slo_ms, requests):
    out = {}
    ok = [r for r in requests if r["ok"]]
    # SGLang population: every successful request
    runs = [(r["start"],) + r["sglang"][:1] + (r["sglang"][2], r["sglang"][1]) for r in ok]
    total_in = sum(r["prompt_len"] for r in ok)
    total_out = sum(r["output_len"] for r in ok)
    out["benchmark_duration"] = duration
    out["completed"] = len(ok)
    out["total_input_tokens"] = total_in
    out["total_output_tokens"] = total_out
    out["request_throughput"] = len(ok) / duration
    out["input_throughput"] = total_in / duration
    out["output_throughput"] = total_out / duration
    out["total_throughput"] = (total_in + total_out) / duration
    out["peak_output_throughput"], out["peak_concurrent_requests"] = token_event_peak(runs)
    latencies = [r[3] for r in runs]
    out["concurrency"] = np.sum(latencies) / duration
    statistics(out, "", "e2e_latency", latencies)
    statistics(out, "", "ttft", [r[1] for r in runs])
    statistics(out, "", "tpot", [(r[3] - r[1]) / (q["output_len"] - 1) for r, q in zip(runs, ok) if q["output_len"] > 1])
    statistics(out, "", "itl", [x for r in runs for x in r[2]], with_max=True)
    # vLLM population: successful and at least one choice-bearing event
    vok = [r for r in ok if r["vllm"] is not None]
    vruns = [(r["start"], r["vllm"][0], r["vllm"][2], r["vllm"][1]) for r in vok]
    all_tpots = [(r[3] - r[1]) / (q["output_len"] - 1) if q["output_len"] > 1 else 0.0 for r, q in zip(vruns, vok)]
    good = sum(1 for r, tpot in zip(vruns, all_tpots)
               if slo_ms[0] / 1000 >= r[1] and slo_ms[1] / 1000 >= tpot and slo_ms[2] / 1000 >= r[3])
    out["vllm_completed"] = len(vok)
    out["failed"] = len(requests) - len(vok)
    out["request_goodput"] = good / duration
    out["vllm_peak_output_throughput"] = token_event_peak(vruns)[0]
    out["vllm_peak_concurrent_requests"] = sweep_peak(vruns)
    statistics(out, "vllm_", "ttft", [r[1] for r in vruns])
    statistics(out, "vllm_", "tpot", [t for t, q in zip(all_tpots, vok) if q["output_len"] > 1])
    statistics(out, "vllm_", "itl", [x for r in vruns for x in r[2]])
    statistics(out, "vllm_", "e2el", [r[3] for r in vruns])
    # servebench: client queue time of successful requests
    queue = [r["queue"] for r in ok] or 0
    out["mean_queue_time_ms"] = np.mean(queue) * 1000
    out["median_queue_time_ms"] = np.median(queue) * 1000
    out["p99_queue_time_ms"] = np.percentile(queue, 99) * 1000
    out["max_queue_time_ms"] = np.max(queue) * 1000
    return out


if __name__ == "__main__":
    folder = sys.argv[1]
    print(f"# generated by reference_metrics.py with numpy {np.__version__}: seed metric_id value")
    for name in sorted(os.listdir(folder), key=lambda n: int(n.split(".")[0])):
        seed = name.split(".")[0]
        for key, value in metrics(*read(os.path.join(folder, name))).items():
            print(seed, key, repr(float(value)))
