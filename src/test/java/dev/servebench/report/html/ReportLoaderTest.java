package dev.servebench.report.html;

import dev.servebench.results.RunVerdictsJson;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.metric.MetricId;
import dev.servebench.metric.MetricOptions;
import dev.servebench.metric.SummaryCalculator;
import dev.servebench.record.RecordJsonl;
import dev.servebench.record.RequestRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportLoaderTest {

    @TempDir
    Path directory;

    Path run;

    @BeforeEach
    void writeRun() throws IOException {
        run = RunDirectoryFixture.write(directory);
    }

    private ReportModel load(Path runOrParent) throws IOException {
        return ReportLoader.load(new ReportLoader.Sources(runOrParent, Optional.empty(), directory.resolve("kernels"),
                directory.resolve("history")), "2026-12-02T16:00:00Z");
    }

    @Test
    void aParentDirectoryMeansItsNewestRun() throws IOException {
        ReportModel model = load(directory.resolve("perf"));
        assertThat(model.spec()).isEqualTo("demo");
        assertThat(model.runDirectory()).isEqualTo(run.toString());
        assertThat(model.points()).extracting(LoadPointView::point)
                .containsExactly("concurrency=1", "concurrency=4", "concurrency=16");
        assertThat(model.points()).extracting(LoadPointView::valid).containsExactly(true, true, false);
    }

    @Test
    void metricsAreMediansOverRepeatsWithTheirRange() throws IOException {
        LoadPointView point = load(run).points().get(1);
        double[] repeats = new double[RunDirectoryFixture.REPEATS];
        for (int r = 1; r <= repeats.length; r++) {
            repeats[r - 1] = outputThroughput(run.resolve("concurrency-4.r" + r + ".records.jsonl"));
        }
        Arrays.sort(repeats);
        LoadPointView.Spread spread = point.metric(MetricId.OUTPUT_THROUGHPUT).orElseThrow();
        assertThat(spread.median()).isEqualTo(repeats[1]);
        assertThat(spread.min()).isEqualTo(repeats[0]);
        assertThat(spread.max()).isEqualTo(repeats[2]);
        assertThat(point.repeats()).isEqualTo(3);
        assertThat(point.requested()).isEqualTo(RunDirectoryFixture.requests(4));
    }

    @Test
    void detailComesFromTheMedianRepeatAndItsBusiestSecondIsItsPeak() throws IOException {
        LoadPointView point = load(run).points().get(2);
        LoadPointView.RepeatRecords records = ((Input.Found<LoadPointView.RepeatRecords>) point.records()).value();
        assertThat(records.source()).isEqualTo("repeat 2 of 3 (median output_throughput)");
        assertThat(records.file()).isEqualTo("concurrency-16.r2.records.jsonl");
        List<RequestRecord> second = RecordJsonl.read(run.resolve("concurrency-16.r2.records.jsonl"));
        double peak = SummaryCalculator.compute(second, SyntheticLoad.duration(second), MetricOptions.defaults())
                .value(MetricId.PEAK_OUTPUT_THROUGHPUT).orElseThrow();
        assertThat((double) Arrays.stream(records.tokenEventsPerSecond()).max().orElseThrow()).isEqualTo(peak);
        // The stalls make the busiest second a burst well above the sustained rate.
        assertThat(peak).isGreaterThan(1.3 * point.metric(MetricId.OUTPUT_THROUGHPUT).orElseThrow().median());
        assertThat(records.ttftMs().samples()).isEqualTo(RunDirectoryFixture.requests(16));
        assertThat(records.itlMs().samples())
                .isEqualTo(RunDirectoryFixture.requests(16) * (SyntheticLoad.OUTPUT_TOKENS - 1));
    }

    @Test
    void environmentVerdictsKernelsAndTrendsAreRead() throws IOException {
        ReportModel model = load(run);
        assertThat(found(model.environment())).satisfies(env -> assertThat(env.facts())
                        .contains(new EnvironmentView.Fact("GPU model", "NVIDIA H200"),
                                new EnvironmentView.Fact("GPU count", "8"),
                                new EnvironmentView.Fact("GPU driver", "570.124.06"),
                                new EnvironmentView.Fact("model", "demo-model"),
                                new EnvironmentView.Fact("spec sha256", "ab".repeat(32)),
                                new EnvironmentView.Fact("environment fingerprint",
                                        RunDirectoryFixture.environment().fingerprint())));
        List<VerdictRow> verdicts = ((Input.Found<List<VerdictRow>>) model.verdicts()).value();
        assertThat(verdicts).extracting(VerdictRow::outcome).containsExactly(RunVerdictsJson.Outcome.PASS,
                RunVerdictsJson.Outcome.INVALID, RunVerdictsJson.Outcome.FAIL, RunVerdictsJson.Outcome.NOT_JUDGED,
                RunVerdictsJson.Outcome.PASS, RunVerdictsJson.Outcome.FAIL);
        assertThat(verdicts.getLast().point()).isEmpty();
        assertThat(verdicts.getLast().kind()).isEqualTo("kernel");
        KernelTables kernels = ((Input.Found<KernelTables>) model.kernels()).value();
        assertThat(kernels.source()).endsWith("figures.json");
        assertThat(kernels.figures()).extracting(KernelTables.Figure::benchmark)
                .containsExactly("memcpy (baseline)", "NVFP4 dequant", "MoE W4A16 experts", "allreduce bf16");
        TrendView trends = ((Input.Found<TrendView>) model.trends()).value();
        assertThat(trends.runs()).isEqualTo(RunDirectoryFixture.HISTORY_RUNS);
        assertThat(trends.series()).filteredOn(s -> !s.shifts().isEmpty())
                .singleElement().satisfies(s -> {
                    assertThat(s.metric()).isEqualTo("output_throughput");
                    assertThat(s.point()).isEqualTo("concurrency=16");
                    assertThat(s.shifts().getFirst().index()).isEqualTo(8);
                    assertThat(s.shifts().getFirst().firstCommitAfter()).isEqualTo(RunDirectoryFixture.commit(8));
                });
    }

    @Test
    void missingOptionalFilesBecomeReasonsNamingWhereTheyWereLookedFor() throws IOException {
        Files.delete(run.resolve("verdicts.json"));
        Files.delete(run.resolve("concurrency-1.r2.records.jsonl"));
        ReportModel model = ReportLoader.load(new ReportLoader.Sources(run, Optional.empty(),
                directory.resolve("no-kernels"), directory.resolve("no-history")), "now");
        assertThat(model.verdicts()).isEqualTo(Input.missing("no verdicts.json in " + run
                + " (the perf suite writes it after judging the run; older runs have none)"));
        assertThat(missing(model.points().getFirst().records())).contains("concurrency-1.r2.records.jsonl", run.toString());
        assertThat(missing(model.kernels()))
                .startsWith("no kernels run found under " + directory.resolve("no-kernels"));
        assertThat(missing(model.trends()))
                .contains("no history file " + directory.resolve("no-history").resolve("demo.jsonl"));
    }

    @Test
    void historyOfAnotherEnvironmentIsNotShown() throws IOException {
        Path history = directory.resolve("history").resolve("demo.jsonl");
        Files.writeString(history, Files.readString(history).replace(RunDirectoryFixture.environment().fingerprint(),
                "ffffffffffffffff"));
        assertThat(missing(load(run).trends()))
                .startsWith("no history for fingerprint " + RunDirectoryFixture.environment().fingerprint())
                .contains("16 runs of other environments");
    }

    @Test
    void aBadVerdictNamesTheFileTheEntryAndWhatWasExpected() throws IOException {
        Files.writeString(run.resolve("verdicts.json"), """
                {"spec": "demo", "verdicts": [{"name": "a", "kind": "expectation", "outcome": "pass", "reason": ""},
                 {"name": "b", "kind": "expectation", "outcome": "maybe", "reason": ""}]}
                """);
        assertThatThrownBy(() -> load(run)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(run.resolve("verdicts.json") + ": verdicts[1].outcome: outcome \"maybe\"; expected pass, fail,"
                        + " inconclusive, not_judged or invalid");
    }

    @Test
    void anExplicitKernelsPathMustHoldFigures() {
        assertThatThrownBy(() -> ReportLoader.load(new ReportLoader.Sources(run, Optional.of(directory.resolve("none")),
                directory.resolve("kernels"), directory.resolve("history")), "now"))
                .isInstanceOf(java.nio.file.NoSuchFileException.class)
                .hasMessageContaining("no figures.json there nor in a kernels run directory below");
    }

    private static double outputThroughput(Path records) throws IOException {
        List<RequestRecord> list = RecordJsonl.read(records);
        return SummaryCalculator.compute(list, SyntheticLoad.duration(list), MetricOptions.defaults())
                .value(MetricId.OUTPUT_THROUGHPUT).orElseThrow();
    }

    private static <T> T found(Input<T> input) {
        assertThat(input).isInstanceOf(Input.Found.class);
        return ((Input.Found<T>) input).value();
    }

    private static String missing(Input<?> input) {
        assertThat(input).isInstanceOf(Input.Missing.class);
        return ((Input.Missing<?>) input).reason();
    }
}
