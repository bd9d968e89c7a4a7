package dev.servebench.cli;

import dev.servebench.kernels.results.KernelMeasuredHardware;
import dev.servebench.roofline.Deployment;
import dev.servebench.roofline.HardwareFigures;
import dev.servebench.roofline.HardwareShape;
import dev.servebench.roofline.KnownShapes;
import dev.servebench.roofline.MeasuredHardware;
import dev.servebench.roofline.ModelShape;
import dev.servebench.roofline.RooflineTable;
import dev.servebench.spec.LoadPointBounds;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.RandomDatasetSpec;
import dev.servebench.spec.SpecReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code servebench roofline SPEC}: the decode bound of every load point of a spec, no server needed
 * (docs/roofline.md), from the spec's {@code model:} and {@code hardware:} sections; {@code --model} and
 * {@code --hardware} name known shapes that replace them, {@code --kernels} a kernels run whose figures fill
 * the hardware's {@code measured} entries.
 */
@Command(name = "roofline", mixinStandardHelpOptions = true,
        description = "Print the speed-of-light bound (tok/s, min ITL, limiting term) at each load point of a spec.")
public final class RooflineCommand implements Callable<Integer> {

    private static final Map<String, Supplier<ModelShape>> MODELS = Map.of("glm5-nvfp4-tp8", KnownShapes::glm5Nvfp4Tp8);
    private static final Map<String, Supplier<HardwareShape>> HARDWARE =
            Map.of("rtx-pro-6000-x8-pcie", KnownShapes::rtxPro6000x8Pcie);

    @Spec
    CommandSpec command;

    @Parameters(index = "0", paramLabel = "SPEC", description = "Spec file: its concurrencies are the batch sizes.")
    Path specFile;

    @Option(names = "--model", description = "Model shape instead of the spec's model: section: "
            + "${COMPLETION-CANDIDATES}.", completionCandidates = ModelNames.class)
    Optional<String> model;

    @Option(names = "--hardware", description = "Hardware shape instead of the spec's hardware: section: "
            + "${COMPLETION-CANDIDATES}.", completionCandidates = HardwareNames.class)
    Optional<String> hardware;

    @Option(names = "--kernels", paramLabel = "FIGURES", description = "A kernels run's figures.json (or its"
            + " directory): the figures the spec's hardware: marks measured.")
    Optional<Path> kernels;

    static final class ModelNames extends java.util.ArrayList<String> {
        ModelNames() {
            super(MODELS.keySet());
        }
    }

    static final class HardwareNames extends java.util.ArrayList<String> {
        HardwareNames() {
            super(HARDWARE.keySet());
        }
    }

    @Override
    public Integer call() throws Exception {
        Optional<Supplier<ModelShape>> m = model.map(name -> Optional.ofNullable(MODELS.get(name)).orElseThrow(
                () -> new IllegalArgumentException("--model " + name + ": known models are " + MODELS.keySet())));
        Optional<Supplier<HardwareShape>> h = hardware.map(name -> Optional.ofNullable(HARDWARE.get(name))
                .orElseThrow(() -> new IllegalArgumentException("--hardware " + name + ": known hardware is "
                        + HARDWARE.keySet())));
        PerformanceSpec spec = SpecReader.read(specFile);
        if (!(spec.workload().dataset() instanceof RandomDatasetSpec random)) {
            throw new IllegalArgumentException(specFile + ": the bound needs fixed prompt and output lengths"
                    + " (dataset: random); a ShareGPT spec has per-request lengths");
        }
        Optional<Deployment> fromSpec = spec.deployment();
        if ((m.isEmpty() || h.isEmpty()) && fromSpec.isEmpty()) {
            throw new IllegalArgumentException(specFile + " has no model: and hardware: sections (docs/specs.md);"
                    + " add them or give --model " + MODELS.keySet() + " and --hardware " + HARDWARE.keySet());
        }
        Deployment deployment = new Deployment(
                m.map(Supplier::get).orElseGet(() -> fromSpec.orElseThrow().model()),
                m.isPresent() ? "KnownShapes, docs/roofline.md" : fromSpec.orElseThrow().modelSource(),
                h.map(s -> HardwareFigures.of(s.get())).orElseGet(() -> fromSpec.orElseThrow().hardware()));
        MeasuredHardware measured = kernels.isPresent() ? KernelMeasuredHardware.read(kernels.get())
                : MeasuredHardware.NONE;
        HardwareShape shape = switch (deployment.resolve(measured)) {
            case HardwareFigures.Resolved resolved -> resolved.shape();
            case HardwareFigures.Unresolved unresolved -> throw new IllegalArgumentException(unresolved.reason()
                    + (kernels.isEmpty() ? "; give --kernels FIGURES (a kernels run's figures.json)" : ""));
        };
        List<Integer> batches = spec.sweep().points().stream().map(LoadPointKey::concurrency)
                .filter(c -> c > 0).distinct().sorted().toList();
        int context = LoadPointBounds.decodeContext(random);
        java.io.PrintWriter out = command.commandLine().getOut();
        out.print(RooflineTable.render(deployment.model(), shape, batches, context));
        out.println("batch = the spec's concurrency; context = mean input + (mean output - 1) / 2 = " + context
                + " tokens (mean context while decoding); formulas: docs/roofline.md");
        out.println("model: " + deployment.modelSource());
        out.print(RooflineTable.sources(shape));
        out.flush();
        return 0;
    }
}
