package dev.servebench.spec;

import dev.servebench.roofline.Deployment;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A performance spec: which server, what load, which points, and what must hold at them. Read from YAML
 * by {@link SpecReader}; docs/specs.md describes the format.
 *
 * @param warmup       unmeasured requests before each load point
 * @param repeats      measurements per load point; expectations see the median of the repeats
 * @param repeatOrder  all repeats of a point in a row, or round robin over the points
 * @param expectations in file order; display names are unique
 * @param kernelExpectations the {@code kernels} list, in file order; display names are unique: judged on the
 *                     kernel benchmarks run before the suite (docs/kernels.md)
 * @param metrics      choices that change metric values (token sources, goodput SLOs)
 * @param client       the client's threads and request time limits
 * @param deployment   the {@code model:} and {@code hardware:} sections: each point's speed-of-light bound
 */
public record PerformanceSpec(String name, String description, TargetSpec target, WorkloadSpec workload,
                              SweepSpec sweep, int warmup, int repeats, RepeatOrder repeatOrder, ValiditySpec validity,
                              MetricsSpec metrics, ClientSpec client, List<Expectation> expectations, List<KernelExpectation> kernelExpectations,
                              Optional<Deployment> deployment,
                              SpecSource source) {

    /** Spec names become file and test names. */
    public static final String NAME_PATTERN = "[A-Za-z0-9][A-Za-z0-9._-]*";
    public static final int DEFAULT_WARMUP = 1;
    public static final int DEFAULT_REPEATS = 1;

    public PerformanceSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(sweep, "sweep");
        Objects.requireNonNull(repeatOrder, "repeatOrder");
        Objects.requireNonNull(validity, "validity");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(deployment, "deployment");
        Objects.requireNonNull(source, "source");
        expectations = List.copyOf(expectations);
        kernelExpectations = List.copyOf(kernelExpectations);
        if (!name.matches(NAME_PATTERN)) {
            throw new IllegalArgumentException("name '" + name + "' must match " + NAME_PATTERN);
        }
        if (warmup < 0 || repeats < 1) {
            throw new IllegalArgumentException("warmup (" + warmup + ") must be >= 0 and repeats (" + repeats + ") >= 1");
        }
        Set<String> names = new HashSet<>();
        for (Expectation expectation : expectations) {
            if (!names.add(expectation.displayName())) {
                throw new IllegalArgumentException("duplicate expectation " + expectation.displayName());
            }
            for (LoadPointKey point : expectation.points()) {
                if (!sweep.contains(point)) {
                    throw new IllegalArgumentException(expectation.displayName() + ": " + point + " is not in the sweep");
                }
            }
        }
        Set<String> kernelNames = new HashSet<>();
        for (KernelExpectation expectation : kernelExpectations) {
            if (!kernelNames.add(expectation.displayName())) {
                throw new IllegalArgumentException("duplicate kernel expectation " + expectation.displayName());
            }
        }
        if (workload.prompts() instanceof PromptCount.Scaled && sweep.concurrencies().isEmpty()) {
            throw new IllegalArgumentException("prompts per concurrency need a concurrency cap at every sweep point");
        }
    }

    /** The same spec measured against {@code other}: everything else unchanged. */
    public PerformanceSpec withTarget(TargetSpec other) {
        return new PerformanceSpec(name, description, other, workload, sweep, warmup, repeats, repeatOrder, validity,
                metrics, client, expectations, kernelExpectations, deployment, source);
    }

    /** Measured requests at {@code point}. */
    public int prompts(LoadPointKey point) {
        return workload.prompts().at(point);
    }
}
