package dev.servebench.server.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.gguf.SpmVocabulary;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Texts on which the embedded model's tokenizer.json must give llama.cpp's ids: the ShareGPT sample, edge
 * cases of the SPM rules (prefix space, runs of spaces, control-token text, bytes) and random mixtures of
 * vocabulary chains, English words, punctuation, digits, whitespace and non-ASCII characters.
 */
final class TokenizerTexts {

    private static final List<String> EDGES = List.of("", " ", "  ", "a", " a", "a ", "hello  world", "\n", "\t x",
            "<s>", "</s>", "<unk>", "a<s>b", "<s> x", "x </s>", "<0x41>", "▁kabo", "kabokabo", "ÄÖÜ ß", "中文 测试",
            "emoji 😀 mix", "tab\tnew\nline\r\n", "  leading and trailing  ", "1234567890", "!!!???...", "a-b_c/d");
    private static final List<String> FRAGMENTS = List.of("the", "of", "and", "kabo", "tirun", "ze", "ma", "s", "<s>",
            "</s>", "<unk>", "é", "中", "😀", "\n", "\t", "  ", ",", ".", "!", "'", "\"", "42", "x7", "<0x0A>", "▁");

    private TokenizerTexts() {
    }

    static List<String> all(int randomCount) throws IOException {
        List<String> texts = new ArrayList<>(EDGES);
        for (JsonNode conversation : new ObjectMapper().readTree(Path.of("fixtures", "sharegpt-sample.json").toFile())) {
            for (JsonNode turn : conversation.get("conversations")) {
                texts.add(turn.get("value").asText());
            }
        }
        List<String> pieces = SpmVocabulary.build(2048).pieces();
        SplittableRandom random = new SplittableRandom(14);
        for (int t = 0; t < randomCount; t++) {
            StringBuilder text = new StringBuilder();
            int parts = 1 + random.nextInt(40);
            for (int p = 0; p < parts; p++) {
                if (random.nextInt(3) == 0) {
                    text.append(' ');
                }
                if (random.nextBoolean()) {
                    String piece = pieces.get(SpmVocabulary.FIRST_BYTE + 256 + random.nextInt(pieces.size() - 259));
                    text.append(piece.replace(SpmVocabulary.SPACE, random.nextBoolean() ? " " : ""));
                } else {
                    text.append(FRAGMENTS.get(random.nextInt(FRAGMENTS.size())));
                }
            }
            texts.add(text.toString());
        }
        return texts;
    }
}
