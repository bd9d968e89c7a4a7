package dev.servebench.server.container;

import dev.servebench.spec.ContainerTargetSpec;
import dev.servebench.server.ContainerLauncher;
import dev.servebench.server.LaunchSettings;
import dev.servebench.server.ServerUnderTest;
import java.io.IOException;

/** Container support for the perf suite, found by {@link ContainerLauncher#discover()} on the test class path. */
public final class TestcontainersLauncher implements ContainerLauncher {

    @Override
    public ServerUnderTest launch(ContainerTargetSpec spec, LaunchSettings settings) throws IOException, InterruptedException {
        return ContainerServer.start(spec, settings);
    }
}
