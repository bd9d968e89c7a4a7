package dev.servebench.spec;

import dev.servebench.client.Backend;
import dev.servebench.spec.YamlNode.Scalar;
import dev.servebench.spec.YamlNode.ScalarType;
import dev.servebench.gguf.WeightType;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads {@code target:}; its {@code kind} decides which keys are allowed. */
final class TargetReader {

    /** Model servers take minutes to load weights and capture graphs before they answer. */
    static final Duration DEFAULT_READY_TIMEOUT = Duration.ofMinutes(15);

    private static final Map<String, List<String>> KEYS_BY_KIND = Map.of(
            "embedded", List.of("kind", "weights", "slots", "threads", "backend", "model"),
            "url", List.of("kind", "url", "backend", "model"),
            "process", List.of("kind", "command", "port", "ready_timeout", "env", "working_dir", "backend", "model"),
            "container", List.of("kind", "image", "command", "gpus", "shm_size", "model_cache", "port", "env",
                    "ready_timeout", "backend", "model"));
    private static final List<String> KINDS = List.of("embedded", "url", "process", "container");

    private TargetReader() {
    }

    /**
     * @param node          the {@code target} value, empty when the spec has none (the embedded engine)
     * @param specPosition  where a missing target's problems are reported
     * @param sweep         empty when the sweep itself is wrong: the slots are then not checked against it
     * @param specDirectory what relative paths are resolved against; null = keep them relative
     * @param errors        where unknown keys are recorded; a wrong value is thrown and stops the target
     */
    static TargetSpec read(Optional<YamlNode> node, SourcePosition specPosition, Optional<SweepSpec> sweep,
            Path specDirectory, SpecErrors errors) {
        if (node.isEmpty()) {
            return embedded(null, specPosition, sweep);
        }
        if (!(node.get() instanceof YamlNode.Mapping mapping)) {
            throw Values.expected(node.get(), "a mapping with 'kind: " + String.join("|", KINDS) + "' and its keys");
        }
        Optional<YamlNode> kindNode = Optional.ofNullable(mapping.entries().get("kind")).map(YamlNode.Entry::value);
        String kind = kindNode.map(TargetReader::kind).orElse("embedded");
        if (kindNode.isEmpty()) {
            rejectKeysOfOtherKinds(mapping);
        }
        String section = kindNode.isEmpty() ? "target (kind embedded, the default)" : "target (kind " + kind + ")";
        Fields fields = Fields.of(mapping, section, KEYS_BY_KIND.get(kind), errors);
        return switch (kind) {
            case "embedded" -> embedded(fields, mapping.position(), sweep);
            case "url" -> new UrlTargetSpec(url(fields.required("url")), backend(fields), fields.optionalString("model"));
            case "process" -> new ProcessTargetSpec(Values.arguments(fields.required("command"), true),
                    Values.integer(fields.required("port"), 1, Ports.MAX), readyTimeout(fields), environment(fields),
                    fields.optional("working_dir").map(n -> Values.path(n, specDirectory)), backend(fields),
                    fields.optionalString("model"));
            case "container" -> container(fields, specDirectory);
            default -> throw new IllegalStateException("kind was checked: " + kind);
        };
    }

    private static String kind(YamlNode node) {
        String kind = Values.string(node);
        if (!KINDS.contains(kind)) {
            throw Values.expected(node, "one of " + String.join(", ", KINDS));
        }
        return kind;
    }

    /** Without {@code kind}, a {@code url:} or {@code image:} most likely means the kind was forgotten. */
    private static void rejectKeysOfOtherKinds(YamlNode.Mapping mapping) {
        for (YamlNode.Entry entry : mapping.entries().values()) {
            if (KEYS_BY_KIND.get("embedded").contains(entry.key())) {
                continue;
            }
            for (String kind : KINDS) {
                if (KEYS_BY_KIND.get(kind).contains(entry.key())) {
                    throw new SpecException(entry.keyPosition(), "unknown key '" + entry.key()
                            + "' in target (kind embedded, the default); it belongs to kind " + kind + ": add 'kind: "
                            + kind + "'");
                }
            }
        }
    }

