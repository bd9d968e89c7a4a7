package dev.servebench.kernels.results;

import dev.servebench.roofline.MeasuredHardware;
import dev.servebench.roofline.Sourced;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The run's own hardware figures from a kernels run's {@code figures.json} ({@link KernelReport}): memory
 * bandwidth = the fastest memcpy of the largest buffer (STREAM convention, 2·bytes/t; beyond the caches),
 * dense FLOP/s = the fastest native MoE GEMM point (useful FLOPs), allreduce latency = the fastest collective
 * at the smallest message measured for that rank count, bus bandwidth = the highest busbw for that rank
 * count. Best figures otherwise, because a bound must not be lowered by a badly chosen point.
 *
 * @param file where the report was read, named in every source
 */
public record KernelMeasuredHardware(KernelReport report, String file) implements MeasuredHardware {

    public KernelMeasuredHardware {
        Objects.requireNonNull(report, "report");
        Objects.requireNonNull(file, "file");
    }

    /** {@code figures.json} as {@code servebench kernels figures --output DIR} writes it, or a directory holding it. */
    public static KernelMeasuredHardware read(Path path) throws IOException {
        Path file = Files.isDirectory(path) ? path.resolve(KernelReport.FILE) : path;
        return new KernelMeasuredHardware(KernelReport.read(file), file.toString());
    }

    @Override
    public Optional<Sourced> memoryBandwidth() {
        // The largest buffer: smaller ones stay in the caches and would report cache bandwidth (a 768 KiB copy
        // runs at 5× the DRAM rate on the 2-core runner), which weights that do not fit never see.
        Optional<Long> largest = report.copies().stream().map(CopyFigure::bytes).max(Long::compare);
        return report.copies().stream().filter(c -> largest.isPresent() && c.bytes() == largest.get())
                .max(Comparator.comparingDouble(CopyFigure::gbPerSecond))
                .map(c -> Sourced.of(c.gbPerSecond() * 1e9, String.format(Locale.ROOT,
                        "kernel suite memcpy, 2·bytes/t: %.1f GB/s (%s, %d threads; %s)", c.gbPerSecond(),
                        KernelReport.bytes(c.bytes()), c.threads(), file)));
    }

    @Override
    public Optional<Sourced> denseFlops() {
        return report.moe().stream().filter(m -> m.backend().equals("native"))
                .max(Comparator.comparingDouble(MoeFigure::gflops))
                .map(m -> Sourced.of(m.gflops() * 1e9, String.format(Locale.ROOT,
                        "kernel suite MoE W4A16 GEMM, 6·H·I·T·k/t: %.1f GFLOP/s (shape %s, T=%d, %d threads; %s)",
                        m.gflops(), m.shape(), m.tokens(), m.threads(), file)));
    }

    @Override
    public Optional<Sourced> allreduceLatency(int ranks) {
        Optional<Long> smallest = report.allreduce().stream().filter(a -> a.ranks() == ranks)
                .map(AllreduceFigure::bytes).min(Long::compare);
        return smallest.flatMap(bytes -> report.allreduce().stream()
                .filter(a -> a.ranks() == ranks && a.bytes() == bytes)
                .min(Comparator.comparingDouble(AllreduceFigure::microsPerCollective))
                .map(a -> Sourced.of(a.microsPerCollective() * 1e-6, String.format(Locale.ROOT,
                        "kernel suite allreduce: %.2f µs per collective (%s %s, N=%d, S=%s; %s)",
                        a.microsPerCollective(), a.backend(), a.algorithm(), ranks, KernelReport.bytes(bytes), file))));
    }

    @Override
    public Optional<Sourced> busBandwidth(int ranks) {
        return report.allreduce().stream().filter(a -> a.ranks() == ranks)
                .max(Comparator.comparingDouble(AllreduceFigure::busbwGbPerSecond))
                .map(a -> Sourced.of(a.busbwGbPerSecond() * 1e9, String.format(Locale.ROOT,
                        "kernel suite allreduce busbw: %.2f GB/s (%s %s, N=%d, S=%s; %s)", a.busbwGbPerSecond(),
                        a.backend(), a.algorithm(), ranks, KernelReport.bytes(a.bytes()), file)));
    }

    @Override
    public String origin() {
        return "the kernel results in " + file + " have no such figure";
    }
}
