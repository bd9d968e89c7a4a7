package dev.servebench.client.sse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SseDecoderTest {

    private final List<String> events = new ArrayList<>();
    private int comments;
    private final SseDecoder decoder = new SseDecoder(new SseListener() {
        @Override
        public void onData(byte[] buffer, int offset, int length) {
            events.add(new String(buffer, offset, length, StandardCharsets.UTF_8));
        }

        @Override
        public void onComment() {
            comments++;
        }
    }, 64);

    private void feed(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        decoder.feed(bytes, 0, bytes.length);
    }

    @Test
    void dispatchesOneEventPerBlankLine() {
        feed("data: {\"a\":1}\n\ndata: {\"a\":2}\n\ndata: [DONE]\n\n");
        assertThat(events).containsExactly("{\"a\":1}", "{\"a\":2}", "[DONE]");
    }

    @Test
    void holdsAnEventUntilItsBlankLineArrives() {
        feed("data: {\"a\":1}\n");
        assertThat(events).isEmpty();
        feed("\n");
        assertThat(events).containsExactly("{\"a\":1}");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 7, 13, 64})
    void sameEventsWhateverTheReadBoundaries(int step) {
        String stream = ": ping\r\n\r\ndata: {\"x\":\"é\"}\r\n\r\ndata:{\"y\":2}\r\rdata: [DONE]\n\n";
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i += step) {
            decoder.feed(bytes, i, Math.min(step, bytes.length - i));
        }
        assertThat(events).containsExactly("{\"x\":\"é\"}", "{\"y\":2}", "[DONE]");
        assertThat(comments).isEqualTo(1);
    }

    @Test
    void crAtTheEndOfOneReadAndLfAtTheStartOfTheNextAreOneLineEnd() {
        feed("data: a\r");
        feed("\n\r");
        feed("\n");
        assertThat(events).containsExactly("a");
    }

    @Test
    void joinsMultipleDataLinesWithNewline() {
        feed("data: {\"a\":\ndata: 1}\n\n");
        assertThat(events).containsExactly("{\"a\":\n1}");
    }

    @Test
    void ignoresOtherFieldsAndTreatsDataWithoutSpaceOrColonCorrectly() {
        feed("event: message\nid: 7\nretry: 10\ndata\n\ndata:x\n\ndatum: y\n\n");
        assertThat(events).containsExactly("", "x");
    }

    @Test
    void finishDispatchesATrailingEventWithoutBlankLine() {
        feed("data: [DONE]");
        assertThat(events).isEmpty();
        decoder.finish();
        assertThat(events).containsExactly("[DONE]");
    }

    @Test
    void commentsAreNotEvents() {
        feed(": keep-alive\n\n:\n\ndata: z\n\n");
        assertThat(events).containsExactly("z");
        assertThat(comments).isEqualTo(2);
    }

    @Test
    void largeEventsSurviveBufferGrowthAndCompaction() {
        StringBuilder expected = new StringBuilder();
        Random random = new Random(7);
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            String payload = "x".repeat(random.nextInt(500)) + i;
            sent.add(payload);
            expected.append("data: ").append(payload).append("\n\n");
        }
        byte[] bytes = expected.toString().getBytes(StandardCharsets.UTF_8);
        int i = 0;
        while (i < bytes.length) {
            int n = Math.min(bytes.length - i, 1 + random.nextInt(300));
            decoder.feed(bytes, i, n);
            i += n;
        }
        assertThat(events).containsExactlyElementsOf(sent);
        assertThat(decoder.pendingBytes()).isZero();
    }

    @Test
    void reserveAndCommitDecodeLikeFeed() {
        byte[] chunk = "data: q\n\n".getBytes(StandardCharsets.US_ASCII);
        byte[] target = decoder.reserve(chunk.length);
        System.arraycopy(chunk, 0, target, decoder.writeOffset(), chunk.length);
        decoder.commit(chunk.length);
        assertThat(events).containsExactly("q");
    }
}
