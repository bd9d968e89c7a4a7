package dev.servebench.kernels.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.servebench.results.FileFormat;
import dev.servebench.results.FormatJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Everything derived from one kernel benchmark run; renders as Markdown tables. Its JSON is the kernels run's
 * {@value #FILE} (format {@code servebench-kernel-figures/1}), which the HTML report and the roofline's
 * measured hardware read.
 */
@JsonPropertyOrder({"format", "copies", "dequant", "moe", "allreduce"})
public record KernelReport(String format, List<CopyFigure> copies, List<DequantFigure> dequant, List<MoeFigure> moe,
        List<AllreduceFigure> allreduce) {

    public static final String FILE = "figures.json";

    public KernelReport(List<CopyFigure> copies, List<DequantFigure> dequant, List<MoeFigure> moe,
            List<AllreduceFigure> allreduce) {
        this(FileFormat.KERNEL_FIGURES.id(), copies, dequant, moe, allreduce);
    }

    public KernelReport {
        format = FileFormat.KERNEL_FIGURES.accept(format);
        copies = List.copyOf(copies == null ? List.of() : copies);
        dequant = List.copyOf(dequant == null ? List.of() : dequant);
        moe = List.copyOf(moe == null ? List.of() : moe);
        allreduce = List.copyOf(allreduce == null ? List.of() : allreduce);
    }

    /** Writes {@value #FILE} into {@code directory}. */
    public void write(Path directory) throws IOException {
        FormatJson.write(directory.resolve(FILE), this);
    }

    /** A {@value #FILE}, or a directory holding one; a malformed file names itself and who writes one. */
    public static KernelReport read(Path path) throws IOException {
        Path file = Files.isDirectory(path) ? path.resolve(FILE) : path;
        try {
            return FormatJson.read(file, FileFormat.KERNEL_FIGURES, KernelReport.class);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + "; servebench kernels figures JMH.json --output DIR"
                    + " writes one", e);
        }
    }

    public String toMarkdown() {
        StringBuilder out = new StringBuilder();
        if (!copies.isEmpty()) {
            out.append("### memcpy baseline (GB/s = 2·bytes/t, STREAM convention)\n\n")
                    .append("| bytes | threads | ms (median ± JMH error) | GB/s | per-thread copy GB/s |\n")
                    .append("|---:|---:|---:|---:|---:|\n");
            for (CopyFigure c : copies) {
                out.append(row(bytes(c.bytes()), c.threads(), millis(c.medianMillis(), c.errorMillis()),
                        f(c.gbPerSecond()), f(c.perThreadGbPerSecond())));
            }
            out.append('\n');
        }
        if (!dequant.isEmpty()) {
            out.append("### NVFP4 dequant (GB/s = (NVFP4 bytes read + output bytes written)/t)\n\n")
                    .append("| backend | output | layout | rows×K | threads | ms (median ± error) | GB/s | Gelem/s"
                            + " | memcpy GB/s | ratio | native/java |\n")
                    .append("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
            for (DequantFigure d : dequant) {
                out.append(row(d.backend(), d.output(), d.layout(), d.rows() + "×" + d.k(), d.threads(),
                        millis(d.medianMillis(), d.errorMillis()), f(d.gbPerSecond()), f(d.gElementsPerSecond()),
                        opt(d.copyGbPerSecond(), KernelReport::f), opt(d.ratioToCopy(), KernelReport::ratio),
                        opt(d.speedupOverJava(), KernelReport::ratio)));
            }
            out.append('\n');
        }
        if (!moe.isEmpty()) {
            out.append("### MoE W4A16 experts (GFLOP/s = 6·H·I·T·k/t; shape HxIxExk)\n\n")
                    .append("| backend | shape | T | threads | ms (median ± error) | GFLOP/s | expected weight GB/s"
                            + " | vs ggml F16 | vs ggml Q4_0 | vs ggml Q4_0 repacked | native/java |\n")
                    .append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            for (MoeFigure m : moe) {
                out.append(row(m.backend(), m.shape(), m.tokens(), m.threads(),
                        millis(m.medianMillis(), m.errorMillis()), f(m.gflops()), f(m.expectedWeightGbPerSecond()),
                        opt(m.vsGgmlF16(), KernelReport::ratio), opt(m.vsGgmlQ4_0(), KernelReport::ratio),
                        opt(m.vsGgmlQ4_0Repacked(), KernelReport::ratio), opt(m.speedupOverJava(), KernelReport::ratio)));
            }
            out.append('\n');
        }
        if (!allreduce.isEmpty()) {
            out.append("### Allreduce bf16 (nccl-tests: algbw = S/t, busbw = algbw·2(N−1)/N; S per rank)\n\n")
                    .append("| backend | N | S | algorithm | placement | µs (median ± error) | algbw GB/s | busbw GB/s"
                            + " | memcpy per-thread GB/s | busbw/memcpy |\n")
                    .append("|---|---:|---:|---|---|---:|---:|---:|---:|---:|\n");
            for (AllreduceFigure a : allreduce) {
                out.append(row(a.backend(), a.ranks(), bytes(a.bytes()), a.algorithm(), a.placement(),
                        String.format(Locale.ROOT, "%.2f ± %.2f", a.microsPerCollective(), a.errorMicros()),
                        f(a.algbwGbPerSecond()), f(a.busbwGbPerSecond()), opt(a.copyGbPerSecond(), KernelReport::f),
                        opt(a.busbwToCopy(), KernelReport::ratio)));
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String row(Object... cells) {
        StringBuilder line = new StringBuilder("|");
        for (Object cell : cells) {
            line.append(' ').append(cell).append(" |");
        }
        return line.append('\n').toString();
    }

    private static String f(double value) {
        return String.format(Locale.ROOT, value >= 100 ? "%.0f" : value >= 10 ? "%.1f" : "%.2f", value);
    }

    private static String ratio(double value) {
        return String.format(Locale.ROOT, "%.2f×", value);
    }

    private static String millis(double median, double error) {
        return Double.isNaN(error) ? String.format(Locale.ROOT, "%.3f", median)
                : String.format(Locale.ROOT, "%.3f ± %.3f", median, error);
    }

    private static <T> String opt(T value, Function<T, String> format) {
        return value == null ? "–" : format.apply(value);
    }

    public static String bytes(long bytes) {
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }
}
