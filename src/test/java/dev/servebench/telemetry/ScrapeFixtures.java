package dev.servebench.telemetry;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * {@code /metrics} pages shaped like the servers' own: names, label sets, HELP texts and number formats as
 * their collectors write them (SGLang's TokenizerMetricsCollector, vLLM V1's PrometheusStatLogger, both via
 * Python prometheus_client; the embedded server via client_java). Written for these tests, not copied.
 */
public final class ScrapeFixtures {

    private ScrapeFixtures() {}

    public static final String SGLANG_MODEL = "meta-llama/Llama-3.1-8B-Instruct";

    /** An SGLang page after 12,001 requests: 10 samples. */
    public static final String SGLANG = sglang(7.557572e6, 8.128902e6, 12001);

    /** SGLang's counters of one model. */
    public static String sglang(double generated, double prompt, double requests) {
        String labels = "{model_name=\"" + SGLANG_MODEL + "\"}";
        return String.format(Locale.ROOT, """
                # HELP sglang:num_running_reqs The number of running requests.
                # TYPE sglang:num_running_reqs gauge
                sglang:num_running_reqs%1$s 0.0
                # HELP sglang:token_usage The token usage.
                # TYPE sglang:token_usage gauge
                sglang:token_usage%1$s 0.28
                # HELP sglang:prompt_tokens_total Number of prefill tokens processed.
                # TYPE sglang:prompt_tokens_total counter
                sglang:prompt_tokens_total%1$s %3$s
                # HELP sglang:generation_tokens_total Number of generation tokens processed.
                # TYPE sglang:generation_tokens_total counter
                sglang:generation_tokens_total%1$s %2$s
                # HELP sglang:num_requests_total Number of requests processed.
                # TYPE sglang:num_requests_total counter
                sglang:num_requests_total%1$s %4$s
                # HELP sglang:time_to_first_token_seconds Histogram of time to first token in seconds.
                # TYPE sglang:time_to_first_token_seconds histogram
                sglang:time_to_first_token_seconds_sum%1$s 2.3518979474117756e+06
                sglang:time_to_first_token_seconds_bucket{le="0.001",model_name="%5$s"} 0.0
                sglang:time_to_first_token_seconds_bucket{le="0.005",model_name="%5$s"} 0.0
                sglang:time_to_first_token_seconds_bucket{le="+Inf",model_name="%5$s"} %4$s
                sglang:time_to_first_token_seconds_count%1$s %4$s
                """, labels, py(generated), py(prompt), py(requests), SGLANG_MODEL);
    }

    /**
     * SGLang right after start with metrics on: gauges are set, the per-request counters are declared but
     * have no series until the first request finishes.
     */
    public static final String SGLANG_BEFORE_FIRST_REQUEST = """
            # HELP sglang:num_running_reqs The number of running requests.
            # TYPE sglang:num_running_reqs gauge
            sglang:num_running_reqs{model_name="m"} 0.0
            # HELP sglang:prompt_tokens_total Number of prefill tokens processed.
            # TYPE sglang:prompt_tokens_total counter
            # HELP sglang:generation_tokens_total Number of generation tokens processed.
            # TYPE sglang:generation_tokens_total counter
            # HELP sglang:num_requests_total Number of requests processed.
            # TYPE sglang:num_requests_total counter
            """;

    /** vLLM V1, one engine: request_success has one series per finish reason from the start. */
    public static String vllmV1(double generated, double prompt, double stop, double length, double abort) {
        String labels = "model_name=\"Qwen/Qwen3-8B\",engine=\"0\"";
        return String.format(Locale.ROOT, """
                # HELP vllm:num_requests_running Number of requests in model execution batches.
                # TYPE vllm:num_requests_running gauge
                vllm:num_requests_running{%1$s} 0.0
                # HELP vllm:prompt_tokens_total Number of prefill tokens processed.
                # TYPE vllm:prompt_tokens_total counter
                vllm:prompt_tokens_total{%1$s} %3$s
                # HELP vllm:generation_tokens_total Number of generation tokens processed.
                # TYPE vllm:generation_tokens_total counter
                vllm:generation_tokens_total{%1$s} %2$s
                # HELP vllm:request_success_total Count of successfully processed requests.
                # TYPE vllm:request_success_total counter
                vllm:request_success_total{%1$s,finished_reason="stop"} %4$s
                vllm:request_success_total{%1$s,finished_reason="length"} %5$s
                vllm:request_success_total{%1$s,finished_reason="abort"} %6$s
                """, labels, py(generated), py(prompt), py(stop), py(length), py(abort));
    }

    /** vLLM V1 with data parallelism: the same counters once per engine. */
    public static String vllmV1TwoEngines(double generated0, double generated1) {
        return String.format(Locale.ROOT, """
                # TYPE vllm:generation_tokens_total counter
                vllm:generation_tokens_total{model_name="m",engine="0"} %s
                vllm:generation_tokens_total{model_name="m",engine="1"} %s
                # TYPE vllm:prompt_tokens_total counter
                vllm:prompt_tokens_total{model_name="m",engine="0"} 10.0
                vllm:prompt_tokens_total{model_name="m",engine="1"} 20.0
                """, py(generated0), py(generated1));
    }

    /** The embedded server (client_java text format, no labels on the token counters). */
    public static String embedded(double generated, double prompt, double length, double stop) {
        return String.format(Locale.ROOT, """
                # HELP servebench_num_requests_running Generations holding an engine slot.
                # TYPE servebench_num_requests_running gauge
                servebench_num_requests_running 0.0
                # HELP servebench_prompt_tokens_total Prompt tokens processed, BOS included.
                # TYPE servebench_prompt_tokens_total counter
                servebench_prompt_tokens_total %s
                # HELP servebench_generation_tokens_total Tokens generated.
                # TYPE servebench_generation_tokens_total counter
                servebench_generation_tokens_total %s
                # HELP servebench_request_success_total Generation requests ended, by finish reason.
                # TYPE servebench_request_success_total counter
                servebench_request_success_total{finished_reason="length"} %s
                servebench_request_success_total{finished_reason="stop"} %s
                """, py(prompt), py(generated), py(length), py(stop));
    }

    /**
     * A float the way Python's prometheus_client writes it: repr, except that values of a million and more
     * take Go's exponent form ({@code 7557572.0} becomes {@code 7.557572e+06}).
     */
    static String py(double value) {
        String s = BigDecimal.valueOf(value).toPlainString();
        if (!s.contains(".")) {
            s += ".0";
        }
        int dot = s.indexOf('.');
        if (value > 0 && dot > 6) {
            String mantissa = (s.charAt(0) + "." + s.substring(1, dot) + s.substring(dot + 1)).replaceAll("[0.]+$", "");
            return mantissa + "e+0" + (dot - 1);
        }
        return s;
    }
}
