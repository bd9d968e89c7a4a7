package dev.servebench.bench;

import dev.servebench.record.ChunkTimeline;
import dev.servebench.record.FailureKind;
import dev.servebench.record.Outcome;
import dev.servebench.record.RecordJsonl;
import dev.servebench.record.RequestRecord;
import dev.servebench.record.Usage;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Records JSONL throughput: writes N records (default 1,000,000) as the records thread does (one line each
 * through a buffered writer) and reads the file back, several rounds, printing seconds per pass. Run with
 * {@code ./mvnw -Pclient-bench package -Dservebench.bench.main=dev.servebench.bench.RecordJsonlBenchmark}
 * (arguments: records, rounds). Every record has 16 chunks, 1 in 50 fails.
 */
public final class RecordJsonlBenchmark {

    private RecordJsonlBenchmark() {
    }

    public static void main(String[] args) throws IOException {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path file = Files.createTempFile("servebench-records", ".jsonl");
        try {
            for (int round = 1; round <= rounds; round++) {
                double write = write(file, records, RecordJsonl::toLine);
                long start = System.nanoTime();
                List<RequestRecord> read = RecordJsonl.read(file);
                double seconds = (System.nanoTime() - start) / 1e9;
                if (read.size() != records) {
                    throw new IllegalStateException("read " + read.size() + " of " + records + " records");
                }
                System.out.printf(Locale.ROOT, "round %d: write %.2f s, read %.2f s (%d records, %d MB)%n", round,
                        write, seconds, records, Files.size(file) >> 20);
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Seconds to write {@code count} records with {@code encoder}, one line each, as RecordSink does. */
    static double write(Path file, int count, Function<RequestRecord, String> encoder) throws IOException {
        long start = System.nanoTime();
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < count; i++) {
                out.write(encoder.apply(record(i)));
                out.write('\n');
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }

    static RequestRecord record(int index) {
        long sent = 1_000_000L * index;
        long[] nanos = new long[16];
        int[] tokens = new int[16];
        for (int c = 0; c < nanos.length; c++) {
            nanos[c] = sent + 20_000_000L + c * 7_000_123L + index % 997;
            tokens[c] = c == 0 ? 0 : 1 + (c + index) % 2;
        }
        int output = 0;
        for (int t : tokens) {
            output += t;
        }
        Outcome outcome = index % 50 == 49
                ? new Outcome.Failure(FailureKind.HTTP_STATUS, "HTTP 503: {\"error\":\"overloaded\"}", 503)
                : Outcome.SUCCESS;
        return new RequestRecord(index, 512 + index % 64, 128, sent, sent + 1_000, sent + 2_000,
                nanos[nanos.length - 1] + 1_000_000, ChunkTimeline.of(nanos, tokens),
                Optional.of(new Usage(512 + index % 64, output)), outcome);
    }
}
