package dev.servebench.server.embedded.http;

import dev.servebench.server.embedded.GenerationRequest;
import java.util.Objects;

/**
 * A validated generation request as the HTTP layer handles it.
 *
 * @param api          which endpoint, and so which JSON shape, answers it
 * @param request      what the engine gets
 * @param stream       SSE stream ({@code true}) or one JSON body
 * @param includeUsage {@code stream_options.include_usage}: send the usage-only chunk before {@code [DONE]}
 */
record GenerationCall(Api api, GenerationRequest request, boolean stream, boolean includeUsage) {
    GenerationCall {
        Objects.requireNonNull(api, "api");
        Objects.requireNonNull(request, "request");
    }

    /**
     * {@code usage.prompt_tokens}: the prompt plus the BOS token the engine prepends, which is what the model
     * processes and what vLLM reports for a tokenizer that adds BOS.
     */
    int promptTokens() {
        return request.promptLength() + 1;
    }
}
