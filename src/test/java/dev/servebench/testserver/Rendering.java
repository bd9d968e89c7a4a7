package dev.servebench.testserver;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.Arrays;

/**
 * One whole HTTP response, rendered up front, cut into write operations ("ops"). Op {@code i} covers bytes
 * {@code [opStart(i), opEnd(i))} of {@link #wire} and may go out {@code dueNanos(i)} after the request's start.
 * Rendering before pacing keeps allocation and JSON work out of the timed path: a paced emission is one slice
 * write. Full-speed responses write the whole buffer at once.
 */
final class Rendering {

    private final ByteBuf wire;
    private final boolean chunked;
    private final boolean splitWrites;
    private final long splitDelayNanos;
    private int[] opEnd = new int[16];
    private long[] opDue = new long[16];
    private int[] opChunk = new int[16];
    private int ops;
    private int[] chunkTokens = new int[16];
    private int chunks;
    private long slotDue;
    private long nextOpDue;
    private boolean opOpen;
    private int stopAfterOps = -1;

    /** {@code chunked}: SSE events go out as HTTP chunks; otherwise bare (HTTP/1.0, the body ends at close). */
    Rendering(ByteBuf wire, boolean chunked, boolean splitWrites, long splitDelayNanos) {
        this.wire = wire;
        this.chunked = chunked;
        this.splitWrites = splitWrites;
        this.splitDelayNanos = splitDelayNanos;
    }

    ByteBuf wire() {
        return wire;
    }

    int opCount() {
        return ops;
    }

    int opStart(int i) {
        return i == 0 ? 0 : opEnd[i - 1];
    }

    int opEnd(int i) {
        return opEnd[i];
    }

    long dueNanos(int i) {
        return opDue[i];
    }

    /** The token chunk op {@code i} completes, or -1. */
    int chunkCompletedBy(int i) {
        return opChunk[i];
    }

    int chunkCount() {
        return chunks;
    }

    int[] chunkTokens() {
        return Arrays.copyOf(chunkTokens, chunks);
    }

    /** Ops to send before a reset or stall takes effect, or -1 when the response runs to its end. */
    int stopAfterOps() {
        return stopAfterOps;
    }

    /** Subsequent bytes go out no earlier than {@code due}; bytes already added form a finished op. */
    void openOp(long due) {
        closeOp();
        slotDue = due;
        nextOpDue = due;
    }

    /** Bytes outside SSE events (status line, headers, a plain body, the chunked terminator), UTF-8. */
    void raw(CharSequence text) {
        opOpen = true;
        ByteBufUtil.writeUtf8(wire, text);
    }

    /** One SSE event (already including its blank-line terminator) as one HTTP chunk (or bare), two when split. */
    void event(CharSequence sse) {
        if (!splitWrites) {
            opOpen = true;
            httpChunk(sse, 0, sse.length());
            return;
        }
        int half = sse.length() / 2;
        if (Character.isLowSurrogate(sse.charAt(half))) {
            half--;
        }
        closeOp();
        opOpen = true;
        httpChunk(sse, 0, half);
        closeOp();
        // The later due date delays only this half; the slot's further events keep the slot's due date.
        nextOpDue = slotDue + splitDelayNanos;
        opOpen = true;
        httpChunk(sse, half, sse.length());
        closeOp();
        nextOpDue = slotDue;
    }

    /** The bytes added so far complete token chunk number {@link #chunkCount()}, carrying {@code tokens}. */
    void completeChunk(int tokens) {
        closeOp();
        if (chunks == chunkTokens.length) {
            chunkTokens = Arrays.copyOf(chunkTokens, chunks * 2);
        }
        chunkTokens[chunks] = tokens;
        opChunk[ops - 1] = chunks;
        chunks++;
    }

    /** Marks the end of the ops a reset or stall lets through. */
    void stopHere() {
        closeOp();
        stopAfterOps = ops;
    }

    Rendering finish() {
        closeOp();
        return this;
    }

    private void closeOp() {
        if (!opOpen) {
            return;
        }
        if (ops == opEnd.length) {
            int grown = ops * 2;
            opEnd = Arrays.copyOf(opEnd, grown);
            opDue = Arrays.copyOf(opDue, grown);
            opChunk = Arrays.copyOf(opChunk, grown);
        }
        opEnd[ops] = wire.writerIndex();
        opDue[ops] = nextOpDue;
        opChunk[ops] = -1;
        ops++;
        opOpen = false;
    }

    private void httpChunk(CharSequence s, int from, int to) {
        CharSequence part = from == 0 && to == s.length() ? s : s.subSequence(from, to);
        if (!chunked) {
            ByteBufUtil.writeUtf8(wire, part);
            return;
        }
        int length = ByteBufUtil.utf8Bytes(part);
        ByteBufUtil.writeAscii(wire, Integer.toHexString(length));
        wire.writeShort(CRLF);
        ByteBufUtil.writeUtf8(wire, part);
        wire.writeShort(CRLF);
    }

    private static final int CRLF = ('\r' << 8) | '\n';
}
