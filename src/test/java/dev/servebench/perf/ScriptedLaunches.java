package dev.servebench.perf;

import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.SpecReader;
import dev.servebench.testserver.Plan;
import dev.servebench.testserver.Script;
import dev.servebench.testserver.ScriptedServer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Launchers that start a scripted server each time a comparison starts a side, and what the servers saw: the
 * starts and stops in order ("start A 3", "stop A 3"), how many were up at once, and the requests each served.
 */
final class ScriptedLaunches {

    final AtomicInteger up = new AtomicInteger();
    final AtomicInteger mostUpAtOnce = new AtomicInteger();
    final List<String> events = Collections.synchronizedList(new ArrayList<>());
    /** Requests each server served, by "side round-it-was-started-for", recorded when it stops. */
    final Map<String, Long> served = Collections.synchronizedMap(new LinkedHashMap<>());

    /** Two load points, three prompts of 4 tokens each: a round takes well under a second. */
    static final PerformanceSpec SPEC = SpecReader.parse("""
            name: launches
            target: {kind: url, url: http://127.0.0.1:1, backend: openai}
            workload: {dataset: random, input_len: 16, output_len: 4, range_ratio: 1.0, prompts: 3}
            sweep: {concurrency: [1, 2]}
            warmup: 1
            """, "launches.yaml");

    private final Path directory;

    ScriptedLaunches(Path directory) {
        this.directory = directory;
    }

    /** Starts a scripted server for each start, except for the rounds in {@code failingRounds}, where it throws. */
    AlternatingRounds.Launcher launcher(String side, Set<Integer> failingRounds) {
        return new AlternatingRounds.Launcher() {
            @Override
            public String target() {
                return "scripted " + side;
            }

            @Override
            public AlternatingRounds.Started start(int round) throws IOException {
                if (failingRounds.contains(round)) {
                    throw new IOException("port already taken");
                }
                events.add("start " + side + " " + round);
                mostUpAtOnce.accumulateAndGet(up.incrementAndGet(), Math::max);
                ScriptedServer server = ScriptedServer.start(Script.of(Plan.builder().ttft(Duration.ofMillis(5))
                        .gap(Duration.ofMillis(1)).build()));
                SpecRunner runner = new SpecRunner(SPEC, server.baseUri(), Optional.empty(), Optional.empty(),
                        SpecRunner.Vocabulary.DEFAULT, directory.resolve(side), "url");
                return new AlternatingRounds.Started(new CompareRun.Side(side, runner, "scripted " + side
                        + " (its first start)"), () -> {
                    served.put(side + " " + round, server.requestCount());
                    server.close();
                    up.decrementAndGet();
                    events.add("stop " + side + " " + round);
                });
            }
        };
    }
}
