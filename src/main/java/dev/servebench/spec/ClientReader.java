package dev.servebench.spec;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** Reads {@code client:}: the client's threads and request time limits, each key on its own. */
final class ClientReader {

    static final List<String> KEYS = List.of("threads", "stall_timeout", "request_timeout");

    private ClientReader() {
    }

    static ClientSpec read(YamlNode node, SpecErrors errors) {
        Fields fields = Fields.of(node, "client", KEYS, errors);
        ClientSpec defaults = ClientSpec.DEFAULTS;
        OptionalInt threads = errors.read(() -> fields.optional("threads")
                        .map(n -> OptionalInt.of(Values.integer(n, 1, 1024))).orElse(OptionalInt.empty()))
                .orElse(defaults.threads());
        Duration stall = errors.read(() -> fields.optional("stall_timeout").map(Values::duration)
                .orElse(defaults.stallTimeout())).orElse(defaults.stallTimeout());
        Optional<Duration> request = errors.read(() -> fields.optional("request_timeout").map(Values::duration))
                .orElse(Optional.empty());
        return new ClientSpec(threads, stall, request);
    }
}
