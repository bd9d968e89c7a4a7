package dev.servebench.server;

import dev.servebench.spec.ContainerTargetSpec;
import dev.servebench.spec.EmbeddedTargetSpec;
import dev.servebench.spec.ProcessTargetSpec;
import dev.servebench.spec.TargetSpec;
import dev.servebench.spec.UrlTargetSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/** Turns a spec's {@code target} into a running, ready {@link ServerUnderTest}. */
public final class ServerTargets {

    private ServerTargets() {}

    /** {@link #start(TargetSpec, LaunchSettings)} with {@link LaunchSettings#of(Path, Optional)}. */
    public static ServerUnderTest start(TargetSpec spec, Path logDirectory, Optional<String> apiKey)
            throws IOException, InterruptedException {
        return start(spec, LaunchSettings.of(logDirectory, apiKey));
    }

    /**
     * Starts (or, for a URL, connects to) the target and returns once it serves a one-token completion.
     *
     * @throws ServerStartException it could not be started or did not become ready; the message says why
     *                              and quotes the server's last log lines where there is a log
     */
    public static ServerUnderTest start(TargetSpec spec, LaunchSettings settings) throws IOException, InterruptedException {
        return switch (spec) {
            case EmbeddedTargetSpec embedded -> EmbeddedServerUnderTest.start(embedded, settings.embeddedContextPerSlot(),
                    settings.embeddedTokenDelay());
            case UrlTargetSpec url -> UrlServer.connect(url, settings.apiKey(), settings.urlReadyTimeout());
            case ProcessTargetSpec process ->
                    ProcessServer.start(process, settings.logFile(process.kind()), settings.apiKey());
            case ContainerTargetSpec container -> settings.containers()
                    .orElseThrow(() -> new ServerStartException(ServerStartException.Reason.LAUNCH_FAILED,
                            "cannot start container target " + container.image() + ": no container support on the"
                                    + " class path (no ContainerLauncher registered in META-INF/services; servebench's"
                                    + " own, server.container.TestcontainersLauncher, ships in its jar)"))
                    .launch(container, settings);
        };
    }
}
