package dev.servebench.kernels.results;

import dev.servebench.metric.KernelBenchmark;
import dev.servebench.metric.KernelMetric;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Derives the figures engineers compare from raw JMH times: GB/s, GFLOP/s, algbw/busbw (nccl-tests),
 * each next to the baseline measured in the same run. Pure: everything comes from the JMH results and the
 * documented formulas ({@link KernelFormulas}). What the figures must reach is the spec's to say (its
 * {@code kernels} lines), judged by {@code verdict.Judge}.
 */
public final class KernelFigures {

    public static final String COPY = KernelBenchmark.MEMCPY.className();
    public static final String DEQUANT = KernelBenchmark.NVFP4_DEQUANT.className();
    public static final String MOE = KernelBenchmark.MOE.className();
    public static final String ALLREDUCE = KernelBenchmark.ALLREDUCE.className();

    private KernelFigures() {
    }

    public static KernelReport derive(List<JmhResult> results) {
        List<CopyFigure> copies = results.stream().filter(r -> r.className().equals(COPY)).map(KernelFigures::copy)
                .sorted(Comparator.comparingInt(CopyFigure::threads).thenComparingLong(CopyFigure::bytes)).toList();
        List<DequantFigure> dequant = dequant(results, copies);
        List<MoeFigure> moe = moe(results);
        List<AllreduceFigure> allreduce = allreduce(results, copies);
        return new KernelReport(copies, dequant, moe, allreduce);
    }

    private static CopyFigure copy(JmhResult r) {
        long bytes = r.longParam("bytes");
        int threads = r.intParam("threads");
        double seconds = r.medianSeconds();
        return new CopyFigure(bytes, threads, seconds * 1e3, r.errorSeconds() * 1e3,
                KernelFormulas.value(KernelMetric.MEMCPY_GBPS, r, seconds),
                KernelFormulas.value(KernelMetric.MEMCPY_PER_THREAD_GBPS, r, seconds));
    }

    private static List<DequantFigure> dequant(List<JmhResult> results, List<CopyFigure> copies) {
        List<JmhResult> rows = results.stream().filter(r -> r.className().equals(DEQUANT)).toList();
        List<DequantFigure> figures = new ArrayList<>();
        for (JmhResult r : rows) {
            long rowCount = r.longParam("rows");
            long k = r.longParam("k");
            long read = KernelFormulas.dequantBytesRead(r);
            double seconds = r.medianSeconds();
            double gbPerSecond = KernelFormulas.value(KernelMetric.NVFP4_DEQUANT_GBPS, r, seconds);
            int threads = r.intParam("threads");
            Optional<CopyFigure> copy = largestCopy(copies, threads);
            Double speedup = r.param("backend").equals("native")
                    ? counterpart(rows, r, "java").map(java -> java.medianSeconds() / seconds).orElse(null) : null;
            figures.add(new DequantFigure(r.param("backend"), r.param("output"), r.param("layout"),
                    rowCount, k, threads, read, seconds * 1e3, r.errorSeconds() * 1e3, gbPerSecond,
                    rowCount * k / seconds / 1e9, copy.map(CopyFigure::gbPerSecond).orElse(null),
                    copy.map(c -> gbPerSecond / c.gbPerSecond()).orElse(null), speedup));
        }
        return figures;
    }

    private static List<MoeFigure> moe(List<JmhResult> results) {
        List<JmhResult> rows = results.stream().filter(r -> r.className().equals(MOE)).toList();
        List<MoeFigure> figures = new ArrayList<>();
        for (JmhResult r : rows) {
            MoeDims dims = MoeDims.parse(r.param("shape"));
            long tokens = r.longParam("tokens");
            double seconds = r.medianSeconds();
            String backend = r.param("backend");
            boolean ours = backend.equals("native");
            figures.add(new MoeFigure(backend, r.param("shape"), tokens, r.intParam("threads"), seconds * 1e3,
                    r.errorSeconds() * 1e3, KernelFormulas.value(KernelMetric.MOE_GFLOPS, r, seconds),
                    dims.expectedActiveWeightBytes(tokens) / seconds / 1e9,
                    ours ? ratio(rows, r, "ggml-f16") : null, ours ? ratio(rows, r, "ggml-q4_0") : null,
                    ours ? ratio(rows, r, "ggml-q4_0-repacked") : null, ours ? ratio(rows, r, "java") : null));
        }
        return figures;
    }

    private static List<AllreduceFigure> allreduce(List<JmhResult> results, List<CopyFigure> copies) {
        List<AllreduceFigure> figures = new ArrayList<>();
        for (JmhResult r : results.stream().filter(x -> x.className().equals(ALLREDUCE)).toList()) {
            int ranks = r.intParam("ranks");
            long bytes = r.longParam("bytes");
            double seconds = KernelFormulas.perCollective(r, r.medianSeconds());
            double algbw = KernelFormulas.value(KernelMetric.ALLREDUCE_ALGBW_GBPS, r, r.medianSeconds());
            double busbw = KernelFormulas.value(KernelMetric.ALLREDUCE_BUSBW_GBPS, r, r.medianSeconds());
            // Baseline: every rank thread copying its own S bytes at once, the same memory traffic pattern.
            Optional<CopyFigure> copy = copies.stream()
                    .filter(c -> c.threads() == ranks && c.bytes() == bytes * ranks).findFirst();
            figures.add(new AllreduceFigure(r.param("backend"), ranks, bytes, r.param("algorithm"),
                    r.param("placement"), seconds * 1e6,
                    KernelFormulas.perCollective(r, r.errorSeconds()) * 1e6, algbw, busbw,
                    copy.map(CopyFigure::perThreadGbPerSecond).orElse(null),
                    copy.map(c -> busbw / c.perThreadGbPerSecond()).orElse(null)));
        }
        return figures;
    }

    private static Optional<CopyFigure> largestCopy(List<CopyFigure> copies, int threads) {
        return copies.stream().filter(c -> c.threads() == threads).max(Comparator.comparingLong(CopyFigure::bytes));
    }

    /** Throughput of {@code r} relative to the same point measured with {@code backend}: their time over ours. */
    private static Double ratio(List<JmhResult> rows, JmhResult r, String backend) {
        return counterpart(rows, r, backend).map(other -> other.medianSeconds() / r.medianSeconds()).orElse(null);
    }

    private static Optional<JmhResult> counterpart(List<JmhResult> rows, JmhResult r, String backend) {
        return rows.stream().filter(o -> o.benchmark().equals(r.benchmark()) && o.param("backend").equals(backend)
                && sameExceptBackend(o, r)).findFirst();
    }

    private static boolean sameExceptBackend(JmhResult a, JmhResult b) {
        for (var e : a.params().entrySet()) {
            if (!e.getKey().equals("backend") && !e.getValue().equals(b.params().get(e.getKey()))) {
                return false;
            }
        }
        return a.params().size() == b.params().size();
    }
}
