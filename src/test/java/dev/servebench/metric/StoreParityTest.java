package dev.servebench.metric;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.record.RecordStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The store-based calculator against the List-based one it replaced: store-parity-golden.txt holds, for
 * each {@link MessyLoad} seed, every metric's raw bits as the pre-store calculator computed them. Each
 * seed is recomputed from an in-memory store, from a store that spills nearly every event (tiny chunks, no
 * heap budget), and with selection limits that force the radix and gather paths on these small lists.
 * A metric defined after the golden was written is held to the List-based calculator of today instead, so
 * adding a metric does not mean touching the golden.
 */
class StoreParityTest {

    private static final int SEEDS = 60;

    @TempDir
    Path spill;

    static Stream<Arguments> variants() {
        List<Arguments> variants = new ArrayList<>();
        for (long seed = 0; seed < SEEDS; seed++) {
            variants.add(Arguments.of(seed, "list", RankSelect.Limits.DEFAULT));
            variants.add(Arguments.of(seed, "spilled", RankSelect.Limits.DEFAULT));
            variants.add(Arguments.of(seed, "spilled", new RankSelect.Limits(0, 0)));
            variants.add(Arguments.of(seed, "in-memory", new RankSelect.Limits(3, 40)));
        }
        return variants.stream();
    }

    @ParameterizedTest(name = "seed {0}, {1} store, {2}")
    @MethodSource("variants")
    void everyValueIsBitIdenticalToTheListBasedCalculator(long seed, String storage, RankSelect.Limits limits)
            throws IOException {
        MessyLoad load = MessyLoad.generate(seed);
        List<String> expected = golden(seed);
        ServingSummary summary;
        long[] timeline;
        if (storage.equals("list")) {
            summary = SummaryCalculator.compute(load.records(), load.durationNanos(), load.options());
            timeline = TokenTimeline.tokenEventsPerSecond(load.records());
        } else {
            boolean spilled = storage.equals("spilled");
            try (RecordStore store = RecordStore.of(load.records(), spilled ? 0 : RecordStore.DEFAULT_EVENT_HEAP_BUDGET,
                    spill, spilled ? 5 : 8192)) {
                if (spilled && store.eventCount() > 10) {
                    assertThat(store.spilledBytes()).as("spilled bytes").isPositive();
                }
                summary = SummaryCalculator.compute(store, load.durationNanos(), load.options(), limits);
                timeline = TokenTimeline.tokenEventsPerSecond(store);
            }
        }
        List<String> actual = new ArrayList<>(MessyLoad.fingerprint(seed, summary));
        actual.add(MessyLoad.timelineFingerprint(seed, timeline));
        Map<String, String> golden = byKey(expected);
        assertThat(byKey(actual).keySet()).as("every golden line is still computed").containsAll(golden.keySet());
        // A metric defined after the golden was written has no golden line: it must match the List-based path.
        Map<String, String> listBased = storage.equals("list") ? Map.of() : byKey(MessyLoad.fingerprint(seed,
                SummaryCalculator.compute(load.records(), load.durationNanos(), load.options())));
        for (String line : actual) {
            String key = line.split(" ")[1];
            if (golden.containsKey(key)) {
                assertThat(line).isEqualTo(golden.get(key));
            } else {
                assertThat(MetricId.byId(key)).as("a line without golden must be a metric's: " + line).isPresent();
                assertThat(line).isEqualTo(listBased.getOrDefault(key, line));
            }
        }
        try (Stream<Path> left = Files.list(spill)) {
            assertThat(left).as("spill files after close").isEmpty();
        }
    }

    private static List<String> golden(long seed) throws IOException {
        try (InputStream in = StoreParityTest.class.getResourceAsStream("store-parity-golden.txt")) {
            assertThat(in).isNotNull();
            List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> l.startsWith(seed + " ")).toList();
            assertThat(lines).as("golden lines of seed " + seed).hasSizeGreaterThan(60);
            return lines;
        }
    }

    /** Lines by what they fingerprint (a metric id, "requests", "timeline"). */
    private static Map<String, String> byKey(List<String> lines) {
        return lines.stream().collect(Collectors.toMap(line -> line.split(" ")[1], line -> line));
    }
}
