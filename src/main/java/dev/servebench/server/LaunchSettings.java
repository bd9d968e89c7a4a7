package dev.servebench.server;

import dev.servebench.spec.RandomDatasetSpec;
import dev.servebench.spec.ShareGptDatasetSpec;
import dev.servebench.spec.WorkloadSpec;
import dev.servebench.server.embedded.TokenDelay;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What starting a target needs besides its spec.
 *
 * @param logDirectory           where server logs go ({@code server-process.log}, {@code server-container.log})
 * @param apiKey                 bearer token sent to the server (from {@code OPENAI_API_KEY}); never printed
 * @param embeddedContextPerSlot prompt (with BOS) + output tokens per request for the embedded engine
 * @param urlReadyTimeout        how long an already running server may take to serve its first completion
 * @param containers             starts container targets; empty = none on the class path
 * @param embeddedTokenDelay     slowdown injected into the embedded engine (the gate's acceptance check)
 */
public record LaunchSettings(Path logDirectory, Optional<String> apiKey, int embeddedContextPerSlot,
                             Duration urlReadyTimeout, Optional<ContainerLauncher> containers,
                             TokenDelay embeddedTokenDelay) {

    /** {@code servebench serve}'s default context per slot. */
    public static final int DEFAULT_EMBEDDED_CONTEXT = 512;
    /** Prompt tokens assumed for ShareGPT rows, as {@code servebench run} does (its --random-input-len default). */
    static final int SHAREGPT_PROMPT_ALLOWANCE = 1024;
    /** Output tokens assumed for ShareGPT rows without a fixed output length. */
    static final int SHAREGPT_OUTPUT_ALLOWANCE = 1024;

    public LaunchSettings {
        Objects.requireNonNull(logDirectory, "logDirectory");
        Objects.requireNonNull(apiKey, "apiKey");
        Objects.requireNonNull(urlReadyTimeout, "urlReadyTimeout");
        Objects.requireNonNull(containers, "containers");
        Objects.requireNonNull(embeddedTokenDelay, "embeddedTokenDelay");
        if (embeddedContextPerSlot < 8) {
            throw new IllegalArgumentException("embeddedContextPerSlot (" + embeddedContextPerSlot + ") must be >= 8");
        }
        if (urlReadyTimeout.isNegative() || urlReadyTimeout.isZero()) {
            throw new IllegalArgumentException("urlReadyTimeout (" + urlReadyTimeout + ") must be positive");
        }
    }

    /** Defaults, with the container launcher found on the class path (if any). */
    public static LaunchSettings of(Path logDirectory, Optional<String> apiKey) {
        return new LaunchSettings(logDirectory, apiKey, DEFAULT_EMBEDDED_CONTEXT, UrlServer.DEFAULT_READY_TIMEOUT,
                ContainerLauncher.discover(), TokenDelay.NONE);
    }

    /** Context per slot that fits every request of {@code workload}: random lengths are exact maxima. */
    public static int embeddedContextFor(WorkloadSpec workload) {
        return switch (workload.dataset()) {
            case RandomDatasetSpec random -> random.inputLen() + random.outputLen() + 1;
            case ShareGptDatasetSpec shareGpt ->
                    SHAREGPT_PROMPT_ALLOWANCE + shareGpt.outputLen().orElse(SHAREGPT_OUTPUT_ALLOWANCE) + 1;
        };
    }

    public LaunchSettings withEmbeddedContextPerSlot(int contextPerSlot) {
        return new LaunchSettings(logDirectory, apiKey, contextPerSlot, urlReadyTimeout, containers, embeddedTokenDelay);
    }

    /** Context per slot from {@link #embeddedContextFor(WorkloadSpec)}. */
    public LaunchSettings withEmbeddedContextFor(WorkloadSpec workload) {
        return withEmbeddedContextPerSlot(embeddedContextFor(workload));
    }

    public LaunchSettings withUrlReadyTimeout(Duration timeout) {
        return new LaunchSettings(logDirectory, apiKey, embeddedContextPerSlot, timeout, containers, embeddedTokenDelay);
    }

    public LaunchSettings withContainerLauncher(ContainerLauncher launcher) {
        return new LaunchSettings(logDirectory, apiKey, embeddedContextPerSlot, urlReadyTimeout, Optional.of(launcher),
                embeddedTokenDelay);
    }

    public LaunchSettings withoutContainerLauncher() {
        return new LaunchSettings(logDirectory, apiKey, embeddedContextPerSlot, urlReadyTimeout, Optional.empty(),
                embeddedTokenDelay);
    }

    public LaunchSettings withEmbeddedTokenDelay(TokenDelay delay) {
        return new LaunchSettings(logDirectory, apiKey, embeddedContextPerSlot, urlReadyTimeout, containers, delay);
    }

    /** {@code logDirectory/server-KIND.log}. */
    public Path logFile(String kind) {
        return logDirectory.resolve("server-" + kind + ".log");
    }

    /** Without the API key's value: records print every component otherwise. */
    @Override
    public String toString() {
        return "LaunchSettings[logDirectory=" + logDirectory + ", apiKey=" + (apiKey.isPresent() ? "(set)" : "(none)")
                + ", embeddedContextPerSlot=" + embeddedContextPerSlot + ", urlReadyTimeout=" + urlReadyTimeout
                + ", containers=" + containers.map(c -> c.getClass().getName()).orElse("(none)")
                + ", embeddedTokenDelay=" + embeddedTokenDelay + "]";
    }
}
