package dev.servebench.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.results.SummaryFile;
import dev.servebench.results.PointMeasurement;
import dev.servebench.roofline.MeasuredHardware;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.SpecReader;
import dev.servebench.testserver.Fault;
import dev.servebench.testserver.Plan;
import dev.servebench.testserver.Script;
import dev.servebench.testserver.ScriptedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17: what {@code servebench run} did on its own (warm-up rejection, success share, time-limit cut,
 * connection counts, vocabulary notes) is the spec runner's, so a spec measured by the suite gets it too.
 */
class SpecRunnerPipelineTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** 12 requests at concurrency 1 against {@code server}; {@code sweepExtra} adds keys to the sweep. */
    private static PerformanceSpec spec(ScriptedServer server, String sweepExtra) {
        return SpecReader.parse("name: pipeline\n"
                + "target: {kind: url, url: " + server.baseUri() + "}\n"
                + "workload: {dataset: random, input_len: 8, output_len: 4, range_ratio: 1.0, prompts: 12}\n"
                + "sweep: {concurrency: 1" + sweepExtra + "}\n"
                + "validity: {min_completed: 0.9}\n", "pipeline.yaml");
    }

    private SpecRunner runner(ScriptedServer server, PerformanceSpec spec, RunListener listener) throws Exception {
        return new SpecRunner(spec, server.baseUri(), Optional.empty(), Optional.empty(), SpecRunner.Vocabulary.DEFAULT,
                dir, "url", MeasuredHardware.NONE, new RunOptions(Optional.empty(), listener));
    }

    @Test
    void aSpecsSummaryStatesValidityConnectionsWarmUpAndTheAssumedTokenIds() throws Exception {
        List<MeasuredRepeat> shown = new ArrayList<>();
        try (ScriptedServer server = ScriptedServer.start(Script.of(Plan.fullSpeed()));
             SpecRunner runner = runner(server, spec(server, ""), new RunListener() {
                 @Override
                 public void measured(MeasuredRepeat repeat) {
                     shown.add(repeat);
                 }
             })) {
            PointMeasurement measurement = runner.measure(LoadPointKey.concurrency(1));

            assertThat(measurement.repeats()).hasSize(1);
            SummaryFile summary = SummaryFile.read(dir.resolve("concurrency-1.summary.json"));
            assertThat(summary.tag()).isEqualTo("spec:pipeline");
            assertThat(summary.result("completed")).hasValue(12);
            assertThat(summary.servebench().validity().valid()).isTrue();
            assertThat(summary.servebench().validity().minSuccessRate()).isEqualTo(0.9);
            assertThat(summary.servebench().client().connectionsOpenedBeforeStart()).isEqualTo(1);
            assertThat(summary.servebench().client().warmedBeforeStart())
                    .anyMatch(w -> w.contains("client hot path")).anyMatch(w -> w.contains("server: 1 warm-up request(s)"));
            assertThat(summary.servebench().notes())
                    .anyMatch(n -> n.contains("random prompt token ids drawn from [1000, 31000): assumed"));
            assertThat(shown).singleElement().satisfies(repeat -> {
                assertThat(repeat.valid()).isTrue();
                assertThat(repeat.summary().requests()).isEqualTo(12);
            });
        }
    }

    @Test
    void aWarmUpTheServerRejectsStopsTheSpecWithTheServersMessage() throws Exception {
        Plan rejected = Plan.builder().fault(Fault.httpError(400, "BadRequestError", "token id out of range")).build();
        try (ScriptedServer server = ScriptedServer.start(Script.of(rejected));
             SpecRunner runner = runner(server, spec(server, ""), RunListener.NONE)) {
            assertThatThrownBy(() -> runner.measure(LoadPointKey.concurrency(1)))
                    .isInstanceOf(WarmupRejectedException.class)
                    .hasMessageContaining("rejected the warm-up request", "HTTP 400", "token id out of range",
                            "workload.vocab_span");
            assertThat(dir.resolve("concurrency-1.records.jsonl")).doesNotExist();
        }
    }

    @Test
    void aSpecsTimeLimitCutsThePointAndItsSummarySaysSo() throws Exception {
        Plan slow = Plan.builder().ttft(Duration.ofMillis(150)).gap(Duration.ofMillis(10)).build();
        try (ScriptedServer server = ScriptedServer.start(Script.of(slow));
             SpecRunner runner = runner(server, spec(server, ", max_duration: 500ms"), RunListener.NONE)) {
            runner.measure(LoadPointKey.concurrency(1));

            JsonNode cut = JSON.readTree(dir.resolve("concurrency-1.summary.json").toFile()).at("/servebench/cut");
            long recorded = Files.readAllLines(dir.resolve("concurrency-1.records.jsonl")).size();
            assertThat(cut.get("limit_s").asDouble()).isEqualTo(0.5);
            assertThat(recorded + cut.get("not_sent").asInt()).isEqualTo(12);
            assertThat(cut.get("not_sent").asInt()).isPositive();
        }
    }
}
