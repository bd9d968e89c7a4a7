package dev.servebench.perf;

import dev.servebench.spec.PromptTokenIds;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Which token ids random prompts are drawn from. Ids beyond the model's vocabulary make every request fail
 * (a 400 from most servers), so the range comes from the server where it states its vocabulary size, and
 * where it does not, the summary says which range was assumed and how to change it.
 */
final class VocabularyFit {

    private VocabularyFit() {}

    /**
     * The range to draw from; adds one line to {@code notes} saying where it came from.
     *
     * @param given     the spec's range ({@code --random-token-id-base}/{@code --random-vocab-span}): used as given
     * @param assumed   the range otherwise (the defaults, or the ids the started server is known to take)
     * @param vocabSize the vocabulary size the server stated, if it did
     */
    static SpecRunner.Vocabulary resolve(Optional<PromptTokenIds> given, SpecRunner.Vocabulary assumed,
            OptionalInt vocabSize, List<String> notes) {
        if (given.isPresent()) {
            int base = given.get().base();
            int end = base + given.get().span();
            notes.add("random prompt token ids drawn from [" + base + ", " + end + ") as given"
                    + vocabSize.stream().mapToObj(v -> end > v ? "; the server's vocabulary has only " + v
                            + " ids: expect every request to be rejected" : "").findFirst().orElse(""));
            return new SpecRunner.Vocabulary(given.get().span(), base);
        }
        int base = assumed.base();
        int end = base + assumed.span();
        if (vocabSize.isEmpty()) {
            notes.add("random prompt token ids drawn from [" + base + ", " + end + "): assumed, the server did not"
                    + " state its vocabulary size; a model with a smaller vocabulary rejects them"
                    + " (set --random-token-id-base/--random-vocab-span, or --prompt-format text;"
                    + " in a spec workload.token_id_base/vocab_span or prompt_format: text)");
            return assumed;
        }
        int vocab = vocabSize.getAsInt();
        if (end <= vocab) {
            notes.add("random prompt token ids drawn from [" + base + ", " + end + "), within the server's vocabulary"
                    + " of " + vocab + " ids (vocab_size in /v1/models)");
            return assumed;
        }
        int fittedBase = Math.min(base, vocab / 8);
        notes.add("random prompt token ids drawn from [" + fittedBase + ", " + vocab + "): the server's vocabulary"
                + " of " + vocab + " ids (vocab_size in /v1/models); the default range [" + base + ", " + end
                + ") would not fit");
        return new SpecRunner.Vocabulary(vocab - fittedBase, fittedBase);
    }
}
