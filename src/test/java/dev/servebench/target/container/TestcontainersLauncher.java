package dev.servebench.target.container;

import dev.servebench.spec.ContainerTargetSpec;
import dev.servebench.target.ContainerLauncher;
import dev.servebench.target.LaunchSettings;
import dev.servebench.target.ServerUnderTest;
import java.io.IOException;

/** Container support for the perf suite, found by {@link ContainerLauncher#discover()} on the test class path. */
public final class TestcontainersLauncher implements ContainerLauncher {

    @Override
    public ServerUnderTest launch(ContainerTargetSpec spec, LaunchSettings settings) throws IOException, InterruptedException {
        return ContainerServer.start(spec, settings);
    }
}
