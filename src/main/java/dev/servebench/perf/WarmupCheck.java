package dev.servebench.perf;

import dev.servebench.record.FailureKind;
import dev.servebench.record.Outcome;
import dev.servebench.record.RequestRecord;
import java.util.List;
import java.util.Optional;

/** What the server's answers to a load point's warm-up requests say about the measurement to come. */
final class WarmupCheck {

    private WarmupCheck() {}

    /**
     * A warm-up request the server rejects (4xx) means every measured request would be rejected the same way:
     * stop at once with the server's message, as SGLang's own client does. Other warm-up failures are
     * returned as a warning and the load point's validity decides.
     *
     * @param where the load point, as the message names it
     * @throws WarmupRejectedException a warm-up request got a 4xx
     */
    static Optional<String> check(String where, List<RequestRecord> records) {
        for (RequestRecord record : records) {
            if (record.outcome() instanceof Outcome.Failure failure && failure.kind() == FailureKind.HTTP_STATUS
                    && failure.httpStatus() >= 400 && failure.httpStatus() < 500) {
                throw new WarmupRejectedException("the server rejected the warm-up request at " + where + " ("
                        + failure.reason() + "); every measured request would fail the same way. "
                        + "Check --backend, --model, the prompt settings (--random-vocab-span, "
                        + "--random-token-id-base, --prompt-format) and --extra-request-body (in a spec: target.backend,"
                        + " target.model, workload.vocab_span, token_id_base, prompt_format, extra_request_body)");
            }
        }
        if (!records.isEmpty() && records.stream().noneMatch(RequestRecord::succeeded)) {
            return Optional.of("warm-up at " + where + ": all " + records.size()
                    + " request(s) failed, first error: " + firstError(records));
        }
        return Optional.empty();
    }

    private static String firstError(List<RequestRecord> records) {
        return records.stream().map(RequestRecord::outcome)
                .filter(o -> o instanceof Outcome.Failure)
                .map(o -> ((Outcome.Failure) o).kind() + ": " + ((Outcome.Failure) o).reason())
                .findFirst().orElse("(none)");
    }
}
