package dev.servebench.server;

import dev.servebench.spec.ContainerTargetSpec;
import java.io.IOException;
import java.util.Optional;

/**
 * Starts container targets. Container support needs a container runtime client (Testcontainers, an optional
 * dependency), so the server code only defines this seam: an implementation is passed in through
 * {@link LaunchSettings#withContainerLauncher(ContainerLauncher)}, or found by {@link java.util.ServiceLoader}
 * from a {@code META-INF/services/dev.servebench.server.ContainerLauncher} entry on the class path
 * (servebench's own: {@code server.container.TestcontainersLauncher}).
 */
public interface ContainerLauncher {

    /**
     * Starts {@code spec}'s container and returns it once it serves a one-token completion.
     *
     * @param settings where the container's log goes ({@link LaunchSettings#logFile(String)}) and the API key
     * @throws ServerStartException the container could not be created, exited, or was not ready in time
     */
    ServerUnderTest launch(ContainerTargetSpec spec, LaunchSettings settings) throws IOException, InterruptedException;

    /** The launcher found on the class path, if any. */
    static Optional<ContainerLauncher> discover() {
        return java.util.ServiceLoader.load(ContainerLauncher.class).findFirst();
    }
}
