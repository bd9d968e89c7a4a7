package dev.servebench.report.html;

import dev.servebench.kernels.results.AllreduceFigure;
import dev.servebench.kernels.results.CopyFigure;
import dev.servebench.kernels.results.DequantFigure;
import dev.servebench.kernels.results.KernelReport;
import dev.servebench.kernels.results.MoeFigure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** The kernel section's input: {@code figures.json} of a kernels run (see {@code servebench kernels figures}). */
final class KernelTablesLoader {

    private static final String WRITTEN_BY = "servebench kernels figures JMH.json --output DIR writes figures.json";

    private KernelTablesLoader() {
    }

    /** A figures.json, a kernels run directory, or a directory of them (its newest run); the path must hold one. */
    static Input<KernelTables> required(Path path) throws IOException {
        Optional<Path> file = find(path);
        if (file.isEmpty()) {
            throw new NoSuchFileException(path.toString(), null, "no figures.json there nor in a kernels run directory"
                    + " below; expected reports/kernels/<mode>-<time>/figures.json (" + WRITTEN_BY + ")");
        }
        return Input.found(read(file.get()));
    }

    /** The newest kernels run under {@code root}, or why there is none. */
    static Input<KernelTables> newestUnder(Path root) throws IOException {
        Optional<Path> file = Files.isDirectory(root) ? find(root) : Optional.empty();
        return file.isPresent() ? Input.found(read(file.get()))
                : Input.missing("no kernels run found under " + root + " (" + WRITTEN_BY + ")");
    }

    private static Optional<Path> find(Path path) throws IOException {
        if (Files.isRegularFile(path)) {
            return Optional.of(path);
        }
        if (Files.isRegularFile(path.resolve("figures.json"))) {
            return Optional.of(path.resolve("figures.json"));
        }
        if (!Files.isDirectory(path)) {
            return Optional.empty();
        }
        try (Stream<Path> children = Files.list(path)) {
            return children.map(child -> child.resolve("figures.json")).filter(Files::isRegularFile)
                    .max(Comparator.comparing(KernelTablesLoader::modified).thenComparing(Path::toString));
        }
    }

    private static java.nio.file.attribute.FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return java.nio.file.attribute.FileTime.fromMillis(0);
        }
    }

    private static KernelTables read(Path file) throws IOException {
        KernelReport report = KernelReport.read(file);
        List<KernelTables.Figure> figures = new ArrayList<>();
        for (CopyFigure c : report.copies()) {
            figures.add(new KernelTables.Figure("memcpy (baseline)", "bytes=" + KernelReport.bytes(c.bytes())
                    + " threads=" + c.threads(), c.gbPerSecond(), "GB/s (2·bytes/t)", "", ""));
        }
        for (DequantFigure d : report.dequant()) {
            figures.add(new KernelTables.Figure("NVFP4 dequant", "backend=" + d.backend() + " output=" + d.output()
                    + " layout=" + d.layout() + " " + d.rows() + "×" + d.k() + " threads=" + d.threads(),
                    d.gbPerSecond(), "GB/s (read + written)/t",
                    d.copyGbPerSecond() == null ? "" : "memcpy " + Numbers.text(d.copyGbPerSecond()) + " GB/s",
                    join(labelled("/ memcpy", d.ratioToCopy()), labelled("native/java", d.speedupOverJava()))));
        }
        for (MoeFigure m : report.moe()) {
            figures.add(new KernelTables.Figure("MoE W4A16 experts", "backend=" + m.backend() + " shape=" + m.shape()
                    + " T=" + m.tokens() + " threads=" + m.threads(), m.gflops(), "GFLOP/s (6·H·I·T·k/t)",
                    m.backend().equals("native") ? "ggml and Java at the same point" : "",
                    join(labelled("vs ggml F16", m.vsGgmlF16()), labelled("vs ggml Q4_0", m.vsGgmlQ4_0()),
                            labelled("vs ggml Q4_0 repacked", m.vsGgmlQ4_0Repacked()),
                            labelled("native/java", m.speedupOverJava()))));
        }
        for (AllreduceFigure a : report.allreduce()) {
            figures.add(new KernelTables.Figure("allreduce bf16", "backend=" + a.backend() + " N=" + a.ranks() + " S="
                    + KernelReport.bytes(a.bytes()) + " algorithm=" + a.algorithm() + " placement=" + a.placement(),
                    a.busbwGbPerSecond(), "GB/s busbw (nccl-tests)",
                    a.copyGbPerSecond() == null ? "" : "memcpy per thread " + Numbers.text(a.copyGbPerSecond()) + " GB/s",
                    labelled("busbw / memcpy", a.busbwToCopy())));
        }
        return new KernelTables(file.toString(), figures);
    }

    private static String labelled(String label, Double ratio) {
        return ratio == null ? "" : label + " " + Numbers.ratio(ratio);
    }

    private static String join(String... parts) {
        return String.join("; ", Stream.of(parts).filter(p -> !p.isEmpty()).toList());
    }
}
