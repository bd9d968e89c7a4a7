package dev.servebench.server.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.server.embedded.RecordingSink.End;
import dev.servebench.server.embedded.TokenSink.FinishReason;
import dev.servebench.gguf.ModelCache;
import dev.servebench.gguf.SpmVocabulary;
import dev.servebench.workload.HfTokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Generation through the real native engine: 16 slots of 256 tokens on the generated Q4_0 model. */
class LlamaEngineTest {

    private static final int SLOTS = 16;
    private static final int CONTEXT = 256;
    private static final List<String> PIECES = SpmVocabulary.build(2048).pieces();
    private static LlamaEngine engine;
    private final AtomicLong clock = new AtomicLong();

    @BeforeAll
    static void start() {
        engine = TestModels.start(SLOTS, CONTEXT);
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    private RecordingSink submit(GenerationRequest request) {
        RecordingSink sink = new RecordingSink(clock);
        engine.submit(request, sink);
        return sink;
    }

    private static String decode(List<Integer> ids) {
        StringBuilder text = new StringBuilder();
        ids.forEach(id -> text.append(PIECES.get(id).replace(SpmVocabulary.SPACE, " ")));
        return text.toString();
    }

    @Test
    void ignoreEosGivesExactlyMaxTokensEachWithItsIdAndText() throws Exception {
        RecordingSink sink = submit(TestModels.exact(TestModels.prompt(20, 1), 40));

        assertThat(sink.awaitEnd()).isEqualTo(new End.Completed(FinishReason.LENGTH, 21, 40));
        assertThat(sink.ids()).hasSize(40).allSatisfy(id -> assertThat(id).isBetween(259, 2047));
        assertThat(sink.text()).as("text of the reported ids").isEqualTo(decode(sink.ids()));
        assertThat(sink.threads()).containsOnly("llama-dispatcher");
        assertThat(engine.info()).isEqualTo(new EngineInfo("tiny-moe-q4_0", SLOTS, CONTEXT, 2048));
    }

    @Test
    void sixteenConcurrentGenerationsInterleaveWithLittleSystemTime() throws Exception {
        ProcessStats before = ProcessStats.sample();
        long started = System.nanoTime();
        List<RecordingSink> sinks = new ArrayList<>();
        for (int i = 0; i < SLOTS; i++) {
            sinks.add(submit(TestModels.exact(TestModels.prompt(64, 100 + i), 48)));
        }
        for (RecordingSink sink : sinks) {
            assertThat(sink.awaitEnd()).isEqualTo(new End.Completed(FinishReason.LENGTH, 65, 48));
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        ProcessStats used = ProcessStats.sample().minus(before);

        long lastFirstToken = sinks.stream().mapToLong(RecordingSink::firstTokenAt).max().orElseThrow();
        long firstEnd = sinks.stream().mapToLong(RecordingSink::endAt).min().orElseThrow();
        assertThat(lastFirstToken).as("every stream had its first token before any stream ended").isLessThan(firstEnd);
        System.out.printf(Locale.ROOT, "16 streams x 48 tokens: %.2f s, %.0f tok/s, CPU user %.2f s, system %.2f s (system/total %.2f)%n",
                seconds, SLOTS * 48 / seconds, used.userSeconds(), used.systemSeconds(),
                used.systemSeconds() / (used.userSeconds() + used.systemSeconds()));
        // Thread-per-stream receiving showed ~50 % system time from futex spinning; one dispatcher must not.
        assertThat(used.systemSeconds()).isLessThan(0.3 * (used.userSeconds() + used.systemSeconds()));
    }

    @Test
    void requestsBeyondTheSlotsWaitInTheQueueAndAllComplete() throws Exception {
        long finishedBefore = engine.stats().requestsFinishedTotal();
        List<RecordingSink> sinks = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            sinks.add(submit(TestModels.exact(TestModels.prompt(16, 200 + i), 8)));
        }
        EngineStats queued = engine.stats();
        assertThat(queued.waiting()).as("not all 40 fit in 16 slots").isPositive();
        assertThat(queued.running()).isLessThanOrEqualTo(SLOTS);

        for (RecordingSink sink : sinks) {
            assertThat(sink.awaitEnd()).isEqualTo(new End.Completed(FinishReason.LENGTH, 17, 8));
        }
        EngineStats after = engine.stats();
        assertThat(after.requestsFinishedTotal() - finishedBefore).isEqualTo(40);
        assertThat(after.running()).isZero();
        assertThat(after.waiting()).isZero();
    }

    @Test
    void statsCountPromptAndGeneratedTokens() throws Exception {
        EngineStats before = engine.stats();
        submit(TestModels.exact(TestModels.prompt(10, 300), 5)).awaitEnd();
        submit(TestModels.exact(TestModels.prompt(30, 301), 7)).awaitEnd();
        EngineStats after = engine.stats();

        assertThat(after.promptTokensTotal() - before.promptTokensTotal()).isEqualTo(11 + 31);
        assertThat(after.generationTokensTotal() - before.generationTokensTotal()).isEqualTo(12);
        assertThat(after.requestsFinishedTotal() - before.requestsFinishedTotal()).isEqualTo(2);
    }

    @Test
    void withoutIgnoreEosTheReasonMatchesTheLastToken() throws Exception {
        List<RecordingSink> sinks = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            sinks.add(submit(new GenerationRequest(TestModels.prompt(8, 400 + i), 32, 0, false, 1.0, Optional.of((long) i))));
        }
        for (RecordingSink sink : sinks) {
            End.Completed end = (End.Completed) sink.awaitEnd();
            List<Integer> ids = sink.ids();
            assertThat(end.completionTokens()).isEqualTo(ids.size()).isBetween(1, 32);
            boolean eos = ids.getLast() == SpmVocabulary.EOS;
            assertThat(end.reason()).isEqualTo(eos ? FinishReason.STOP : FinishReason.LENGTH);
        }
    }

