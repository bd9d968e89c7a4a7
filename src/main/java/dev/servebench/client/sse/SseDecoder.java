package dev.servebench.client.sse;

import java.util.Arrays;

/**
 * Incremental decoder of a {@code text/event-stream} body (WHATWG SSE), fed with whatever byte ranges the
 * network delivers.
 *
 * <p>Handles lines split across reads, LF / CRLF / CR line ends (including a CR at the end of one read and
 * its LF at the start of the next), comments, fields other than {@code data} (ignored), and events with
 * several {@code data:} lines (joined with {@code \n} as the spec says). An event is dispatched at the
 * blank line that ends it, or by {@link #finish()} when the body ends without one.
 *
 * <p>Implementation notes: bytes are copied once into an internal array so an event's data can be handed
 * to the listener as a range without another copy; the array is compacted only when it would otherwise
 * grow. Not thread-safe: one decoder per response.
 */
public final class SseDecoder {

    private static final byte[] DATA = {'d', 'a', 't', 'a'};

    private final SseListener listener;
    private byte[] buffer;
    private int start;        // first byte not yet consumed as part of a complete line
    private int end;          // one past the last byte received
    private boolean skipLeadingLf;

    // Pending event: its single data line as a range of buffer, or the joined lines in `joined`.
    private int dataStart = -1;
    private int dataEnd;
    private byte[] joined;
    private int joinedLength;
    private long eventsDispatched;

    public SseDecoder(SseListener listener) {
        this(listener, 8192);
    }

    public SseDecoder(SseListener listener, int initialCapacity) {
        this.listener = listener;
        this.buffer = new byte[Math.max(64, initialCapacity)];
    }

    /** Decodes {@code length} bytes of {@code source} from {@code offset}. */
    public void feed(byte[] source, int offset, int length) {
        ensureRoom(length);
        System.arraycopy(source, offset, buffer, end, length);
        end += length;
        drainLines();
    }

    /**
     * Gives direct access to room for {@code length} more bytes: the caller writes into
     * {@code buffer()} from {@code writeOffset()} and then calls {@link #commit(int)}. Avoids an
     * intermediate copy when the source can write into an array itself.
     */
    public byte[] reserve(int length) {
        ensureRoom(length);
        return buffer;
    }

    public int writeOffset() {
        return end;
    }

    public void commit(int length) {
        if (length < 0 || end + length > buffer.length) {
            throw new IllegalArgumentException("commit length (" + length + ") exceeds the reserved room");
        }
        end += length;
        drainLines();
    }

    /** Ends the body: a last line without terminator and a pending event without blank line are dispatched. */
    public void finish() {
        if (start < end) {
            processLine(start, end);
            start = end;
        }
        dispatchPending();
    }

    /** Bytes received but not yet part of a complete line. */
    public int pendingBytes() {
        return end - start;
    }

    public long eventsDispatched() {
        return eventsDispatched;
    }

    private void drainLines() {
        byte[] b = buffer;
        int i = start;
        if (skipLeadingLf && i < end) {
            skipLeadingLf = false;
            if (b[i] == '\n') {
                i++;
                start = i;
            }
        }
        int lineStart = start;
        while (i < end) {
            byte c = b[i];
            if (c != '\n' && c != '\r') {
                i++;
                continue;
            }
            processLine(lineStart, i);
            i++;
            if (c == '\r') {
                if (i < end) {
                    if (b[i] == '\n') {
                        i++;
                    }
                } else {
                    skipLeadingLf = true;
                }
            }
            lineStart = i;
        }
        start = lineStart;
    }

    private void processLine(int from, int to) {
        byte[] b = buffer;
        if (from == to) {
            dispatchPending();
            return;
        }
        if (b[from] == ':') {
            listener.onComment();
            return;
        }
        if (!isDataField(b, from, to)) {
            return; // event:, id:, retry: and unknown fields carry nothing we measure
        }
        int valueStart = from + DATA.length;
        if (valueStart < to && b[valueStart] == ':') {
            valueStart++;
            if (valueStart < to && b[valueStart] == ' ') {
                valueStart++;
            }
        }
        appendData(valueStart, to);
    }

    private static boolean isDataField(byte[] b, int from, int to) {
        int len = to - from;
        if (len < 4 || b[from] != 'd' || b[from + 1] != 'a' || b[from + 2] != 't' || b[from + 3] != 'a') {
            return false;
        }
        return len == 4 || b[from + 4] == ':';
    }

    private void appendData(int from, int to) {
        if (dataStart < 0 && joined == null) {
            dataStart = from;
            dataEnd = to;
            return;
        }
        if (joined == null) {
            joined = Arrays.copyOfRange(buffer, dataStart, Math.max(dataEnd, dataStart + 64));
            joinedLength = dataEnd - dataStart;
            dataStart = -1;
        }
        int needed = joinedLength + 1 + (to - from);
        if (needed > joined.length) {
            joined = Arrays.copyOf(joined, Math.max(needed, joined.length * 2));
        }
        joined[joinedLength++] = '\n';
        System.arraycopy(buffer, from, joined, joinedLength, to - from);
        joinedLength += to - from;
    }

    private void dispatchPending() {
        if (joined != null) {
            byte[] data = joined;
            int length = joinedLength;
            joined = null;
            joinedLength = 0;
            eventsDispatched++;
            listener.onData(data, 0, length);
        } else if (dataStart >= 0) {
            int from = dataStart;
            dataStart = -1;
            eventsDispatched++;
            listener.onData(buffer, from, dataEnd - from);
        }
    }

    /** Makes room for {@code length} bytes after {@code end}, keeping any range still referenced. */
    private void ensureRoom(int length) {
        if (end + length <= buffer.length) {
            return;
        }
        int keepFrom = dataStart >= 0 ? Math.min(dataStart, start) : start;
        int kept = end - keepFrom;
        byte[] target = kept + length <= buffer.length ? buffer : new byte[Math.max(buffer.length * 2, kept + length)];
        System.arraycopy(buffer, keepFrom, target, 0, kept);
        buffer = target;
        start -= keepFrom;
        end -= keepFrom;
        if (dataStart >= 0) {
            dataStart -= keepFrom;
            dataEnd -= keepFrom;
        }
    }
}
