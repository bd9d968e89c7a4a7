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
    private long sentNanos;
    private final ExchangeListener onComplete;
    private final Consumer<Throwable> internalErrors;
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
    private boolean retried;
    /** The connection carrying the exchange now; written on that connection's loop, read by cancellers. */
    private volatile io.netty.channel.Channel channel;
    private volatile String cancelReason;
    /** The stall/request timer; cancelled when the exchange ends, or it would keep the exchange alive until it fires. */
    private io.netty.util.concurrent.Future<?> timer;

    /**
     * @param originNanos   clock reading of the load point's benchmark start; every stored time is
     *                      relative to it
     * @param intendedNanos intended send time, already relative to the origin
     * @param readyNanos    when the request was due and had a slot, relative to the origin
     * @param sentNanos     clock reading (absolute) taken just before the request was handed to the pool
     * @param keepText      whether to keep the generated text for the listener (a run with a client tokenizer)
     */
    Exchange(PreparedRequest request, long originNanos, long intendedNanos, long readyNanos, long sentNanos, Endpoint endpoint,
             boolean keepText, ExchangeListener onComplete, Consumer<Throwable> internalErrors) {
        this.request = request;
        this.originNanos = originNanos;
        this.intendedNanos = intendedNanos;
        this.readyNanos = Math.max(intendedNanos, readyNanos);
        this.sentNanos = Math.max(this.readyNanos, sentNanos - originNanos);
        this.onComplete = onComplete;
        this.internalErrors = internalErrors;
        this.parser = endpoint.newParser();
        if (keepText) {
            parser.keepOutputText();
        }
        this.timeline = new ChunkTimeline.Builder(request.requestedOutputLen() + 2);
        this.lastActivityNanos = sentNanos;
    }

    boolean finished() {
        return finished;
    }

    PreparedRequest request() {
        return request;
    }

    /** Whether any part of a response (its status line) arrived for this exchange. */
    boolean responseStarted() {
        return status != 0;
    }

    boolean retried() {
        return retried;
    }

    /**
     * Prepares a second attempt on a fresh connection after the first one turned out dead before any response
     * byte: the send time moves to now (TTFT must not include the dead connection), the ready time stays,
     * so the retry shows up as the client's own dispatch lag.
     */
    void retryAt(long nowNanos) {
        retried = true;
        channel = null;
        sentNanos = Math.max(readyNanos, nowNanos - originNanos);
        lastActivityNanos = nowNanos;
    }

    /**
     * Moves the send time to the moment the request's bytes are handed to its connection, on the connection's
     * event loop: the hop from the dispatching thread to the loop (and, in a burst, the wait behind the
     * requests the loop writes first) is the client's own delay. It shows as dispatch lag (send minus ready),
     * never as the server's TTFT.
     */
    void writingAt(long nowNanos) {
        sentNanos = Math.max(readyNanos, nowNanos - originNanos);
        lastActivityNanos = nowNanos;
    }

    /** Absolute clock reading at which the request was (last) sent. */
    long sentAtNanos() {
        return originNanos + sentNanos;
    }

    void attachTo(io.netty.channel.Channel carrier) {
        channel = carrier;
    }

    io.netty.channel.Channel channel() {
        return channel;
    }

    /** Sets the exchange's timer, cancelling the one it replaces (a re-armed timer or one of an earlier connection). */
    void replaceTimer(io.netty.util.concurrent.Future<?> next) {
        if (timer != null && timer != next) {
            timer.cancel(false);
        }
        timer = finished ? null : next;
        if (finished) {
            next.cancel(false);
        }
    }

    /** Marks the exchange for cancellation; the caller then fails it on its connection's loop, if it has one. */
    void requestCancel(String reason) {
        cancelReason = reason;
    }

    /** The reason passed to {@link #requestCancel}, or null. */
    String cancelReason() {
        return cancelReason;
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
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        long now = nowNanos - originNanos;
        long end = outcome.succeeded() && endNanos >= 0 ? endNanos : Math.max(now, Math.max(endNanos, sentNanos));
        ChunkTimeline chunks = timeline.build();
        if (chunks.size() > 0) {
            end = Math.max(end, chunks.nanosAt(chunks.size() - 1));
        }
        Optional<Usage> usage = usagePrompt >= 0 && usageCompletion >= 0
                ? Optional.of(new Usage(usagePrompt, usageCompletion))
                : Optional.empty();
        RequestRecord record = new RequestRecord(request.index(), request.promptLen(), request.requestedOutputLen(),
                intendedNanos, readyNanos, sentNanos, end, chunks, usage, outcome);
        String text = parser.takeOutputText(); // also drops the buffer
        try {
            onComplete.finished(record, outcome.succeeded() ? text : null);
        } catch (Throwable t) {
            // Nothing may escape into Netty's loop, where it would be logged and the run would wait forever.
            internalErrors.accept(t);
        }
    }
}
