package dev.servebench.workload;

import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * Text prompts of an exact token count under the run's tokenizer. SGLang decodes random token ids and
 * re-encodes the text, whose count then drifts from the target (docs/reference-semantics.md, Prompt-length
 * drift); here the words of the row are taken while they fit and the rest is filled with short pieces,
 * each step checked by encoding the whole text, so the count is exact by construction or the row is refused.
 */
final class ExactLengthText {

    /** Pieces that add one token in usual vocabularies, tried in order to fill the last few tokens. */
    private static final List<String> FILLERS = fillers();

    /**
     * How a row's text is built: the first {@code words} words of its word stream, then {@code suffix}.
     *
     * @param tokens the text's prompt count (special tokens included): the target, or more when the
     *               target is below what the empty text counts (the tokenizer's special tokens)
     */
    record Plan(int words, String suffix, int tokens) {
        Plan {
            Objects.requireNonNull(suffix, "suffix");
        }
    }

    private ExactLengthText() {
    }

    /**
     * The plan for a text of {@code target} prompt tokens made from {@code wordsText} (k → the text of the
     * row's first k words; a longer text extends a shorter one).
     *
     * @throws IllegalStateException when no filler reaches the target exactly (a tokenizer whose pieces all
     *                               merge with the text before them)
     */
    static Plan plan(Tokenizer tokenizer, IntFunction<String> wordsText, int target) {
        int special = tokenizer.specialTokens();
        int words = Math.max(0, target - special);
        int count = tokenizer.countPrompt(wordsText.apply(words));
        if (count != target && words > 0 && count > special) {
            // Words of several tokens each (or parts of one): scale once, then walk word by word.
            words = (int) Math.round((double) words * (target - special) / (count - special));
            count = tokenizer.countPrompt(wordsText.apply(words));
        }
        while (count > target && words > 0) {
            count = tokenizer.countPrompt(wordsText.apply(--words));
        }
        if (count > target) {
            return new Plan(0, "", count);
        }
        while (count < target) {
            int longer = tokenizer.countPrompt(wordsText.apply(words + 1));
            if (longer > target) {
                break;
            }
            words++;
            count = longer;
        }
        String text = wordsText.apply(words);
        StringBuilder suffix = new StringBuilder();
        while (count < target) {
            count = fill(tokenizer, text, suffix, count, target);
        }
        return new Plan(words, suffix.toString(), count);
    }

    /** Appends the first filler that adds tokens without passing the target; returns the new count. */
    private static int fill(Tokenizer tokenizer, String text, StringBuilder suffix, int count, int target) {
        for (String filler : FILLERS) {
            int longer = tokenizer.countPrompt(text + suffix + filler);
            if (longer > count && longer <= target) {
                suffix.append(filler);
                return longer;
            }
        }
        throw new IllegalStateException("cannot build a text prompt of exactly " + target + " tokens with tokenizer "
                + tokenizer.describe() + ": at " + count + " tokens no filler (a word, a letter, a punctuation mark)"
                + " adds between 1 and " + (target - count) + " tokens");
    }

    private static List<String> fillers() {
        List<String> fillers = new java.util.ArrayList<>();
        PromptWords.WORDS.forEach(word -> fillers.add(" " + word));
        for (char c = 'a'; c <= 'z'; c++) {
            fillers.add(" " + c);
        }
        // Without the space: at the start of a text, where an SPM normalizer adds one itself.
        for (char c = 'a'; c <= 'z'; c++) {
            fillers.add(String.valueOf(c));
        }
        for (char c : ".,;:!?-'\"()0123456789".toCharArray()) {
            fillers.add(String.valueOf(c));
        }
        return List.copyOf(fillers);
    }
}
