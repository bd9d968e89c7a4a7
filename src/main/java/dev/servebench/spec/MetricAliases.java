package dev.servebench.spec;

import dev.servebench.metric.MetricId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What people call servebench's metrics when they do not know the ids: "tokens per second", "tps",
 * "output_tokens_per_sec", "ttft", "p99 latency". Edit distance cannot get from those to
 * {@code output_throughput} or {@code p99_ttft_ms}, so they are looked up here, by meaning. Only for
 * "did you mean": an expectation still has to write the id.
 */
final class MetricAliases {

    /** How throughput is written without a qualifier, after normalising (lower case, '_' between words). */
    private static final List<String> THROUGHPUT_WORDS = List.of("throughput", "tokens_per_second", "tokens_per_sec",
            "tokens_per_s", "token_per_second", "tokens_s", "tokens_sec", "tok_s", "tok_sec", "toks", "tps",
            "token_throughput", "tokens_throughput", "token_rate");

    /** A qualifier in front of a throughput word, and the ids it points to. */
    private static final Map<String, List<String>> THROUGHPUT_QUALIFIERS = Map.ofEntries(
            Map.entry("", List.of("output_throughput", "total_throughput")),
            Map.entry("output", List.of("output_throughput")),
            Map.entry("out", List.of("output_throughput")),
            Map.entry("gen", List.of("output_throughput")),
            Map.entry("generation", List.of("output_throughput")),
            Map.entry("generated", List.of("output_throughput")),
            Map.entry("decode", List.of("output_throughput")),
            Map.entry("completion", List.of("output_throughput")),
            Map.entry("input", List.of("input_throughput")),
            Map.entry("prompt", List.of("input_throughput")),
            Map.entry("prefill", List.of("input_throughput")),
            Map.entry("total", List.of("total_throughput")),
            Map.entry("peak", List.of("peak_output_throughput")),
            Map.entry("max", List.of("peak_output_throughput")),
            Map.entry("peak_output", List.of("peak_output_throughput")),
            Map.entry("max_output", List.of("peak_output_throughput")));

    private static final List<String> REQUEST_RATE_WORDS = List.of("rps", "qps", "requests_per_second",
            "requests_per_sec", "requests_per_s", "req_per_s", "req_per_sec", "req_s", "req_sec", "requests_s",
            "request_rate", "req_throughput", "requests_throughput");

    /** Latency series as people write them, to the fragment between statistic and {@code _ms} in the ids. */
    private static final Map<String, String> SERIES = Map.ofEntries(
            Map.entry("ttft", "ttft"), Map.entry("time_to_first_token", "ttft"),
            Map.entry("first_token_latency", "ttft"), Map.entry("first_token", "ttft"),
            Map.entry("first_token_time", "ttft"), Map.entry("ttft_latency", "ttft"),
            Map.entry("tpot", "tpot"), Map.entry("time_per_output_token", "tpot"),
            Map.entry("per_token_latency", "tpot"), Map.entry("token_latency", "tpot"),
            Map.entry("itl", "itl"), Map.entry("inter_token_latency", "itl"), Map.entry("intertoken_latency", "itl"),
            Map.entry("e2e", "e2e_latency"), Map.entry("e2el", "e2e_latency"), Map.entry("e2e_latency", "e2e_latency"),
            Map.entry("latency", "e2e_latency"), Map.entry("end_to_end_latency", "e2e_latency"),
            Map.entry("end_to_end", "e2e_latency"), Map.entry("request_latency", "e2e_latency"),
            Map.entry("queue_time", "queue_time"), Map.entry("queueing_time", "queue_time"),
            Map.entry("dispatch_lag", "dispatch_lag"));

    /** Statistic words, to the prefix the ids use. */
    private static final Map<String, String> STATISTICS = Map.ofEntries(
            Map.entry("mean", "mean"), Map.entry("avg", "mean"), Map.entry("average", "mean"),
            Map.entry("median", "median"), Map.entry("p50", "median"), Map.entry("p90", "p90"),
            Map.entry("p95", "p95"), Map.entry("p99", "p99"), Map.entry("std", "std"), Map.entry("stddev", "std"),
            Map.entry("max", "max"));

    /** Unit words that may trail a latency name ({@code ttft_ms}, {@code e2e_latency_s}). */
    private static final List<String> UNIT_WORDS = List.of("ms", "s", "sec", "secs", "seconds", "millis");

    /** When no statistic is named: the usual three, as far as the series has them. */
    private static final List<String> DEFAULT_STATISTICS = List.of("mean", "median", "p99");

    private MetricAliases() {
    }

    /** Ids {@code name} is a common alias of, most likely first; empty when it is none. */
    static List<String> ids(String name) {
        String normalised = normalise(name);
        List<String> throughput = throughput(normalised);
        if (!throughput.isEmpty()) {
            return throughput;
        }
        if (REQUEST_RATE_WORDS.contains(normalised)) {
            return List.of("request_throughput");
        }
        return latency(normalised);
    }

    /** Lower case, words joined by '_' ({@code Tokens per second}, {@code tok/s}, {@code e2e-latency}). */
    static String normalise(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_|_$", "");
    }

    private static List<String> throughput(String name) {
        for (String word : THROUGHPUT_WORDS) {
            if (name.equals(word)) {
                return THROUGHPUT_QUALIFIERS.get("");
            }
            if (name.endsWith("_" + word)) {
                List<String> ids = THROUGHPUT_QUALIFIERS.get(name.substring(0, name.length() - word.length() - 1));
                if (ids != null) {
                    return ids;
                }
            }
        }
        return List.of();
    }

    /** {@code [statistic_]series[_statistic][_unit]} in any of the spellings above. */
    private static List<String> latency(String name) {
        List<String> words = new ArrayList<>(Arrays.asList(name.split("_")));
        String statistic = null;
        for (String word : List.copyOf(words)) {
            if (STATISTICS.containsKey(word) && statistic == null) {
                statistic = STATISTICS.get(word);
                words.remove(word);
            }
        }
        while (!words.isEmpty() && UNIT_WORDS.contains(words.getLast())) {
            words.removeLast();
        }
        String series = SERIES.get(String.join("_", words));
        if (series == null) {
            return List.of();
        }
        List<String> statistics = statistic == null ? DEFAULT_STATISTICS : List.of(statistic);
        List<String> ids = existing(series, statistics);
        return ids.isEmpty() ? existing(series, DEFAULT_STATISTICS) : ids;
    }

    private static List<String> existing(String series, List<String> statistics) {
        return statistics.stream().map(s -> s + "_" + series + "_ms").filter(id -> MetricId.byId(id).isPresent())
                .toList();
    }
}
