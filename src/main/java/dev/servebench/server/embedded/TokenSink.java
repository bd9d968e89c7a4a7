package dev.servebench.server.embedded;

/** Receives one generation's output, from the engine's dispatcher thread; must not block. */
public interface TokenSink {

    /** One generated token and its text (may be empty for tokens that decode to nothing). */
    void onToken(int tokenId, String text);

    /** Generation ended normally. */
    void onComplete(FinishReason reason, int promptTokens, int completionTokens);

    /** Generation failed or the engine is stopping; no further calls follow. */
    void onError(String message);

    enum FinishReason {
        /** max_tokens reached. */
        LENGTH,
        /** EOS or a stop condition. */
        STOP,
        /** Cancelled through the handle. */
        CANCELLED
    }
}
