package dev.servebench.workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.ListSampler;
import org.apache.commons.rng.simple.RandomSource;

/**
 * SGLang's {@code sharegpt} dataset (docs/reference-semantics.md, ShareGPT dataset), with the run's
 * tokenizer or without one.
 *
 * <p>Conversations with at least two turns are kept and their first two turns used (prompt = first turn,
 * completion = second; roles are not checked, as in SGLang), shuffled with the seed; then rows are taken
 * in that order, skipping those whose prompt length is below 2 or whose completion length is below 2 (or,
 * with a context length, whose prompt plus output exceeds it), until
 * {@code numPrompts} are collected. Like SGLang, when fewer rows qualify the result is simply shorter
 * (check {@code size()}); vLLM would oversample instead. No qualifying row at all is an error.
 *
 * <p>With a {@link Tokenizer} the lengths are SGLang's: {@code len(tokenizer.encode(text))} of the prompt and
 * of the completion, special tokens included (SGLang counts the completion that way too), and rows are
 * marked exact. These are the filters of the SGLang version servebench follows (S1: below 2 tokens, the
 * context length); the older 4 / 1024 / 2048 limits of SGLang's first client and vLLM are not applied.
 * Only the rows looked at are tokenized, in the shuffled order, until enough are collected, as SGLang does.
 *
 * <p>Without a tokenizer, token counts are estimates, {@code max(1, round(codePoints / 4))}: about right for
 * English under BPE, low for code and CJK text. Prompts are then {@link PromptInput.Text} rows marked
 * inexact, and the server's usage is the real prompt length; the rows kept differ from SGLang's slightly at
 * the filter boundaries.
 *
 * <p>With a fixed output length ({@code --sharegpt-output-len}) every row requests that many tokens and
 * the completion-length filter is not applied (SGLang applies it to the fixed length, which for a fixed
 * length of 1 would drop every row).
 *
 * @param file           the ShareGPT JSON file
 * @param numPrompts     rows wanted (>= 1)
 * @param fixedOutputLen output length for every row instead of the completion's estimate (>= 1)
 * @param contextLen     drop rows whose prompt plus output length exceeds this (>= 1)
 * @param tokenizer      counts prompts and completions exactly instead of estimating them
 */
public record ShareGptDataset(Path file, int numPrompts, OptionalInt fixedOutputLen, OptionalInt contextLen,
                              Optional<Tokenizer> tokenizer) implements Dataset {

    /** Rows shorter than this (tokens, or estimated tokens without a tokenizer) are dropped, as SGLang does. */
    public static final int MIN_LEN = 2;

    /** Keeps this dataset's stream apart from the arrival plan's for the same user seed. */
    private static final long STREAM = 0x5EED_DA7A_0000_0002L;

    public ShareGptDataset {
        Objects.requireNonNull(file, "file");
        if (numPrompts < 1) {
            throw new IllegalArgumentException("numPrompts (" + numPrompts + ") must be >= 1");
        }
        Objects.requireNonNull(fixedOutputLen, "fixedOutputLen");
        Objects.requireNonNull(contextLen, "contextLen");
        if (fixedOutputLen.isPresent() && fixedOutputLen.getAsInt() < 1) {
            throw new IllegalArgumentException("fixedOutputLen (" + fixedOutputLen.getAsInt() + ") must be >= 1");
        }
        if (contextLen.isPresent() && contextLen.getAsInt() < 1) {
            throw new IllegalArgumentException("contextLen (" + contextLen.getAsInt() + ") must be >= 1");
        }
        Objects.requireNonNull(tokenizer, "tokenizer");
    }

    public static ShareGptDataset of(Path file, int numPrompts) {
        return new ShareGptDataset(file, numPrompts, OptionalInt.empty(), OptionalInt.empty(), Optional.empty());
    }

    public ShareGptDataset withFixedOutputLen(int outputLen) {
        return new ShareGptDataset(file, numPrompts, OptionalInt.of(outputLen), contextLen, tokenizer);
    }

    public ShareGptDataset withContextLen(int maxTotalLen) {
        return new ShareGptDataset(file, numPrompts, fixedOutputLen, OptionalInt.of(maxTotalLen), tokenizer);
    }

    /** Exact prompt and completion lengths from {@code newTokenizer}. */
    public ShareGptDataset withTokenizer(Tokenizer newTokenizer) {
        return new ShareGptDataset(file, numPrompts, fixedOutputLen, contextLen, Optional.of(newTokenizer));
    }

    /** Estimated token count of {@code text}: {@code max(1, round(codePoints / 4))}. */
    public static int estimateTokens(String text) {
        return (int) Math.max(1, Math.round(text.codePointCount(0, text.length()) / 4.0));
    }

    /**
     * @throws DatasetException when the file cannot be read, is not ShareGPT JSON, or has no usable row
     */
    @Override
    public List<PromptRequest> requests(long seed) {
        List<ShareGptReader.Exchange> exchanges = new ArrayList<>(ShareGptReader.read(file, tokenizer.isPresent()));
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed ^ STREAM);
        ListSampler.shuffle(rng, exchanges);
        List<PromptRequest> rows = new ArrayList<>(Math.min(numPrompts, exchanges.size()));
        for (ShareGptReader.Exchange exchange : exchanges) {
            if (rows.size() == numPrompts) {
                break;
            }
            int promptLen = tokenizer.map(t -> t.countPrompt(exchange.prompt()))
                    .orElseGet(() -> estimateTokens(exchange.prompt()));
            int outputLen = fixedOutputLen.isPresent() ? fixedOutputLen.getAsInt() : tokenizer
                    .map(t -> t.countPrompt(exchange.completion().orElseThrow()))
                    .orElseGet(exchange::completionTokens);
            boolean tooShort = promptLen < MIN_LEN || (fixedOutputLen.isEmpty() && outputLen < MIN_LEN);
            boolean tooLong = contextLen.isPresent() && (long) promptLen + outputLen > contextLen.getAsInt();
            if (!tooShort && !tooLong) {
                rows.add(tokenizer.isPresent()
                        ? PromptRequest.ofCountedText(rows.size(), exchange.prompt(), promptLen, outputLen)
                        : PromptRequest.ofText(rows.size(), exchange.prompt(), promptLen, outputLen));
            }
        }
        if (rows.isEmpty()) {
            throw new DatasetException(file, "no usable conversation: " + exchanges.size()
                    + " have at least two turns, none passes the length filters (" + filters() + ")", null);
        }
        return Collections.unmodifiableList(rows);
    }

    private String filters() {
        String unit = tokenizer.isPresent() ? " tokens" : " estimated tokens";
        String filters = "prompt >= " + MIN_LEN + unit;
        if (fixedOutputLen.isEmpty()) {
            filters += ", completion >= " + MIN_LEN + unit;
        }
        if (contextLen.isPresent()) {
            filters += ", prompt + output <= " + contextLen.getAsInt();
        }
        return filters;
    }
}
