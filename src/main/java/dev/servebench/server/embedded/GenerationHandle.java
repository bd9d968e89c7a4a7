package dev.servebench.server.embedded;

/** A submitted generation. */
public interface GenerationHandle {

    /** Stops the generation and frees its slot; the sink then gets onComplete(CANCELLED, …). Idempotent. */
    void cancel();
}
