package dev.servebench.telemetry.counters;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * One server counter held against the client's total.
 *
 * @param kind               which counter
 * @param metricName         the server's sample name, or null when it has none
 * @param serverCount        what the server counted between the scrapes, or null when it has no counter
 *                           or the counter reset
 * @param clientCount        what the client counted
 * @param clientSource       where the client's number comes from (e.g. {@code usage})
 * @param relativeDifference (server - client) / client; positive when the server counted more. 0 when
 *                           both are 0, null when the client counted 0 and the server did not, or when
 *                           there is nothing to compare
 * @param verdict            the outcome
 * @param line               one human-readable sentence, e.g. {@code server counted 8,192 generated tokens,
 *                           client 8,192 (usage) — agree}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record CounterCheck(
        CounterKind kind,
        String metricName,
        Double serverCount,
        long clientCount,
        String clientSource,
        Double relativeDifference,
        CrossCheckVerdict verdict,
        String line) {

    public CounterCheck {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(clientSource, "clientSource");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(line, "line");
        boolean compared = verdict == CrossCheckVerdict.AGREE || verdict == CrossCheckVerdict.DISAGREE;
        if (compared != (serverCount != null)) {
            throw new IllegalArgumentException("serverCount must be given exactly when the verdict is AGREE or"
                    + " DISAGREE (verdict " + verdict + ", serverCount " + serverCount + ")");
        }
    }
}
