package dev.servebench.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The generated text a parser keeps for retokenization is SGLang's {@code generated_text} on each endpoint, the
 * same on the scanner path and on Jackson's, and nothing at all unless asked.
 */
class OutputTextTest {

    /** Feeds {@code events} to a text-keeping parser, each through the scanner or, with {@code jackson}, Jackson only. */
    private static String kept(Supplier<ChunkParser> kind, boolean jackson, String... events) throws Exception {
        ChunkParser parser = kind.get();
        parser.keepOutputText();
        ParsedChunk out = new ParsedChunk();
        for (String event : events) {
            byte[] bytes = event.getBytes(StandardCharsets.UTF_8);
            if (jackson) {
                parser.parseWithJackson(bytes, 0, bytes.length, out);
            } else {
                parser.parse(bytes, 0, bytes.length, out);
            }
        }
        return parser.takeOutputText();
    }

    /** Both paths, which must agree; the scanner must really have taken the events it can. */
    private static String both(Supplier<ChunkParser> kind, String... events) throws Exception {
        String reference = kept(kind, true, events);
        assertThat(kept(kind, false, events)).isEqualTo(reference);
        return reference;
    }

    @Test
    void completionsAppendTheFirstChoicesTextOfEveryEvent() throws Exception {
        assertThat(both(CompletionsChunkParser::new,
                "{\"choices\":[{\"index\":0,\"text\":\"Hello\"}]}",
                "{\"choices\":[{\"index\":0,\"text\":\"\"}]}",
                "{\"choices\":[{\"index\":0,\"text\":\", w\\u00f6rld\\n\\\"x\\\"\"},{\"index\":1,\"text\":\"other\"}]}",
                "{\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":3}}",
                "[DONE]"))
                .isEqualTo("Hello, wörld\n\"x\"");
    }

    @Test
    void chatKeepsReasoningThenContentAndNeverBothReasoningAliases() throws Exception {
        assertThat(both(ChatChunkParser::new,
                "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}",
                "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"B\",\"reasoning_content\":\"A\",\"reasoning\":\"dup\"}}]}",
                "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\"C\",\"content\":null}}]}",
                "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\\ud83d\\ude00 \\u65e5\"}}]}",
                "[DONE]"))
                .isEqualTo("ABC\ud83d\ude00 日");
    }

    @Test
    void generateKeepsTheLastNonEmptyCumulativeText() throws Exception {
        assertThat(both(GenerateChunkParser::new,
                "{\"text\":\" t0\",\"meta_info\":{\"completion_tokens\":1}}",
                "{\"text\":\" t0 t1\",\"meta_info\":{\"completion_tokens\":2}}",
                "{\"text\":\"\",\"meta_info\":{\"completion_tokens\":2}}",
                "[DONE]"))
                .isEqualTo(" t0 t1");
    }

    @Test
    void rawUtf8AndEscapesDecodeAsJacksonDoes() throws Exception {
        for (String text : List.of("plain", "日本語", "\ud83d\ude00", "tab\\tnew\\nline", "\\u00e9\\/\\\\", "\\uD800")) {
            both(CompletionsChunkParser::new, "{\"choices\":[{\"text\":\"" + text + "\"}]}");
        }
        assertThat(both(CompletionsChunkParser::new, "{\"choices\":[{\"text\":\"\\uD800\"}]}")).isEqualTo("\uD800");
    }

    @Test
    void anEventTheScannerAbandonsCountsOnce() throws Exception {
        // The escaped key sends the event to Jackson after the scanner has read its text.
        String event = "{\"choices\":[{\"text\":\"once\"}],\"te\\u0078t\":1}";
        ChunkParser parser = new CompletionsChunkParser();
        parser.keepOutputText();
        byte[] bytes = event.getBytes(StandardCharsets.UTF_8);
        parser.parse(bytes, 0, bytes.length, new ParsedChunk());
        assertThat(parser.jacksonFallbacks).isOne();
        assertThat(parser.takeOutputText()).isEqualTo("once");
    }

    @Test
    void errorEventsKeepNoText() throws Exception {
        ChunkParser parser = new CompletionsChunkParser();
        parser.keepOutputText();
        byte[] bytes = "{\"choices\":[{\"text\":\"x\"}],\"error\":\"boom\"}".getBytes(StandardCharsets.UTF_8);
        parser.parse(bytes, 0, bytes.length, new ParsedChunk());
        assertThat(parser.takeOutputText()).isEmpty();
    }

    @Test
    void withoutAskingNothingIsKeptAndTakingEndsKeeping() throws Exception {
        ChunkParser plain = new ChatChunkParser();
        byte[] event = ChunkParserTestData.chat(3);
        plain.parse(event, 0, event.length, new ParsedChunk());
        assertThat(plain.takeOutputText()).isNull();

        ChunkParser keeping = new ChatChunkParser();
        keeping.keepOutputText();
        keeping.parse(event, 0, event.length, new ParsedChunk());
        assertThat(keeping.takeOutputText()).isEqualTo(" t3");
        keeping.parse(event, 0, event.length, new ParsedChunk());
        assertThat(keeping.takeOutputText()).as("buffer dropped with the first take").isNull();
    }
}
