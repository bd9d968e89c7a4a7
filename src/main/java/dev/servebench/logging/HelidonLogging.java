package dev.servebench.logging;

import io.helidon.logging.common.spi.LoggingProvider;

/**
 * Helidon's logging provider: none to configure. Without any provider Helidon prints "There is no Helidon
 * logging implementation on classpath" to stderr; Helidon's own providers (helidon-logging-jul, -slf4j, …)
 * would re-read a logging.properties and undo {@link LogFile}'s routing. servebench configures
 * java.util.logging itself, before any server starts.
 */
public final class HelidonLogging implements LoggingProvider {

    @Override
    public void initialization() {
    }

    @Override
    public void runTime() {
    }
}
