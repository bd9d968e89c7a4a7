package dev.servebench.server.container;

import dev.servebench.client.Backend;
import dev.servebench.spec.ContainerTargetSpec;
import dev.servebench.spec.GpuRequest;
import dev.servebench.server.CacheReset;
import dev.servebench.server.CacheResets;
import dev.servebench.server.LaunchSettings;
import dev.servebench.server.LogTail;
import dev.servebench.server.Readiness;
import dev.servebench.server.Redaction;
import dev.servebench.server.ServerStartException;
import dev.servebench.server.ServerUnderTest;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Optional;
import org.testcontainers.containers.GenericContainer;

/**
 * A server in a container started for the run (Testcontainers), its port published on loopback, its output
 * streamed into {@code server-container.log} and a bounded tail; removed by {@link #close()}.
 */
public final class ContainerServer implements ServerUnderTest {

    /** Seconds {@code docker stop} waits after SIGTERM before SIGKILL. */
    static final int STOP_GRACE_SECONDS = 15;
    /** The completion check always gets at least this long after {@code /health} answered. */
    static final Duration MIN_COMPLETION_WAIT = Duration.ofSeconds(60);
    static final int ERROR_LOG_LINES = 40;
    private static final String HEALTH_ANSWER = "GET " + ContainerPlan.HEALTH_PATH + " = 200";

    private final ContainerTargetSpec spec;
    private final ContainerPlan plan;
    private final GenericContainer<?> container;
    private final LogTail log;
    private final URI baseUrl;
    private final Optional<String> apiKey;
    private final Optional<String> model;
    private boolean closed;

    private ContainerServer(ContainerTargetSpec spec, ContainerPlan plan, GenericContainer<?> container, LogTail log,
                            URI baseUrl, Optional<String> apiKey, Optional<String> model) {
        this.spec = spec;
        this.plan = plan;
        this.container = container;
        this.log = log;
        this.baseUrl = baseUrl;
        this.apiKey = apiKey;
        this.model = model;
    }

    /**
     * Creates and starts the container, waits for {@code GET /health} = 200 (within the spec's ready timeout,
     * counted from the container's start, not the image pull), then for a one-token completion (within what
     * is left of that timeout, but at least {@link #MIN_COMPLETION_WAIT}).
     */
    public static ContainerServer start(ContainerTargetSpec spec, LaunchSettings settings)
            throws IOException, InterruptedException {
        ContainerPlan plan = ContainerPlan.of(spec);
        if (plan.modelCache().isPresent()) {
            // Docker would create a missing bind source owned by root; create it as the user running the suite.
            Files.createDirectories(plan.modelCache().get());
        }
        LogTail log = LogTail.toFile(settings.logFile(spec.kind()), LogTail.DEFAULT_CAPACITY);
        GenericContainer<?> container = plan.toContainer();
        container.withLogConsumer(frame -> log.append(frame.getUtf8String()));
        long startNanos = System.nanoTime();
        try {
            container.start();
        } catch (RuntimeException e) {
            stop(container, log);
            throw new ServerStartException(ServerStartException.Reason.LAUNCH_FAILED, "container target " + spec.image()
                    + " did not come up (" + HEALTH_ANSWER + " within " + spec.readyTimeout().toSeconds() + " s): " + rootMessage(e)
                    + "\n" + log.excerptForError(ERROR_LOG_LINES), e);
        }
        URI baseUrl = URI.create("http://" + container.getHost() + ":" + container.getMappedPort(spec.port()));
        Duration left = spec.readyTimeout().minus(Duration.ofNanos(System.nanoTime() - startNanos));
        try {
            Readiness.Ready ready = Readiness.await(baseUrl, spec.backend(), spec.model(), settings.apiKey(),
                    left.compareTo(MIN_COMPLETION_WAIT) < 0 ? MIN_COMPLETION_WAIT : left, container::isRunning);
            return new ContainerServer(spec, plan, container, log, baseUrl, settings.apiKey(), ready.model());
        } catch (ServerStartException e) {
            stop(container, log);
            throw new ServerStartException(e.reason(), "container target " + spec.image() + ": " + e.getMessage()
                    + "\n" + log.excerptForError(ERROR_LOG_LINES), e);
        } catch (InterruptedException | RuntimeException e) {
            stop(container, log);
            throw e;
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        StringBuilder text = new StringBuilder(String.valueOf(e.getMessage()));
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
            text.append("; ").append(root.getMessage());
        }
        return text.toString();
    }

    /** {@code docker stop} (SIGTERM, grace, SIGKILL) so the server can release its GPUs, then removal. */
    private static void stop(GenericContainer<?> container, LogTail log) {
        try {
            String id = container.getContainerId();
            if (id != null && container.isRunning()) {
                container.getDockerClient().stopContainerCmd(id).withTimeout(STOP_GRACE_SECONDS).exec();
            }
        } catch (RuntimeException e) {
            log.appendLine("servebench: docker stop failed (" + e.getMessage() + "); removing the container");
        }
        try {
            container.stop();
        } finally {
            log.close();
        }
    }

    /** The container's id (for tests and reports). */
    public String containerId() {
        return container.getContainerId();
    }

    public ContainerPlan plan() {
        return plan;
    }

    @Override
    public URI baseUrl() {
        return baseUrl;
    }

    @Override
    public String kind() {
        return spec.kind();
    }

    @Override
    public Backend backend() {
        return spec.backend();
    }

    @Override
    public Optional<String> model() {
        return model;
    }

    @Override
    public String describe() {
        String gpus = switch (spec.gpus()) {
            case GpuRequest.None none -> "no GPUs";
            case GpuRequest.All all -> "all GPUs";
            case GpuRequest.Count count -> count.gpus() + " GPUs";
        };
        String id = container.getContainerId();
        return "container " + spec.image() + (spec.command().isEmpty() ? "" : " `" + Redaction.command(spec.command()) + "`")
                + " (" + (id == null ? "not created" : id.substring(0, Math.min(12, id.length()))) + ") at " + baseUrl
                + ", backend " + spec.backend().cliName() + model.map(m -> ", model " + m).orElse("") + ", " + gpus
                + spec.shmSize().map(s -> ", shm " + s).orElse("") + (plan.hostIpc() ? ", host IPC" : "")
                + ", env " + Redaction.environmentNames(spec.env()) + log.file().map(f -> ", log " + f).orElse("");
    }

    @Override
    public String logExcerpt(int maxLines) {
        return log.lastLines(maxLines);
    }

    @Override
    public CacheReset resetCache() {
        return CacheResets.attempt(baseUrl, spec.backend(), apiKey);
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            stop(container, log);
        }
    }
}
