package dev.servebench.client;

import dev.servebench.client.sse.SseDecoder;
import dev.servebench.client.sse.SseListener;
import dev.servebench.record.ChunkTimeline;
import dev.servebench.record.FailureKind;
import dev.servebench.record.Outcome;
import dev.servebench.record.RequestRecord;
import dev.servebench.record.Usage;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * State of one request from send to its record. Driven by {@link ExchangeHandler} on the channel's event
 * loop only, so it needs no synchronisation.
 *
 * <p>Timing contract: every event is stamped with the clock reading taken when the network read that
 * completed it arrived (one reading per socket read, shared by all events in it), so parsing cost never
 * shifts a timestamp.
 */
final class Exchange implements SseListener {

    private static final int MAX_ERROR_BODY = 2048;

    private final PreparedRequest request;
    private final long originNanos;
    private final long intendedNanos;
    private final long readyNanos;
    private final long sentNanos;
    private final Consumer<RequestRecord> onComplete;
    private final ChunkParser parser;
    private final ParsedChunk parsed = new ParsedChunk();
    private final SseDecoder decoder = new SseDecoder(this);
    private final ChunkTimeline.Builder timeline;

    private int status;
    private StringBuilder errorBody;
    private long currentReadNanos;
    private long lastActivityNanos;
    private long endNanos = -1;
    private boolean done;
    private boolean finished;
    private int usagePrompt = -1;
    private int usageCompletion = -1;
    private Outcome.Failure pendingFailure;

    /**
     * @param originNanos   clock reading of the load point's benchmark start; every stored time is
     *                      relative to it
     * @param intendedNanos intended send time, already relative to the origin
     * @param readyNanos    when the request was due and had a slot, relative to the origin
     * @param sentNanos     clock reading (absolute) taken just before the request was handed to the pool
     */
    Exchange(PreparedRequest request, long originNanos, long intendedNanos, long readyNanos, long sentNanos, Endpoint endpoint,
             Consumer<RequestRecord> onComplete) {
        this.request = request;
        this.originNanos = originNanos;
        this.intendedNanos = intendedNanos;
        this.readyNanos = Math.max(intendedNanos, readyNanos);
        this.sentNanos = Math.max(this.readyNanos, sentNanos - originNanos);
        this.onComplete = onComplete;
        this.parser = endpoint.newParser();
        this.timeline = new ChunkTimeline.Builder(request.requestedOutputLen() + 2);
        this.lastActivityNanos = sentNanos;
    }

    boolean finished() {
        return finished;
    }

    long lastActivityNanos() {
        return lastActivityNanos;
    }

    void onStatus(int httpStatus, long readNanos) {
        status = httpStatus;
        lastActivityNanos = readNanos;
        if (status != 200) {
            errorBody = new StringBuilder();
        }
    }

    /** Body bytes; returns a failure to end the exchange early, or null to continue. */
    Outcome.Failure onContent(ByteBuf content, long readNanos) {
        lastActivityNanos = readNanos;
        if (errorBody != null) {
            if (errorBody.length() < MAX_ERROR_BODY) {
                int take = Math.min(content.readableBytes(), MAX_ERROR_BODY - errorBody.length());
                errorBody.append(content.toString(content.readerIndex(), take, StandardCharsets.UTF_8));
            }
            return null;
        }
        if (done) {
            return null; // SGLang and vLLM ignore anything after [DONE]
        }
        currentReadNanos = readNanos - originNanos;
        int length = content.readableBytes();
        byte[] target = decoder.reserve(length);
        content.getBytes(content.readerIndex(), target, decoder.writeOffset(), length);
        decoder.commit(length);
        return pendingFailure;
    }

    /** The response body ended cleanly. */
    Outcome onEnd(long readNanos) {
        if (errorBody != null) {
            return new Outcome.Failure(FailureKind.HTTP_STATUS, "HTTP " + status + ": " + errorBody.toString().strip(), status);
        }
        if (!done) {
            currentReadNanos = readNanos - originNanos;
            decoder.finish();
            if (pendingFailure != null) {
                return pendingFailure;
            }
        }
        if (!done) {
            return new Outcome.Failure(FailureKind.INCOMPLETE,
                    "stream ended without [DONE] after " + timeline.size() + " events", status);
        }
        return Outcome.SUCCESS;
    }

    @Override
    public void onData(byte[] buffer, int offset, int length) {
        if (done || pendingFailure != null) {
            return;
        }
        endNanos = currentReadNanos; // SGLang: every non-empty line moves the latency end
        try {
            parser.parse(buffer, offset, length, parsed);
        } catch (ChunkFormatException e) {
            pendingFailure = new Outcome.Failure(FailureKind.PROTOCOL, e.getMessage(), status);
            return;
        }
        if (parsed.hasUsage()) {
            usagePrompt = parsed.usagePromptTokens();
            usageCompletion = parsed.usageCompletionTokens();
        }
        switch (parsed.kind()) {
            case CHOICES -> timeline.add(currentReadNanos, parsed.tokens());
            case METADATA -> { }
            case DONE -> done = true;
            case ERROR -> pendingFailure = new Outcome.Failure(FailureKind.SERVER_ERROR,
                    "error event in stream: " + parsed.errorMessage(), status);
        }
    }

    /**
     * Ends the exchange with {@code outcome} and hands its record over; idempotent. {@code nowNanos} is
     * the failure detection time, used as the end when no SSE line arrived.
     */
    void finish(Outcome outcome, long nowNanos) {
        if (finished) {
            return;
        }
        finished = true;
        long now = nowNanos - originNanos;
        long end = outcome.succeeded() && endNanos >= 0 ? endNanos : Math.max(now, Math.max(endNanos, sentNanos));
        ChunkTimeline chunks = timeline.build();
        if (chunks.size() > 0) {
            end = Math.max(end, chunks.nanosAt(chunks.size() - 1));
        }
        Optional<Usage> usage = usagePrompt >= 0 && usageCompletion >= 0
                ? Optional.of(new Usage(usagePrompt, usageCompletion))
                : Optional.empty();
        onComplete.accept(new RequestRecord(request.index(), request.promptLen(), request.requestedOutputLen(),
                intendedNanos, readyNanos, sentNanos, end, chunks, usage, outcome));
    }
}
