package dev.servebench.server.container;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.DeviceRequest;
import com.github.dockerjava.api.model.HostConfig;
import dev.servebench.spec.ContainerTargetSpec;
import dev.servebench.spec.GpuRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * How a {@link ContainerTargetSpec} becomes a container, as plain data first (testable without Docker), then
 * applied to a Testcontainers {@link GenericContainer}: the equivalent of
 * {@code docker run --gpus all --shm-size 32g -v CACHE:/root/.cache/huggingface -p 127.0.0.1:P:P IMAGE CMD}.
 *
 * <p>IPC: SGLang's and vLLM's Docker instructions pass {@code --ipc=host} for multi-GPU serving (PyTorch's
 * worker processes share tensors through {@code /dev/shm}) or, as vLLM's docs put it, alternatively a large
 * {@code --shm-size}. So a container with GPUs and no {@code shm_size} gets the host's IPC namespace; an
 * explicit {@code shm_size} is honoured with a private namespace of that size (under host IPC Docker would
 * ignore it).
 *
 * @param shmBytes   {@code /dev/shm} size in bytes; empty = the runtime's default
 * @param modelCache host directory bound read-write at {@link ContainerTargetSpec#MODEL_CACHE_MOUNT}
 * @param hostIpc    share the host's IPC namespace
 */
public record ContainerPlan(String image, List<String> command, int port, Map<String, String> env, GpuRequest gpus,
                           OptionalLong shmBytes, Optional<Path> modelCache, boolean hostIpc, Duration readyTimeout) {

    /** Answered by SGLang and vLLM as soon as their HTTP server is up, without an API key. */
    public static final String HEALTH_PATH = "/health";
    /** Only the NVIDIA runtime hands GPUs to containers through device requests. */
    public static final String GPU_DRIVER = "nvidia";
    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s?([kmgtp])?(i)?(b)?");

    public ContainerPlan {
        Objects.requireNonNull(image, "image");
        command = List.copyOf(command);
        env = Map.copyOf(env);
        Objects.requireNonNull(gpus, "gpus");
        Objects.requireNonNull(shmBytes, "shmBytes");
        Objects.requireNonNull(modelCache, "modelCache");
        Objects.requireNonNull(readyTimeout, "readyTimeout");
    }

    public static ContainerPlan of(ContainerTargetSpec spec) {
        OptionalLong shm = spec.shmSize().map(size -> OptionalLong.of(parseSize(size))).orElse(OptionalLong.empty());
        boolean hostIpc = !(spec.gpus() instanceof GpuRequest.None) && shm.isEmpty();
        return new ContainerPlan(spec.image(), spec.command(), spec.port(), spec.env(), spec.gpus(), shm,
                spec.modelCache().map(Path::toAbsolutePath), hostIpc, spec.readyTimeout());
    }

    /**
     * Bytes in a size written as Docker and Kubernetes write them: {@code 32g}, {@code 512m}, {@code 16Gi},
     * {@code 16GiB}, {@code 1.5g}, {@code 1024} (bytes). Suffixes are binary (k = 1024), as in Docker's own
     * parser, whatever the case.
     */
    public static long parseSize(String text) {
        Matcher m = SIZE.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches() || (m.group(3) != null && m.group(2) == null)) {
            throw new IllegalArgumentException("size '" + text + "': expected a number with an optional unit"
                    + " b, k, m, g, t or p (also ki, mi, gi, kb, gib, …), e.g. 32g or 16Gi");
        }
        int power = m.group(2) == null ? 0 : "kmgtp".indexOf(m.group(2).charAt(0)) + 1;
        double bytes = Double.parseDouble(m.group(1)) * Math.pow(1024, power);
        if (bytes < 1 || bytes >= Long.MAX_VALUE) {
            throw new IllegalArgumentException("size '" + text + "' must be at least 1 byte and below 8 EiB");
        }
        return (long) bytes;
    }

    /** Docker's {@code --gpus}: all GPUs (count -1) or N of them; empty without GPUs. */
    public Optional<DeviceRequest> deviceRequest() {
        Integer count = switch (gpus) {
            case GpuRequest.None none -> null;
            case GpuRequest.All all -> -1;
            case GpuRequest.Count n -> n.gpus();
        };
        return count == null ? Optional.empty() : Optional.of(new DeviceRequest().withDriver(GPU_DRIVER)
                .withCount(count).withCapabilities(List.of(List.of("gpu"))));
    }

    /** What Testcontainers has no setter for: the GPU device request and the IPC mode. Adds, never replaces. */
    public void amend(HostConfig hostConfig) {
        deviceRequest().ifPresent(request -> {
            List<DeviceRequest> requests = new ArrayList<>();
            if (hostConfig.getDeviceRequests() != null) {
                requests.addAll(hostConfig.getDeviceRequests());
            }
            requests.add(request);
            hostConfig.withDeviceRequests(requests);
        });
        if (hostIpc) {
            hostConfig.withIpcMode("host");
        }
    }

    /** {@link #amend(HostConfig)} as a create-command modifier, run after Testcontainers built its host config. */
    public Consumer<CreateContainerCmd> createCommandModifier() {
        return cmd -> {
            HostConfig hostConfig = cmd.getHostConfig();
            if (hostConfig == null) {
                hostConfig = HostConfig.newHostConfig();
                cmd.withHostConfig(hostConfig);
            }
            amend(hostConfig);
        };
    }

    /** The port published on loopback only, under the same number: {@code 127.0.0.1:P:P}. */
    public String portBinding() {
        return "127.0.0.1:" + port + ":" + port;
    }

    /** A configured, not yet started container. Constructing it does not talk to Docker. */
    public GenericContainer<?> toContainer() {
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(image));
        if (!command.isEmpty()) {
            container.withCommand(command.toArray(String[]::new));
        }
        container.withExposedPorts(port);
        container.setPortBindings(List.of(portBinding()));
        container.withEnv(env);
        shmBytes.ifPresent(container::withSharedMemorySize);
        modelCache.ifPresent(dir -> container.withFileSystemBind(dir.toString(), ContainerTargetSpec.MODEL_CACHE_MOUNT,
                BindMode.READ_WRITE));
        container.withCreateContainerCmdModifier(createCommandModifier());
        container.waitingFor(Wait.forHttp(HEALTH_PATH).forPort(port).forStatusCode(200).withStartupTimeout(readyTimeout));
        return container;
    }
}
