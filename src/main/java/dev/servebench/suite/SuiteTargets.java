package dev.servebench.suite;

import dev.servebench.perf.SpecRunner;
import dev.servebench.spec.ContainerTargetSpec;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.TargetSpec;
import dev.servebench.spec.UrlTargetSpec;
import dev.servebench.server.LaunchSettings;
import dev.servebench.server.ServerTargets;
import dev.servebench.server.ServerUnderTest;
import java.io.IOException;
import java.nio.file.Path;

/** Chooses and starts the server of a suite run: the spec's target unless a system property overrides it. */
final class SuiteTargets {

    private SuiteTargets() {
    }

    /** Applies {@code servebench.target} / {@code servebench.url} / {@code servebench.image} to the spec's target. */
    static PerformanceSpec resolve(PerformanceSpec spec, SuiteSettings settings) {
        if (settings.image().isPresent()) {
            if (!(spec.target() instanceof ContainerTargetSpec c)) {
                throw new IllegalArgumentException("servebench.image=" + settings.image().get() + " but spec " + spec.name()
                        + " describes a " + spec.target().kind() + " target; an image replaces a container target's");
            }
            spec = withTarget(spec, new ContainerTargetSpec(settings.image().get(), c.command(), c.gpus(), c.shmSize(),
                    c.modelCache(), c.port(), c.env(), c.readyTimeout(), c.backend(), c.model()));
        }
        if (settings.targetOverride().isEmpty() && settings.url().isEmpty()) {
            return spec;
        }
        String kind = settings.targetOverride().orElse("url");
        TargetSpec target = switch (kind) {
            case "url" -> new UrlTargetSpec(settings.url().orElseThrow(() -> new IllegalArgumentException(
                    "servebench.target=url needs -Dservebench.url=http://host:port")), spec.target().backend(),
                    spec.target().model());
            default -> {
                if (!spec.target().kind().equals(kind)) {
                    throw new IllegalArgumentException("servebench.target=" + kind + " but spec " + spec.name()
                            + " describes a " + spec.target().kind() + " target; a " + kind
                            + " target needs its settings in the spec (see docs/specs.md)");
                }
                yield spec.target();
            }
        };
        return withTarget(spec, target);
    }

    private static PerformanceSpec withTarget(PerformanceSpec spec, TargetSpec target) {
        return spec.withTarget(target);
    }

    /** Starts the spec's server; embedded slots get the context the workload needs. */
    static ServerUnderTest start(PerformanceSpec spec, Path logDirectory, SuiteSettings settings)
            throws IOException, InterruptedException {
        return ServerTargets.start(spec.target(), LaunchSettings.of(logDirectory, settings.apiKey())
                .withEmbeddedContextFor(spec.workload()).withEmbeddedTokenDelay(settings.tokenDelay()));
    }

    /** Random token-id prompts stay inside the server's vocabulary when it states one (the embedded engine). */
    static SpecRunner.Vocabulary vocabulary(ServerUnderTest server) {
        return server.promptTokenIds().map(range -> new SpecRunner.Vocabulary(range.span(), range.idBase()))
                .orElse(SpecRunner.Vocabulary.DEFAULT);
    }
}
