package dev.servebench.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every kind of bad spec fails with {@code file:line:column:}, what was found and what was expected. */
class SpecErrorsTest {

    /** Lines 1-6 of most cases below; the line under test comes after. */
    private static final String HEAD = """
            name: bad
            workload:
              dataset: random
              input_len: 256
              output_len: 128
            sweep: {concurrency: [1, 64, 256]}
            """;

    static SpecException failure(String yaml) {
        try {
            SpecReader.parse(yaml, "bad.yaml");
        } catch (SpecException e) {
            return e;
        }
        throw new AssertionError("expected a SpecException for:\n" + yaml);
    }

    @Test
    void unknownTopLevelKeyListsTheAllowedKeysAndTheClosestOne() {
        SpecException e = failure(HEAD + "expects:\n  - completed >= 1 requests @ concurrency=1\n");

        assertThat(e).hasMessage("bad.yaml:7:1: unknown key 'expects' in the spec; allowed keys: name, description,"
                + " target, workload, sweep, warmup, repeats, repeat_order, validity, metrics, client, expect, kernels, model, hardware (did you mean"
                + " 'expect'?)");
        assertThat(e.position()).isEqualTo(new SourcePosition(Path.of("bad.yaml"), 7, 1));
        assertThat(e.problem()).startsWith("unknown key 'expects'");
    }

    @Test
    void repeatOrderMustBeSequentialOrInterleaved() {
        assertThat(failure(HEAD + "repeat_order: shuffled\n")).hasMessage(
                "bad.yaml:7:15: repeat_order: expected sequential or interleaved, found string 'shuffled'");
    }

    @Test
    void unknownNestedKey() {
        assertThat(failure(HEAD + "validity:\n  min_completed: 0.99\n  max_error_rate: 0.01\n")).hasMessage(
                "bad.yaml:9:3: unknown key 'max_error_rate' in validity; allowed keys: min_completed,"
                        + " min_achieved_concurrency, max_dispatch_lag_p99_ms, max_usage_chunk_mismatch");
    }

    @Test
    void keyOfAnotherTargetKindWithoutKindSaysWhichKindItBelongsTo() {
        assertThat(failure(HEAD + "target:\n  url: http://127.0.0.1:30000\n")).hasMessage(
                "bad.yaml:8:3: unknown key 'url' in target (kind embedded, the default); it belongs to kind url:"
                        + " add 'kind: url'");
        assertThat(failure(HEAD + "target:\n  uri: http://127.0.0.1:30000\n")).hasMessage("bad.yaml:8:3: unknown key"
                + " 'uri' in target (kind embedded, the default); allowed keys: kind, weights, slots, threads, backend, model");
        assertThat(failure(HEAD + "target:\n  kind: url\n  url: http://127.0.0.1:30000\n  slots: 4\n")).hasMessage(
                "bad.yaml:10:3: unknown key 'slots' in target (kind url); allowed keys: kind, url, backend, model");
    }

    @Test
    void wrongTypes() {
        assertThat(failure(HEAD + "warmup: \"16\"\n"))
                .hasMessage("bad.yaml:7:9: warmup: expected an integer >= 0, found string '16'");
        assertThat(failure(HEAD.replace("input_len: 256", "input_len: 256.0")))
                .hasMessage("bad.yaml:4:14: workload.input_len: expected an integer >= 1, found number 256.0");
        assertThat(failure(HEAD.replace("[1, 64, 256]", "[1, \"64\"]")))
                .hasMessage("bad.yaml:6:26: sweep.concurrency[1]: expected an integer >= 1, found string '64'");
        assertThat(failure(HEAD + "description: 42\n"))
                .hasMessage("bad.yaml:7:14: description: expected a string (quote it), found integer 42");
        assertThat(failure(HEAD + "validity: [0.99]\n")).hasMessage("bad.yaml:7:11: validity: expected a mapping with"
                + " keys min_completed, min_achieved_concurrency, max_dispatch_lag_p99_ms, max_usage_chunk_mismatch,"
                + " found a list");
        assertThat(failure(HEAD + "expect: output_throughput >= 1 tok/s @ concurrency=1\n")).hasMessage(
                "bad.yaml:7:9: expect: expected a list of expectations, one per line starting with '- ', found string"
                        + " 'output_throughput >= 1 tok/s @ concurrency=1'");
        assertThat(failure(HEAD + "expect:\n  - 5\n")).hasMessage("bad.yaml:8:5: expect[0]: expected an expectation"
                + " such as 'output_throughput >= 600 tok/s @ concurrency=256', found integer 5");
    }

    @Test
    void missingRequiredKeys() {
        assertThat(failure("workload: {dataset: random, input_len: 1, output_len: 1}\nsweep: {concurrency: 1}\n"))
                .hasMessage("bad.yaml:1:1: the spec: missing required key 'name'");
        assertThat(failure("name: x\n\nworkload:\n  dataset: random\n  output_len: 1\nsweep: {concurrency: 1}\n"))
                .hasMessage("bad.yaml:4:3: workload (dataset random): missing required key 'input_len'");
        assertThat(failure(HEAD + "target:\n  kind: url\n"))
                .hasMessage("bad.yaml:8:3: target (kind url): missing required key 'url'");
        assertThat(failure("name: x\nsweep: {concurrency: 1}\n"))
                .hasMessage("bad.yaml:1:1: the spec: missing required key 'workload'");
    }

