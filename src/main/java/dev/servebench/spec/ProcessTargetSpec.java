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
 * A server started as a local process for the run and stopped after it; ready once it answers on
 * {@code http://127.0.0.1:port} within {@code readyTimeout}.
 *
 * @param command    program and arguments, run without a shell
 * @param port       the port the command makes the server listen on
 * @param env        added to the inherited environment
 * @param workingDir where to start it; empty = the current directory
 */
public record ProcessTargetSpec(List<String> command, int port, Duration readyTimeout, Map<String, String> env,
                                Optional<Path> workingDir, Backend backend, Optional<String> model)
        implements TargetSpec {

    public ProcessTargetSpec {
        command = List.copyOf(command);
        env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
        Objects.requireNonNull(readyTimeout, "readyTimeout");
        Objects.requireNonNull(workingDir, "workingDir");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(model, "model");
        if (command.isEmpty()) {
            throw new IllegalArgumentException("command must name a program");
        }
        Ports.check(port);
        if (readyTimeout.isNegative() || readyTimeout.isZero()) {
            throw new IllegalArgumentException("readyTimeout (" + readyTimeout + ") must be positive");
        }
    }

    /** Where the started server is measured. */
    public URI baseUrl() {
        return Ports.loopback(port);
    }

    @Override
    public String kind() {
        return "process";
    }
}
