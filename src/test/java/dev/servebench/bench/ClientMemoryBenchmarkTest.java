package dev.servebench.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.client.IoTransport;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.load.ClientUsage;
import dev.servebench.load.ConnectionCounts;
import dev.servebench.load.LoadPoint;
import dev.servebench.metric.MetricOptions;
import dev.servebench.metric.Records;
import dev.servebench.metric.ServingSummary;
import dev.servebench.metric.SummaryCalculator;
import dev.servebench.metric.TokenSource;
import dev.servebench.record.FailureKind;
import dev.servebench.results.PointContext;
import dev.servebench.results.RunDescription;
import dev.servebench.results.SuccessShare;
import dev.servebench.results.SummaryFile;
import java.util.List;
import java.util.Optional;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client-memory benchmark's plan parsing, GC log reading and summary reading (the run itself is not a test). */
class ClientMemoryBenchmarkTest {

    @Test
    void planFromProductOrPointsOrDefault() {
        assertThat(ClientMemoryBenchmark.parse(new String[] {"--requests", "2000", "--concurrency", "64,512"}).plan())
                .containsExactly(new ClientRun.Point(2000, 64), new ClientRun.Point(2000, 512));
        assertThat(ClientMemoryBenchmark.parse(new String[] {"--points", "10kx256,1Mx256"}).plan())
                .containsExactly(new ClientRun.Point(10_000, 256), new ClientRun.Point(1_000_000, 256));
        ClientMemoryBenchmark.Options defaults = ClientMemoryBenchmark.parse(new String[0]);
        assertThat(defaults.plan()).hasSize(6).contains(new ClientRun.Point(1_000_000, 256),
                new ClientRun.Point(100_000, 10_000));
        assertThat(defaults.maxHeap()).isEqualTo("1g");
        assertThat(defaults.reportDir()).isEqualTo(Path.of("reports", "benchmarks"));
    }

    @Test
    void badOptionsAreOneLineWithTheOptions() {
        assertThatThrownBy(() -> ClientMemoryBenchmark.parse(new String[] {"--points", "10x"}))
                .isInstanceOf(BenchmarkException.class).hasMessageStartingWith("point '10x' must be");
        assertThatThrownBy(() -> ClientMemoryBenchmark.parse(new String[] {"--requests", "0"}))
                .hasMessageStartingWith("'0' must be a count");
        assertThatThrownBy(() -> ClientMemoryBenchmark.parse(new String[] {"--points", "1x1", "--requests", "5"}))
                .hasMessageStartingWith("--points cannot be combined");
        assertThatThrownBy(() -> ClientMemoryBenchmark.parse(new String[] {"--xmx"}))
                .hasMessageStartingWith("--xmx needs a value").hasMessageContaining("options: --requests");
    }

    @Test
    void gcLogKeepsEvacuatingPausesOnly(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("gc.log");
        Files.writeString(log, """
                [0.018s] Using G1
                [0.776s] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 22M->10M(380M) 48.473ms
                [1.955s] GC(2) Concurrent Mark Cycle
                [1.977s] GC(2) Pause Remark 90M->90M(400M) 3.765ms
                [1.983s] GC(2) Pause Cleanup 90M->90M(400M) 0.017ms
                [3.214s] GC(3) Pause Young (Mixed) (G1 Evacuation Pause) 53M->33M(71M) 107.880ms
                [4.000s] GC(4) Pause Full (G1 Compaction Pause) 1G->40M(1024M) 120.5ms
                """);
        GcLog gc = GcLog.read(log);
        assertThat(gc.pauses()).isEqualTo(3);
        assertThat(gc.fullPauses()).isEqualTo(1);
        assertThat(gc.peakBeforeMib()).isEqualTo(1024);
        assertThat(gc.maxAfterMib()).isEqualTo(40);
        assertThat(gc.lastAfterMib()).isEqualTo(40);
        assertThat(gc.afterSeries()).hasSize(3);
        assertThat(GcLog.read(dir.resolve("absent.log")).pauses()).isZero();
    }

    @Test
    void summaryFieldsFromTheSummaryFile(@TempDir Path dir) throws Exception {
        RunDescription run = new RunDescription("http://127.0.0.1:1", "sglang", "m", "random", 8, 2, 0.0, 3, 1,
                true, TokenSource.SERVER_USAGE, "", "url");
        ServingSummary measured = SummaryCalculator.compute(Records.inOrder(
                Records.aRequest().sentAt(0).chunksAt(Records.ms(500), Records.ms(1000)).endAt(Records.ms(1000))
                        .usage(10, 2),
                Records.aRequest().sentAt(0).endAt(Records.ms(10)).failed(FailureKind.HTTP_STATUS)),
                2_000_000_000L, MetricOptions.defaults());
        SummaryFile.of(run, new LoadPoint(2, Double.POSITIVE_INFINITY, 1.0), measured,
                new ClientUsage(0, 1, 0, 0, 0, IoTransport.NIO), new PointContext(new SuccessShare(2, 1, 0, 0.99), Optional.empty(),
                        new ConnectionCounts(0, 0, 0, 0), List.of(), List.of()), Optional.empty())
                .write(dir.resolve("c2.summary.json"));

        RunSummary s = RunSummary.find(dir).orElseThrow();

        assertThat(s).isEqualTo(new RunSummary(1.0, 1, 1, 2.0, 0.0, false));
        assertThat(RunSummary.find(dir.resolve("absent"))).isEmpty();
    }
}
