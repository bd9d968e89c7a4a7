package dev.servebench.workload;

import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.RandomAccess;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/**
 * SGLang's {@code random} dataset (docs/reference-semantics.md, Random dataset): synthetic prompts of
 * random length.
 *
 * <p>Lengths: for each of the {@code numPrompts} rows, the input length is uniform on the integers
 * {@code [max((int)(inputLen * r), 1), inputLen]} (inclusive) and the output length likewise with
 * {@code outputLen}; a length parameter of 0 gives all zeros. So the default {@code r = 0} means
 * uniform on {@code [1, L]} (mean {@code (L+1)/2}) and {@code r = 1} fixed lengths. All input lengths
 * are drawn first, then all output lengths, then the token-id offsets, from one generator seeded with
 * the seed (text prompts draw their words from a generator seeded with the seed and the row). The generator is not numpy's MT19937, so the lengths follow SGLang's distribution but are
 * not the same draws as SGLang with the same seed.
 *
 * <p>Prompts:
 * <ul>
 *   <li>{@link PromptFormat#TOKEN_IDS} (SGLang {@code random-ids} with {@code --tokenize-prompt}): for
 *       row i, {@code offset_i} uniform in {@code [0, vocabSpan)}, token j is
 *       {@code idBase + (offset_i + i + j) % vocabSpan}. The ids start at {@code idBase} because the low
 *       ids of most vocabularies are special tokens. The prompt length is exact.</li>
 *   <li>{@link PromptFormat#TEXT}: {@code len} common words, each preceded by a space, about one token
 *       each; the row's {@code promptLen} is the target {@code len} (as SGLang records it) and is marked
 *       inexact. The server may add special tokens (BOS, a chat template) on top.</li>
 *   <li>{@link PromptFormat#TEXT} with a {@link Tokenizer}: text whose prompt count under the tokenizer
 *       (special tokens included, so a server with the same tokenizer reports {@code len} as
 *       {@code usage.prompt_tokens} for a completions request) is exactly {@code len}: the row's words while
 *       they fit, then short fillers ({@link ExactLengthText}); marked exact. Built for every row when the
 *       rows are made, so tokenizing costs nothing during the run. A {@code len} below the tokenizer's
 *       special tokens (e.g. 0 with a BOS) cannot be met: the row is the empty text with its real count.</li>
 * </ul>
 *
 * @param numPrompts       rows to generate (>= 1)
 * @param inputLen         upper bound of the input length (>= 0)
 * @param outputLen        upper bound of the output length (>= 0)
 * @param randomRangeRatio lower bound as a fraction of the upper bound, in [0, 1]
 * @param format           how prompts are sent
 * @param vocabSpan        number of distinct token ids used (>= 1)
 * @param idBase           smallest token id used (>= 0)
 * @param tokenizer        counts text prompts exactly (text format only)
 */