    @Test
    void negativeAndOutOfRangeNumbers() {
        assertThat(failure(HEAD.replace("[1, 64, 256]", "[1, -4]")))
                .hasMessage("bad.yaml:6:26: sweep.concurrency[1]: expected an integer >= 1, found integer -4");
        assertThat(failure(HEAD + "warmup: -1\n")).hasMessage("bad.yaml:7:9: warmup: expected an integer >= 0,"
                + " found integer -1");
        assertThat(failure(HEAD + "validity: {min_completed: 1.5}\n")).hasMessage("bad.yaml:7:27:"
                + " validity.min_completed: expected a number in [0, 1], found number 1.5");
        assertThat(failure(HEAD + "sweep2: 1\n")).hasMessageStartingWith("bad.yaml:7:1: unknown key 'sweep2'");
        assertThat(failure(HEAD.replace("sweep: {concurrency: [1, 64, 256]}", "sweep: {request_rate: [0, 8]}")))
                .hasMessage("bad.yaml:6:24: sweep.request_rate[0]: expected a request rate (a number > 0, or inf),"
                        + " found integer 0");
        assertThat(failure(HEAD + "expect:\n  - output_throughput >= -5 tok/s @ concurrency=1\n"))
                .hasMessage("bad.yaml:8:26: expect[0]: a threshold must be >= 0, found -5");
    }

    @Test
    void duplicatePointsAndKeys() {
        assertThat(failure(HEAD.replace("[1, 64, 256]", "[1, 64, 1]"))).hasMessage(
                "bad.yaml:6:30: sweep.concurrency[2]: duplicate concurrency 1 (already at sweep.concurrency[0])");
        assertThat(failure(HEAD.replace("sweep: {concurrency: [1, 64, 256]}",
                "sweep:\n  request_rate: [inf, 8, .inf]"))).hasMessage(
                "bad.yaml:7:26: sweep.request_rate[2]: duplicate request rate inf (already at sweep.request_rate[0])");
        assertThat(failure(HEAD + "warmup: 1\nwarmup: 2\n"))
                .hasMessage("bad.yaml:8:1: duplicate key 'warmup' (first at line 7, column 1)");
    }

    @Test
    void badEnumValues() {
        assertThat(failure(HEAD + "target: {kind: docker}\n")).hasMessage(
                "bad.yaml:7:16: target.kind: expected one of embedded, url, process, container, found string 'docker'");
        assertThat(failure(HEAD + "target: {kind: url, url: \"http://h:1\", backend: tgi}\n")).hasMessage(
                "bad.yaml:7:49: target.backend: expected a backend (sglang, sglang-native, sglang-oai, sglang-oai-chat,"
                        + " vllm, vllm-chat, openai, openai-chat, lmdeploy, lmdeploy-chat), found string 'tgi'");
        assertThat(failure(HEAD.replace("dataset: random", "dataset: sonnet")))
                .hasMessage("bad.yaml:3:12: workload.dataset: expected random or sharegpt, found string 'sonnet'");
        assertThat(failure(HEAD + "target: {weights: q8_0}\n"))
                .hasMessage("bad.yaml:7:19: target.weights: expected f16 or q4_0, found string 'q8_0'");
        assertThat(failure(HEAD + "target: {kind: url, url: \"ftp://h\"}\n")).hasMessage("bad.yaml:7:26: target.url:"
                + " expected a base URL such as http://127.0.0.1:30000 (http or https, a host, no query or fragment),"
                + " found string 'ftp://h'");
    }

    @Test
    void crossSectionRules() {
        assertThat(failure(HEAD.replace("[1, 64, 256]", "[1, 512]"))).hasMessage("bad.yaml:1:1: target (kind embedded):"
                + " the embedded engine has at most 256 slots but the sweep's largest concurrency is 512; set"
                + " target.slots (requests beyond it queue in the server) or lower the sweep");
        assertThat(failure(HEAD + "target: {backend: sglang}\n")).hasMessage("bad.yaml:7:19: target.backend: the"
                + " embedded server serves /v1/completions and /v1/chat/completions; backend sglang uses /generate");
        assertThat(failure(HEAD.replace("sweep: {concurrency: [1, 64, 256]}", "sweep: {request_rate: 4}")
                .replace("output_len: 128", "output_len: 128\n  prompts: {per_concurrency: 4}"))).hasMessage(
                "bad.yaml:6:12: workload.prompts: per_concurrency needs a concurrency cap at every load point, but the"
                        + " sweep has no 'concurrency' list; give a fixed count instead");
        assertThat(failure(HEAD.replace("output_len: 128", "output_len: 128\n  prompt_format: ids")
                + "target: {backend: openai-chat}\n")).hasMessage("bad.yaml:6:18: workload.prompt_format: ids: backend"
                + " openai-chat (/v1/chat/completions) accepts text prompts only");
        assertThat(failure(HEAD + "target: {kind: container, image: x, port: 1, model_cache: ~/.cache/hf}\n"))
                .hasMessage("bad.yaml:7:59: target.model_cache: '~' is not expanded; write an absolute path or one"
                        + " relative to the spec file, found '~/.cache/hf'");
        assertThat(failure(HEAD + "sweep: {}\n")).hasMessageStartingWith("bad.yaml:7:1: duplicate key 'sweep'");
        assertThat(failure(HEAD.replace("sweep: {concurrency: [1, 64, 256]}", "sweep: {burstiness: 2}")))
                .hasMessage("bad.yaml:6:8: sweep: needs 'concurrency' (a list of caps), 'request_rate' (a list of"
                        + " requests per second) or both");
    }

