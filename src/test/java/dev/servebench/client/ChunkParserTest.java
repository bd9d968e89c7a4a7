package dev.servebench.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ChunkParserTest {

    private final ParsedChunk out = new ParsedChunk();

    private ParsedChunk parse(ChunkParser parser, String json) throws ChunkFormatException {
        byte[] bytes = ("xx" + json + "yy").getBytes(StandardCharsets.UTF_8);
        parser.parse(bytes, 2, bytes.length - 4, out);
        return out;
    }

    @Test
    void completionsTextChunkIsOneToken() throws Exception {
        ParsedChunk chunk = parse(new CompletionsChunkParser(), """
                {"id":"c","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":" hi","logprobs":null,"finish_reason":null}]}""");
        assertThat(chunk.kind()).isEqualTo(ParsedChunk.Kind.CHOICES);
        assertThat(chunk.tokens()).isEqualTo(1);
        assertThat(chunk.hasUsage()).isFalse();
    }

    @Test
    void completionsEmptyTextIsChoiceBearingWithoutTokens() throws Exception {
        ParsedChunk chunk = parse(new CompletionsChunkParser(), "{\"choices\":[{\"index\":0,\"text\":\"\"}]}");
        assertThat(chunk.kind()).isEqualTo(ParsedChunk.Kind.CHOICES);
        assertThat(chunk.tokens()).isZero();
    }

    @Test
    void usageOnlyChunkIsMetadataWithUsage() throws Exception {
        ParsedChunk chunk = parse(new CompletionsChunkParser(), """
                {"id":"c","choices":[],"usage":{"prompt_tokens":128,"completion_tokens":64,"total_tokens":192}}""");
        assertThat(chunk.kind()).isEqualTo(ParsedChunk.Kind.METADATA);
        assertThat(chunk.usagePromptTokens()).isEqualTo(128);
        assertThat(chunk.usageCompletionTokens()).isEqualTo(64);
    }

    @Test
    void nullUsageIsNoUsage() throws Exception {
        ParsedChunk chunk = parse(new CompletionsChunkParser(), "{\"choices\":[{\"text\":\"a\"}],\"usage\":null}");
        assertThat(chunk.hasUsage()).isFalse();
        assertThat(chunk.tokens()).isEqualTo(1);
    }

    @Test
    void doneSentinel() throws Exception {
        assertThat(parse(new ChatChunkParser(), "[DONE]").kind()).isEqualTo(ParsedChunk.Kind.DONE);
    }

    @Test
    void chatRoleChunkHasNoTokensAndReasoningCounts() throws Exception {
        ChatChunkParser parser = new ChatChunkParser();
        assertThat(parse(parser, "{\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}").tokens()).isZero();
        assertThat(out.kind()).isEqualTo(ParsedChunk.Kind.CHOICES);
        assertThat(parse(parser, "{\"choices\":[{\"delta\":{\"reasoning_content\":\"hmm\"}}]}").tokens()).isEqualTo(1);
        assertThat(parse(parser, "{\"choices\":[{\"delta\":{\"content\":\"x\"},\"finish_reason\":null}]}").tokens()).isEqualTo(1);
    }

    @Test
    void generateCountsTokensFromCompletionTokensGrowth() throws Exception {
        GenerateChunkParser parser = new GenerateChunkParser();
        assertThat(parse(parser, "{\"text\":\"a\",\"meta_info\":{\"prompt_tokens\":5,\"completion_tokens\":1}}").tokens()).isEqualTo(1);
        assertThat(parse(parser, "{\"text\":\"a b c\",\"meta_info\":{\"prompt_tokens\":5,\"completion_tokens\":3}}").tokens()).isEqualTo(2);
        assertThat(parse(parser, "{\"text\":\"a b c\",\"meta_info\":{\"prompt_tokens\":5,\"completion_tokens\":3}}").tokens()).isZero();
        assertThat(out.usageCompletionTokens()).isEqualTo(3);
        assertThat(out.usagePromptTokens()).isEqualTo(5);
    }

    @Test
    void errorObjectInStream() throws Exception {
        ParsedChunk chunk = parse(new CompletionsChunkParser(),
                "{\"error\":{\"message\":\"out of memory\",\"type\":\"InternalServerError\",\"code\":500}}");
        assertThat(chunk.kind()).isEqualTo(ParsedChunk.Kind.ERROR);
        assertThat(chunk.errorMessage()).isEqualTo("InternalServerError: out of memory");
    }

    @Test
    void invalidJsonIsAFormatErrorWithPreview() {
        assertThatThrownBy(() -> parse(new CompletionsChunkParser(), "{\"choices\":[{\"text\":\"a\"}"))
                .isInstanceOf(ChunkFormatException.class)
                .hasMessageContaining("invalid JSON")
                .hasMessageContaining("{\"choices\"");
        assertThatThrownBy(() -> parse(new CompletionsChunkParser(), "[1,2]"))
                .isInstanceOf(ChunkFormatException.class)
                .hasMessageContaining("expected a JSON object");
        assertThatThrownBy(() -> parse(new CompletionsChunkParser(), "{\"a\":1} {\"b\":2}"))
                .isInstanceOf(ChunkFormatException.class)
                .hasMessageContaining("trailing content");
    }
}
