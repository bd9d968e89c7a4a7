package dev.servebench.server.container;

import dev.servebench.spec.ContainerTargetSpec;
import dev.servebench.server.ContainerLauncher;
import dev.servebench.server.LaunchSettings;
import dev.servebench.server.ServerStartException;
import dev.servebench.server.ServerUnderTest;
import java.io.IOException;

/**
 * Container support, found by {@link ContainerLauncher#discover()} (registered in META-INF/services).
 * Testcontainers itself is optional at run time: without it a launch fails with that reason.
 */
public final class TestcontainersLauncher implements ContainerLauncher {

    @Override
    public ServerUnderTest launch(ContainerTargetSpec spec, LaunchSettings settings) throws IOException, InterruptedException {
        if (!DockerAvailability.TestcontainersClasses.present()) {
            throw new ServerStartException(ServerStartException.Reason.LAUNCH_FAILED, "cannot start container target "
                    + spec.image() + ": " + DockerAvailability.reason());
        }
        return ContainerServer.start(spec, settings);
    }
}
