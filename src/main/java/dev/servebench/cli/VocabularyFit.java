package dev.servebench.cli;

import java.util.List;
import java.util.OptionalInt;

/**
 * Which token ids random prompts are drawn from. Ids beyond the model's vocabulary make every request fail
 * (a 400 from most servers), so the range comes from the server where it states its vocabulary size, and
 * where it does not, the summary says which range was assumed and how to change it.
 */
final class VocabularyFit {

    private VocabularyFit() {}

    /**
     * Returns {@code settings} with a token-id range that fits {@code vocabSize} when the server stated one
     * and the range was not given on the command line; adds one line to {@code notes} saying where the range
     * came from.
     */
    static RunSettings resolve(RunSettings settings, OptionalInt vocabSize, List<String> notes) {
        if (!settings.tokenIdPrompts()) {
            return settings;
        }
        int base = settings.tokenIdBase();
        int end = base + settings.vocabSpan();
        if (settings.guards().vocabularyGiven()) {
            notes.add("random prompt token ids drawn from [" + base + ", " + end + ") as given"
                    + vocabSize.stream().mapToObj(v -> end > v ? "; the server's vocabulary has only " + v
                            + " ids: expect every request to be rejected" : "").findFirst().orElse(""));
            return settings;
        }
        if (vocabSize.isEmpty()) {
            notes.add("random prompt token ids drawn from [" + base + ", " + end + "): assumed, the server did not"
                    + " state its vocabulary size; a model with a smaller vocabulary rejects them"
                    + " (set --random-token-id-base/--random-vocab-span, or --prompt-format text)");
            return settings;
        }
        int vocab = vocabSize.getAsInt();
        if (end <= vocab) {
            notes.add("random prompt token ids drawn from [" + base + ", " + end + "), within the server's vocabulary"
                    + " of " + vocab + " ids (vocab_size in /v1/models)");
            return settings;
        }
        int fittedBase = Math.min(base, vocab / 8);
        notes.add("random prompt token ids drawn from [" + fittedBase + ", " + vocab + "): the server's vocabulary"
                + " of " + vocab + " ids (vocab_size in /v1/models); the default range [" + base + ", " + end
                + ") would not fit");
        return settings.withVocabulary(vocab - fittedBase, fittedBase);
    }
}