public record RandomDataset(int numPrompts, int inputLen, int outputLen, double randomRangeRatio,
                            PromptFormat format, int vocabSpan, int idBase, Optional<Tokenizer> tokenizer)
        implements Dataset {

    public static final int DEFAULT_VOCAB_SPAN = 30_000;
    public static final int DEFAULT_ID_BASE = 1_000;

    /** Keeps this dataset's stream apart from the arrival plan's for the same user seed. */
    private static final long STREAM = 0x5EED_DA7A_0000_0001L;

    public enum PromptFormat { TOKEN_IDS, TEXT }

    public RandomDataset {
        if (numPrompts < 1) {
            throw new IllegalArgumentException("numPrompts (" + numPrompts + ") must be >= 1");
        }
        if (inputLen < 0) {
            throw new IllegalArgumentException("inputLen (" + inputLen + ") must be >= 0");
        }
        if (outputLen < 0) {
            throw new IllegalArgumentException("outputLen (" + outputLen + ") must be >= 0");
        }
        // Written as a negation so that NaN is rejected too.
        if (!(randomRangeRatio >= 0 && randomRangeRatio <= 1)) {
            throw new IllegalArgumentException("randomRangeRatio (" + randomRangeRatio + ") must be in [0, 1]");
        }
        Objects.requireNonNull(format, "format");
        if (vocabSpan < 1) {
            throw new IllegalArgumentException("vocabSpan (" + vocabSpan + ") must be >= 1");
        }
        if (idBase < 0) {
            throw new IllegalArgumentException("idBase (" + idBase + ") must be >= 0");
        }
        if ((long) idBase + vocabSpan - 1 > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("idBase (" + idBase + ") + vocabSpan (" + vocabSpan
                    + ") must not exceed " + (Integer.MAX_VALUE + 1L));
        }
        Objects.requireNonNull(tokenizer, "tokenizer");
    }

    /** Token-id prompts over the default id range [1000, 31000). */
    public static RandomDataset of(int numPrompts, int inputLen, int outputLen, double randomRangeRatio) {
        return new RandomDataset(numPrompts, inputLen, outputLen, randomRangeRatio, PromptFormat.TOKEN_IDS,
                DEFAULT_VOCAB_SPAN, DEFAULT_ID_BASE, Optional.empty());
    }

    public RandomDataset withFormat(PromptFormat newFormat) {
        return new RandomDataset(numPrompts, inputLen, outputLen, randomRangeRatio, newFormat, vocabSpan, idBase,
                tokenizer);
    }

    /** Token ids in {@code [newIdBase, newIdBase + newVocabSpan)}, e.g. an embedded engine's small vocabulary. */
    public RandomDataset withVocabulary(int newVocabSpan, int newIdBase) {
        return new RandomDataset(numPrompts, inputLen, outputLen, randomRangeRatio, format, newVocabSpan, newIdBase,
                tokenizer);
    }

    /** Text prompts of exactly the drawn length under {@code newTokenizer}. */
    public RandomDataset withTokenizer(Tokenizer newTokenizer) {
        return new RandomDataset(numPrompts, inputLen, outputLen, randomRangeRatio, format, vocabSpan, idBase,
                Optional.of(newTokenizer));
    }

    /**
     * The rows, generated when read: only three ints per row are kept (input length, output length, token-id
     * offset), so a million-row load point does not hold a million prompts. Token-id prompts are the same
     * draws as a list built in one pass; text prompts draw their words from a generator of their own row.
     */
    @Override
    public List<PromptRequest> requests(long seed) {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed ^ STREAM);
        int[] inputLens = lengths(rng, numPrompts, inputLen, randomRangeRatio);
        int[] outputLens = lengths(rng, numPrompts, outputLen, randomRangeRatio);
        int[] offsets = new int[format == PromptFormat.TOKEN_IDS ? numPrompts : 0];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = rng.nextInt(vocabSpan);
        }
        ExactLengthText.Plan[] plans = new ExactLengthText.Plan[format == PromptFormat.TEXT && tokenizer.isPresent()
                ? numPrompts : 0];
        for (int i = 0; i < plans.length; i++) {
            int row = i;
            plans[i] = ExactLengthText.plan(tokenizer.get(), words -> PromptWords.randomText(wordRng(seed, row), words),
                    inputLens[i]);
        }
        return new Rows(seed, inputLens, outputLens, offsets, plans);
    }

    /** The generator of row {@code row}'s words: the same words for the same seed, however often it is made. */
    private static UniformRandomProvider wordRng(long seed, int row) {
        return RandomSource.XO_RO_SHI_RO_128_PP.create(new long[] {seed ^ STREAM, row});
    }

    /** A read-only list whose rows are built on each {@code get}; safe to read from several threads. */
    private final class Rows extends AbstractList<PromptRequest> implements RandomAccess {
        private final long seed;
        private final int[] inputLens;
        private final int[] outputLens;
        private final int[] offsets;
        /** Exact-length text of each row (text prompts with a tokenizer), else empty. */
        private final ExactLengthText.Plan[] plans;

        Rows(long seed, int[] inputLens, int[] outputLens, int[] offsets, ExactLengthText.Plan[] plans) {
            this.seed = seed;
            this.inputLens = inputLens;
            this.outputLens = outputLens;
            this.offsets = offsets;
            this.plans = plans;
        }

        @Override
        public PromptRequest get(int i) {
            Objects.checkIndex(i, inputLens.length);
            return switch (format) {
                case TOKEN_IDS -> PromptRequest.ofTokenIds(i, tokenIds(i, offsets[i], inputLens[i]), outputLens[i]);
                case TEXT -> plans.length == 0
                        ? PromptRequest.ofText(i, PromptWords.randomText(wordRng(seed, i), inputLens[i]), inputLens[i],
                                outputLens[i])
                        : PromptRequest.ofCountedText(i, PromptWords.randomText(wordRng(seed, i), plans[i].words())
                                + plans[i].suffix(), plans[i].tokens(), outputLens[i]);
            };
        }

        @Override
        public int size() {
            return inputLens.length;
        }
    }

    /** SGLang's {@code compute_random_lens}: uniform integers in {@code [max((int)(L*r), 1), L]}, or zeros. */
    static int[] lengths(UniformRandomProvider rng, int n, int maxLen, double ratio) {
        int[] lens = new int[n];
        if (maxLen == 0) {
            return lens;
        }
        int low = Math.max((int) (maxLen * ratio), 1);
        int width = maxLen - low + 1;
        for (int i = 0; i < n; i++) {
            lens[i] = low + rng.nextInt(width);
        }
        return lens;
    }

    private int[] tokenIds(int row, int offset, int len) {
        int[] ids = new int[len];
        for (int j = 0; j < len; j++) {
            ids[j] = idBase + (int) (((long) offset + row + j) % vocabSpan);
        }
        return ids;
    }
}
