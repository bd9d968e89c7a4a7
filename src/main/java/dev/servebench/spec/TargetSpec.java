package dev.servebench.spec;

import dev.servebench.client.Backend;
import java.util.Optional;

/**
 * The server a spec measures and how it comes to exist: the embedded engine started in-process, a server
 * already running at a URL, a local process started for the run, or a container started for the run.
 * Named {@code ...TargetSpec} to stay apart from the running targets in {@code dev.servebench.server}.
 */
public sealed interface TargetSpec permits EmbeddedTargetSpec, UrlTargetSpec, ProcessTargetSpec, ContainerTargetSpec {

    /** The API flavour requests use, by {@code --backend} name. */
    Backend backend();

    /** Model name sent with each request; empty = the first id of {@code GET /v1/models}. */
    Optional<String> model();

    /** The {@code kind:} value that selects this target in YAML. */
    String kind();
}
