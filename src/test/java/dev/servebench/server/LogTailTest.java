package dev.servebench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogTailTest {

    @Test
    void keepsTheLastLinesAndWritesEveryLineToTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("logs/server.log");
        try (LogTail tail = LogTail.toFile(file, 3)) {
            tail.append("one\ntwo\r\nthr");
            tail.append("ee\nfour\nfive");

            assertThat(tail.lastLines(10)).isEqualTo("two\nthree\nfour\nfive");   // capacity 3 + the open fragment
            assertThat(tail.lastLines(2)).isEqualTo("four\nfive");
            assertThat(tail.lastLines(0)).isEmpty();
            assertThat(tail.totalLines()).isEqualTo(4);
        }
        assertThat(Files.readAllLines(file, StandardCharsets.UTF_8)).containsExactly("one", "two", "three", "four", "five");
    }

    @Test
    void aLoneCarriageReturnEndsALineSoProgressBarsDoNotPileUp() {
        LogTail tail = LogTail.inMemory(10);
        tail.append("Loading 10%\rLoading 50%\r");
        tail.append("\nLoading 100%\r\ndone\n");

        assertThat(tail.lastLines(10)).isEqualTo("Loading 10%\nLoading 50%\nLoading 100%\ndone");
    }

    @Test
    void overlongLinesAreCutInMemory() {
        LogTail tail = LogTail.inMemory(10);
        tail.appendLine("x".repeat(LogTail.MAX_LINE_CHARS + 100));

        assertThat(tail.lastLines(1)).hasSize(LogTail.MAX_LINE_CHARS + 1).endsWith("…");
    }

    @Test
    void errorExcerptSaysWhereTheWholeLogIs(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("server.log");
        try (LogTail tail = LogTail.toFile(file, 100)) {
            assertThat(tail.excerptForError(5)).isEqualTo("(no log output in " + file + ")");
            tail.append("a\nb\nc\n");
            assertThat(tail.excerptForError(2)).isEqualTo("last 2 log lines of " + file + ":\nb\nc");
        }
    }
}