    @Test
    void badTargetValues() {
        String process = HEAD + "target:\n  kind: process\n  port: 30000\n";
        assertThat(failure(process + "  command: python3 -m sglang.launch_server\n")).hasMessage("bad.yaml:10:12:"
                + " target.command: expected a list of arguments such as [python3, -m, sglang.launch_server] (no shell"
                + " splitting), found string 'python3 -m sglang.launch_server'");
        assertThat(failure(process + "  command: [x]\n  ready_timeout: 600\n")).hasMessage("bad.yaml:11:18:"
                + " target.ready_timeout: expected a duration such as 500ms, 90s, 15m or 1h, found integer 600");
        assertThat(failure(process + "  command: [x]\n  env: {CUDA-DEVICES: 0}\n")).hasMessage("bad.yaml:11:9:"
                + " target.env.CUDA-DEVICES: expected an environment variable name ([A-Za-z_][A-Za-z0-9_]*), found"
                + " 'CUDA-DEVICES'");
        assertThat(failure(process + "  command: [x]\n  port: 70000\n"))
                .hasMessage("bad.yaml:11:3: duplicate key 'target.port' (first at line 9, column 3)");
        assertThat(failure(HEAD + "target: {kind: container, image: x, port: 70000}\n")).hasMessage(
                "bad.yaml:7:43: target.port: expected an integer in [1, 65535], found integer 70000");
        assertThat(failure(HEAD + "target: {kind: container, image: x, port: 1, shm_size: lots}\n")).hasMessage(
                "bad.yaml:7:56: target.shm_size: expected a size such as 16g, 512m (docker's --shm-size), found string"
                        + " 'lots'");
        assertThat(failure(HEAD + "target: {kind: container, image: x, port: 1, gpus: 0}\n")).hasMessage(
                "bad.yaml:7:52: target.gpus: expected an integer >= 1, found integer 0");
    }

    @Test
    void yamlSyntaxErrorsPointAtTheProblemNotAtTheLastGoodToken() {
        assertThat(failure(HEAD + "description: \"unterminated\n")).hasMessage("bad.yaml:8:1: invalid YAML: found"
                + " unexpected end of stream (while scanning a quoted scalar)");
        assertThat(failure(HEAD + "expect:\n\t- completed >= 1 requests @ concurrency=1\n")).hasMessageStartingWith(
                "bad.yaml:8:1: invalid YAML: found character '\\t(TAB)' that cannot start any token.");
        assertThat(failure(HEAD.replace("[1, 64, 256]", "[1, 64"))).hasMessage("bad.yaml:6:28: invalid YAML: expected"
                + " ',' or ']', but got } (while parsing a flow sequence)");
    }

    @Test
    void emptySecondDocumentAndAliases() {
        assertThat(failure("")).hasMessage("bad.yaml:1:1: the spec is empty; expected a mapping with keys name,"
                + " description, target, workload, sweep, warmup, repeats, repeat_order, validity, metrics, client, expect, kernels, model, hardware");
        assertThat(failure("# nothing but a comment\n")).hasMessageStartingWith("bad.yaml:1:1: the spec is empty");
        assertThat(failure("- a\n- b\n")).hasMessageStartingWith("bad.yaml:1:1: the spec: expected a mapping with keys"
                + " name, description,");
        assertThat(failure(HEAD + "---\nname: other\n"))
                .hasMessage("bad.yaml:8:1: a spec is one YAML document; found a second one ('---')");
        assertThat(failure(HEAD + "warmup: &w 4\nrepeats: *w\n")).hasMessage("bad.yaml:8:10: repeats: YAML aliases (*w)"
                + " are not supported in specs; write the value out");
    }

    @Test
    void notUtf8(@TempDir Path directory) throws IOException {
        Path file = directory.resolve("latin1.yaml");
        Files.write(file, new byte[] {'n', 'a', 'm', 'e', ':', ' ', (byte) 0xE9, '\n'});
        try {
            SpecReader.read(file);
            throw new AssertionError("expected a SpecException");
        } catch (SpecException e) {
            assertThat(e).hasMessageStartingWith(file + ":1:1: not UTF-8 text");
        }
    }
}
