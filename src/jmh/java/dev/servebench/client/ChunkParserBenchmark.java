package dev.servebench.client;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Per-event cost of {@link ChunkParser}: the Jackson reference against the scanner path, on vLLM-shaped
 * completions, chat and usage-only events. Events rotate through a few token texts so that the branch
 * predictor cannot memorise a single byte string. The 4 M events/s goal is 250 ns/op.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
public class ChunkParserBenchmark {

    private static final int VARIANTS = 16;

    @Param({"completion", "chat", "usage"})
    public String shape;

    private byte[][] events;
    private ChunkParser parser;
    private final ParsedChunk out = new ParsedChunk();
    private int next;

    @Setup
    public void setUp() {
        events = new byte[VARIANTS][];
        for (int i = 0; i < VARIANTS; i++) {
            events[i] = switch (shape) {
                case "completion" -> ChunkParserTestData.completion(i * 37);
                case "chat" -> ChunkParserTestData.chat(i * 37);
                case "usage" -> ChunkParserTestData.usage(i * 37);
                default -> throw new IllegalArgumentException(shape);
            };
        }
        parser = shape.equals("chat") ? new ChatChunkParser() : new CompletionsChunkParser();
    }

    @Benchmark
    public int jackson() throws ChunkFormatException {
        byte[] event = nextEvent();
        parser.parseWithJackson(event, 0, event.length, out);
        return out.tokens + out.usageCompletionTokens;
    }

    @Benchmark
    public int scanner() throws ChunkFormatException {
        byte[] event = nextEvent();
        parser.parse(event, 0, event.length, out);
        return out.tokens + out.usageCompletionTokens;
    }

    private byte[] nextEvent() {
        next = (next + 1) & (VARIANTS - 1);
        return events[next];
    }
}
