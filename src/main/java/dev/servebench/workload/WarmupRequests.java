package dev.servebench.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Warmup requests, sent before the measured ones and never counted (docs/reference-semantics.md, Warmup: SGLang's
 * {@code --warmup-requests}): copies of the first dataset row with the output length capped at
 * {@value #MAX_OUTPUT_LEN}. A separate type, so warmup rows cannot be mixed into the measured list by
 * accident; their indices are 0..count-1 within this list (the driver should label them, e.g. in the
 * request id, so they are not confused with measured rows of the same index).
 *
 * @param requests the warmup rows, in sending order
 */
public record WarmupRequests(List<PromptRequest> requests) {

    /** SGLang caps warmup output at 32 tokens so warmup stays short. */
    public static final int MAX_OUTPUT_LEN = 32;

    public WarmupRequests {
        requests = List.copyOf(Objects.requireNonNull(requests, "requests"));
    }

    /** {@code count} (>= 0) copies of {@code dataset.get(0)} with {@code outputLen = min(outputLen, 32)}. */
    public static WarmupRequests of(List<PromptRequest> dataset, int count) {
        Objects.requireNonNull(dataset, "dataset");
        if (count < 0) {
            throw new IllegalArgumentException("count (" + count + ") must be >= 0");
        }
        if (count > 0 && dataset.isEmpty()) {
            throw new IllegalArgumentException("dataset is empty; cannot build " + count + " warmup requests");
        }
        List<PromptRequest> copies = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            PromptRequest first = dataset.get(0);
            copies.add(first.with(i, Math.min(first.outputLen(), MAX_OUTPUT_LEN)));
        }
        return new WarmupRequests(copies);
    }

    public int size() {
        return requests.size();
    }

    public boolean isEmpty() {
        return requests.isEmpty();
    }
}
