package dev.servebench.spec;

import dev.servebench.client.Backend;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A server started in a container for the run and removed after it, with its port published on loopback;
 * ready once it answers on {@code http://127.0.0.1:port} within {@code readyTimeout}.
 *
 * @param image      container image, e.g. {@code lmsysorg/sglang:latest}
 * @param command    arguments replacing the image's command; empty = the image's own
 * @param gpus       GPUs passed through
 * @param shmSize    shared-memory size in docker's notation ({@code 32g}); empty = the runtime's default
 * @param modelCache host directory mounted as the Hugging Face cache ({@code /root/.cache/huggingface})
 * @param port       the port the server listens on inside the container, published as the same host port
 * @param env        environment inside the container
 */
public record ContainerTargetSpec(String image, List<String> command, GpuRequest gpus, Optional<String> shmSize,
                                  Optional<Path> modelCache, int port, Map<String, String> env,
                                  Duration readyTimeout, Backend backend, Optional<String> model)
        implements TargetSpec {

    /** Where {@code modelCache} is mounted: the Hugging Face cache of the image's root user. */
    public static final String MODEL_CACHE_MOUNT = "/root/.cache/huggingface";

    public ContainerTargetSpec {
        Objects.requireNonNull(image, "image");
        command = List.copyOf(command);
        Objects.requireNonNull(gpus, "gpus");
        Objects.requireNonNull(shmSize, "shmSize");
        Objects.requireNonNull(modelCache, "modelCache");
        env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
        Objects.requireNonNull(readyTimeout, "readyTimeout");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(model, "model");
        if (image.isBlank()) {
            throw new IllegalArgumentException("image must not be blank");
        }
        shmSize.ifPresent(size -> {
            if (!validShmSize(size)) {
                throw new IllegalArgumentException("shmSize must be a number with an optional b, k, m or g suffix, got '"
                        + size + "'");
            }
        });
        Ports.check(port);
        if (readyTimeout.isNegative() || readyTimeout.isZero()) {
            throw new IllegalArgumentException("readyTimeout (" + readyTimeout + ") must be positive");
        }
    }

    static boolean validShmSize(String size) {
        return size.matches("[1-9][0-9]*[bkmgBKMG]?");
    }

    /** Where the started server is measured. */
    public URI baseUrl() {
        return Ports.loopback(port);
    }

    @Override
    public String kind() {
        return "container";
    }
}