    @Test
    void minTokensEqualToMaxTokensGivesExactlyThatMany() throws Exception {
        RecordingSink sink = submit(new GenerationRequest(TestModels.prompt(8, 500), 20, 20, false, 1.0, Optional.empty()));

        assertThat(sink.awaitEnd()).isEqualTo(new End.Completed(FinishReason.LENGTH, 9, 20));
    }

    @Test
    void submitRejectsRequestsThatDoNotFitTheSlotContext() {
        assertThatThrownBy(() -> engine.submit(TestModels.exact(TestModels.prompt(200, 0), 56), new RecordingSink(clock)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("prompt (200 tokens) + max_tokens (56) + 1 (BOS) = 257 exceeds the context per slot (256)");
        assertThatThrownBy(() -> engine.submit(TestModels.exact(new int[0], 5), new RecordingSink(clock)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("prompt must hold at least 1 token");
        assertThatThrownBy(() -> engine.submit(TestModels.exact(new int[] {5, 2048}, 5), new RecordingSink(clock)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("prompt token id (2048)");
        assertThat(engine.stats().waiting()).isZero();
    }

    @Test
    void theLargestRequestThatFitsRuns() throws Exception {
        RecordingSink sink = submit(TestModels.exact(TestModels.prompt(200, 700), 55));

        assertThat(sink.awaitEnd()).isEqualTo(new End.Completed(FinishReason.LENGTH, 201, 55));
    }

    @Test
    void tokenizeAddsNoBosAndRoundTrips() {
        int[] ids = engine.tokenize("hello world, kabo!");

        assertThat(ids).isNotEmpty().doesNotContain(SpmVocabulary.BOS);
        List<Integer> list = java.util.Arrays.stream(ids).boxed().toList();
        assertThat(decode(list)).isEqualTo(" hello world, kabo!");
    }

    @Test
    void theGeneratedTokenizerJsonGivesTheEnginesIdsOnEveryText() throws Exception {
        try (HfTokenizer tokenizer = HfTokenizer.load(ModelCache.tokenizerFile(TestModels.q4_0()))) {
            List<String> texts = TokenizerTexts.all(500);
            int agreed = 0;
            for (String text : texts) {
                long[] hf = tokenizer.encodePrompt(text);
                int[] engineIds = engine.tokenize(text);
                assertThat(hf[0]).as("BOS first").isEqualTo(SpmVocabulary.BOS);
                assertThat(java.util.Arrays.stream(hf).skip(1).mapToInt(Math::toIntExact).toArray())
                        .as("ids of %s", text.replace("\n", "\\n")).containsExactly(engineIds);
                assertThat(tokenizer.countPrompt(text)).isEqualTo(engineIds.length + 1);
                agreed++;
            }
            assertThat(agreed).isGreaterThan(500);
        }
    }
}