    private static EmbeddedTargetSpec embedded(Fields fields, SourcePosition position, Optional<SweepSpec> sweep) {
        WeightType weights = WeightType.F16;
        Optional<YamlNode> weightsNode = fields == null ? Optional.empty() : fields.optional("weights");
        if (weightsNode.isPresent()) {
            String label = Values.string(weightsNode.get());
            try {
                weights = WeightType.parse(label);
            } catch (IllegalArgumentException e) {
                throw Values.expected(weightsNode.get(), "f16 or q4_0");
            }
        }
        int slots;
        if (fields != null && fields.has("slots")) {
            slots = Values.integer(fields.required("slots"), 1, EmbeddedTargetSpec.MAX_SLOTS);
        } else {
            slots = sweep.flatMap(SweepSpec::largestConcurrency).orElse(EmbeddedTargetSpec.DEFAULT_SLOTS);
            if (slots > EmbeddedTargetSpec.MAX_SLOTS) {
                throw new SpecException(position, "target (kind embedded): the embedded engine has at most "
                        + EmbeddedTargetSpec.MAX_SLOTS + " slots but the sweep's largest concurrency is " + slots
                        + "; set target.slots (requests beyond it queue in the server) or lower the sweep");
            }
        }
        int threads = fields != null && fields.has("threads")
                ? Values.integer(fields.required("threads"), 1, EmbeddedTargetSpec.MAX_THREADS)
                : EmbeddedTargetSpec.DEFAULT_THREADS;
        Backend backend = fields == null ? Backend.OPENAI : backend(fields);
        if (!EmbeddedTargetSpec.servable(backend)) {
            throw Values.error(fields.required("backend"), "the embedded server serves /v1/completions and"
                    + " /v1/chat/completions; backend " + backend + " uses " + backend.endpoint().path());
        }
        Optional<String> model = fields == null ? Optional.empty() : fields.optionalString("model");
        return new EmbeddedTargetSpec(weights, slots, threads, backend, model);
    }

    private static ContainerTargetSpec container(Fields fields, Path specDirectory) {
        Optional<String> shmSize = fields.optional("shm_size").map(n -> {
            String size = Values.string(n);
            if (!ContainerTargetSpec.validShmSize(size)) {
                throw Values.expected(n, "a size such as 16g, 512m (docker's --shm-size)");
            }
            return size;
        });
        return new ContainerTargetSpec(Values.string(fields.required("image")),
                fields.optional("command").map(n -> Values.arguments(n, false)).orElse(List.of()),
                fields.optional("gpus").map(TargetReader::gpus).orElse(new GpuRequest.None()), shmSize,
                fields.optional("model_cache").map(n -> Values.path(n, specDirectory)),
                Values.integer(fields.required("port"), 1, Ports.MAX), environment(fields), readyTimeout(fields),
                backend(fields), fields.optionalString("model"));
    }

    private static GpuRequest gpus(YamlNode node) {
        if (node instanceof Scalar scalar && scalar.type() == ScalarType.STRING && scalar.text().equals("all")) {
            return new GpuRequest.All();
        }
        if (node instanceof Scalar scalar && scalar.type() == ScalarType.INTEGER) {
            return new GpuRequest.Count(Values.integer(node, 1, Integer.MAX_VALUE));
        }
        throw Values.expected(node, "'all' or a GPU count >= 1");
    }

    private static Backend backend(Fields fields) {
        Optional<YamlNode> node = fields.optional("backend");
        if (node.isEmpty()) {
            return Backend.OPENAI;
        }
        String name = Values.string(node.get());
        try {
            return Backend.fromCliName(name);
        } catch (IllegalArgumentException e) {
            throw Values.expected(node.get(), "a backend (" + String.join(", ",
                    Arrays.stream(Backend.values()).map(Backend::cliName).toList()) + ")");
        }
    }

    private static URI url(YamlNode node) {
        String text = Values.string(node);
        String form = "a base URL such as http://127.0.0.1:30000 (http or https, a host, no query or fragment)";
        try {
            URI uri = new URI(text);
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null
                    || uri.getQuery() != null || uri.getFragment() != null) {
                throw Values.expected(node, form);
            }
            return uri;
        } catch (URISyntaxException e) {
            throw Values.expected(node, form);
        }
    }

    private static Duration readyTimeout(Fields fields) {
        return fields.optional("ready_timeout").map(Values::duration).orElse(DEFAULT_READY_TIMEOUT);
    }

    private static Map<String, String> environment(Fields fields) {
        return fields.optional("env").map(Values::environment).orElse(Map.of());
    }
}
