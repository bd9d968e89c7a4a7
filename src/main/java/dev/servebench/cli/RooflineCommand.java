package dev.servebench.cli;

import dev.servebench.roofline.HardwareShape;
import dev.servebench.roofline.KnownShapes;
import dev.servebench.roofline.ModelShape;
import dev.servebench.roofline.RooflineTable;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.RandomDatasetSpec;
import dev.servebench.spec.SpecReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code servebench roofline SPEC --model M --hardware H}: the decode bound of every load point of a spec, no
 * server needed (docs/roofline.md). Model and hardware are named shapes with sourced figures; reading them
 * from the spec itself is the next step.
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

    @Option(names = "--model", required = true, description = "Model shape: ${COMPLETION-CANDIDATES}.",
            completionCandidates = ModelNames.class)
    String model;

    @Option(names = "--hardware", required = true, description = "Hardware shape: ${COMPLETION-CANDIDATES}.",
            completionCandidates = HardwareNames.class)
    String hardware;

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
        Supplier<ModelShape> m = MODELS.get(model);
        Supplier<HardwareShape> h = HARDWARE.get(hardware);
        if (m == null || h == null) {
            throw new IllegalArgumentException(m == null ? "--model " + model + ": known models are " + MODELS.keySet()
                    : "--hardware " + hardware + ": known hardware is " + HARDWARE.keySet());
        }
        PerformanceSpec spec = SpecReader.read(specFile);
        if (!(spec.workload().dataset() instanceof RandomDatasetSpec random)) {
            throw new IllegalArgumentException(specFile + ": the bound needs fixed prompt and output lengths"
                    + " (dataset: random); a ShareGPT spec has per-request lengths");
        }
        List<Integer> batches = spec.sweep().points().stream().map(LoadPointKey::concurrency)
                .filter(c -> c > 0).distinct().sorted().toList();
        // The mean context over the decode phase: the step bound is convex in L, so the bound at the mean
        // context is still an upper bound on the average throughput (docs/roofline.md).
        int context = random.inputLen() + (random.outputLen() - 1) / 2;
        java.io.PrintWriter out = command.commandLine().getOut();
        out.print(RooflineTable.render(m.get(), h.get(), batches, context));
        out.println("batch = the spec's concurrency; context = input_len + (output_len - 1) / 2 = " + context
                + " tokens (mean context while decoding); figures and their sources: docs/roofline.md");
        out.flush();
        return 0;
    }
}
