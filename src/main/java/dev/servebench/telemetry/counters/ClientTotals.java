package dev.servebench.telemetry.counters;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.servebench.record.FailureKind;
import dev.servebench.record.Outcome;
import dev.servebench.record.RequestRecord;
import dev.servebench.record.Usage;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the client counted over the measured phase, to hold against the server's counters.
 *
 * @param generatedTokens output tokens of every request that reached the server
 * @param promptTokens    prompt tokens of the same requests
 * @param requests        requests that reached the server
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ClientTotals(ClientCount generatedTokens, ClientCount promptTokens, ClientCount requests) {

    public ClientTotals {
        Objects.requireNonNull(generatedTokens, "generatedTokens");
        Objects.requireNonNull(promptTokens, "promptTokens");
        Objects.requireNonNull(requests, "requests");
    }

    /** Totals taken from the server's own {@code usage} objects. */
    public static ClientTotals fromUsage(long generatedTokens, long promptTokens, long requests) {
        return new ClientTotals(new ClientCount(generatedTokens, "usage"), new ClientCount(promptTokens, "usage"),
                new ClientCount(requests, "requests sent"));
    }

    /**
     * Totals over a load point's records, counted the way the server counts:
     *
     * <ul>
     * <li>Requests that failed with {@code CONNECT} or {@code HTTP_STATUS} are left out: they were refused
     *     before the engine saw them, so no server counter moved. Every other request, failed or not,
     *     reached the engine and is counted (vLLM counts an aborted request under
     *     {@code finished_reason="abort"}).</li>
     * <li>Generated tokens: {@code usage.completion_tokens}, else the tokens counted from the stream's
     *     chunks (a request cut off before its usage chunk).</li>
     * <li>Prompt tokens: {@code usage.prompt_tokens}, else the dataset's {@code prompt_len}, which misses
     *     what the server adds (BOS, chat template); the source says how many requests fell back.</li>
     * </ul>
     */
    public static ClientTotals fromRecords(List<RequestRecord> records) {
        Objects.requireNonNull(records, "records");
        long generated = 0;
        long prompt = 0;
        int reached = 0;
        int refused = 0;
        int withoutUsage = 0;
        for (RequestRecord r : records) {
            if (refusedBeforeTheEngine(r.outcome())) {
                refused++;
                continue;
            }
            reached++;
            Optional<Usage> usage = r.usage();
            if (usage.isPresent()) {
                generated += usage.get().completionTokens();
                prompt += usage.get().promptTokens();
            } else {
                withoutUsage++;
                generated += r.chunkOutputTokens();
                prompt += r.promptLen();
            }
        }
        String fallback = withoutUsage == 0 ? "" : "; " + withoutUsage + " of " + reached + " without usage: ";
        return new ClientTotals(
                new ClientCount(generated, "usage" + (fallback.isEmpty() ? "" : fallback + "chunk count")),
                new ClientCount(prompt, "usage" + (fallback.isEmpty() ? "" : fallback + "dataset prompt_len")),
                new ClientCount(reached, refused == 0 ? "requests sent"
                        : "requests sent, less " + refused + " refused before the engine (connect or HTTP status)"));
    }

    private static boolean refusedBeforeTheEngine(Outcome outcome) {
        return switch (outcome) {
            case Outcome.Success _ -> false;
            case Outcome.Failure failure -> failure.kind() == FailureKind.CONNECT
                    || failure.kind() == FailureKind.HTTP_STATUS;
        };
    }

    /** The client's total for one counter. */
    public ClientCount count(CounterKind kind) {
        return switch (kind) {
            case GENERATED_TOKENS -> generatedTokens;
            case PROMPT_TOKENS -> promptTokens;
            case FINISHED_REQUESTS -> requests;
        };
    }
}
